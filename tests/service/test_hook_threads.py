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


def test_an_allow_with_its_engine_at_hand_takes_no_hook_thread(world) -> None:  # type: ignore[no-untyped-def]
    """ADR 0049: what the policy settles at once is answered on the event loop. The one hook
    thread is held by an ask waiting on the console; allows still come, and no second hook
    thread was started for them (counted in ``/proc/PID/task``). Without the loop's answer each
    allow needs a hook thread, and the pool starts one beside the busy one."""
    from pathlib import Path

    from servicekit import POLICY

    world.global_config(POLICY)
    project = world.project()
    # The engine stays fresh for the whole test: no re-check sends an allow to the pool.
    env = {**world.env, "CLEARANCE_ENGINE_RECHECK_MS": "600000"}
    service = Running(env, project)
    try:
        token = (world.state / "service" / "hook-token").read_text().strip()
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        client = Client(service.port)
        client.login(service.login_url)
        tasks = Path(f"/proc/{service.process.pid}/task")

        def allow() -> None:
            status, _, text = client.request(
                "POST", "/hooks/claude-code", hook_payload(project, "git status"), headers
            )
            assert status == 200
            assert json.loads(text)["hookSpecificOutput"]["permissionDecision"] == "allow"

        allow()  # loads the engine, on a hook thread: the pool's first
        answers: list[str] = []

        def ask() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", service.port, timeout=120)
            conn.request("POST", "/hooks/claude-code", hook_payload(project, "mkdir d"), headers)
            answers.append(json.loads(conn.getresponse().read())["hookSpecificOutput"]
                           ["permissionDecision"])  # fmt: skip

        waiting = threading.Thread(target=ask, daemon=True)
        waiting.start()
        (ident,) = pending_ids(client, 1, timeout=60)  # the one hook thread now waits with it
        before = len(list(tasks.iterdir())) if tasks.exists() else 0
        for _ in range(3):
            allow()
        if tasks.exists():  # Linux
            assert len(list(tasks.iterdir())) == before
        status, _, _ = client.request(
            "POST", f"/asks/{ident}", {"action": "once", "csrf": client.csrf or ""},
            {"Accept": "application/json"},
        )  # fmt: skip
        assert status == 200
        waiting.join(timeout=60)
        assert answers == ["allow"]
    finally:
        service.stop()
