"""The plugin hosts' HTTP hook (``POST /hooks/opencode``, ``/hooks/pi``) on a real
``clearance serve --listen``: the same token as Claude Code's, the same answers as
``clearance hook <host>``, and a deny for a payload it cannot read."""

from __future__ import annotations

import json

import pytest
from servicekit import Client, Running


def _plugin(directory: object, command: str) -> bytes:
    payload = {"tool": "bash", "args": {"command": command}, "cwd": str(directory),
               "sessionID": "ses_1", "ui": False}  # fmt: skip
    return json.dumps(payload).encode()


@pytest.mark.parametrize("host", ["opencode", "pi"])
def test_a_plugin_hook_needs_the_token_and_answers_like_the_process(  # type: ignore[no-untyped-def]
    running: Running, world, host: str
) -> None:
    client = Client(running.port)
    path = f"/hooks/{host}"
    body = _plugin(running.directory, "git status")
    assert client.request("POST", path, body)[0] == 401
    assert client.request("POST", path, body, {"Authorization": "Bearer " + "0" * 64})[0] == 401
    token = (world.state / "service" / "hook-token").read_text().strip()
    headers = {"Authorization": f"Bearer {token}"}
    status, _, text = client.request("POST", path, body, headers)
    assert status == 200 and json.loads(text)["decision"] == "allow"
    status, _, text = client.request("POST", path, _plugin(running.directory, "rm -rf b"), headers)
    answer = json.loads(text)
    assert status == 200 and answer["decision"] == "deny"
    assert "deleting files is not allowed here" in answer["reason"]
    status, _, text = client.request("POST", path, b"{not json", headers)
    assert status == 200 and json.loads(text)["decision"] == "deny"


def test_an_unknown_host_is_not_served(running: Running, world) -> None:  # type: ignore[no-untyped-def]
    token = (world.state / "service" / "hook-token").read_text().strip()
    client = Client(running.port)
    body = _plugin(running.directory, "git status")
    status, _, _ = client.request("POST", "/hooks/nope", body, {"Authorization": f"Bearer {token}"})
    assert status == 404
