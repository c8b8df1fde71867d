"""One call, many gates, one answer.

Every gate's result is produced first; then any deny denies (naming the rule that denied — no
prompt is shown for a call that is denied anyway), else any ask asks (one ask that lists every
reason), else the call is allowed (docs/configuration.md, "Which rule wins").
"""

from __future__ import annotations

from clearance.decide.decision import Decision

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.decide.decision import GateResult, UnitFact
    from clearance.intent.call import ToolCall
    from clearance.intent.path import PathFact

__all__ = ["fold"]


def fold(
    call: ToolCall,
    gates: Sequence[GateResult],
    *,
    units: tuple[UnitFact, ...] = (),
    paths: tuple[PathFact, ...] = (),
) -> Decision:
    asks: list[GateResult] = []
    for gate in gates:
        action = gate.action
        if action == "deny":
            # The first deny names the call's reason.
            return Decision("deny", gate.message, gate.rule, tuple(gates), call, units, paths)
        if action == "ask":
            asks.append(gate)
    if asks:
        if len(asks) == 1:
            reason = asks[0].message
        else:
            messages = list(dict.fromkeys(g.message for g in asks))
            reason = messages[0] if len(messages) == 1 else "; ".join(messages)
        return Decision("ask", reason, asks[0].rule, tuple(gates), call, units, paths)
    if not gates:
        return Decision("ask", "no gate could decide this call", None, (), call, units, paths)
    decider = gates[0]
    return Decision("allow", decider.message, decider.rule, tuple(gates), call, units, paths)
