"""Dead, silent and restarted parents; unsafe directories; hostile messages; one server per
session; relays over two hops."""

from __future__ import annotations

import collections
import json
import os
import signal
import time
from pathlib import Path

from fwdharness import (
    Child,
    Serving,
    a_request,
    ask,
    connect,
    events,
    exchange_raw,
    inbox,
    line,
    named,
    review,
    serve,
    wait_for,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ALLOW_MAKE = {"permission": {"bash": {"*": "ask", "make *": "allow"}}}


def answered(world: Any) -> collections.Counter[str]:
    names = ("auto_approved", "auto_denied", "approved", "denied")
    wanted = {f"forwarded_permission.{n}" for n in names}
    return collections.Counter(e["requestId"] for e in review(world) if e["event"] in wanted)


def test_no_serving_session_within_the_grace_denies_saying_so(world: Any, project: Path) -> None:
    child = Child(world, "C1", "make x", cwd=project, parent="NOPE")
    result = child.result()
    assert result["decision"] == "deny"
    assert "Session 'NOPE' is not serving forwarded permission requests" in result["reason"]
    assert 1.5 < child.elapsed < 8
    [gone] = [e for e in events(world) if e["event"] == "forwarded_permission.no_serving_session"]
    assert gone["liveness"] == "absent" and gone["targetSession"] == "NOPE"


def test_a_parent_killed_mid_wait_is_noticed_within_the_grace(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, ALLOW_MAKE, human=True)
    child = Child(world, "C1", "npm publish", cwd=project, parent="P")
    server.read_screen("No, with a reason")
    killed = time.monotonic()
    server.kill()
    result = child.result(timeout=20)
    assert result["decision"] == "deny" and "its process is gone" in result["reason"]
    assert time.monotonic() - killed < 8  # the grace is 2 s; a hang would be 10 minutes
    # nothing of the request was ever on disk: only the dead server's lock and socket remain
    assert sorted(p.name for p in inbox(world, "P").iterdir()) == ["serve.lock", "serve.sock"]


def test_a_stopped_server_is_noticed_as_silent(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, ALLOW_MAKE, human=True)
    child = Child(world, "C1", "npm publish", cwd=project, parent="P")
    server.read_screen("No, with a reason")  # the child waits, hearing "pending" every second
    server.process.send_signal(signal.SIGSTOP)  # hung: the socket is there, nobody speaks
    try:
        result = child.result(timeout=30)
    finally:
        server.process.send_signal(signal.SIGCONT)
    assert result["decision"] == "deny" and "heartbeat went silent" in result["reason"]
    [silent] = named(world, "no_serving_session")
    assert silent["liveness"] == "stale"


def test_a_restarted_parent_answers_the_pending_requests_exactly_once(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    # The first server asks its human about everything, so that every request is still pending
    # when it dies: a server killed between logging an answer and sending it would log an
    # answer its requester never got, and the restarted one would rightly answer again.
    first = serve(servers, world, "P", project, {"permission": {"bash": {"*": "ask"}}}, human=True)
    grace = {"CLEARANCE_FORWARDING_GRACE_MS": "15000"}
    children = [Child(world, f"C{i}", f"make t{i}", cwd=project, parent="P", env=grace,
                      policy=json.dumps({"permission": {"bash": {"*": "ask"}}}))
                for i in range(3)]  # fmt: skip
    blocker = Child(world, "C9", "npm publish", cwd=project, parent="P", env=grace)
    first.read_screen("No, with a reason")  # the first server is busy with its human
    wait_for(lambda: len(named(world, "prompted")) == 4)  # the other three wait for the dialog
    first.kill()
    serve(servers, world, "P", project, ALLOW_MAKE)  # restarted, this time without a human
    results = [c.result() for c in children]
    assert [r["decision"] for r in results] == ["allow"] * 3
    assert blocker.result()["decision"] == "deny"  # asked again: nobody at the new server
    counts = answered(world)
    assert len(counts) == 4 and set(counts.values()) == {1}
    # every requester reconnected and sent the same request again: one id each, resolved once
    [denied] = named(world, "denied")
    prompted = collections.Counter(e["requestId"] for e in named(world, "prompted"))
    assert prompted[denied["requestId"]] == 2 and len(prompted) == 4
    assert len(named(world, "auto_approved")) == 3
    assert len(named(world, "request_created")) == 4


def test_a_request_sent_again_gets_the_answer_already_given_never_a_second_one(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    request = a_request("P", "make x", pid=os.getpid())
    first = exchange_raw(world, "P", line(request))
    again = exchange_raw(world, "P", line(request))  # as a requester does after a reconnect
    assert first["approved"] is True and again == first
    assert len(named(world, "auto_approved")) == 1
    replay = exchange_raw(world, "P", line({**request, "nonce": "0" * 32}))
    assert replay["kind"] == "refused" and "already received" in replay["reason"]


def test_a_symlinked_inbox_is_refused_by_child_and_server(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    requests = inbox(world, "P")
    elsewhere = world.root / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    requests.rename(world.root / "moved")
    requests.symlink_to(elsewhere)
    assert requests.is_symlink()
    result = ask(world, "C1", "make x", cwd=project, parent="P")
    assert result["decision"] == "deny" and "a symlink is not accepted" in result["reason"]
    assert list(elsewhere.iterdir()) == []
    wait_for(lambda: [e for e in named(world, "file_rejected") if "unsafe inbox" in e["why"]
                      and e.get("responderSession") == "P"])  # fmt: skip


def test_a_serving_session_refuses_to_start_on_a_symlinked_inbox(world: Any, project: Path) -> None:
    root = world.state / "forwarding"
    root.mkdir(parents=True, mode=0o700)
    world.state.chmod(0o700)
    (world.root / "elsewhere").mkdir(mode=0o700)
    (root / "P").symlink_to(world.root / "elsewhere")
    result = world.run("serve", "--session", "P", "--dir", str(project), "--no-human")
    assert result.returncode == 1
    assert "cannot serve session P" in result.stderr and "symlink" in result.stderr


def test_a_world_writable_inbox_is_refused(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    inbox(world, "P").chmod(0o777)
    result = ask(world, "C1", "make x", cwd=project, parent="P")
    assert result["decision"] == "deny" and "writable by other users" in result["reason"]


def test_garbage_messages_are_refused_logged_and_serving_goes_on(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    garbage = [
        b"{not json\n",
        line({"version": 99, "kind": "request"}),
        line({"version": 1, "kind": "request", "id": "../../etc"}),
        b"[1, 2, 3]\n",
        line(a_request("Q", "make x")),  # addressed to another session
    ]
    for data in garbage:
        answer = exchange_raw(world, "P", data)
        assert answer["kind"] == "refused" and "refused the request" in answer["reason"]
    with connect(world, "P") as sock:  # a half-sent message, then a hang-up
        sock.sendall(b'{"version": 1, "kind": "requ')
    assert ask(world, "C1", "make x", cwd=project, parent="P")["decision"] == "allow"
    assert len(named(world, "file_rejected")) == len(garbage)
    assert len(named(world, "auto_approved")) == 1


def test_one_session_is_served_by_one_process_at_a_time(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    first = serve(servers, world, "P", project, ALLOW_MAKE)
    result = world.run("serve", "--session", "P", "--dir", str(project), "--no-human")
    assert result.returncode == 1 and "already being served" in result.stderr
    assert first.alive()
    children = [Child(world, f"C{i}", f"make t{i}", cwd=project, parent="P") for i in range(24)]
    assert [c.result()["decision"] for c in children] == ["allow"] * 24
    counts = answered(world)
    assert len(counts) == 24 and set(counts.values()) == {1}
    received = [e for e in events(world) if e["event"] == "forwarded_permission.response_received"]
    assert len(received) == 24


def test_a_relay_forwards_an_ask_one_hop_up_with_the_original_provenance(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    top = serve(servers, world, "TOP", project, {"permission": {"bash": {"*": "ask"}}}, human=True)
    serve(servers, world, "MID", project, ALLOW_MAKE, relay=True, parent="TOP")
    assert ask(world, "C1", "make x", cwd=project, parent="MID")["decision"] == "allow"
    child = Child(world, "C1", "npm publish", cwd=project, parent="MID", agent="worker")
    screen = top.read_screen("No, with a reason")
    assert "agent worker" in screen and "session C1" in screen
    assert "Relayed by session MID" in screen
    top.press("s")
    result = child.result()
    assert result["decision"] == "allow" and result["resolution"] == "user_approved_for_session"
    grants = json.loads((world.state / "sessions" / "C1" / "grants.json").read_text())
    assert grants["grants"] == [{"surface": "bash", "pattern": "npm publish *"}]
    created = [e for e in events(world) if e["event"] == "forwarded_permission.request_created"]
    assert [(e["targetSession"], e["via"]) for e in created] == [
        ("MID", []), ("MID", []), ("TOP", ["MID"]),
    ]  # fmt: skip


def test_a_relay_with_nobody_above_it_denies_saying_so(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "MID", project, ALLOW_MAKE, relay=True)
    result = ask(world, "C1", "npm publish", cwd=project, parent="MID")
    assert result["decision"] == "deny" and "no session above it" in result["reason"]
