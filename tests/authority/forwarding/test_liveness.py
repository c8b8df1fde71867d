"""Dead, silent and restarted parents; hostile files; racing servers; relays over two hops."""

from __future__ import annotations

import collections
import json
import os
import time
from pathlib import Path

from fwdharness import Child, Serving, ask, events, inbox, review, serve

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
    assert not list((inbox(world, "P") / "requests").iterdir())  # the child withdrew it


def test_a_silent_heartbeat_counts_as_not_serving(world: Any, project: Path) -> None:
    serving = world.state / "forwarding" / "serving"
    serving.mkdir(parents=True, mode=0o700)
    (world.state / "forwarding").chmod(0o700)
    world.state.chmod(0o700)
    beat = {"version": 1, "kind": "heartbeat", "session": "P", "pid": os.getpid(),
            "started": time.time() - 60, "updated": time.time() - 30, "dir": str(project)}  # fmt: skip
    path = serving / "P.json"
    path.write_text(json.dumps(beat))
    path.chmod(0o600)
    result = ask(world, "C1", "make x", cwd=project, parent="P")
    assert result["decision"] == "deny" and "heartbeat went silent" in result["reason"]


def test_a_restarted_parent_answers_the_pending_requests_exactly_once(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    first = serve(servers, world, "P", project, ALLOW_MAKE, human=True)
    grace = {"CLEARANCE_FORWARDING_GRACE_MS": "15000"}
    children = [Child(world, f"C{i}", f"make t{i}", cwd=project, parent="P", env=grace,
                      policy=json.dumps({"permission": {"bash": {"*": "ask"}}}))
                for i in range(3)]  # fmt: skip
    blocker = Child(world, "C9", "npm publish", cwd=project, parent="P", env=grace)
    first.read_screen("No, with a reason")  # the first server is busy with its human
    first.kill()
    serve(servers, world, "P", project, ALLOW_MAKE)  # restarted, this time without a human
    results = [c.result() for c in children]
    assert [r["decision"] for r in results] == ["allow"] * 3
    assert blocker.result()["decision"] == "deny"  # asked again: nobody at the new server
    counts = answered(world)
    assert len(counts) == 4 and set(counts.values()) == {1}


def test_a_response_that_does_not_echo_the_nonce_is_ignored(world: Any, project: Path) -> None:
    from clearance.authority.forwarding.heartbeat import Heartbeat, publish
    from clearance.authority.forwarding.inbox import Inbox, write_private_json

    # This test process plays the serving session, so it can forge what a server may not.
    publish(str(world.state), Heartbeat("P", os.getpid(), time.time(), time.time(), str(project)))
    box = Inbox(str(world.state), "P").prepare()
    child = Child(world, "C1", "npm publish", cwd=project, parent="P")
    deadline = time.monotonic() + 15
    while not box.pending() and time.monotonic() < deadline:
        time.sleep(0.02)
    [name] = box.pending()
    request = json.loads(Path(box.requests, name).read_text())
    forged = {"version": 1, "kind": "response", "id": request["id"], "nonce": "0" * 32,
              "approved": True, "state": "approved", "reason": "forged", "responder": "P",
              "responded": time.time()}  # fmt: skip
    write_private_json(box.response_path(request["id"]), forged)
    while Path(box.response_path(request["id"])).exists() and time.monotonic() < deadline:
        publish(
            str(world.state), Heartbeat("P", os.getpid(), time.time(), time.time(), str(project))
        )
        time.sleep(0.05)
    assert child.process.poll() is None  # not fooled: still waiting
    real = {**forged, "nonce": request["nonce"], "approved": False, "state": "denied",
            "reason": "the real answer"}  # fmt: skip
    write_private_json(box.response_path(request["id"]), real)
    result = child.result()
    assert result["decision"] == "deny" and result["reason"] == "the real answer"
    [rejected] = [e for e in events(world) if e["event"] == "forwarded_permission.file_rejected"]
    assert "nonce" in rejected["why"]


def test_a_symlinked_inbox_is_refused_by_child_and_server(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    requests = inbox(world, "P") / "requests"
    elsewhere = world.root / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    for _ in range(50):  # the server re-creates a missing directory on its next pass: race it
        try:
            requests.rmdir()
            requests.symlink_to(elsewhere)
            break
        except OSError:
            continue
    assert requests.is_symlink()
    result = ask(world, "C1", "make x", cwd=project, parent="P")
    assert result["decision"] == "deny" and "a symlink is not accepted" in result["reason"]
    assert list(elsewhere.iterdir()) == []
    time.sleep(0.6)
    rejected = [e for e in events(world) if e["event"] == "forwarded_permission.file_rejected"]
    assert any("unsafe inbox" in e["why"] for e in rejected)


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


def test_garbage_and_foreign_files_are_ignored_logged_and_serving_goes_on(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    requests = inbox(world, "P") / "requests"
    files = {
        "req-" + "a" * 32 + ".json": "{not json",
        "req-" + "b" * 32 + ".json": json.dumps({"version": 99, "kind": "request"}),
        "not-an-id.json": "{}",
        "req-" + "c" * 32 + ".json": json.dumps([1, 2, 3]),
    }
    files["req-" + "d" * 32 + ".json"] = "{}"
    for name, text in files.items():
        hidden = requests / f".{name}.tmp"  # written aside, then renamed in, as a writer would
        hidden.write_text(text)
        hidden.chmod(0o644 if "d" * 32 in name else 0o600)  # readable by others: never trusted
        hidden.rename(requests / name)
    assert ask(world, "C1", "make x", cwd=project, parent="P")["decision"] == "allow"
    rejected = [e for e in events(world) if e["event"] == "forwarded_permission.file_rejected"]
    assert len(rejected) == 5
    assert [p.name for p in requests.iterdir()] == []


def test_an_entry_that_cannot_be_removed_is_rejected_once_not_on_every_pass(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    requests = inbox(world, "P") / "requests"
    stuck = ["req-" + "e" * 32 + ".json", "not-an-id.json"]
    for name in stuck:
        (requests / name).mkdir(mode=0o700)  # a directory: it cannot be unlinked
    time.sleep(1.5)  # about six passes
    assert ask(world, "C1", "make x", cwd=project, parent="P")["decision"] == "allow"
    rejected = [e for e in events(world) if e["event"] == "forwarded_permission.file_rejected"]
    assert sorted(e["file"] for e in rejected) == sorted(stuck)
    assert sorted(p.name for p in requests.iterdir()) == sorted(stuck)


def test_two_servers_racing_on_one_inbox_answer_each_request_exactly_once(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, ALLOW_MAKE)
    serve(servers, world, "P", project, ALLOW_MAKE)
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
