"""An HTTP-hook ask whose Claude Code gave up (it closed the connection) leaves the console and is
abandoned at once, instead of waiting there until its deadline; the console shows each ask's
host. A real ``clearance serve --listen``, and a real client on a raw socket that hangs up."""

from __future__ import annotations

import re
import socket
import time
from typing import Any

from servicekit import (
    Client,
    Running,
    ask_child,
    child_answer,
    hook_payload,
    pending_ids,
    review_log,
)


def _post(port: int, token: str, body: bytes) -> socket.socket:
    """Send a hook request and keep the connection open (the answer is never read)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    head = (
        f"POST /hooks/claude-code HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    sock.sendall(head.encode() + body)
    return sock


def _gone(client: Client, ask_id: str, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout  # a fail-safe, not a timing assertion
    while time.monotonic() < deadline:
        _, _, page = client.request("GET", "/")
        if f'id="ask-{ask_id}"' not in page:
            return True
        time.sleep(0.1)
    return False


def _shown(running: Running, *parts: str, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout  # a fail-safe, not a timing assertion
    while time.monotonic() < deadline:
        if any(all(p in line for p in parts) for line in list(running.lines)):
            return True
        time.sleep(0.1)
    return False


def _abandoned(world, timeout: float = 30) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """The abandoned records, once there is one (the serving session logs it just after the
    card leaves the console)."""
    deadline = time.monotonic() + timeout  # a fail-safe, not a timing assertion
    while True:
        found = [r for r in review_log(world.state)
                 if r["event"] == "forwarded_permission.abandoned"]  # fmt: skip
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def test_an_ask_whose_client_hung_up_is_withdrawn_and_abandoned(running: Running, world) -> None:  # type: ignore[no-untyped-def]
    token = (world.state / "service" / "hook-token").read_text().strip()
    client = Client(running.port)
    client.login(running.login_url)
    # The benign twin: a command hook child that keeps waiting stays pending and is answered.
    child = ask_child(running, running.directory, "curl https://example.com")
    [waiting] = pending_ids(client, 1)
    _, _, page = client.request("GET", "/")
    assert "Claude Code (command hook)" in page
    sock = _post(running.port, token, hook_payload(running.directory, "npm publish", "s2"))
    ids = pending_ids(client, 2)
    [given_up] = [i for i in ids if i != waiting]
    _, _, page = client.request("GET", "/")
    card = page[page.index(f'id="ask-{given_up}"') :]
    assert "Claude Code (HTTP hook)" in card[: card.find("</article>")]
    # The serving terminal's list names the host too (without a terminal: one line each).
    assert _shown(running, "Claude Code (HTTP hook)", "waiting for you"), "".join(running.lines)
    sock.close()  # Claude Code gives up on the call
    assert _gone(client, given_up)
    abandoned = _abandoned(world)
    assert len(abandoned) == 1 and "gave up" in abandoned[0]["why"]
    assert abandoned[0]["host"] == "claude-code-http"
    # Too late to answer it, and the console says why.
    status, _, text = client.request(
        "POST", f"/asks/{given_up}", {"action": "once", "csrf": client.csrf or ""},
        {"Origin": f"http://127.0.0.1:{running.port}", "Accept": "application/json"},
    )  # fmt: skip
    assert status == 409 and "withdrawn and abandoned" in text
    # The ask whose requester still waits was left alone, and is answered as usual.
    _, _, page = client.request("GET", "/")
    assert re.search(f'id="ask-{waiting}"', page)
    status, _, _ = client.request(
        "POST", f"/asks/{waiting}", {"action": "once", "csrf": client.csrf or ""},
        {"Origin": f"http://127.0.0.1:{running.port}", "Accept": "application/json"},
    )  # fmt: skip
    assert status == 200
    assert child_answer(child)["permissionDecision"] == "allow"
