"""The child side of the local transport: find a serving session's socket, check who listens
on it, send a request and wait for the answer (:mod:`~clearance.authority.forwarding.local`
describes the transport, its checks and its messages; the serving side is there too).

Loaded only when a hook looks for a serving session.
"""

from __future__ import annotations

import os
import time

from clearance.authority.forwarding.local import (
    REFRESH,
    SOCKET,
    STALE,
    decode_line,
    encode_line,
    open_dirs,
    peer_of,
    socket_address,
)
from clearance.authority.forwarding.private import (
    MAX_MESSAGE,
    UnsafeInbox,
    forwarding_root,
    safe_name,
)
from clearance.authority.forwarding.transport import Beacon, Refused, TimedOut, Unreachable

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from typing import Any

    from clearance.authority.forwarding.protocol import Request, Response

__all__ = ["LocalTransport", "connect"]

_RETRY = 0.02  # between connection attempts while a server (re)starts
_S_IFMT = 0o170000
_S_IFSOCK = 0o140000


def _unsafe(exc: OSError, where: str) -> Unreachable:
    """An inbox that cannot be used: what :class:`UnsafeInbox` says, else the error at ``where``."""
    if isinstance(exc, UnsafeInbox):
        return Unreachable("unsafe", str(exc))
    return Unreachable("unsafe", f"{where}: {exc.strerror or exc}")


def connect(state: str, name: str, timeout: float) -> tuple[socket.socket, int]:
    """A checked connection to the server of the session whose directory is ``name``;
    ``(socket, server pid)``. Raises :class:`Unreachable`."""
    try:
        fd, directory = open_dirs(state, name)
    except FileNotFoundError:
        raise Unreachable("absent") from None
    except OSError as exc:
        raise _unsafe(exc, forwarding_root(state)) from None
    import socket

    sock = None
    try:
        path = os.path.join(directory, SOCKET)
        try:
            st = os.stat(SOCKET, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            raise Unreachable("absent") from None
        if st.st_mode & _S_IFMT != _S_IFSOCK:
            raise Unreachable("unsafe", f"{path} is not a socket")
        if st.st_uid != os.getuid():
            raise Unreachable("unsafe", f"{path} is owned by uid {st.st_uid}, not by this user")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        try:
            sock.connect(socket_address(fd, directory))
        except (FileNotFoundError, ConnectionRefusedError):
            raise Unreachable("dead_pid") from None  # a socket nobody listens on any more
        except TimeoutError:
            raise Unreachable("stale") from None
        except OSError as exc:
            raise _unsafe(exc, path) from None
        try:
            pid, uid = peer_of(sock)
        except OSError as exc:
            raise Unreachable("unsafe", str(exc)) from None
        if uid != os.getuid():
            raise Unreachable("unsafe", f"the process listening on {path} (pid {pid}) runs as "
                                        f"uid {uid}, not as this user")  # fmt: skip
        done, sock = sock, None
        return done, pid
    finally:
        os.close(fd)
        if sock is not None:
            sock.close()


class _Lines:
    """Reads newline-terminated messages from a socket with a deadline."""

    __slots__ = ("buffer",)

    def __init__(self) -> None:
        self.buffer = b""

    def next(self, sock: socket.socket, timeout: float) -> bytes | None:
        """The next line (without its newline); ``b""`` when the connection closed (or broke)
        first; ``None`` when nothing complete came within ``timeout``."""
        while b"\n" not in self.buffer:
            sock.settimeout(max(timeout, 0.001))
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                return None
            except OSError:
                return b""
            if not chunk:
                return b""
            self.buffer += chunk
            if len(self.buffer) > MAX_MESSAGE * 2:
                return b""
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line or b" "


class LocalTransport:
    """The child side of the local transport, for the state root ``state``; ``grace`` (seconds)
    is how long a server may be missing — not started yet, or restarting — before the child
    gives up."""

    __slots__ = ("grace", "state")

    def __init__(self, state: str, grace: float) -> None:
        self.state = state
        self.grace = grace

    def _wait(self) -> float:
        return min(max(self.grace, 0.5), STALE)

    def probe(self, session: str | None = None) -> list[Beacon]:
        if session is not None:
            return [self._ping(session)]
        root = forwarding_root(self.state)
        try:
            names = sorted(os.listdir(root))
        except OSError:
            return []
        found = []
        for name in names:
            if not os.path.lexists(os.path.join(root, name, SOCKET)):
                continue
            try:
                beacon = self._ping(None, name)
            except Unreachable:
                continue
            if safe_name(beacon.session) == name:
                found.append(beacon)
        return found

    def _ping(self, session: str | None, name: str = "") -> Beacon:
        """Ping a session (by id, or by directory ``name`` when discovering)."""
        wait = self._wait()
        sock, pid = connect(self.state, safe_name(session) if session is not None else name, wait)
        try:
            try:
                sock.sendall(encode_line({"version": 1, "kind": "ping"}))
            except OSError:
                raise Unreachable("dead_pid") from None
            line = _Lines().next(sock, wait)
        finally:
            sock.close()
        if line is None:
            raise Unreachable("stale")
        pong = decode_line(line) if line else None
        if line == b"":
            raise Unreachable("dead_pid")
        if pong is None or pong.get("kind") != "pong":
            raise Unreachable("unsafe", "the serving session did not answer a ping")
        beacon = _beacon(pong)
        if beacon is None or beacon.pid != pid or (session is not None
                                                   and beacon.session != session):  # fmt: skip
            raise Unreachable("unsafe", "the process on the socket is not the serving session")
        return beacon

    def exchange(self, request: Request, until: float) -> Response:
        from clearance.authority.forwarding.protocol import ProtocolError, Response

        message = encode_line(request.as_json())
        missing_since = time.monotonic()  # not connected since
        sock: socket.socket | None = None
        lines = _Lines()
        heard = missing_since
        spoke = False
        try:
            while True:
                now = time.monotonic()
                if now >= until:
                    raise TimedOut()
                if sock is None:
                    try:
                        name = safe_name(request.target)
                        sock, _pid = connect(self.state, name, self._wait())
                        sock.sendall(message)
                    except Unreachable as exc:
                        if sock is not None:
                            sock.close()
                            sock = None
                        if exc.why in ("unsafe", "stale") or now - missing_since >= self.grace:
                            raise
                        time.sleep(min(_RETRY, max(until - now, 0.0)))
                        continue
                    except OSError:  # it closed while we sent: it is (re)starting
                        if sock is not None:
                            sock.close()
                            sock = None
                        if now - missing_since >= self.grace:
                            raise Unreachable("dead_pid") from None
                        continue
                    lines = _Lines()
                    heard = time.monotonic()
                    spoke = False  # whether this server said anything on this connection
                line = lines.next(sock, min(REFRESH, until - now, STALE - (now - heard)))
                now = time.monotonic()
                if line is None:
                    if now - heard >= STALE:
                        raise Unreachable("stale")
                    continue
                if line == b"":  # the connection closed before the answer: reconnect, re-send
                    sock.close()
                    sock = None
                    if spoke:  # a server that was serving us went away: a fresh grace
                        missing_since = now
                    elif now - missing_since >= self.grace:  # one that hangs up at once
                        raise Unreachable("dead_pid")
                    time.sleep(min(_RETRY, max(until - now, 0.0)))
                    continue
                heard = now
                spoke = True
                data = decode_line(line)
                kind = data.get("kind") if data is not None else None
                if kind == "pending":
                    continue
                if kind == "refused" and data is not None:
                    reason = data.get("reason")
                    raise Refused(reason if isinstance(reason, str) and reason else
                                  "the serving session refused the request")  # fmt: skip
                try:
                    response = Response.from_json(data)
                except ProtocolError as exc:
                    raise Refused(
                        f"the serving session sent an unreadable answer ({exc})"
                    ) from None
                if response.id != request.id or response.nonce != request.nonce:
                    raise Refused("the serving session answered another request")
                return response
        finally:
            if sock is not None:
                sock.close()


def _beacon(data: dict[str, Any]) -> Beacon | None:
    session, pid, directory = data.get("session"), data.get("pid"), data.get("dir")
    started = data.get("started")
    if not (isinstance(session, str) and session and isinstance(directory, str)):
        return None
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return None
    if isinstance(started, bool) or not isinstance(started, (int, float)):
        return None
    return Beacon(session, pid, float(started), directory, data.get("relay") is True)
