"""Asks waiting on the console do not hold up the HTTP hook's allows and denies: the hook has a
pool of threads of its own, larger than the 40 a default thread limiter would give. A real
``clearance serve --listen``, 48 real HTTP-hook asks left waiting, then policy-resolved calls."""

from __future__ import annotations

import http.client
import json
import threading

from servicekit import Client, Running, hook_payload, pending_ids

WAITING = 48


def test_allows_and_denies_are_answered_while_many_asks_wait(running: Running, world) -> None:  # type: ignore[no-untyped-def]
    token = (world.state / "service" / "hook-token").read_text().strip()
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    answers: dict[int, str] = {}
    lock = threading.Lock()

    def ask(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", running.port, timeout=120)
        body = hook_payload(running.directory, f"mkdir d{index}", f"waiting-{index}")
        conn.request("POST", "/hooks/claude-code", body, headers)
        decision = json.loads(conn.getresponse().read())["hookSpecificOutput"]
        with lock:
            answers[index] = decision["permissionDecision"]

    threads = [threading.Thread(target=ask, args=(i,), daemon=True) for i in range(WAITING)]
    for thread in threads:
        thread.start()
    client = Client(running.port)
    client.login(running.login_url)
    ids = pending_ids(client, WAITING, timeout=120)
    # Every ask holds a hook thread now; the policy's own answers still come.
    for command, expected in (("git status", "allow"), ("rm -rf x", "deny")):
        status, _, text = client.request(
            "POST", "/hooks/claude-code", hook_payload(running.directory, command), headers
        )
        assert status == 200
        assert json.loads(text)["hookSpecificOutput"]["permissionDecision"] == expected
    assert not answers  # nobody has answered the asks yet
    for ident in ids:
        status, _, _ = client.request(
            "POST", f"/asks/{ident}", {"action": "once", "csrf": client.csrf or ""},
            {"Accept": "application/json"},
        )  # fmt: skip
        assert status == 200
    for thread in threads:
        thread.join(timeout=120)
    assert answers == dict.fromkeys(range(WAITING), "allow")
