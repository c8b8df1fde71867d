"""The local socket transport: private directories, one server per session, who is at the other
end, and a request sent again after a reconnect."""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.authority.forwarding.local import SOCKET, LocalInbound, peer_of
from clearance.authority.forwarding.local_child import LocalTransport
from clearance.authority.forwarding.private import UnsafeInbox, private_dir
from clearance.authority.forwarding.transport import Unreachable


def describe() -> dict[str, object]:
    return {"session": "P", "pid": os.getpid(), "started": 1.0, "dir": "/srv", "relay": False}


def serving(state: Path, **options: object) -> LocalInbound:
    inbound = LocalInbound(str(state), "P", describe, **options)  # type: ignore[arg-type]
    inbound.open()
    return inbound


def pump(inbound: LocalInbound, stop: threading.Event) -> threading.Thread:
    def run() -> None:
        while not stop.is_set():
            inbound.receive(0.05)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_the_socket_lives_in_a_private_directory_and_is_0600(tmp_path: Path) -> None:
    inbound = serving(tmp_path / "state")
    try:
        directory = tmp_path / "state" / "forwarding" / "P"
        assert directory.stat().st_mode & 0o777 == 0o700
        assert (directory / SOCKET).stat().st_mode & 0o777 == 0o600
    finally:
        inbound.close()
    assert not (tmp_path / "state" / "forwarding" / "P" / SOCKET).exists()


def test_a_ping_is_answered_by_the_server_it_reached(tmp_path: Path) -> None:
    inbound = serving(tmp_path / "state")
    stop = threading.Event()
    thread = pump(inbound, stop)
    try:
        [beacon] = LocalTransport(str(tmp_path / "state"), 2.0).probe("P")
        assert (beacon.session, beacon.pid, beacon.directory) == ("P", os.getpid(), "/srv")
        assert [b.session for b in LocalTransport(str(tmp_path / "state"), 2.0).probe()] == ["P"]
    finally:
        stop.set()
        thread.join()
        inbound.close()


def test_a_second_server_for_the_same_session_is_refused(tmp_path: Path) -> None:
    first = serving(tmp_path / "state")
    try:
        with pytest.raises(OSError, match="already being served"):
            serving(tmp_path / "state")
    finally:
        first.close()
    serving(tmp_path / "state").close()  # free again once the first stopped


def test_a_socket_left_by_a_dead_server_is_replaced(tmp_path: Path) -> None:
    inbound = serving(tmp_path / "state")
    inbound.listener.close()  # type: ignore[union-attr]  # as if the process had died
    inbound._release()
    with pytest.raises(Unreachable) as gone:
        LocalTransport(str(tmp_path / "state"), 0.1).probe("P")
    assert gone.value.why == "dead_pid"
    serving(tmp_path / "state").close()


def test_the_server_refuses_a_process_of_another_user(tmp_path: Path) -> None:
    # The only way to be another user here is to tell the server it serves someone else.
    refused: list[tuple[str, int]] = []
    inbound = serving(tmp_path / "state", uid=os.getuid() + 4242,
                      reject=lambda why, pid: refused.append((why, pid)))  # fmt: skip
    stop = threading.Event()
    thread = pump(inbound, stop)
    try:
        with pytest.raises(Unreachable):
            LocalTransport(str(tmp_path / "state"), 1.0).probe("P")
    finally:
        stop.set()
        thread.join()
        inbound.close()
    [(why, pid)] = refused
    assert pid == os.getpid() and f"uid {os.getuid()}" in why


def test_peer_credentials_come_from_the_kernel() -> None:
    left, right = socket.socketpair(socket.AF_UNIX)
    with left, right:
        assert peer_of(left) == (os.getpid(), os.getuid())


def test_a_directory_writable_by_others_is_refused_not_repaired(tmp_path: Path) -> None:
    path = tmp_path / "d"
    path.mkdir(mode=0o700)
    path.chmod(0o733)
    with pytest.raises(UnsafeInbox, match="writable by other users"):
        private_dir(str(path))
    assert path.stat().st_mode & 0o777 == 0o733


def test_a_session_id_that_is_not_a_plain_file_name_is_served_and_discovered(
    tmp_path: Path,
) -> None:
    session = "team a/é"
    inbound = LocalInbound(str(tmp_path / "state"), session,
                           lambda: {**describe(), "session": session})  # fmt: skip
    inbound.open()
    stop = threading.Event()
    thread = pump(inbound, stop)
    try:
        transport = LocalTransport(str(tmp_path / "state"), 2.0)
        assert [b.session for b in transport.probe(session)] == [session]
        assert [b.session for b in transport.probe()] == [session]
    finally:
        stop.set()
        thread.join()
        inbound.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=300).filter(lambda b: b"\n" not in b))
def test_any_bytes_sent_as_a_message_are_refused_or_read_never_a_crash(
    tmp_path: Path, data: bytes
) -> None:
    from fwdharness import line

    from clearance.authority.forwarding.local_child import connect as _connect

    state = tmp_path / f"state-{os.urandom(4).hex()}"
    inbound = serving(state)
    try:
        sock, _ = _connect(str(state), "P", 2.0)
        with sock:
            sock.sendall(data + b"\n")
            deliveries = []
            for _ in range(20):
                deliveries += inbound.receive(0.05)
                if deliveries:
                    break
        [delivery] = deliveries
        assert (delivery.request is None) == bool(delivery.problem)
        assert delivery.peer == os.getpid()
        if delivery.request is not None:  # only a well-formed request is read
            assert line(delivery.request.as_json())
    finally:
        inbound.close()


def test_a_server_that_hangs_up_at_once_is_given_up_on_after_the_grace(tmp_path: Path) -> None:
    import time

    from clearance.authority.ask import Requester
    from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce

    inbound = serving(tmp_path / "state", uid=os.getuid() + 4242)  # closes every connection
    stop = threading.Event()
    thread = pump(inbound, stop)
    now = time.time()
    request = Request(id=new_id(), nonce=new_nonce(), target="P", created=now, expires=now + 600,
                      requester=Requester(None, "C1", "/tmp", "bash"), reason="asked",
                      gates=(GateFact("bash", "bash", "make x"),))  # fmt: skip
    try:
        with pytest.raises(Unreachable) as gone:
            LocalTransport(str(tmp_path / "state"), 0.5).exchange(request, time.monotonic() + 30)
    finally:
        stop.set()
        thread.join()
        inbound.close()
    assert gone.value.why == "dead_pid"  # after the grace, not at the deadline
