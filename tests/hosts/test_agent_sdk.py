"""The Claude Agent SDK callbacks: the SDK's own result types, the same decisions as the hook."""

# mypy: disable-error-code="arg-type, var-annotated"
# The SDK types its callbacks' input as TypedDicts and their result as an Awaitable; these tests
# feed them raw payloads, as the SDK's transport does, and run them with asyncio.run, which
# mypy types for a Coroutine only.
from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sdk = pytest.importorskip("claude_agent_sdk")

from clearance.hosts import agent_sdk  # noqa: E402

POLICY = """{"permission": {"*": "ask", "read": "allow",
  "bash": {"*": "ask", "cat *": "allow", "rm *": {"action": "deny", "reason": "use trash"}}},
  "agents": {"reviewer": {"permission": {"bash": "deny"}}}}"""


def context() -> Any:
    return sdk.ToolPermissionContext(tool_use_id="toolu_1")


def decide(callback: Any, tool: str, tool_input: dict[str, Any]) -> Any:
    return asyncio.run(callback(tool, tool_input, context()))


@pytest.fixture
def cwd(world: Any, tmp_path: Path) -> str:
    world.global_config(POLICY)
    return str(tmp_path)


def test_an_allowed_call_gets_the_sdks_allow(cwd: str) -> None:
    result = decide(agent_sdk.can_use_tool(cwd=cwd), "Bash", {"command": "cat a.txt"})
    assert isinstance(result, sdk.PermissionResultAllow)


def test_a_denied_call_gets_the_sdks_deny_with_the_reason(cwd: str) -> None:
    result = decide(agent_sdk.can_use_tool(cwd=cwd), "Bash", {"command": "rm a.txt"})
    assert isinstance(result, sdk.PermissionResultDeny)
    assert result.message.startswith("[clearance] ") and "use trash" in result.message


def test_an_ask_without_on_ask_is_denied_saying_no_one_can_approve(cwd: str) -> None:
    result = decide(agent_sdk.can_use_tool(cwd=cwd), "Bash", {"command": "make"})
    assert isinstance(result, sdk.PermissionResultDeny)
    assert "on_ask" in result.message


@pytest.mark.parametrize(
    ("answer", "allowed"),
    [(True, True), (False, False), ("async-yes", True), ("raises", False)],
)
def test_an_ask_is_put_to_on_ask(cwd: str, answer: object, allowed: bool) -> None:
    seen: list[str] = []

    def on_ask(decision: Any) -> Any:
        seen.append(decision.action)
        if answer == "raises":
            raise RuntimeError("no tty")
        if answer == "async-yes":

            async def yes() -> bool:
                return True

            return yes()
        return answer

    result = decide(agent_sdk.can_use_tool(cwd=cwd, on_ask=on_ask), "Bash", {"command": "make"})
    assert seen == ["ask"]
    assert isinstance(result, sdk.PermissionResultAllow) is allowed


def test_the_callback_uses_the_agents_policy(cwd: str) -> None:
    callback = agent_sdk.can_use_tool(cwd=cwd, agent="reviewer")
    assert isinstance(decide(callback, "Bash", {"command": "cat a"}), sdk.PermissionResultDeny)


def hook_input(cwd: str, tool: str, tool_input: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"session_id": "s", "transcript_path": "/dev/null", "cwd": cwd,
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_1", **extra}  # fmt: skip


@pytest.mark.parametrize(
    ("command", "extra", "ask", "expected"),
    [
        ("cat a", {}, "native", "allow"),
        ("rm a", {}, "native", "deny"),
        ("make", {}, "native", "ask"),
        ("make", {}, "deny", "deny"),
        ("cat a", {"agent_id": "x", "agent_type": "reviewer"}, "native", "deny"),
    ],
)
def test_the_pre_tool_use_hook_answers_like_the_command_hook(
    cwd: str, command: str, extra: dict[str, Any], ask: str, expected: str
) -> None:
    hook = agent_sdk.pre_tool_use_hook(ask=ask)
    out = asyncio.run(
        hook(hook_input(cwd, "Bash", {"command": command}, **extra), "toolu_1", {"signal": None})
    )
    specific = out["hookSpecificOutput"]
    assert specific["hookEventName"] == "PreToolUse"
    assert specific["permissionDecision"] == expected


def test_the_hook_fails_closed_on_a_malformed_input(cwd: str) -> None:
    hook = agent_sdk.pre_tool_use_hook()
    out = asyncio.run(
        hook({"tool_name": "Bash", "tool_input": "not a mapping"}, None, {"signal": None})
    )
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_hooks_builds_the_options_entry() -> None:
    entry = agent_sdk.hooks(timeout=30)
    [matcher] = entry["PreToolUse"]
    assert isinstance(matcher, sdk.HookMatcher)
    assert matcher.matcher is None and matcher.timeout == 30
    sdk.ClaudeAgentOptions(hooks=entry, can_use_tool=agent_sdk.can_use_tool())


def test_importing_clearance_and_its_hook_never_imports_the_sdk() -> None:
    code = ("import sys, clearance, clearance.hosts, clearance.hosts.claude_code.hook, "
            "clearance.cli; assert 'claude_agent_sdk' not in sys.modules")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], check=True)


SUBAGENT_POLICY = """{"permission": {"bash": {"*": "ask", "git push *": "allow"}},
  "agents": {"reviewer": {"permission": {"bash": {"git push *": "ask"}}}}}"""
PUSH = {"command": "git push origin main"}


def _on_ask(seen: list[Any]) -> Any:
    def on_ask(decision: Any) -> bool:
        seen.append(decision)
        return False

    return on_ask


def test_a_subagents_ask_routed_to_can_use_tool_is_never_allowed(
    world: Any, tmp_path: Path
) -> None:
    """The audit's repro: the hook asks under the subagent's policy; the callback (which only
    gets the agent id) must not allow it with the main policy."""
    world.global_config(SUBAGENT_POLICY)
    cwd = str(tmp_path)
    hook = agent_sdk.pre_tool_use_hook()
    out = asyncio.run(hook(hook_input(cwd, "Bash", PUSH, agent_id="a-rev-1",
                                      agent_type="reviewer"), "t1", {"signal": None}))  # fmt: skip
    assert out["hookSpecificOutput"]["permissionDecision"] == "ask"
    seen: list[Any] = []
    callback = agent_sdk.can_use_tool(cwd=cwd, on_ask=_on_ask(seen))
    result = asyncio.run(callback("Bash", PUSH, sdk.ToolPermissionContext(
        tool_use_id="t1", agent_id="a-rev-1")))  # fmt: skip
    assert isinstance(result, sdk.PermissionResultDeny)
    assert [d.action for d in seen] == ["ask"]
    assert seen[0].call.agent == "reviewer"  # decided with the subagent's own policy


def test_a_subagent_named_by_subagent_start_gets_its_policy(world: Any, tmp_path: Path) -> None:
    world.global_config(SUBAGENT_POLICY)
    start = agent_sdk.hooks()["SubagentStart"][0].hooks[0]
    asyncio.run(start({"hook_event_name": "SubagentStart", "agent_id": "a-rev-2",
                       "agent_type": "reviewer"}, None, {"signal": None}))  # fmt: skip
    seen: list[Any] = []
    callback = agent_sdk.can_use_tool(cwd=str(tmp_path), on_ask=_on_ask(seen))
    context = sdk.ToolPermissionContext(tool_use_id="t2", agent_id="a-rev-2")
    assert isinstance(asyncio.run(callback("Bash", PUSH, context)), sdk.PermissionResultDeny)
    assert seen[0].call.agent == "reviewer"


def test_an_unknown_subagents_allow_still_asks(world: Any, tmp_path: Path) -> None:
    world.global_config(SUBAGENT_POLICY)
    cwd = str(tmp_path)
    seen: list[Any] = []
    callback = agent_sdk.can_use_tool(cwd=cwd, on_ask=_on_ask(seen))
    context = sdk.ToolPermissionContext(tool_use_id="t3", agent_id="a-never-seen")
    assert isinstance(asyncio.run(callback("Bash", PUSH, context)), sdk.PermissionResultDeny)
    assert [d.action for d in seen] == ["ask"] and "a-never-seen" in seen[0].reason
    denied = asyncio.run(agent_sdk.can_use_tool(cwd=cwd)("Bash", PUSH, context))
    assert isinstance(denied, sdk.PermissionResultDeny) and "on_ask" in denied.message
    # the main thread (no agent id) keeps its allow
    main = asyncio.run(callback("Bash", PUSH, sdk.ToolPermissionContext(tool_use_id="t4")))
    assert isinstance(main, sdk.PermissionResultAllow)
