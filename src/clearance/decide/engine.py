"""The engine: load a policy once, decide many calls.

``Engine.check`` never raises: an exception anywhere on the decision path denies the call with a
``gate_error`` result (fail closed), so a bug can cost a prompt but never a silent allow.
"""

from __future__ import annotations

import os

from clearance.decide.decision import Decision, GateResult
from clearance.decide.fold import fold
from clearance.intent.path import canonicalize
from clearance.policy.loader import load_policy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from clearance.decide.suggestion import Suggestion
    from clearance.intent.call import ToolCall
    from clearance.intent.path import PathFact
    from clearance.policy.policy import Policy

__all__ = ["Engine"]


class Engine:
    """Decides tool calls against one :class:`~clearance.policy.policy.Policy`."""

    __slots__ = ("policy",)

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    @classmethod
    def load(
        cls,
        *,
        cwd: str,
        agent: str | None = None,
        config: str | None = None,
        policy: str | None = None,
        yolo: bool | None = None,
        env: Mapping[str, str] | None = None,
        use_cache: bool = True,
    ) -> Engine:
        """Load the layered policy for ``cwd`` and ``agent`` (``policy`` = inline JSONC text)."""
        return cls(
            load_policy(
                cwd=cwd, agent=agent, config=config, inline=policy, yolo=yolo, env=env,
                use_cache=use_cache,
            )
        )  # fmt: skip

    def check(self, call: ToolCall) -> Decision:
        try:
            return self._check(call)
        except Exception as exc:  # fail closed: ADR 0002
            message = (
                f"Denied: clearance could not decide this call ({type(exc).__name__}: {exc}); "
                "it fails closed"
            )
            result = GateResult("gate_error", "*", "", "deny", None, message, sentinel="gate_error")
            return Decision("deny", message, None, (result,), call)

    def _check(self, call: ToolCall) -> Decision:
        rules = self.policy.rules
        kind = call.kind
        if kind == "bash":
            from clearance.decide.gates.bash import bash_gate

            results, units = bash_gate(rules, call)
            return fold(call, results, units=units)
        from clearance.decide.gates.path import external_gate, path_gate
        from clearance.decide.gates.tool import tool_gate
        from clearance.intent.path import path_fact
        from clearance.intent.tool_paths import paths_of

        raw_paths, direction, path_tool = paths_of(call)
        cwd = os.path.abspath(call.cwd)
        boundary = canonicalize(cwd)
        facts = [
            path_fact(raw, cwd=cwd, home=self.policy.home, direction=direction, boundary=boundary)
            for raw in raw_paths
        ]
        if path_tool and facts:
            results = [tool_gate(rules, call, path_values=f.aliases) for f in facts]
        else:
            results = [tool_gate(rules, call, path_values=("*",) if path_tool else None)]
        results += path_gate(rules, facts, tool=kind)
        results += external_gate(rules, facts, tool=kind)
        decision = fold(call, results, paths=tuple(facts))
        if decision.action == "ask":
            decision = decision.replace(suggestions=suggestions_for(decision, facts))
        return decision


def suggestions_for(decision: Decision, facts: list[PathFact]) -> tuple[Suggestion, ...]:
    """Session-approval options for every gate that asked, deciding gate first."""
    from clearance.decide.suggestion import suggest

    by_value = {f.shown: f for f in facts}
    out: dict[tuple[str, str], Suggestion] = {}
    tool = decision.call.kind
    for gate in decision.gates:
        if gate.action != "ask" or gate.sentinel is not None:
            continue
        fact = by_value.get(gate.value)
        is_dir = fact.is_dir if fact is not None else False
        value = gate.value
        if fact is not None and fact.canonical and gate.gate == "external_directory":
            value = fact.canonical  # what lies outside; a grant must not cover the symlink
        elif fact is not None:
            value = fact.shown
        for s in suggest(gate.surface, value, tool=tool, is_dir=is_dir):
            out.setdefault((s.surface, s.pattern), s)
    return tuple(out.values())
