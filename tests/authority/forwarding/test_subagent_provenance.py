"""A host's subagent, as the host names it, reaches the serving human and the review log.

The host hook runs as a real process (``clearance hook <host>``) with a subagent's payload; its
ask is forwarded to a real ``clearance serve`` with a dialog on a pty. The dialog and the
records on both sides must name the agent kind, the agent's own id (when the host gives one) and
its session (OpenCode's subagent is a child session)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fwdharness import Serving, base_env, events, serve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SERVING_POLICY = {"permission": {"bash": {"*": "ask"}}}


def _codex(cwd: Path) -> dict[str, Any]:
    return {"session_id": "C1", "turn_id": "t", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "npm publish --tag next"},
            "tool_use_id": "u1", "agent_id": "a-7", "agent_type": "release"}  # fmt: skip


def _claude_code(cwd: Path) -> dict[str, Any]:
    return {"session_id": "C2", "cwd": str(cwd), "hook_event_name": "PreToolUse",
            "permission_mode": "dontAsk", "tool_name": "Bash",
            "tool_input": {"command": "npm publish --tag next"}, "tool_use_id": "u1",
            "agent_id": "agent-b2", "agent_type": "release"}  # fmt: skip


def _opencode(cwd: Path) -> dict[str, Any]:
    return {"tool": "bash", "args": {"command": "npm publish --tag next"}, "cwd": str(cwd),
            "sessionID": "ses_child1", "agent": "release", "ui": False}  # fmt: skip


CASES = {
    "claude-code": (_claude_code, "agent-b2", "C2"),
    "codex": (_codex, "a-7", "C1"),
    "opencode": (_opencode, None, "ses_child1"),
}


@pytest.mark.parametrize("host", sorted(CASES))
def test_a_hosts_subagent_ask_reaches_the_serving_human_with_its_identity(
    world: Any, project: Path, servers: list[Serving], host: str
) -> None:
    make, agent_id, session = CASES[host]
    world.global_config(json.dumps(SERVING_POLICY))
    server = serve(servers, world, "P", project, SERVING_POLICY, human=True)
    hook = subprocess.Popen(
        [sys.executable, "-m", "clearance", "hook", host],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=base_env(world, CLEARANCE_PARENT_SESSION="P"), cwd=str(project),
        start_new_session=True,
    )  # fmt: skip
    assert hook.stdin is not None
    hook.stdin.write(json.dumps(make(project)).encode())
    hook.stdin.close()
    screen = server.read_screen("No, with a reason")
    assert "Permission Required (Subagent)" in screen
    assert "agent release" in screen and f"session {session}" in screen
    if agent_id:
        assert f"id {agent_id}" in screen
    server.press("y")
    try:
        hook.wait(timeout=30)  # its answer is a few hundred bytes: no pipe fills up
    except subprocess.TimeoutExpired:
        hook.kill()
        hook.wait()
        raise AssertionError("the hook hung") from None
    assert hook.stdout is not None and hook.stderr is not None
    out, err = hook.stdout.read(), hook.stderr.read()
    hook.stdout.close()
    hook.stderr.close()
    assert hook.returncode == 0, err.decode()
    assert b"deny" not in out, out.decode()
    records = events(world)
    assert records, "nothing was logged about the forwarded ask"
    named = [r for r in records if "requesterAgent" in r]
    assert named, records
    for record in named:
        assert record["requesterAgent"] == "release"
        assert record["requesterAgentId"] == agent_id
        assert record["requesterSession"] == session
