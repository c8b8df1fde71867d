"""The local transport: a Unix-domain socket per serving session.

The serving session listens on ``forwarding/<session>/serve.sock``, in a 0700 directory of the
user, and holds ``serve.lock`` (``flock``) for as long as it serves, so one process serves a
session at a time (``docs/decisions/0010-socket-transport.md``). A child connects,
sends its request as one line of JSON and reads the answer on the same connection: no file
carries a request or an answer, so nothing written into the state directory can answer an ask or
change one after it was sent.

Both ends check who is at the other end:

* the child opens the directories without following symlinks and refuses any that is not a
  directory of the user with mode 0700, refuses a socket entry that is not a socket of the user,
  and after connecting reads the listener's credentials (``SO_PEERCRED``): a listener of another
  user is refused. A ``pong`` must name the session asked for and the pid the kernel reported;
* the server reads the credentials of every connecting process and refuses another user's.

Liveness is the connection itself. A ping (connect, ``ping``, ``pong``) is the heartbeat. While a
request waits for a human, the server sends ``pending`` every :data:`REFRESH` seconds; a child
that hears nothing for :data:`STALE` seconds judges the server silent (hung or stopped). A
connection that closes before the answer (the server died) sends the child back to connecting,
for up to its grace: a server restarted under the same session id gets the same request again (the
same id and nonce) and answers it. A server answers each request id once and sends a repeated id
the answer it already gave.

Messages, one JSON object per line, each with ``"version": 1``:

* child → server: ``{"kind": "ping"}`` or a request (``protocol.Request``);
* server → child: ``pong`` (``session``, ``pid``, ``started``, ``dir``, ``relay``), ``pending``,
  a response (``protocol.Response``), or ``refused`` with a ``reason``.

This module holds what both ends share (the checked directories, the peer's credentials, the
framing) and the serving side, :class:`LocalInbound`; the child side, ``LocalTransport``, is in
:mod:`~clearance.authority.forwarding.local_child`.
"""

from __future__ import annotations

import errno
import os
import sys
import time

from clearance.authority.forwarding.private import (
    MAX_MESSAGE,
    UnsafeInbox,
    check_private,
    forwarding_root,
    safe_name,
)
from clearance.authority.forwarding.transport import Delivery

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from typing import Any


__all__ = [
    "LOCK",
    "REFRESH",
    "SOCKET",
    "STALE",
    "LocalInbound",
    "decode_line",
    "encode_line",
    "open_dirs",
    "peer_of",
    "socket_address",
]

SOCKET = "serve.sock"
LOCK = "serve.lock"
REFRESH = 1.0  # a waiting request hears "pending" this often
STALE = 5.0  # a connection silent this long is a hung or stopped server
CHECK = 2.0  # a server re-checks its directories this often
IDLE = 10.0  # a server drops a connection that sends nothing (or nothing more) this long
_DIR = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_PROC_FD = os.path.isdir("/proc/self/fd")
# ``socket`` (and ``enum`` with it), ``struct`` and ``threading`` are imported where they are
# used: a hook that only looks for a serving session (and finds none) never pays for them.


# -- who is at the other end ------------------------------------------------------------------


def peer_of(sock: socket.socket) -> tuple[int, int]:
    """``(pid, uid)`` of the process at the other end of a connected Unix socket, from the kernel
    (``SO_PEERCRED`` on Linux, ``LOCAL_PEERCRED``/``LOCAL_PEERPID`` on macOS)."""
    import socket
    import struct

    if hasattr(socket, "SO_PEERCRED"):
        pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET,
                                                              socket.SO_PEERCRED, 12))  # fmt: skip
        return pid, uid
    if sys.platform == "darwin":  # <sys/un.h>: SOL_LOCAL 0, LOCAL_PEERCRED 1, LOCAL_PEERPID 2
        cred = sock.getsockopt(0, 1, 76)
        _version, uid = struct.unpack_from("Ii", cred)
        (pid,) = struct.unpack("i", sock.getsockopt(0, 2, 4))
        return pid, uid
    raise OSError("this platform cannot tell who is at the other end of a local socket")


def socket_address(dir_fd: int, directory: str) -> str:
    """The socket's address: through the directory already opened and checked (Linux), so the
    path cannot be swapped between the check and the connect, and long state roots still fit in
    the 108 bytes of a socket address."""
    if _PROC_FD:
        return f"/proc/self/fd/{dir_fd}/{SOCKET}"
    path = os.path.join(directory, SOCKET)
    if len(os.fsencode(path)) > 100:
        raise UnsafeInbox(f"{path} is too long for a socket address; set CLEARANCE_HOME shorter")
    return path


def open_dirs(state: str, name: str) -> tuple[int, str]:
    """Open ``state/forwarding/<name>`` (``name``: a session id as :func:`safe_name` spells it)
    one directory at a time, never through a symlink, and
    check each: the state root and ``forwarding`` not writable by others, the session's own
    directory exactly 0700 — all of the user. Raises ``FileNotFoundError`` or
    :class:`UnsafeInbox`."""
    parts = [(state, False), ("forwarding", True), (name, True)]
    fd = -1
    path = ""
    try:
        for name, strict in parts:
            path = os.path.join(path, name) if path else name
            try:
                new = os.open(name, _DIR, dir_fd=fd) if fd >= 0 else os.open(name, _DIR)
            except OSError as exc:
                if isinstance(exc, NotADirectoryError) or exc.errno == errno.ELOOP:
                    raise UnsafeInbox(f"{path} is not a directory (a symlink is not accepted "
                                      "here)") from None  # fmt: skip
                raise
            if fd >= 0:
                os.close(fd)
            fd = new
            check_private(path, os.fstat(fd), strict=strict)
        return fd, path
    except BaseException:
        if fd >= 0:
            os.close(fd)
        raise


# -- framing ------------------------------------------------------------------------------------


def encode_line(message: dict[str, Any]) -> bytes:
    from clearance._json import dumps

    return dumps(message).encode("utf-8") + b"\n"


def decode_line(line: bytes) -> dict[str, Any] | None:
    from clearance._json import loads

    try:
        data = loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == 1 else None


# -- the serving side ---------------------------------------------------------------------------


class _Connection:
    """One connected requester: the reply handle the server answers through."""

    __slots__ = ("answered", "beat", "buffer", "closed", "lock", "peer", "sock", "state")

    def __init__(self, sock: socket.socket, peer: int) -> None:
        self.sock = sock
        self.peer = peer
        self.buffer = b""
        self.state = "reading"  # reading → waiting (a request was delivered) → done
        self.answered = False
        self.closed = False
        self.beat = time.monotonic()
        import threading

        self.lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> bool:
        final = message.get("kind") not in ("pending", "pong")
        with self.lock:
            if self.closed or self.answered:
                return False
            try:
                self.sock.sendall(encode_line(message))
            except OSError:
                return False
            if final:
                self.answered = True
            self.beat = time.monotonic()
            return True

    def gone(self) -> bool:
        return self.closed

    def close(self) -> None:
        with self.lock:
            if not self.closed:
                self.closed = True
                self.sock.close()


class LocalInbound:
    """The serving side of the local transport: listens for ``session`` under ``state``.

    ``describe()`` gives the ``pong`` fields (the server's session, pid, started, dir, relay);
    ``uid`` is the user allowed to connect (default: this process' own)."""

    def __init__(
        self,
        state: str,
        session: str,
        describe: Any,
        *,
        uid: int | None = None,
        reject: Any = None,
    ) -> None:
        self.state = state
        self.session = session
        self.describe = describe
        self.uid = os.getuid() if uid is None else uid
        self.reject = reject or (lambda why, pid: None)  # a refused connection, for the log
        self.directory = os.path.join(forwarding_root(state), safe_name(session))
        self.path = os.path.join(self.directory, SOCKET)
        self.listener: socket.socket | None = None
        self.lock_fd = -1
        self.inode = 0
        self.connections: dict[int, _Connection] = {}
        self.selector: Any = None
        self.checked = time.monotonic()
        self.unsafe = ""

    # -- life cycle --------------------------------------------------------------------------

    def open(self) -> None:
        """Take the session (one server at a time), then listen. Raises ``OSError`` saying why
        it cannot serve."""
        import fcntl
        import selectors
        import socket

        from clearance.authority.forwarding.state_dirs import private_path

        private_path(self.state, self.directory)
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(os.path.join(self.directory, LOCK), flags, 0o600)
        except OSError as exc:
            raise OSError(f"{self.directory}/{LOCK} cannot be opened ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise OSError(
                f"session {self.session} is already being served by another "
                "`clearance serve` (stop it first, or pick another --session)"
            ) from None
        self.lock_fd = fd
        dir_fd = -1
        try:
            dir_fd, _ = open_dirs(self.state, safe_name(self.session))
            try:
                os.unlink(SOCKET, dir_fd=dir_fd)  # left by a server that died: we hold the lock
            except FileNotFoundError:
                pass
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            old = os.umask(0o177)
            try:
                listener.bind(socket_address(dir_fd, self.directory))
            finally:
                os.umask(old)
            listener.listen(128)
            listener.setblocking(False)
            self.inode = os.stat(SOCKET, dir_fd=dir_fd, follow_symlinks=False).st_ino
        except BaseException:
            self._release()
            raise
        finally:
            if dir_fd >= 0:
                os.close(dir_fd)
        self.listener = listener
        self.selector = selectors.DefaultSelector()
        self.selector.register(listener, selectors.EVENT_READ, None)

    def _check(self) -> None:
        """Re-check the directories every :data:`CHECK` seconds (a symlink or a loosened mode
        since: children refuse the session then); report each new problem once."""
        now = time.monotonic()
        if now - self.checked < CHECK:
            return
        self.checked = now
        try:
            fd, _ = open_dirs(self.state, safe_name(self.session))
            os.close(fd)
        except OSError as exc:
            if str(exc) != self.unsafe:
                self.unsafe = str(exc)
                self.reject(f"unsafe inbox: {exc}", 0)
            return
        self.unsafe = ""

    def close(self) -> None:
        """Stop listening, remove the socket (when it is still ours), drop every connection."""
        for connection in list(self.connections.values()):
            connection.close()
        self.connections.clear()
        if self.selector is not None:
            self.selector.close()
            self.selector = None
        if self.listener is not None:
            try:
                if os.stat(self.path, follow_symlinks=False).st_ino == self.inode:
                    os.unlink(self.path)
            except OSError:
                pass
            self.listener.close()
            self.listener = None
        self._release()

    def _release(self) -> None:
        if self.lock_fd >= 0:
            os.close(self.lock_fd)
            self.lock_fd = -1

    # -- receiving ---------------------------------------------------------------------------

    def receive(self, timeout: float) -> list[Delivery]:
        self._check()
        self._keep_alive()
        out: list[Delivery] = []
        if self.selector is None:
            time.sleep(timeout)
            return out
        for key, _mask in self.selector.select(timeout):
            if key.data is None:
                self._accept()
                continue
            connection: _Connection = key.data
            try:
                chunk = connection.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                chunk = b""
            if not chunk:  # the requester hung up (done, or died)
                self.selector.unregister(connection.sock)
                self.connections.pop(id(connection), None)
                connection.close()
                continue
            if connection.state != "reading":
                continue  # one message per connection: anything after it is ignored
            connection.buffer += chunk
            if b"\n" in connection.buffer and connection.buffer.index(b"\n") <= MAX_MESSAGE:
                line = connection.buffer.partition(b"\n")[0]
                connection.buffer = b""
                delivery = self._message(connection, line)
                if delivery is not None:
                    out.append(delivery)
            elif len(connection.buffer) > MAX_MESSAGE:
                connection.buffer = b""
                connection.state = "done"
                out.append(Delivery(connection, None, f"the request is larger than "
                                    f"{MAX_MESSAGE} bytes", connection.peer))  # fmt: skip
        return out

    def _accept(self) -> None:
        import selectors

        assert self.listener is not None
        while True:
            try:
                sock, _ = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            try:
                pid, uid = peer_of(sock)
            except OSError as exc:
                self.reject(f"cannot tell who connected ({exc})", 0)
                sock.close()
                continue
            if uid != self.uid:
                self.reject(f"a process of uid {uid} (pid {pid}) connected; only uid {self.uid} "
                            "may forward here", pid)  # fmt: skip
                sock.close()
                continue
            sock.setblocking(False)
            connection = _Connection(sock, pid)
            sock.settimeout(2.0)  # for sends; reads happen only when the selector says so
            self.connections[id(connection)] = connection
            self.selector.register(sock, selectors.EVENT_READ, connection)

    def _message(self, connection: _Connection, line: bytes) -> Delivery | None:
        from clearance.authority.forwarding.protocol import ProtocolError, Request

        data = decode_line(line)
        if data is not None and data.get("kind") == "ping":
            connection.send({"version": 1, "kind": "pong", **self.describe()})
            connection.state = "done"
            return None
        connection.state = "waiting"
        connection.beat = time.monotonic()
        if data is None:
            return Delivery(connection, None, "not a JSON message of this protocol",
                            connection.peer)  # fmt: skip
        try:
            request = Request.from_json(data)
        except ProtocolError as exc:
            return Delivery(connection, None, f"not a valid request: {exc}", connection.peer)
        return Delivery(connection, request, "", connection.peer)

    def _keep_alive(self) -> None:
        """Tell every waiting requester the server is alive; drop connections that idle (sent
        nothing, or were answered and never closed) for :data:`IDLE` seconds."""
        now = time.monotonic()
        for key, connection in list(self.connections.items()):
            waiting = connection.state == "waiting" and not connection.answered
            if waiting and now - connection.beat >= REFRESH:
                connection.send({"version": 1, "kind": "pending"})
            elif not waiting and now - connection.beat >= IDLE:
                if self.selector is not None:
                    self.selector.unregister(connection.sock)
                del self.connections[key]
                connection.close()
