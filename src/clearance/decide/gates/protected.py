"""The protected-path gate: writes to clearance's own files and the hosts' settings are denied,
writes to files that run code later ask, reads of clearance's state ask — outside every policy
layer (``clearance.policy.protected``, ``docs/configuration.md``, "Protected paths").

Its asks carry a sentinel that neither yolo nor a session grant lifts (``Engine._finish``).
"""

from __future__ import annotations

from clearance.decide.decision import GateResult
from clearance.intent.shell.sentinel import UNKNOWN_PATH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.path import PathFact
    from clearance.policy.rule import RuleSet

__all__ = ["PROTECTED", "RUNS_LATER", "UNGRANTABLE", "protected_gate"]

PROTECTED = "<protected-path>"  # clearance's own files, the hosts' settings, its state
RUNS_LATER = "<runs-code-later>"  # a file that runs code later: asks every time
# Asks that neither yolo nor a session grant lifts (an unknown path may be a protected one).
UNGRANTABLE = frozenset({PROTECTED, RUNS_LATER, UNKNOWN_PATH})
_VERB = {"read": "read of", "write": "write to", "both": "access to"}


def protected_gate(protected: RuleSet, facts: Sequence[PathFact], *, tool: str) -> list[GateResult]:
    out: list[GateResult] = []
    for fact in facts:
        direction = fact.direction
        for surface in _SURFACES[direction]:
            rule = protected.evaluate(surface, fact.aliases)
            if rule.origin != "protected":
                continue  # nothing protected matched: the universal fallback
            sentinel = (
                RUNS_LATER if rule.action == "ask" and surface == "protected_write" else (PROTECTED)
            )
            shown = fact.raw if fact.path is None else fact.path
            verb = _VERB[direction]
            head = "Denied" if rule.action == "deny" else "Needs approval"
            message = f'{head}: {verb} "{shown}" by {tool} is protected: {rule.reason} ({sentinel})'
            out.append(GateResult("protected", surface, shown, rule.action, rule, message,
                                  sentinel, values=fact.aliases))  # fmt: skip
            break
    return out


_SURFACES = {
    "read": ("protected_read",),
    "write": ("protected_write",),
    "both": ("protected_write", "protected_read"),
}
