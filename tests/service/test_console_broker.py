"""The web console over the broker: one human in one browser answers agents on other machines.

A real ``redis-server`` and a real ``clearance serve --listen … --broker URL``; the agents are
real child processes asking through the broker (one claims another machine's name, as an agent in
a container or a CI runner does) and through the local socket. Every ask shows its machine; "yes,
for the whole session" lands in the broker's hash that every serving instance honours, and the
console's grants page lists and revokes it there.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "authority" / "forwarding"))

from redisharness import BrokerServing, RedisServer, audit, keygen, needs_redis
from servicekit import POLICY, SRC, Client, Running, ask_child, child_answer, pending_ids

pytestmark = needs_redis

ASK = """
import json, sys, time
sys.path.insert(0, {here!r})
from redisharness import transport
from clearance.authority.ask import Requester
from clearance.authority.forwarding.child import ForwardingAuthorizer
from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce
from clearance.decide.grant import Grant

child = ForwardingAuthorizer(state={state!r}, transport=transport({url!r}, {public!r},
                                                                  session={session!r}))
for command in {commands!r}:
    now = time.time()
    request = Request(
        id=new_id(), nonce=new_nonce(), target={session!r}, created=now, expires=now + 120,
        requester=Requester("explore", "ci-job", "/builds/app", "bash", "bash", command,
                            "claude-code", None, {machine!r}),
        reason="asked", gates=(GateFact("bash", "bash", command, (command,)),),
        grants=(Grant("bash", "npm publish*"),),
    )
    verdict = child.forward(request)
    print(json.dumps({{"action": verdict.action, "resolution": verdict.resolution}}), flush=True)
"""


def remote_agent(running: Running, url: str, public: str, state: Path, machine: str | None,
                 *commands: str) -> subprocess.Popen[str]:  # fmt: skip
    """An agent on another machine: its own state root, asking through the broker only."""
    code = ASK.format(here=str(Path(__file__).resolve().parents[1] / "authority" / "forwarding"),
                      state=str(state), url=url, public=public, session=running.session,
                      commands=list(commands), machine=machine)  # fmt: skip
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**running.env, "PYTHONPATH": str(SRC)})  # fmt: skip


def verdicts(agent: subprocess.Popen[str]) -> list[dict[str, Any]]:
    out, err = agent.communicate(timeout=120)
    assert agent.returncode == 0, err[-2000:]
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def answer(client: Client, ask: str, action: str) -> None:
    status, _, text = client.request("POST", f"/asks/{ask}", {"action": action,
                                                              "csrf": client.csrf or ""},
                                     {"Accept": "application/json"})  # fmt: skip
    assert status == 200, text


def wait_for(check: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def redis_server(tmp_path: Path) -> Any:
    server = RedisServer(tmp_path / "redis")
    yield server
    server.close()


def test_one_console_answers_agents_on_other_machines_and_keeps_session_grants_in_redis(
    world: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    world.global_config(POLICY)
    project = world.project()
    public = keygen(world.state, world.env)  # the serving machine's answer key
    running = Running(world.env, project, "--broker", redis_server.url)
    try:
        client = Client(running.port)
        client.login(running.login_url)
        grants_key = f"clearance:{running.session}:grants"
        # An agent in a container on "ci-runner-7" asks; the console names its machine.
        agent = remote_agent(running, redis_server.url, public, tmp_path / "runner",
                             "ci-runner-7", "npm publish", "npm publish")  # fmt: skip
        (first,) = pending_ids(client, 1)
        _, _, page = client.request("GET", "/")
        assert "ci-runner-7" in page and "npm publish" in page
        # "Yes, for the session": the grant goes to the broker's hash, and the agent's next
        # identical ask is approved by it without reaching the console.
        answer(client, first, "session")
        got = verdicts(agent)
        assert [v["action"] for v in got] == ["allow", "allow"], got
        assert got[1]["resolution"] == "session_approved", got
        assert redis_server.client().hkeys(grants_key) == [b"bash\x00npm publish*"]
        _, _, grants = client.request("GET", "/grants")
        assert "npm publish*" in grants
        # A second serving instance on another machine would read the same hash; revoking on
        # the console takes the grant out of it, and the next ask asks the human again.
        status, _, text = client.request("POST", "/grants/revoke", {
            "surface": "bash", "pattern": "npm publish*", "csrf": client.csrf or "",
        }, {"Accept": "application/json"})  # fmt: skip
        assert status == 200, text
        assert redis_server.client().hkeys(grants_key) == []
        _, _, grants = client.request("GET", "/grants")
        assert "npm publish*" not in grants
        # An older agent whose request names no machine: the stream entry's host name is shown.
        older = remote_agent(running, redis_server.url, public, tmp_path / "older", None,
                             "npm publish")  # fmt: skip
        (again,) = pending_ids(client, 1)
        _, _, page = client.request("GET", "/")
        assert f"{os.uname().nodename} (this machine)" in page
        answer(client, again, "deny")
        assert [v["action"] for v in verdicts(older)] == ["deny"]
        # An agent on this machine, through the local socket: its machine is named too.
        local = ask_child(running, running.directory, "mkdir build")
        (mine,) = pending_ids(client, 1)
        _, _, page = client.request("GET", "/")
        assert f"{os.uname().nodename} (this machine)" in page
        answer(client, mine, "once")
        assert child_answer(local)["permissionDecision"] == "allow"
        wait_for(lambda: not pending_ids_now(client))
        records = [json.loads(line) for line in
                   (world.state / "logs" / "review.jsonl").read_text().splitlines()]  # fmt: skip
        prompted = [r for r in records if r["event"] == "forwarded_permission.prompted"]
        assert [r.get("machine") for r in prompted] == [
            "ci-runner-7",
            os.uname().nodename,
            os.uname().nodename,
        ], prompted
        # Recent decisions name the machine of each ask too.
        here = f"{os.uname().nodename} (this machine)"
        rows = decision_rows(client)
        answered = [r for r in rows if r["event"] == "console.answered"]
        assert [(r["machine"], r["what"]) for r in answered] == [
            (here, "mkdir build"), (here, "npm publish"), ("ci-runner-7", "npm publish"),
        ], answered  # fmt: skip
        approved = [r for r in rows if r["event"] == "forwarded_permission.approved"]
        assert [r["machine"] for r in approved] == [here, "ci-runner-7"], approved
    finally:
        running.stop()


def decision_rows(client: Client) -> list[dict[str, str]]:
    """The rows of the console's recent decisions, newest first, by column name."""
    import html

    _, _, page = client.request("GET", "/decisions")
    head = re.findall(r"<th>([^<]*)</th>", page)
    rows = re.findall(r"<tr>((?:<td>.*?</td>)+)</tr>", page)
    cells = [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td>(.*?)</td>", r)]
             for r in rows]  # fmt: skip
    return [dict(zip(head, c, strict=True)) for c in cells if len(c) == len(head)]


def pending_ids_now(client: Client) -> list[str]:
    _, _, page = client.request("GET", "/")
    return re.findall(r'<article class=ask id="ask-([^"]+)"', page)


def test_with_its_broker_down_the_console_says_so_and_the_grant_stands(
    world: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    world.global_config(POLICY)
    project = world.project()
    public = keygen(world.state, world.env)
    running = Running(world.env, project, "--broker", redis_server.url)
    try:
        client = Client(running.port)
        client.login(running.login_url)
        agent = remote_agent(running, redis_server.url, public, tmp_path / "runner",
                             "ci-runner-7", "npm publish")  # fmt: skip
        (first,) = pending_ids(client, 1)
        answer(client, first, "session")
        assert [v["action"] for v in verdicts(agent)] == ["allow"]
        redis_server.stop()
        status, _, text = client.request("POST", "/grants/revoke", {
            "surface": "bash", "pattern": "npm publish*", "csrf": client.csrf or "",
        }, {"Accept": "application/json"})  # fmt: skip
        assert status == 503, text
        message = json.loads(text)["message"]
        assert "was not revoked, and stands" in message and "broker" in message, message
        assert "Traceback" not in message and "Errno" not in message, message
        _, _, page = client.request("GET", "/grants")
        assert "npm publish*" in page  # the serving session's copy: the grant still stands
        # "Yes, for the session" while the broker is down: the grant cannot reach the instances
        # that would honour it, so nothing is recorded and the ask is denied, saying why.
        local = ask_child(running, running.directory, "mkdir build")
        (mine,) = pending_ids(client, 1)
        answer(client, mine, "session")
        denied = child_answer(local)
        assert denied["permissionDecision"] == "deny", denied
        reason = denied["permissionDecisionReason"]
        assert "could not be recorded" in reason and "broker" in reason, reason
        assert "internal fault" not in reason, reason
        _, _, page = client.request("GET", "/grants")
        assert "mkdir" not in page and "npm publish*" in page
    finally:
        running.stop()


def console_on_broker(world: Any, redis_server: RedisServer) -> tuple[Running, Client, str, Path]:
    """``serve --listen … --broker URL`` for a project of ``world``, a client logged in to its
    console, the public half of its answer key, and the project."""
    world.global_config(POLICY)
    project: Path = world.project()
    public = keygen(world.state, world.env)
    running = Running(world.env, project, "--broker", redis_server.url)
    try:
        client = Client(running.port)
        client.login(running.login_url)
    except BaseException:
        running.stop()
        raise
    return running, client, public, project


def console_answers(
    running: Running, client: Client, url: str, public: str, tmp_path: Path, action: str
) -> list[str]:
    """An agent on "ci-runner-7" asks for ``npm publish`` through the broker, the console's
    human answers ``action``: the agent's verdicts."""
    agent = remote_agent(running, url, public, tmp_path / "runner",
                         "ci-runner-7", "npm publish")  # fmt: skip
    (first,) = pending_ids(client, 1)
    answer(client, first, action)
    return [v["action"] for v in verdicts(agent)]


class Pause:
    """Stops the console's instance (SIGSTOP), so it takes no ask of the broker, and resumes it."""

    def __init__(self, running: Running) -> None:
        self.running = running
        self.stopped = False

    def __call__(self, on: bool) -> None:
        os.kill(self.running.process.pid, signal.SIGSTOP if on else signal.SIGCONT)
        self.stopped = on


def elsewhere(running: Running, pause: Pause, url: str, public: str, home: Path, machine: str,
              command: str) -> list[tuple[str, str]]:  # fmt: skip
    """An agent on ``machine`` asks while the console's instance is stopped, so the session's
    other instance decides: its verdicts, as (action, resolution)."""
    pause(True)
    try:
        got = verdicts(remote_agent(running, url, public, home, machine, command))
    finally:
        pause(False)
    return [(v["action"], v["resolution"]) for v in got]


def stop_both(running: Running, pause: Pause, other: BrokerServing | None) -> None:
    if pause.stopped:
        pause(False)
    if other is not None:
        other.close()
    running.stop()


def second_instance(
    world: Any, running: Running, redis_server: RedisServer, tmp_path: Path, project: Path
) -> BrokerServing:
    """A second ``serve --broker`` of the console's session, as on another machine: the same
    answer key, its own state root, no human."""
    (tmp_path / "two" / "broker").mkdir(parents=True, mode=0o700)
    key = tmp_path / "two" / "broker" / "answer.key"
    shutil.copy(world.state / "broker" / "answer.key", key)
    key.chmod(0o600)
    other = BrokerServing(world.env, tmp_path / "two", running.session, redis_server.url,
                          project, json.loads(POLICY),
                          extra_env={"CLEARANCE_BROKER_VISIBILITY_MS": "1000"})  # fmt: skip
    other.wait_serving(redis_server.client())
    return other


def last_answer(redis_server: RedisServer, session: str) -> dict[str, str]:
    """The audit stream's latest answer: which instance (``consumer``) decided it, and how."""
    answered = [e for e in audit(redis_server.client(), session) if e["event"] == "answered"]
    return {"consumer": answered[-1]["consumer"], **json.loads(answered[-1]["record"])}


def test_a_console_session_grant_is_honoured_by_another_instance_until_revoked_on_the_console(
    world: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    """The console's instance and a second ``serve --broker`` on "another machine" (its own
    state root, no human): the grant the console gives for the whole session decides the next
    ask on the second instance, and revoking it on the console makes that instance ask again."""
    running, client, public, project = console_on_broker(world, redis_server)
    other: BrokerServing | None = None
    pause = Pause(running)
    try:
        grants_key = f"clearance:{running.session}:grants"
        assert console_answers(running, client, redis_server.url, public, tmp_path, "session") == [
            "allow"
        ]
        # The second instance: the same answer key, its own state (no copy of the grant).
        other = second_instance(world, running, redis_server, tmp_path, project)
        mark = f"-{other.process.pid}-"
        # The next ask of the session is decided by the second instance, from the hash.
        got = elsewhere(running, pause, redis_server.url, public, tmp_path / "runner",
                        "ci-runner-7", "npm publish")  # fmt: skip
        assert got == [("allow", "session_approved")], got
        assert mark in last_answer(redis_server, running.session)["consumer"]
        # Revoked on the console: the second instance no longer honours it (it has no human,
        # so the ask is denied as nobody's to approve).
        status, _, text = client.request("POST", "/grants/revoke", {
            "surface": "bash", "pattern": "npm publish*", "csrf": client.csrf or "",
        }, {"Accept": "application/json"})  # fmt: skip
        assert status == 200, text
        assert redis_server.client().hkeys(grants_key) == []
        got = elsewhere(running, pause, redis_server.url, public, tmp_path / "runner",
                        "ci-runner-7", "npm publish")  # fmt: skip
        assert got == [("deny", "confirmation_unavailable")], got
        assert mark in last_answer(redis_server, running.session)["consumer"]
        # A grant given on another instance's console is in the hash only: this console lists
        # it (read from the broker) and revokes it there.
        redis_server.client().hset(grants_key, "bash\x00cargo publish*", str(time.time()))
        wait_for(lambda: "cargo publish*" in client.request("GET", "/grants")[2])
        status, _, text = client.request("POST", "/grants/revoke", {
            "surface": "bash", "pattern": "cargo publish*", "csrf": client.csrf or "",
        }, {"Accept": "application/json"})  # fmt: skip
        assert status == 200, text
        assert redis_server.client().hkeys(grants_key) == []
        assert "cargo publish*" not in client.request("GET", "/grants")[2]
    finally:
        stop_both(running, pause, other)


def test_the_console_shows_the_decisions_of_the_sessions_other_instances_from_the_audit_stream(
    world: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    """An ask decided by a second ``serve --broker`` instance (no human there) is in the
    broker's audit stream only; this console's recent decisions show it, with the machine the
    ask came from and the instance that decided it, once, beside this instance's own."""
    running, client, public, project = console_on_broker(world, redis_server)
    other: BrokerServing | None = None
    pause = Pause(running)
    try:
        # This instance decides one (the human on its console), logged in its review log.
        assert console_answers(running, client, redis_server.url, public, tmp_path, "deny") == [
            "deny"
        ]
        other = second_instance(world, running, redis_server, tmp_path, project)
        mark = f"-{other.process.pid}-"
        got = elsewhere(running, pause, redis_server.url, public, tmp_path / "builder",
                        "build-box-3", "cargo publish")  # fmt: skip
        assert got == [("deny", "confirmation_unavailable")], got
        decided = last_answer(redis_server, running.session)
        assert mark in decided["consumer"] and decided["machine"] == "build-box-3", decided
        rows = decision_rows(client)
        theirs = [r for r in rows if r["machine"] == "build-box-3"]
        assert [(r["what"], r["decision"]) for r in theirs] == [("cargo publish", "deny")], theirs
        assert theirs[0]["event"] in ("broker.answered", "broker.refused"), theirs
        assert f"instance {decided['consumer']}" in theirs[0]["by"], theirs
        assert rows.index(theirs[0]) == 0, rows  # the newest decision, merged by time
        # This instance's own broker decision is shown from its review log, not a second time
        # from the audit stream.
        assert not [r for r in rows if r["event"].startswith("broker.")
                    and r["machine"] == "ci-runner-7"], rows  # fmt: skip
        assert [r for r in rows if r["machine"] == "ci-runner-7"], rows
        assert "broker-note" not in client.request("GET", "/decisions")[2]
        # Filtered like the review log: another tool hides it.
        _, _, page = client.request("GET", "/decisions?tool=read")
        assert "build-box-3" not in page
    finally:
        stop_both(running, pause, other)


def test_with_its_broker_down_the_decisions_page_shows_the_local_log_and_says_so(
    world: Any, redis_server: RedisServer, tmp_path: Path
) -> None:
    running, client, _public, _project = console_on_broker(world, redis_server)
    try:
        local = ask_child(running, running.directory, "mkdir build")
        (mine,) = pending_ids(client, 1)
        answer(client, mine, "once")
        assert child_answer(local)["permissionDecision"] == "allow"
        redis_server.stop()
        status, _, page = client.request("GET", "/decisions")
        assert status == 200, page
        assert "Traceback" not in page and "Errno" not in page, page
        assert "id=broker-note" in page and "broker could not be read" in page, page
        assert "mkdir build" in page  # this machine's review log, still shown
    finally:
        running.stop()
