"""clearance for the Claude Agent SDK (``pip install claude-agent-sdk``): a ``can_use_tool``
callback and a ``PreToolUse`` hook callback for ``ClaudeAgentOptions``.

    from claude_agent_sdk import ClaudeAgentOptions
    from clearance.hosts import agent_sdk

    options = ClaudeAgentOptions(
        cwd="/work/proj",
        hooks=agent_sdk.hooks(),                               # every tool call: allow/deny/ask
        can_use_tool=agent_sdk.can_use_tool(cwd="/work/proj"), # what asked: decide (or on_ask)
    )

The hook answers with Claude Code's own ``hookSpecificOutput``; an *ask* goes on to the CLI's
permission prompt, which the SDK routes to ``can_use_tool``. The callback answers with the SDK's
``PermissionResultAllow`` / ``PermissionResultDeny``; on *ask* it awaits ``on_ask(decision)``
when given (``True``/``False`` or a result object), and otherwise denies: an SDK program has no
terminal dialog. Only this module imports the SDK; ``import clearance`` never does.

Subagents: the hook's input names the subagent (``agent_id`` and ``agent_type``), the callback's
``ToolPermissionContext`` only its ``agent_id``. The hooks (``PreToolUse`` and ``SubagentStart``)
remember which agent type each id runs, process-wide, and the callback decides with that
agent's policy. A call from an agent id it was never told about is decided with the main
policy, and an *allow* then still asks (``on_ask``, else deny): the callback is never more
lenient than the hook, which may have asked under the subagent's own policy.
"""

from __future__ import annotations

import inspect
import os
import time

from claude_agent_sdk import HookMatcher, PermissionResultAllow, PermissionResultDeny

from clearance.hosts.claude_code.hook import pre_tool_use_answer
from clearance.hosts.claude_code.payload import Payload, to_call
from clearance.hosts.claude_code.response import PREFIX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping
    from typing import Any, Literal

    from claude_agent_sdk import (
        CanUseTool,
        HookCallback,
        HookContext,
        HookInput,
        HookJSONOutput,
        PermissionResult,
        ToolPermissionContext,
    )
    from claude_agent_sdk.types import PreToolUseHookSpecificOutput

    from clearance.decide.decision import Decision

    OnAsk = Callable[[Decision], "Awaitable[bool | PermissionResult] | bool | PermissionResult"]

_DECISIONS: dict[str, Literal["allow", "deny", "ask"]] = {
    "allow": "allow",
    "deny": "deny",
    "ask": "ask",
}

__all__ = ["can_use_tool", "hooks", "pre_tool_use_hook", "subagent_start_hook"]

# agent_id → agent_type, as the hooks saw them (the permission callback sees only the id).
_AGENT_TYPES: dict[str, str] = {}
_MAX_AGENTS = 4096


def _remember_agent(agent_id: object, agent_type: object) -> None:
    if isinstance(agent_id, str) and agent_id and isinstance(agent_type, str) and agent_type:
        if agent_id not in _AGENT_TYPES and len(_AGENT_TYPES) >= _MAX_AGENTS:
            _AGENT_TYPES.pop(next(iter(_AGENT_TYPES)))
        _AGENT_TYPES[agent_id] = agent_type


def _unresolved(decision: Decision, agent_id: str) -> Decision:
    """An allow for a call of an agent this callback cannot resolve to a policy, as an ask."""
    from clearance.decide.decision import Decision

    reason = (
        f"{decision.reason}; but the call comes from subagent {agent_id!r}, whose policy "
        "clearance cannot tell here (its hook never named the agent), so it needs approval"
    )
    return Decision("ask", reason, decision.rule, decision.gates, decision.call,
                    decision.units, decision.paths)  # fmt: skip


def _payload(
    tool_name: str,
    tool_input: Mapping[str, Any],
    cwd: str | None,
    agent: str | None,
    session: str | None,
    permission_mode: str | None = None,
) -> Payload:
    return Payload(
        "PreToolUse", tool_name, dict(tool_input), os.path.abspath(cwd or os.getcwd()),
        session_id=session, permission_mode=permission_mode, agent_type=agent,
    )  # fmt: skip


def can_use_tool(
    *,
    cwd: str | None = None,
    agent: str | None = None,
    session: str | None = None,
    on_ask: OnAsk | None = None,
    env: Mapping[str, str] | None = None,
) -> CanUseTool:
    """A ``can_use_tool`` callback deciding every permission prompt from the policy for
    ``cwd`` (default: the process's working directory) and ``agent`` — or, for a subagent's
    call (``context.agent_id``), that subagent's policy (see the module's docstring)."""

    async def decide(
        tool_name: str, tool_input: dict[str, Any], context: ToolPermissionContext
    ) -> PermissionResult:
        from clearance.decide.engine import Engine
        from clearance.hosts.facts import HOST_FACTS

        try:
            agent_id = getattr(context, "agent_id", None)
            who, unknown = agent, None
            if isinstance(agent_id, str) and agent_id:
                who = _AGENT_TYPES.get(agent_id)
                unknown = None if who else agent_id
                who = who or agent
            payload = _payload(tool_name, tool_input, cwd, who, session)
            from clearance.hosts.facts import relocated_homes

            engine = Engine.load(cwd=payload.cwd, agent=who, env=env, host=HOST_FACTS)
            engine.relocated = relocated_homes(os.environ if env is None else env)
            engine.grep_skips_hidden = True  # the Agent SDK's Grep is Claude Code's
            decision = engine.check(to_call(payload))
            if unknown is not None and decision.action == "allow":
                decision = _unresolved(decision, unknown)
        except Exception as exc:  # fail closed: ADR 0002
            from clearance._fault import describe

            return PermissionResultDeny(
                message=f"{PREFIX}Denied: clearance could not decide this call "
                f"({describe(exc)}); it fails closed"
            )
        if decision.action == "allow":
            return PermissionResultAllow()
        if decision.action == "deny" or on_ask is None:
            why = decision.reason
            if decision.action == "ask":
                why += ". It needs approval, and this program has no one to ask (on_ask)"
            return PermissionResultDeny(message=PREFIX + why)
        try:
            answer = on_ask(decision)
            if inspect.isawaitable(answer):
                answer = await answer
        except Exception as exc:
            from clearance._fault import describe

            return PermissionResultDeny(
                message=f"{PREFIX}Denied: asking for approval failed ({describe(exc)})"
            )
        if isinstance(answer, (PermissionResultAllow, PermissionResultDeny)):
            return answer
        if answer is True:
            return PermissionResultAllow()
        return PermissionResultDeny(message=f"{PREFIX}Denied by the user: {decision.reason}")

    return decide


def pre_tool_use_hook(
    *, agent: str | None = None, ask: str = "native", env: Mapping[str, str] | None = None
) -> HookCallback:
    """A ``PreToolUse`` hook callback: the same answers as ``clearance hook claude-code``.

    ``ask="native"`` answers *ask* (the CLI then calls ``can_use_tool``); ``"deny"`` refuses.
    A subagent's calls carry its ``agent_type`` and get that agent's policy; ``agent`` names
    the agent of the main thread.
    """

    async def hook(
        input_data: HookInput, tool_use_id: str | None, context: HookContext
    ) -> HookJSONOutput:
        started = time.monotonic()  # a forwarded ask may wait from now, not from the import
        data: dict[str, Any] = dict(input_data) if isinstance(input_data, dict) else {}
        _remember_agent(data.get("agent_id"), data.get("agent_type"))
        try:
            payload = _payload(
                str(data.get("tool_name") or ""), data.get("tool_input") or {},
                data.get("cwd"), data.get("agent_type") or agent, data.get("session_id"),
                data.get("permission_mode"),
            )  # fmt: skip
            answered = pre_tool_use_answer(payload, {**(env or os.environ),
                                                     "CLEARANCE_HEADLESS": "0"},
                                           started=started, host="agent-sdk")  # fmt: skip
        except Exception as exc:  # fail closed: ADR 0002
            from clearance._fault import describe

            answered = ("deny", f"Denied: clearance could not decide this call "
                        f"({describe(exc)}); it fails closed")  # fmt: skip
        if answered is None:
            return {}
        decision, reason = answered
        if decision == "ask" and ask == "deny":
            decision, reason = "deny", reason + ". It needs approval, and asking is turned off"
        specific: PreToolUseHookSpecificOutput = {
            "hookEventName": "PreToolUse",
            "permissionDecision": _DECISIONS[decision],
            "permissionDecisionReason": PREFIX + reason,
        }
        return {"hookSpecificOutput": specific}

    return hook


def hooks(
    *, agent: str | None = None, ask: str = "native", timeout: float | None = None
) -> dict[str, list[HookMatcher]]:
    """``ClaudeAgentOptions(hooks=...)``: our PreToolUse hook for every tool, and a
    ``SubagentStart`` hook that tells ``can_use_tool`` which agent each subagent id runs."""
    callback = pre_tool_use_hook(agent=agent, ask=ask)
    return {
        "PreToolUse": [HookMatcher(matcher=None, hooks=[callback], timeout=timeout)],
        "SubagentStart": [HookMatcher(matcher=None, hooks=[subagent_start_hook()])],
    }


def subagent_start_hook() -> HookCallback:
    """A ``SubagentStart`` hook callback: remembers the subagent's type by its id."""

    async def hook(
        input_data: HookInput, tool_use_id: str | None, context: HookContext
    ) -> HookJSONOutput:
        if isinstance(input_data, dict):
            _remember_agent(input_data.get("agent_id"), input_data.get("agent_type"))
        return {}

    return hook
