"""A forwarded ask names the host its requester runs in: in the request (validated), in the
review log, in the ``ui_prompt`` event and on the serving human's dialog."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fwdharness import Child, Serving, base_env, events, serve

from clearance.authority.ask import Requester
from clearance.authority.forwarding.protocol import (
    ProtocolError,
    Request,
    is_host,
    new_id,
    new_nonce,
)
from clearance.hosts.names import HOSTS, host_label

POLICY = {"permission": {"bash": {"*": "ask"}}}


def a_request(host: str | None) -> Request:
    return Request(
        id=new_id(), nonce=new_nonce(), target="P", created=1.0, expires=2.0,
        requester=Requester(None, "C1", "/w", "bash", "bash", "make x", host), reason="asked",
    )  # fmt: skip


def test_the_host_survives_a_round_trip_and_an_older_request_has_none() -> None:
    request = a_request("claude-code-http")
    assert Request.from_json(request.as_json()).requester.host == "claude-code-http"
    older = request.as_json()
    del older["requester"]["host"]  # as a clearance that predates the field writes it
    assert Request.from_json(older).requester.host is None
    assert host_label(None) == "unknown host"
    assert host_label("claude-code-http") == "Claude Code (HTTP hook)"


@pytest.mark.parametrize(
    "host", ["Claude", "claude code", "x" * 41, "\x1b[2Jclaude", "-flag", "", "claude/code", 7]
)
def test_a_host_that_is_not_a_plain_name_is_refused(host: object) -> None:
    data = a_request("claude-code").as_json()
    data["requester"]["host"] = host
    with pytest.raises(ProtocolError):
        Request.from_json(data)


def test_every_known_host_is_a_valid_name() -> None:
    assert all(is_host(name) for name in HOSTS)


def test_the_serving_human_sees_a_gate_requesters_host_and_the_log_records_it(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, POLICY, human=True)
    child = Child(world, "C1", "npm publish", cwd=project, parent="P")
    screen = server.read_screen("No, with a reason")
    assert "host gate" in screen
    server.press("y")
    assert child.result()["decision"] == "allow"
    prompted = [e for e in events(world) if e["event"] == "forwarded_permission.prompted"]
    assert prompted and prompted[0]["host"] == "gate"


def test_the_serving_human_sees_a_claude_code_command_hooks_host(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, POLICY, human=True)
    payload = json.dumps({
        "session_id": "C2", "transcript_path": "/dev/null", "cwd": str(project),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "npm publish"}, "tool_use_id": "toolu_1",
    })  # fmt: skip
    env = base_env(world, CLEARANCE_PARENT_SESSION="P", CLEARANCE_HEADLESS="1")
    world.global_config(json.dumps(POLICY))
    hook = subprocess.Popen(
        [sys.executable, "-m", "clearance", "hook", "claude-code"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=str(project),
    )  # fmt: skip
    assert hook.stdin is not None
    hook.stdin.write(payload.encode())
    hook.stdin.close()
    hook.stdin = None
    try:
        screen = server.read_screen("No, with a reason")
        assert "host claude-code ·" in screen
        server.press("y")
        out, _ = hook.communicate(timeout=30)
    finally:
        if hook.poll() is None:
            hook.kill()
            hook.communicate()
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "allow"
    prompted = [e for e in events(world) if e["event"] == "forwarded_permission.prompted"]
    assert prompted and prompted[0]["host"] == "claude-code"
