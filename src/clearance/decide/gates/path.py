"""The path gates: ``path`` (cross-cutting) and ``external_directory`` (outside the cwd).

The ``path`` gate applies to every path of every tool and shell command, but speaks only when an
explicit ``path*`` rule matches — the universal fallback does not count (notes §7.2). The
``external_directory`` gate fires for a path whose canonical form lies outside the project
(clearance.intent.boundary: the enclosing git work tree, the host's scratch directories), and
there the universal fallback does apply (notes §7.3). Reads consult ``*_read``, writes
``*_write``, unproven accesses both, most restrictive.
"""

from __future__ import annotations

from clearance.decide.decision import GateResult
from clearance.decide.gates._message import gate_message
from clearance.policy.rule import RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.path import PathFact
    from clearance.policy.rule import Rule, RuleSet

__all__ = ["DIRECTION_SURFACES", "UNPROVEN_SURFACES", "VERBS", "external_gate", "path_gate"]

_PATH_SURFACES = frozenset({"path_read", "path_write"})
# How an access reads in a message, by direction (the protected-path gate says it the same way).
VERBS = {"read": "read of", "write": "write to", "both": "access to"}
# The path surfaces each direction consults: both members when the access is unproven.
UNPROVEN_SURFACES = ("path_read", "path_write")
DIRECTION_SURFACES = {"read": ("path_read",), "write": ("path_write",)}
_EXTERNAL_BOTH = ("external_directory_read", "external_directory_write")
_EXTERNAL = {"read": ("external_directory_read",), "write": ("external_directory_write",)}


def _worst(
    rules: RuleSet, surfaces: Sequence[str], values: Sequence[str], *, explicit: bool
) -> tuple[str, Rule] | None:
    best: tuple[str, Rule] | None = None
    for surface in surfaces:
        rule = rules.evaluate(surface, values)
        if explicit and rule.surface == "*":
            continue  # the universal fallback does not speak for the path gate
        if best is None or RANK[rule.action] > RANK[best[1].action]:
            best = (surface, rule)
    return best


def _what(fact: PathFact, tool: str) -> str:
    text = f'{VERBS[fact.direction]} "{fact.shown}" by {tool}'
    if fact.canonical and fact.canonical != fact.path:
        text += f" (resolves to {fact.canonical})"
    return text


def path_gate(rules: RuleSet, facts: Sequence[PathFact], *, tool: str) -> list[GateResult]:
    out: list[GateResult] = []
    if not facts or _PATH_SURFACES.isdisjoint(rules.surfaces()):
        return out  # no `path*` rule at all: this gate cannot speak
    for fact in facts:
        found = _worst(
            rules,
            DIRECTION_SURFACES.get(fact.direction, UNPROVEN_SURFACES),
            fact.aliases,
            explicit=True,
        )
        if found is None:
            continue
        surface, rule = found
        out.append(
            GateResult(
                "path",
                surface,
                fact.path or fact.raw,
                rule.action,
                rule,
                gate_message(rule.action, _what(fact, tool), rule),
                values=fact.aliases,
            )
        )
    return out


def external_gate(rules: RuleSet, facts: Sequence[PathFact], *, tool: str) -> list[GateResult]:
    out = []
    for fact in facts:
        if not fact.external:
            continue
        found = _worst(
            rules, _EXTERNAL.get(fact.direction, _EXTERNAL_BOTH), fact.aliases, explicit=False
        )
        assert found is not None
        surface, rule = found
        boundary = fact.boundary or "(unknown: the command changed directory)"
        what = f"{_what(fact, tool)}, outside the project {boundary},"
        out.append(
            GateResult(
                "external_directory",
                surface,
                fact.shown,
                rule.action,
                rule,
                gate_message(rule.action, what, rule),
                values=fact.aliases,
            )
        )
    return out
