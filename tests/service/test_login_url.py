"""The printed one-time login URL: a terminal sees it; a log, a journal or a pipe (which an agent
may read: `journalctl --user -u clearance-serve`) is told only the file in clearance's state
that holds it, and an agent's read of that file asks, through yolo."""

from __future__ import annotations

import json
from typing import Any

import pytest
from servicekit import Running

from clearance.authority.forwarding.signing import key_path
from clearance.decide.engine import Engine
from clearance.hosts.claude_code.http_token import token_path
from clearance.intent.call import ToolCall
from clearance.service.wiring import LOGIN_IN_FILE, login_file


def test_a_log_is_told_where_the_url_is_not_the_url(running: Running, world: Any) -> None:
    printed = "".join(running.lines)
    assert "/login?t=" not in printed  # the service's stdout is a pipe here
    assert LOGIN_IN_FILE in printed
    where = login_file(world.env["CLEARANCE_HOME"])
    with open(where) as handle:
        assert handle.read().strip() == running.login_url  # the benign twin: the human logs in


@pytest.mark.parametrize("part", ["login", "hook token", "answer key"])
def test_an_agents_read_of_a_state_secret_asks_through_yolo(world: Any, part: str) -> None:
    where = login_file(world.env["CLEARANCE_HOME"])
    if part == "hook token":  # the HTTP hook's bearer token, beside the service's socket
        where = token_path(world.env["CLEARANCE_HOME"])
    if part == "answer key":  # the broker's private key: whoever reads it signs approvals
        where = key_path(world.env["CLEARANCE_HOME"])
    project = world.project()
    policy = json.dumps({"permission": {"*": "allow", "bash": "allow",
                                        "external_directory": "allow"}})  # fmt: skip
    engine = Engine.load(cwd=str(project), policy=policy, yolo=True, env=world.env)
    for tool, value in (("read", {"file_path": where}), ("bash", {"command": f"cat {where}"})):
        found = engine.check(ToolCall(tool, value, str(project)))
        assert found.action == "ask" and "<protected-path>" in found.reason, found.reason
