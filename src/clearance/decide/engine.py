"""The engine: load a policy once, decide many calls.

``Engine.check`` never raises: an exception anywhere on the decision path denies the call with a
``gate_error`` result (fail closed), so a bug can cost a prompt but never a silent allow.
"""

from __future__ import annotations

from clearance.decide.decision import Decision, GateResult
from clearance.decide.fold import fold
from clearance.policy.loader import load_policy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from clearance.intent.call import ToolCall
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
        from clearance.decide.gates.tool import tool_gate

        return fold(call, [tool_gate(rules, call)])
