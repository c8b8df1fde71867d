"""Scopes into one ordered rule list: global → project → agent → project agent.

Per scope, directional sugar expands first (a bare ``path`` key becomes ``path_read`` and
``path_write`` entries, placed before explicit directional ones). Across scopes, a surface given
as a pattern map in both merges key by key — a redefined pattern keeps its earlier position and
takes the later action and origin, new patterns are appended — while a surface given as a single
action replaces the whole surface (docs/configuration.md, "Where configuration lives (scopes)").
Then yolo rewrites asks to allows, and a scope
that failed to load clamps every allow to ask (fail closed, ADR 0002).
"""

from __future__ import annotations

from clearance.policy.surface import DIRECTIONAL, FAMILIES, family_members

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from clearance.policy.permission import PermissionMap

__all__ = ["RuleTuple", "clamp_allows", "merge", "rewrite_yolo"]

# (surface, pattern, action, origin, reason, source) — the cacheable form of a Rule.
RuleTuple = tuple[str, str, str, str, "str | None", "str | None"]
# pattern -> (action, reason, source, origin)
_Entries = dict[str, tuple[str, "str | None", str, str]]


def _expand(pmap: PermissionMap, origin: str) -> list[tuple[str, bool, _Entries]]:
    """A scope's surfaces with directional sugar expanded (sugar first, explicit after)."""
    sugar: dict[str, tuple[bool, _Entries]] = {}
    plain: list[tuple[str, bool, _Entries]] = []
    explicit: dict[str, tuple[bool, _Entries]] = {}
    for surface, replace, entries in pmap.surfaces:
        table = {p: (a, r, s, origin) for p, a, r, s in entries}
        if surface in FAMILIES:
            for member in family_members(surface):
                sugar[member] = (replace, dict(table))
        elif surface in DIRECTIONAL:
            explicit[surface] = (replace, table)
        else:
            plain.append((surface, replace, table))
    out = list(plain)
    for member in (m for m in DIRECTIONAL if m in sugar or m in explicit):
        if member in sugar and member in explicit:
            s_replace, s_table = sugar[member]
            e_replace, e_table = explicit[member]
            if e_replace:
                out.append((member, True, e_table))
                continue
            merged = dict(s_table)
            for pattern, value in e_table.items():
                merged.pop(pattern, None)
                merged[pattern] = value
            out.append((member, s_replace, merged))
        elif member in sugar:
            out.append((member, *sugar[member]))
        else:
            out.append((member, *explicit[member]))
    return out


def merge(scopes: Iterable[tuple[str, PermissionMap]]) -> list[RuleTuple]:
    """The ordered rules of ``(origin, permission map)`` scopes, lowest precedence first."""
    universal: tuple[str, str | None, str, str] | None = None
    surfaces: dict[str, _Entries] = {}
    for origin, pmap in scopes:
        if pmap.universal is not None:
            action, reason, source = pmap.universal
            universal = (action, reason, source, origin)
        for surface, replace, table in _expand(pmap, origin):
            if replace or surface not in surfaces:
                surfaces[surface] = table  # a redefined surface keeps its position
            else:
                surfaces[surface].update(table)
    rules: list[RuleTuple] = []
    if universal is not None:
        action, reason, source, origin = universal
        rules.append(("*", "*", action, origin, reason, source))
    for surface, table in surfaces.items():
        for pattern, (action, reason, source, origin) in table.items():
            rules.append((surface, pattern, action, origin, reason, source))
    return rules


def rewrite_yolo(rules: list[RuleTuple]) -> list[RuleTuple]:
    """Every ask becomes an allow stamped ``yolo``; denies survive."""
    return [
        (s, p, "allow", "yolo", r, src) if a == "ask" else (s, p, a, o, r, src)
        for s, p, a, o, r, src in rules
    ]


def clamp_allows(rules: list[RuleTuple]) -> list[RuleTuple]:
    """Every allow becomes an ask stamped ``fail_closed`` (a scope failed to load)."""
    return [
        (s, p, "ask", "fail_closed", r, src) if a == "allow" else (s, p, a, o, r, src)
        for s, p, a, o, r, src in rules
    ]
