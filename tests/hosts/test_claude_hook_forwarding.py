"""The Claude Code hook forwarding an ask to a real serving session (``clearance serve``)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority" / "forwarding"))

from fwdharness import Serving

SRC = Path(__file__).resolve().parents[2] / "src"


def hook(world: Any, payload: dict[str, Any], **env: str) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", "claude-code"],
        input=json.dumps(payload), capture_output=True, text=True, timeout=120,
        env={**{k: v for k, v in world.env.items() if not k.startswith("CLAUDE_CODE")},
             "PYTHONPATH": str(SRC), **env},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"], time.monotonic() - started


def pre(command: str, cwd: Path) -> dict[str, Any]:
    return {
        "session_id": "child-1", "transcript_path": "/dev/null", "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "toolu_1",
    }  # fmt: skip


def test_a_serving_session_answers_the_hooks_ask(world: Any) -> None:
    world.global_config('{"permission": {"*": "ask"}}')
    project = world.project()
    server = Serving(world, "P", project, {"permission": {"*": "ask", "bash": {"make *": "allow"}}})
    try:
        out, _ = hook(world, pre("make test", project), CLEARANCE_PARENT_SESSION="P")
        assert out["permissionDecision"] == "allow"
        out, _ = hook(world, pre("npm publish", project), CLEARANCE_PARENT_SESSION="P")
        assert out["permissionDecision"] == "deny"
        assert "no human" in out["permissionDecisionReason"]
    finally:
        server.stop()


def test_a_forwarded_ask_is_denied_before_claude_code_would_kill_the_hook(world: Any) -> None:
    # Claude Code lets a call run when it kills a hook at its timeout; the hook must give up
    # on an unanswered forwarded ask before that, and deny.
    world.global_config('{"permission": {"*": "ask"}}')
    project = world.project()
    server = Serving(world, "P", project, {"permission": {"*": "ask"}}, human=True)
    try:
        out, took = hook(
            world, pre("npm publish", project),
            CLEARANCE_PARENT_SESSION="P", CLEARANCE_HOOK_TIMEOUT="8",
        )  # fmt: skip
        assert out["permissionDecision"] == "deny", out
        assert took < 8, took
    finally:
        server.stop()


def test_a_stale_parent_session_falls_back_to_claude_codes_dialog_in_auto_mode(
    world: Any,
) -> None:
    # CLEARANCE_PARENT_SESSION names a session that does not serve (left over in the shell):
    # an interactive run asks the user in Claude Code's own dialog, at once, instead of denying
    # after the grace; only the "forward" mode denies.
    world.global_config('{"permission": {"*": "ask"}}')
    project = world.project()
    out, took = hook(world, pre("npm publish", project), CLEARANCE_PARENT_SESSION="gone",
                     CLEARANCE_FORWARDING_GRACE_MS="3000")  # fmt: skip
    assert out["permissionDecision"] == "ask", out
    assert took < 3, took
    assert not list((world.state / "forwarding").glob("*/requests/*.json"))
    world.global_config('{"permission": {"*": "ask"}, "hosts": {"claudeCode": {"ask": "forward"}}}')
    out, _ = hook(world, pre("npm publish", project), CLEARANCE_PARENT_SESSION="gone")
    assert out["permissionDecision"] == "deny", out
    assert "no serving session" in out["permissionDecisionReason"]
