"""clearance for the GitHub Copilot SDK (``pip install github-copilot-sdk``): an
``on_pre_tool_use`` hook for ``CopilotClient.create_session``.

    from copilot import CopilotClient
    from clearance.hosts import copilot_sdk

    session = await client.create_session(
        hooks={"on_pre_tool_use": copilot_sdk.pre_tool_use(cwd="/work/proj")},
        ...
    )

Every tool call the session makes is decided by the shared path (policy, session grants,
authorizer chain, forwarding, review log), with the Copilot CLI adapter's tool names. The hook
answers ``{"permissionDecision", "permissionDecisionReason"}``. An SDK program has no dialog,
so an ask is forwarded to a serving session (``clearance serve``) and otherwise denied with a
reason; ``native_ask=True`` answers ``ask`` instead, leaving it to the session's
``on_permission_request`` handler. The subagent's ``agentType`` selects its per-agent policy.
Any failure denies. This module does not import the SDK.
"""

from __future__ import annotations

from clearance.hosts.command_hook import FAILS_CLOSED, PRE_TOOL, PREFIX, HookEvent, decide
from clearance.hosts.copilot.hook import CopilotAdapter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = ["pre_tool_use"]

_NO_DIALOG = "a Copilot SDK program has no dialog"


def pre_tool_use(
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    native_ask: bool = False,
) -> Callable[[Any, Any], dict[str, str]]:
    """The ``on_pre_tool_use`` hook. ``cwd`` is used when the input names no working
    directory; ``env`` (default: the process environment) locates clearance's config."""
    import os

    adapter = CopilotAdapter()

    def hook(input: Any, invocation: Any = None) -> dict[str, str]:
        environ = os.environ if env is None else env
        try:
            data = dict(input) if isinstance(input, dict) else {}
            payload = {
                "sessionId": data.get("sessionId"),
                "cwd": data.get("workingDirectory") or data.get("cwd") or cwd,
                "toolName": data.get("toolName"),
                "toolArgs": data.get("toolArgs"),
                "agent_type": data.get("agentType"),
            }
            event = adapter.read(payload, environ)
            nobody = None if native_ask else _NO_DIALOG
            event = HookEvent(PRE_TOOL, event.host_event, event.call, nobody)
            action, reason = decide(adapter, event, environ)
        except Exception as exc:
            from clearance._fault import describe

            action = "deny"
            reason = f"Denied: clearance could not decide this call ({describe(exc)}); "
            reason += FAILS_CLOSED
        if action not in ("allow", "deny", "ask"):
            action = "allow"
        return {"permissionDecision": action, "permissionDecisionReason": PREFIX + reason}

    return hook
