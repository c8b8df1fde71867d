"""An ask of an Agent SDK program forwarded to a serving session names its host, ``agent-sdk``."""

# mypy: disable-error-code="arg-type, var-annotated"
# The SDK types its callbacks' input as TypedDicts and their result as an Awaitable; these tests
# feed them raw payloads, as the SDK's transport does, and run them with asyncio.run, which
# mypy types for a Coroutine only.
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority" / "forwarding"))

from fwdharness import Serving

sdk = pytest.importorskip("claude_agent_sdk")

from clearance.hosts import agent_sdk  # noqa: E402


def test_an_agent_sdk_ask_forwarded_to_a_serving_session_names_its_host(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world.global_config('{"permission": {"*": "ask"}, "hosts": {"claudeCode": {"ask": "forward"}}}')
    project = world.project()
    server = Serving(world, "P", project, {"permission": {"*": "ask", "bash": {"make *": "allow"}}})
    monkeypatch.setenv("CLEARANCE_PARENT_SESSION", "P")
    # An SDK program runs for hours: the wait is counted from the call, not from the import of
    # clearance (which made every forwarded ask time out at once after ten minutes).
    from clearance.hosts.claude_code import hook as hook_module

    monkeypatch.setattr(hook_module, "_STARTED", hook_module._STARTED - 3600)
    try:
        hook = agent_sdk.pre_tool_use_hook()
        data = {"session_id": "sdk-1", "transcript_path": "/dev/null", "cwd": str(project),
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "make test"}, "tool_use_id": "toolu_1"}  # fmt: skip
        out = asyncio.run(hook(data, "toolu_1", {"signal": None}))
        log = world.state / "logs" / "review.jsonl"
        assert out["hookSpecificOutput"]["permissionDecision"] == "allow", (
            out, log.read_text() if log.exists() else "no review log"
        )  # fmt: skip
    finally:
        server.stop()
    records = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    answered = [r for r in records if r["event"] == "forwarded_permission.auto_approved"]
    assert answered and answered[0]["host"] == "agent-sdk"
