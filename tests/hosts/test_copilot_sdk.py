"""The Copilot SDK's ``on_pre_tool_use`` hook, called as the SDK calls it (no SDK needed)."""

from __future__ import annotations

from typing import Any

from clearance.hosts.copilot_sdk import pre_tool_use

POLICY = """{"permission": {"*": "ask", "bash": {"*": "ask", "cat *": "allow",
  "rm *": {"action": "deny", "reason": "use trash"}}},
  "agents": {"reviewer": {"permission": {"bash": "deny"}}}}"""


def call(world: Any, command: Any, **extra: Any) -> dict[str, str]:
    world.global_config(POLICY)
    cwd = str(world.project())
    hook = pre_tool_use(env={**world.env, "CLEARANCE_HEADLESS": "1"})
    data = {"sessionId": "s", "timestamp": 0, "workingDirectory": cwd, "toolName": "bash",
            "toolArgs": {"command": command}, **extra}  # fmt: skip
    return hook(data, {"session_id": "s"})


def test_deny_allow_and_an_ask_no_one_can_answer(world: Any) -> None:
    denied = call(world, "rm -rf x")
    assert denied["permissionDecision"] == "deny"
    assert "use trash" in denied["permissionDecisionReason"]
    assert call(world, "cat notes.txt")["permissionDecision"] == "allow"
    asked = call(world, "mkdir build")
    assert asked["permissionDecision"] == "deny"
    assert "no one can approve it here" in asked["permissionDecisionReason"]


def test_a_subagent_gets_its_own_policy_and_garbage_is_denied(world: Any) -> None:
    assert call(world, "cat notes.txt", agentType="reviewer")["permissionDecision"] == "deny"
    broken = call(world, 42)
    assert broken["permissionDecision"] == "deny"
    assert broken["permissionDecisionReason"].startswith("[clearance] Denied")


def test_native_ask_leaves_the_ask_to_the_sdk(world: Any) -> None:
    world.global_config(POLICY)
    cwd = str(world.project())
    hook = pre_tool_use(env=world.env, native_ask=True)
    data = {"sessionId": "s", "workingDirectory": cwd, "toolName": "bash",
            "toolArgs": {"command": "mkdir build"}}  # fmt: skip
    assert hook(data, None)["permissionDecision"] == "ask"
