"""Forging an answer to a forwarded ask, against a real ``clearance serve``.

The threat: anything that can write into clearance's state directory — an agent whose file write
was allowed, a process of another user where the directory is loose — tries to approve an ask
that waits for the serving human. With the socket transport, no file carries a request, an
answer or a heartbeat with any authority: each forgery below must leave the ask to the human.
A process of the same user that can run code of its own can always impersonate a server (it can
run one); that is the policy's business (clearance's state is a protected path), not the
transport's — see docs/forwarding.md, "Threat model".
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest
from fwdharness import Child, Serving, ask, inbox, named, serve, wait_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

POLICY = {"permission": {"bash": {"*": "ask", "make *": "allow"}}}


def private(path: Path, text: str) -> None:
    """``text`` in a 0600 file, its new directories 0700, as a careful forger would write it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in path.parents:
        if parent.name == "state":
            break
        parent.chmod(0o700)
    path.write_text(text)
    path.chmod(0o600)


def approval(request_id: str, nonce: str) -> str:
    return json.dumps({"version": 1, "kind": "response", "id": request_id, "nonce": nonce,
                       "approved": True, "state": "approved", "reason": "forged",
                       "responder": "P", "responded": time.time()})  # fmt: skip


class FakeServer:
    """A listener that approves whatever reaches it: what a forger would run."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.bind(str(path))
        self.sock.listen()
        self.sock.settimeout(0.1)
        self.accepted = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            with conn:
                conn.settimeout(5)
                data = b""
                while b"\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                try:
                    message = json.loads(data.partition(b"\n")[0])
                except ValueError:
                    continue
                if message.get("kind") == "ping":
                    answer = {"version": 1, "kind": "pong", "session": "P", "pid": os.getpid(),
                              "started": 1.0, "dir": "/", "relay": False}  # fmt: skip
                    conn.sendall(json.dumps(answer).encode() + b"\n")
                else:
                    conn.sendall(approval(message["id"], message["nonce"]).encode() + b"\n")

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sock.close()


@pytest.fixture
def fakes() -> Iterator[list[FakeServer]]:
    started: list[FakeServer] = []
    yield started
    for fake in started:
        fake.close()


def waiting(world: Any, project: Path, servers: list[Serving]) -> tuple[Serving, Child, str]:
    """A real serving session with its human, and a child whose ask waits on the dialog; the
    request id, as the review log (readable to a forger) shows it."""
    server = serve(servers, world, "P", project, POLICY, human=True)
    child = Child(world, "C1", "npm publish", cwd=project, parent="P")
    server.read_screen("No, with a reason")
    [created] = named(world, "request_created")
    return server, child, created["requestId"]


def test_a_forged_response_file_approves_nothing(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server, child, request_id = waiting(world, project, servers)
    # Every place a response was ever read from, with the id from the log and any nonce.
    for nonce in ("0" * 32, "f" * 32):
        private(inbox(world, "P") / "responses" / f"{request_id}.json", approval(request_id, nonce))
        private(inbox(world, "P") / f"{request_id}.json", approval(request_id, nonce))
    server.press("n")  # the human, the only one who can answer, says no
    result = child.result()
    assert result["decision"] == "deny" and result["decidedBy"] == "forwarded"
    assert not named(world, "approved") and not named(world, "auto_approved")


def test_a_rewritten_request_changes_nothing_the_human_sees_or_answers(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server, child, request_id = waiting(world, project, servers)
    # The request never touched the disk: there is nothing to rewrite …
    assert sorted(p.name for p in inbox(world, "P").iterdir()) == ["serve.lock", "serve.sock"]
    # … and a request file planted where one used to be read is never read.
    planted = {"version": 1, "kind": "request", "id": request_id, "nonce": "0" * 32,
               "target": "P", "created": time.time(), "expires": time.time() + 60,
               "requester": {"session": "C1", "tool": "bash"}, "reason": "make x",
               "gates": [{"gate": "bash", "surface": "bash", "values": ["make x"]}]}  # fmt: skip
    private(inbox(world, "P") / "requests" / f"{request_id}.json", json.dumps(planted))
    server.press("y")
    result = child.result()
    assert (result["decision"], result["resolution"]) == ("allow", "user_approved")
    [approved] = named(world, "approved")
    assert approved["value"] == "npm publish"  # what the human saw and answered
    assert not named(world, "auto_approved")  # the planted "make x" was never resolved


def test_a_planted_heartbeat_is_not_a_serving_session(world: Any, project: Path) -> None:
    beat = {"version": 1, "kind": "heartbeat", "session": "P", "pid": os.getpid(),
            "started": time.time(), "updated": time.time() + 3600, "dir": str(project)}  # fmt: skip
    private(world.state / "forwarding" / "serving" / "P.json", json.dumps(beat))
    named_parent = ask(world, "C1", "npm publish", cwd=project, parent="P")
    assert named_parent["decision"] == "deny"
    assert "Session 'P' is not serving" in named_parent["reason"]
    found_by_cwd = ask(world, "C1", "npm publish", cwd=project)
    assert found_by_cwd["decision"] == "deny" and "no serving session" in found_by_cwd["reason"]


@pytest.mark.parametrize("mode", [0o755, 0o750, 0o770])
def test_a_fake_server_in_a_directory_others_can_open_is_never_asked(
    world: Any, project: Path, fakes: list[FakeServer], mode: int
) -> None:
    directory = inbox(world, "P")
    directory.mkdir(parents=True, mode=0o700)
    (world.state / "forwarding").chmod(0o700)
    fakes.append(FakeServer(directory / "serve.sock"))
    directory.chmod(mode)
    result = ask(world, "C1", "npm publish", cwd=project, parent="P")
    assert result["decision"] == "deny"
    assert "could not be used" in result["reason"] and f"{mode:04o}" in result["reason"]
    assert fakes[0].accepted == 0


def test_a_socket_entry_that_is_a_symlink_to_a_fake_server_is_refused(
    world: Any, project: Path, servers: list[Serving], fakes: list[FakeServer]
) -> None:
    real = serve(servers, world, "P", project, POLICY)
    fakes.append(FakeServer(world.root / "fake.sock"))
    real.socket.unlink()
    real.socket.symlink_to(world.root / "fake.sock")
    result = ask(world, "C1", "npm publish", cwd=project, parent="P")
    assert result["decision"] == "deny" and "is not a socket" in result["reason"]
    assert fakes[0].accepted == 0


def test_a_symlinked_directory_leading_to_a_fake_server_is_refused(
    world: Any, project: Path, fakes: list[FakeServer]
) -> None:
    elsewhere = world.root / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    fakes.append(FakeServer(elsewhere / "serve.sock"))
    (world.state / "forwarding").mkdir(parents=True, mode=0o700)
    inbox(world, "P").symlink_to(elsewhere)
    result = ask(world, "C1", "npm publish", cwd=project, parent="P")
    assert result["decision"] == "deny" and "a symlink is not accepted" in result["reason"]
    assert fakes[0].accepted == 0


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to listen as another user")
def test_a_listener_of_another_user_at_the_right_path_is_refused(world: Any, project: Path) -> None:
    # The directory and the socket file are the user's; the process listening on it is not.
    directory = inbox(world, "P")
    directory.mkdir(parents=True, mode=0o700)
    (world.state / "forwarding").chmod(0o700)
    world.state.chmod(0o700)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child process
        try:
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(str(directory / "serve.sock"))
            os.setresuid(65534, 65534, 65534)
            sock.listen()  # SO_PEERCRED reports the credentials of listen()
            os.write(write, b"x")
            conn, _ = sock.accept()
            conn.sendall(b'{"version": 1, "kind": "pong"}\n')
        finally:
            os._exit(0)
    try:
        os.read(read, 1)
        result = ask(world, "C1", "npm publish", cwd=project, parent="P")
        assert result["decision"] == "deny"
        assert "runs as uid 65534, not as this user" in result["reason"]
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(read)
        os.close(write)


def test_only_the_serving_human_answers_when_every_forgery_is_tried_at_once(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server, child, request_id = waiting(world, project, servers)
    beat = {"version": 1, "kind": "heartbeat", "session": "P", "pid": os.getpid(),
            "started": time.time(), "updated": time.time(), "dir": str(project)}  # fmt: skip
    private(world.state / "forwarding" / "serving" / "P.json", json.dumps(beat))
    private(inbox(world, "P") / "responses" / f"{request_id}.json", approval(request_id, "0" * 32))
    server.press("n")
    assert child.result()["decision"] == "deny"
    wait_for(lambda: named(world, "denied"))
