"""Resolving a forwarded request against the serving session's own base policy.

Serving a forwarded request is resolution (docs/forwarding.md, "What the serving session decides,
and how"): each gate that asked on the
requester's side is matched, with the surface and match values the requester used (verbatim —
never re-derived against the serving session's cwd), against the serving session's **base**
policy, agent-neutral (the requester already applied its own per-agent policy; its agent is
shown, not used to pick rules), then its session grants. The fold is the engine's: any deny
denies, else any ask escalates to the serving human, else the request is approved.

* A path gate speaks only through an explicit ``path*`` rule (no rule: the serving session has no
  opinion, so it asks); the other surfaces listen to the universal fallback, as in the engine.
* A floored ask (a fail-closed sentinel: an opaque or indirection wrapper, an unparsed command)
  keeps its floor (docs/forwarding.md, "What the serving session decides, and how"): the serving
  policy's allow does not answer it, its deny denies,
  its whole-session grant or its yolo approves.
* Yolo approves a forwarded ask; an explicit deny survives yolo.
* Neither a grant nor yolo lifts the ask of a protected path, a file that runs code later or an
  unknown path (``decide/lift.py``), as on the requester's side.
* A request without facts (no gate) is escalated, never approved.

Pure: no file, clock, cwd or environment — the caller passes the rules, grants and home.
"""

from __future__ import annotations

from clearance._frozen import Frozen
from clearance.decide.decision import GateResult
from clearance.decide.lift import lift
from clearance.policy.rule import RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.authority.forwarding.protocol import GateFact, Request
    from clearance.decide.grant import GrantStore
    from clearance.policy.rule import Rule, RuleSet

__all__ = ["Resolution", "resolve"]

_set = object.__setattr__


class Resolution(Frozen):
    """``action`` (``allow``/``deny``/``ask``), how (``decided_by``, ``resolution``), the rule or
    grant that decided, a reason, and every gate as the serving policy sees it."""

    __slots__ = ("action", "decided_by", "gates", "reason", "resolution", "rule")
    action: str
    decided_by: str
    resolution: str
    rule: Rule | None
    reason: str
    gates: tuple[GateResult, ...]

    def __init__(
        self,
        action: str,
        decided_by: str,
        resolution: str,
        rule: Rule | None,
        reason: str,
        gates: tuple[GateResult, ...],
    ) -> None:
        for name, value in (("action", action), ("decided_by", decided_by),
                            ("resolution", resolution), ("rule", rule), ("reason", reason),
                            ("gates", gates)):  # fmt: skip
            _set(self, name, value)


def _rule(rules: RuleSet, fact: GateFact) -> Rule | None:
    """The serving rule for one gate; ``None`` when the serving policy has no opinion."""
    if fact.gate == "path":
        return rules.explicit(fact.surface, fact.values)
    rule = rules.evaluate(fact.surface, fact.values)
    if fact.gate == "bash":
        # Each spelling on its own too, the most restrictive counting (as the bash gate does
        # for a unit's canonical spelling).
        for value in fact.values:
            other = rules.evaluate(fact.surface, (value,))
            if RANK[other.action] > RANK[rule.action]:
                rule = other
    return rule


def _gate(
    fact: GateFact, rules: RuleSet, yolo: bool, grants: GrantStore | None, home: str
) -> tuple[GateResult, str]:
    """This gate's result under the serving policy, and what decided it."""
    rule = _rule(rules, fact)
    action = "ask" if rule is None else rule.action
    if fact.sentinel and action == "allow":
        action = "ask"  # the floor stands: an allow rule does not answer a floored ask
    message = fact.message or f"Needs approval: {fact.surface} {fact.value!r}"
    result = GateResult(fact.gate, fact.surface, fact.value, action, rule, message,
                        fact.sentinel, fact.unit, fact.values)  # fmt: skip
    result = lift(result, grants, yolo, home)  # its grants, then its yolo (decide/lift.py)
    rule = result.rule
    if result.action != "ask" and rule is not None:
        verb = "Allowed" if result.action == "allow" else "Denied"
        message = f"{verb} by the serving session: {rule.describe()}"
        if result.action == "deny" and rule.reason:
            message += f": {rule.reason}"
        result = result.replace(message=message)
    origin = None if rule is None else rule.origin
    return result, _HOW.get(origin, "rule")  # type: ignore[arg-type]


# What decided an allow, by the origin of its rule.
_HOW = {"yolo": "yolo", "session": "session_approval"}


def resolve(
    request: Request,
    rules: RuleSet,
    *,
    yolo: bool = False,
    grants: GrantStore | None = None,
    home: str = "",
) -> Resolution:
    if not request.gates:
        reason = request.reason or "The request carries no facts to resolve."
        return Resolution("ask", "user", "prompted", None, reason, ())
    judged = [_gate(f, rules, yolo, grants, home) for f in request.gates]
    gates = tuple(g for g, _ in judged)
    for gate, _ in judged:
        if gate.action == "deny":
            return Resolution("deny", "rule", "policy_denied", gate.rule, gate.message, gates)
    asking = [g for g in gates if g.action == "ask"]
    if asking:
        return Resolution("ask", "user", "prompted", asking[0].rule, request.reason, gates)
    hows = [h for _, h in judged]
    if "yolo" in hows:
        return Resolution("allow", "yolo", "auto_approved", gates[0].rule,
                          "Approved by the serving session's yolo mode.", gates)  # fmt: skip
    if "session_approval" in hows:
        rule = next(g.rule for g, h in judged if h == "session_approval")
        return Resolution("allow", "session_approval", "session_approved", rule,
                          gates[hows.index("session_approval")].message, gates)  # fmt: skip
    return Resolution("allow", "rule", "policy_allow", gates[0].rule, gates[0].message, gates)
