"""The path gates: ``path`` (cross-cutting) and ``external_directory`` (outside the cwd).

The ``path`` gate applies to every path of every tool and shell command, but speaks only when an
explicit ``path*`` rule matches — the universal fallback does not count (docs/configuration.md,
"Paths"). The
``external_directory`` gate fires for a path whose canonical form lies outside the project
(clearance.intent.boundary: the enclosing git work tree, the host's scratch directories), and
there the universal fallback does apply (docs/configuration.md, "Paths"). Reads consult ``*_read``,
writes
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
    from clearance.intent.volume import Volumes
    from clearance.policy.rule import Rule, RuleSet

__all__ = [
    "DIRECTION_SURFACES", "UNPROVEN_SURFACES", "VERBS", "external_gate", "folded", "lowered",
    "path_gate",
]  # fmt: skip

_PATH_SURFACES = frozenset({"path_read", "path_write"})
# How an access reads in a message, by direction (the protected-path gate says it the same way).
VERBS = {"read": "read of", "write": "write to", "both": "access to"}
# The path surfaces each direction consults: both members when the access is unproven.
UNPROVEN_SURFACES = ("path_read", "path_write")
DIRECTION_SURFACES = {"read": ("path_read",), "write": ("path_write",)}
_EXTERNAL_BOTH = ("external_directory_read", "external_directory_write")
_EXTERNAL = {"read": ("external_directory_read",), "write": ("external_directory_write",)}


_last_lowered: tuple[Sequence[str] | None, tuple[str, ...]] = (None, ())


def lowered(rules: RuleSet, values: Sequence[str]) -> tuple[tuple[str, ...], bool] | None:
    """``values`` in lower case, and whether they were already: then only patterns with a
    letter that folds can say something new. ``None`` when folding cannot change what
    ``rules`` say (values in lower case, and no such pattern)."""
    global _last_lowered
    last = _last_lowered
    if last[0] is values:  # the path gate and the protected-path gate ask for the same fact
        low = last[1]
    else:
        low = tuple([v.lower() for v in values])
        _last_lowered = (values, low)
    same = low == tuple(values)
    if same:
        if not rules.cased:
            return None
        heads = rules.cased_heads
        for value in low:
            if value.startswith(heads):
                break
        else:
            return None  # no pattern with a capital can meet these values
    return low, same


def folded(
    rules: RuleSet,
    surface: str,
    values: Sequence[str],
    low: tuple[tuple[str, ...], bool] | None,
    rule: Rule,
    volumes: Volumes | None,
) -> Rule:
    """``rule``, or the stricter rule the case-folded spelling meets where the volume folds
    case — or may: a volume whose case sensitivity cannot be told counts as folding, so
    ``.GIT/hooks/x`` meets ``*/.git/hooks/*`` there (ADR 0015). Folding never loosens."""
    if low is None:
        return rule
    other = rules.folded(cased_only=low[1]).evaluate(surface, low[0])
    if other.action == "allow" or other.universal:
        return rule
    if not rule.universal and RANK[other.action] <= RANK[rule.action]:
        return rule
    if volumes is None:
        from clearance.intent.volume import default_volumes

        volumes = default_volumes()
    where = next((v for v in values if v[:1] == "/"), None)
    if where is not None and volumes.folds(where) is False:
        return rule  # a case-sensitive volume: `.GIT` is another directory
    return other


def _worst(
    rules: RuleSet,
    surfaces: Sequence[str],
    values: Sequence[str],
    *,
    explicit: bool,
    volumes: Volumes | None = None,
    fold: bool = False,
) -> tuple[str, Rule] | None:
    best: tuple[str, Rule] | None = None
    low = lowered(rules, values) if fold else None
    for surface in surfaces:
        rule = rules.evaluate(surface, values)
        if low is not None:
            rule = folded(rules, surface, values, low, rule, volumes)
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


def path_gate(
    rules: RuleSet, facts: Sequence[PathFact], *, tool: str, volumes: Volumes | None = None
) -> list[GateResult]:
    """``volumes``: how the volumes compare names (default: probed on this machine)."""
    out: list[GateResult] = []
    if not facts or _PATH_SURFACES.isdisjoint(rules.surfaces()):
        return out  # no `path*` rule at all: this gate cannot speak
    for fact in facts:
        found = _worst(
            rules,
            DIRECTION_SURFACES.get(fact.direction, UNPROVEN_SURFACES),
            fact.aliases,
            explicit=True,
            volumes=volumes,
            fold=True,
        )
        if fact.path is not None and fact.canonical not in (None, fact.path):
            found = _through_links(rules, fact.path, fact.direction, found, volumes)
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


def _through_links(
    rules: RuleSet,
    path: str,
    direction: str,
    found: tuple[str, Rule] | None,
    volumes: Volumes | None,
) -> tuple[str, Rule] | None:
    """``found``, or the stricter answer for the place ``path`` leads through the links on it
    that the agent could have planted, met alone: a rule for the name as typed never speaks
    for what a link makes of it (``x.env.example -> .env`` is read as ``.env``, which
    ``"*.env.example": "allow"`` does not allow). Links no user could have planted (macOS's
    ``/tmp``) are kept as typed, so a rule for ``/tmp/x`` still speaks there."""
    from clearance.intent.path import through_plantable_links

    linked = through_plantable_links(path, follow_last=True)
    if linked == path:
        return found
    other = _worst(
        rules,
        DIRECTION_SURFACES.get(direction, UNPROVEN_SURFACES),
        (linked,),
        explicit=True,
        volumes=volumes,
        fold=True,
    )
    if other is not None and (found is None or RANK[other[1].action] > RANK[found[1].action]):
        return other
    return found


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
