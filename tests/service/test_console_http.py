"""The console and the HTTP hook over real HTTP: a real ``clearance serve --listen`` on 127.0.0.1.

Negative tests first (no cookie, a wrong token, a missing CSRF token, a cross-origin POST, a
replayed login URL, a remote bind without TLS), each with its benign twin; then answers from the
console reaching a real child process that waits on its forwarded ask.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from servicekit import (
    POLICY,
    SRC,
    Client,
    Running,
    ask_child,
    child_answer,
    hook_payload,
    pending_ids,
    review_log,
)


def test_the_hook_needs_its_token(running: Running, world) -> None:  # type: ignore[no-untyped-def]
    client = Client(running.port)
    body = hook_payload(running.directory, "git status")
    status, _, _ = client.request("POST", "/hooks/claude-code", body)
    assert status == 401
    status, _, _ = client.request("POST", "/hooks/claude-code", body,
                                  {"Authorization": "Bearer " + "0" * 64})  # fmt: skip
    assert status == 401
    token = (world.state / "service" / "hook-token").read_text().strip()
    status, _, text = client.request("POST", "/hooks/claude-code", body,
                                     {"Authorization": f"Bearer {token}"})  # fmt: skip
    assert status == 200
    assert json.loads(text)["hookSpecificOutput"]["permissionDecision"] == "allow"
    status, _, text = client.request(
        "POST", "/hooks/claude-code", hook_payload(running.directory, "rm -rf build"),
        {"Authorization": f"Bearer {token}"},
    )  # fmt: skip
    answer = json.loads(text)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    assert "deleting files is not allowed here" in answer["permissionDecisionReason"]


def test_a_broken_config_never_loosens_the_hook(running: Running, world) -> None:  # type: ignore[no-untyped-def]
    token = (world.state / "service" / "hook-token").read_text().strip()
    client = Client(running.port)
    headers = {"Authorization": f"Bearer {token}"}
    # PermissionRequest: allow and deny answer, an ask is silence ({}), so nothing waits here.
    body = hook_payload(running.directory, "git status", event="PermissionRequest")
    _, _, text = client.request("POST", "/hooks/claude-code", body, headers)
    assert json.loads(text)["hookSpecificOutput"]["decision"]["behavior"] == "allow"
    world.global_config('{"permission": {"bash": {"git status*": "allow", "oops": 7}}')
    deadline = time.monotonic() + 20
    answer = json.loads(text)
    while answer and time.monotonic() < deadline:
        time.sleep(0.3)
        _, _, text = client.request("POST", "/hooks/claude-code", body, headers)
        answer = json.loads(text)
    assert answer == {}  # the allow now asks: Claude Code's own dialog decides


def test_the_console_needs_a_login(running: Running) -> None:
    client = Client(running.port)
    for path in ("/", "/events", "/decisions", "/grants"):
        status, _, text = client.request("GET", path)
        assert status == 401, path
        assert "one-time login URL" in text
    client.cookie = "clearance_console=" + "f" * 64  # a made-up session
    assert client.request("GET", "/")[0] == 401


def test_a_login_url_works_once_and_sets_a_strict_httponly_cookie(running: Running) -> None:
    first = Client(running.port)
    status, headers, _ = first.login(running.login_url)
    assert status == 303
    cookie = headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert first.request("GET", "/")[0] == 200
    replay = Client(running.port)
    status, headers, text = replay.login(running.login_url)
    assert status == 403 and "set-cookie" not in headers
    assert "already used" in text
    assert replay.request("GET", "/")[0] == 401


def test_state_changing_requests_need_the_csrf_token_and_the_same_origin(  # type: ignore[no-untyped-def]
    running: Running,
    world,
) -> None:
    client = Client(running.port)
    client.login(running.login_url)
    assert client.csrf
    child = ask_child(running, running.directory, "mkdir build")
    [ask] = pending_ids(client, 1)
    try:
        # no CSRF token
        status, _, text = client.request("POST", f"/asks/{ask}", {"action": "once"})
        assert status == 403 and "CSRF" in text
        # a wrong one
        status, _, _ = client.request("POST", f"/asks/{ask}", {"action": "once", "csrf": "0" * 64})
        assert status == 403
        # the right token from another origin, and from another site
        form = {"action": "once", "csrf": client.csrf}
        status, _, text = client.request("POST", f"/asks/{ask}", form,
                                         {"Origin": "http://evil.example"})  # fmt: skip
        assert status == 403 and "another origin" in text
        status, _, _ = client.request("POST", f"/asks/{ask}", form,
                                      {"Sec-Fetch-Site": "cross-site"})  # fmt: skip
        assert status == 403
        assert pending_ids(client, 1) == [ask]  # none of them answered it
        # the benign twin: same origin, with the token
        status, _, text = client.request(
            "POST", f"/asks/{ask}", form,
            {"Origin": running.base, "Sec-Fetch-Site": "same-origin"},
        )  # fmt: skip
        assert status == 200, text
        answer = child_answer(child)
        assert answer["permissionDecision"] == "allow"
    finally:
        if child.poll() is None:
            child.kill()


def test_console_answers_reach_the_child_first_answer_wins_and_are_logged(  # type: ignore[no-untyped-def]
    running: Running,
    world,
) -> None:
    client = Client(running.port)
    client.login(running.login_url)
    approve = ask_child(running, running.directory, "mkdir build")
    deny = ask_child(running, running.directory, "npm publish")
    ids = pending_ids(client, 2)
    accept = {"Accept": "application/json"}
    _, _, page = client.request("GET", "/")
    first, second = ids if "mkdir build" in page.split(ids[1])[0] else ids[::-1]
    status, _, _ = client.request(
        "POST", f"/asks/{first}", {"action": "once", "csrf": client.csrf or ""}, accept
    )
    assert status == 200
    status, _, text = client.request(
        "POST", f"/asks/{first}", {"action": "deny", "csrf": client.csrf or ""}, accept
    )
    assert status == 409, text  # first answer wins
    form = {
        "action": "deny",
        "reason": "publish from CI, not from an agent",
        "csrf": client.csrf or "",
    }
    status, _, _ = client.request("POST", f"/asks/{second}", form, accept)
    assert status == 200
    assert child_answer(approve)["permissionDecision"] == "allow"
    denied = child_answer(deny)
    assert denied["permissionDecision"] == "deny"
    assert "publish from CI, not from an agent" in denied["permissionDecisionReason"]
    answered = [r for r in review_log(world.state) if r["event"] == "console.answered"]
    assert {r["answer"] for r in answered} == {"once", "deny"}
    for record in answered:
        assert record["console"].startswith("console-") and record["address"].startswith(
            "127.0.0.1:"
        )
        assert record["console"] not in (client.cookie or "")  # the log never holds the cookie


def test_a_remote_bind_needs_tls_or_a_proxy(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project()
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "serve", "--listen", "0.0.0.0:0", "--dir", str(project)],
        env={**world.env, "PYTHONPATH": str(SRC)}, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "needs TLS" in proc.stderr and "--behind-proxy" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_always_writes_the_pattern_to_the_chosen_file_and_approves(  # type: ignore[no-untyped-def]
    running: Running,
    world,
) -> None:
    client = Client(running.port)
    client.login(running.login_url)
    child = ask_child(running, running.directory, "mkdir -p build")
    [ask] = pending_ids(client, 1)
    form = {"action": "always", "file": "global", "csrf": client.csrf or ""}
    status, _, text = client.request("POST", f"/asks/{ask}", form, {"Accept": "application/json"})
    assert status == 200, text
    config = world.config_home / "clearance" / "config.jsonc"
    assert (
        "Wrote bash" in json.loads(text)["message"] and str(config) in json.loads(text)["message"]
    )
    assert child_answer(child)["permissionDecision"] == "allow"
    assert '"mkdir *": "allow"' in config.read_text()
    [record] = [r for r in review_log(world.state) if r["event"] == "console.answered"]
    assert record["file"] == str(config) and record["backup"].startswith(
        str(world.state / "backups")
    )
    assert record["rule"] == {"surface": "bash", "pattern": "mkdir *"}


def test_a_notification_carries_a_deep_link_to_the_ask(world) -> None:  # type: ignore[no-untyped-def]
    sink = world.root / "links.txt"
    config = json.loads(POLICY)
    config["notify"] = {"command": ["sh", "-c", f'printf "%s\\n" "$0" >> {sink}', "{link}"]}
    world.global_config(json.dumps(config))
    running = Running(world.env, world.project())
    try:
        client = Client(running.port)
        client.login(running.login_url)
        child = ask_child(running, running.directory, "mkdir -p build")
        [ask] = pending_ids(client, 1)
        deadline = time.monotonic() + 20
        while not sink.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sink.read_text().strip() == f"{running.base}/#ask-{ask}"
        _, _, page = client.request("GET", "/")
        assert f'id="ask-{ask}"' in page  # the link's anchor
        client.request("POST", f"/asks/{ask}", {"action": "once", "csrf": client.csrf or ""})
        child_answer(child)
    finally:
        running.stop()


def test_a_link_from_another_site_gets_a_same_origin_click_and_nothing_else(
    running: Running,
) -> None:
    client = Client(running.port)
    client.login(running.login_url)
    navigate = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    status, _, text = client.request("GET", "/", headers=navigate)
    assert status == 200 and "id=continue" in text and "Pending asks" not in text
    assert 'name="csrf"' not in text  # no secret on a page another site made us show
    status, _, _ = client.request("GET", "/events", headers=navigate)
    assert status == 403


def test_a_child_waiting_on_the_console_is_answered_when_the_service_is_killed(
    running: Running,
) -> None:
    import signal

    client = Client(running.port)
    client.login(running.login_url)
    child = ask_child(running, running.directory, "mkdir -p build")
    pending_ids(client, 1)
    running.process.send_signal(signal.SIGKILL)
    running.process.wait(timeout=10)
    answer = child_answer(child)  # within the forwarding grace, never a hang
    assert answer["permissionDecision"] == "deny"
    assert "console-test" in answer["permissionDecisionReason"]
