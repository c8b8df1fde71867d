"""Every command-hook host reads a call's fields the same way (``command_hook.call_fields``),
under its own keys, and a malformed field is named in the block it answers with; the hosts keep
their hook files in their own dot-folders (``hook_files.folder_path``)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from clearance.hosts.codex.hook import CodexAdapter
from clearance.hosts.command_hook import Adapter, Reply, answer
from clearance.hosts.copilot.hook import CopilotAdapter
from clearance.hosts.gemini.hook import GeminiAdapter
from clearance.hosts.opencode.hook import OpenCodeAdapter
from clearance.hosts.qwen.hook import QwenAdapter

# adapter, a well-formed payload, and the keys of its tool, arguments, session and agent
CASES: dict[str, tuple[Adapter, dict[str, Any], str, str, str, str, str]] = {
    "codex": (CodexAdapter(), {"hook_event_name": "PreToolUse", "tool_name": "Bash"},
              "tool_name", "tool_input", "tool_input", "session_id", "agent_type"),
    "gemini": (GeminiAdapter(), {"hook_event_name": "BeforeTool", "tool_name": "read_file"},
               "tool_name", "tool_input", "tool_input", "session_id", "agent_name"),
    "qwen": (QwenAdapter(), {"hook_event_name": "PreToolUse", "tool_name": "read_file"},
             "tool_name", "tool_input", "tool_input", "session_id", "agent_type"),
    "copilot": (CopilotAdapter(), {"toolName": "bash"},
                "toolName", "toolArgs", "toolArgs", "sessionId", "agentName"),
    "opencode": (OpenCodeAdapter(), {"tool": "bash", "ui": False},
                 "tool", "args", "the arguments", "sessionID", "agent"),
}  # fmt: skip


def _reason(reply: Reply) -> str:
    assert reply.exit == 2, reply
    text = reply.stderr
    if reply.stdout:
        out = json.loads(reply.stdout)
        text += json.dumps(out)
    return text


def _block(name: str, **change: Any) -> str:
    adapter, base, *_ = CASES[name]
    payload = {**base, "cwd": "/work/p", **change}
    return _reason(answer(adapter, json.dumps(payload).encode(), env={"CLEARANCE_HEADLESS": "1"}))


@pytest.mark.parametrize("name", sorted(CASES))
def test_arguments_that_are_not_an_object_are_named_with_the_tool(name: str) -> None:
    _, base, tool_key, args_key, args_name, *_ = CASES[name]
    reason = _block(name, **{args_key: [1, 2]})
    assert f"{args_name} of {base[tool_key]} is a list, not an object" in reason


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_session_or_agent_that_is_not_a_string_is_named(name: str) -> None:
    *_, session_key, agent_key = CASES[name]
    assert f"field '{session_key}' must be a string, not int" in _block(name, **{session_key: 7})
    assert f"field '{agent_key}' must be a string, not list" in _block(name, **{agent_key: []})


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_payload_without_cwd_is_blocked(name: str) -> None:
    adapter, base, *_ = CASES[name]
    reply = answer(adapter, json.dumps(base).encode(), env={"CLEARANCE_HEADLESS": "1"})
    assert "the hook payload has no cwd" in _reason(reply)


@pytest.mark.parametrize(
    ("host", "user", "project"),
    [
        ("gemini", ".gemini/settings.json", ".gemini/settings.json"),
        ("qwen", ".qwen/settings.json", ".qwen/settings.json"),
        ("cursor", ".cursor/hooks.json", ".cursor/hooks.json"),
    ],
)
def test_a_dot_folder_host_keeps_its_hooks_under_home_or_the_project(
    world: Any, host: str, user: str, project: str
) -> None:
    module = __import__(f"clearance.hosts.{host}.install", fromlist=["hooks_path"])
    home = world.env["HOME"]
    assert module.hooks_path("user", "/elsewhere", world.env) == os.path.join(home, user)
    assert module.hooks_path("project", "/work/p", world.env) == os.path.join("/work/p", project)


def test_gemini_policy_rules_live_under_the_home_gemini_folder(world: Any) -> None:
    from clearance.hosts.gemini.install import policy_path

    expected = os.path.join(world.env["HOME"], ".gemini", "policies", "clearance.toml")
    assert policy_path(world.env) == expected
