"""What a human could approve for the session: one offer per gate that asked.

Each asking gate gets its own suggestions (docs/approvals.md, "Suggested patterns"): a bash unit by
the arity table, a path by
its directory on the surface that asked, an outside path by where it really leads (a grant must
not cover the symlink that pointed there). "Yes, for this session" grants the first suggestion
of every asking gate, so an ask mixing a read and a write grants each only its own direction.
"""

from __future__ import annotations

from clearance.decide.suggestion import Suggestion, suggest
from clearance.intent.sentinel import UNPARSEABLE, UNPARSED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.decide.decision import Decision, GateResult

__all__ = ["WHOLE_COMMAND_SENTINELS", "flatten", "offers", "suggestions"]

# Sentinels whose session grant is the exact command, never a wildcard (docs/approvals.md,
# "Suggested patterns").
WHOLE_COMMAND_SENTINELS = frozenset({UNPARSED, UNPARSEABLE})


def offers(decision: Decision) -> list[tuple[GateResult, tuple[Suggestion, ...]]]:
    facts = {f.shown: f for f in decision.paths}
    tool = decision.call.kind
    out: list[tuple[GateResult, tuple[Suggestion, ...]]] = []
    for gate in decision.gates:
        if gate.action != "ask":
            continue
        if gate.gate == "bash" and gate.sentinel is None and _covered(gate, out):
            continue  # `pytest` run by `uv run pytest`: the launcher's grant covers it
        if gate.gate == "bash" and gate.sentinel in WHOLE_COMMAND_SENTINELS:
            label = f'Yes, allow bash "{gate.value}" for this session'
            out.append((gate, (Suggestion("bash", gate.value, label),)))
            continue
        fact = facts.get(gate.value)
        value = gate.value
        is_dir = False
        if fact is not None:
            is_dir = fact.is_dir
            value = fact.shown
            if gate.gate == "external_directory" and fact.canonical:
                value = fact.canonical
        suggestions = suggest(gate.surface, value, tool=tool, is_dir=is_dir)
        if suggestions:
            out.append((gate, suggestions))
    return out


def _covered(gate: GateResult, found: list[tuple[GateResult, tuple[Suggestion, ...]]]) -> bool:
    """Whether the first suggestion of an earlier bash offer, granted, covers ``gate`` too (a
    command a launcher runs carries the launcher's text among its values, ADR 0041)."""
    from clearance.decide.grant import Grant

    for earlier, offered in found:
        first = offered[0]
        if earlier.gate == "bash" and Grant(first.surface, first.pattern).covers(
            gate.surface, gate.values
        ):
            return True
    return False


def flatten(found: list[tuple[GateResult, tuple[Suggestion, ...]]]) -> tuple[Suggestion, ...]:
    seen: dict[tuple[str, str], Suggestion] = {}
    for _, suggestions in found:
        for s in suggestions:
            seen.setdefault((s.surface, s.pattern), s)
    return tuple(seen.values())


def suggestions(decision: Decision) -> tuple[Suggestion, ...]:
    """Every option a human could grant for ``decision``, once each (none for an allow or a
    deny): what ``check --json`` and ``explain`` show."""
    return flatten(offers(decision)) if decision.action == "ask" else ()
