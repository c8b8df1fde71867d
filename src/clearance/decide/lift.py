"""Session grants and yolo: the one step that turns an ask into an allow.

Every path that decides a call applies them here, and only here: the engine for its own calls
(``Engine._finish``, behind the hook, ``check``, ``check --batch``, ``gate`` and the service),
and a serving session for the gates a forwarded request carries
(``authority/forwarding/resolution.py``). A session grant is tried first, then yolo
(docs/approvals.md, "Session grants"; docs/configuration.md, "Yolo").

Neither touches a deny, nor an ask whose sentinel is in :data:`UNGRANTABLE`: a protected path, a
file that runs code later, and an unknown path (which may be either) ask every time, whatever
the policy, yolo or session grants (docs/configuration.md, "Protected paths"); so does a line
whose analysis ran out of time (``<analysis-deadline>``): a deny may lie in the part not
analysed, and every deny survives yolo.
"""

from __future__ import annotations

from clearance.intent.sentinel import (
    DEADLINE,
    PROTECTED,
    RUNS_LATER,
    UNKNOWN_PATH,
    UNLISTED_NAMES,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.decide.decision import GateResult
    from clearance.decide.grant import GrantStore

__all__ = ["UNGRANTABLE", "lift"]

# Asks that neither yolo nor a session grant lifts (an unknown path may be a protected one; a
# line not analysed to its end may hold a deny).
UNGRANTABLE = frozenset({PROTECTED, RUNS_LATER, UNKNOWN_PATH, UNLISTED_NAMES, DEADLINE})


def lift(result: GateResult, grants: GrantStore | None, yolo: bool, home: str) -> GateResult:
    """``result`` as the session's ``grants`` and ``yolo`` leave it: an ask a grant covers is
    allowed by a rule of origin ``session``, else, under yolo, by a rule of origin ``yolo``;
    anything else comes back as it is."""
    if result.action != "ask" or result.sentinel in UNGRANTABLE:
        return result
    from clearance.policy.rule import Rule

    if grants is not None:
        grant = grants.find(result.surface, result.values, home)
        if grant is not None:
            rule = Rule(grant.surface, grant.pattern, "allow", "session")
            message = f'Allowed by a session grant: {grant.surface} "{grant.pattern}"'
            granted: GateResult = result.replace(
                action="allow", rule=rule, message=message, sentinel=None
            )
            return granted
    if yolo:
        # Yolo rewrote every ask rule (``policy/layering.py``); what still asks is a synthetic
        # ask (a wrapped or unparsed command, a floored unit), which yolo approves too.
        rule = Rule(result.surface, result.value, "allow", "yolo")
        approved: GateResult = result.replace(
            action="allow", rule=rule, message=f"Approved by yolo: {result.message}"
        )
        return approved
    return result
