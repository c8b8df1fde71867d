"""The inbox of one serving session: private directories, private files, claims.

Layout under the state root (DESIGN §6)::

    forwarding/<target>/requests/<id>.json     written by a child, atomically
    forwarding/<target>/responses/<id>.json    written by the serving session, atomically
    forwarding/<target>/claims/<id>.lock       held (flock) by the server answering <id>
    forwarding/serving/<session>.json          heartbeats (clearance.authority.forwarding.heartbeat)

Guarantees:

* every directory is a real directory (never a symlink), owned by the user and not writable by
  group or others — one that is refuses with :class:`UnsafeInbox` (it is never "fixed": files may
  already have been planted); a directory we own that is merely readable by others is tightened;
* every file is created 0600 through a temp file and a rename, and read with ``O_NOFOLLOW``,
  only when it is a regular file owned by the user and private (:class:`UnsafeFile` otherwise);
* a request is answered exactly once: a server claims it with an exclusive ``flock`` on its lock
  file (released by the kernel when the server dies, so a restarted server takes over), and holds
  the claim until the request file is gone; after taking a claim it re-checks that the request is
  still there and unanswered.
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "MAX_FILE",
    "Claim",
    "Inbox",
    "TooLarge",
    "UnsafeFile",
    "UnsafeInbox",
    "forwarding_root",
    "private_dir",
    "read_private_head",
    "read_private_json",
    "safe_name",
    "write_private_json",
]

MAX_FILE = 1 << 20  # the largest request or response read; a requester never writes more
_S_IFMT = 0o170000
_S_IFDIR = 0o040000
_S_IFREG = 0o100000
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def safe_name(session: str) -> str:
    """A session id as one file name: anything but ``[A-Za-z0-9._-]`` percent-encoded."""
    out = []
    for ch in session:
        if ch.isascii() and (ch.isalnum() or ch in "-_."):
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    name = "".join(out)
    return name if name not in ("", ".", "..") else "%2E" * max(1, len(name))


class UnsafeInbox(OSError):
    """A forwarding directory that must not be used (a symlink, foreign, or writable by others)."""


class UnsafeFile(OSError):
    """A file in a forwarding directory that must not be trusted."""


class TooLarge(ValueError):
    """A private file larger than :data:`MAX_FILE` (not read)."""


def forwarding_root(state: str) -> str:
    return os.path.join(state, "forwarding")


def private_dir(path: str, *, create: bool = True) -> str:
    """Check (and create, 0700) one directory; raise :class:`UnsafeInbox` when it is unsafe."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not create:
            raise
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        st = os.lstat(path)
    if st.st_mode & _S_IFMT != _S_IFDIR:
        raise UnsafeInbox(f"{path} is not a directory (a symlink is not accepted here)")
    if st.st_uid != os.getuid():
        raise UnsafeInbox(f"{path} is owned by uid {st.st_uid}, not by this user")
    if st.st_mode & 0o022:
        raise UnsafeInbox(f"{path} is writable by other users (mode {st.st_mode & 0o777:04o})")
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def _private_tree(state: str, *names: str) -> str:
    from clearance.policy.state import ensure_private_dir

    path = ensure_private_dir(state)
    for name in names:
        path = private_dir(os.path.join(path, name))
    return path


def write_private_json(path: str, data: dict[str, Any]) -> None:
    """``data`` as JSON at ``path``, 0600, all at once (temp file + rename)."""
    from clearance._json import dumps
    from clearance.policy.state import atomic_write

    atomic_write(path, dumps(data).encode("utf-8"))


def read_private_json(path: str) -> Any:
    """The JSON at ``path``: a private regular file of this user, never through a symlink.

    Raises ``FileNotFoundError`` when it is absent, :class:`UnsafeFile` when it must not be
    trusted, :class:`TooLarge` when it is larger than :data:`MAX_FILE`, ``ValueError`` when it is
    not JSON.
    """
    data = _read_private(path, MAX_FILE + 1)
    if len(data) > MAX_FILE:
        raise TooLarge(f"{path} is larger than {MAX_FILE} bytes")
    from clearance._json import loads

    try:
        return loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not UTF-8") from exc


def read_private_head(path: str, size: int) -> bytes:
    """The first ``size`` bytes of a private regular file of this user (as
    :func:`read_private_json` checks it)."""
    return _read_private(path, size)


def _read_private(path: str, size: int) -> bytes:
    try:
        fd = os.open(path, _READ)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise UnsafeFile(f"{path}: cannot be opened safely ({exc.strerror or exc})") from exc
    try:
        st = os.fstat(fd)
        if st.st_mode & _S_IFMT != _S_IFREG:
            raise UnsafeFile(f"{path} is not a regular file")
        if st.st_uid != os.getuid():
            raise UnsafeFile(f"{path} is owned by uid {st.st_uid}, not by this user")
        if st.st_mode & 0o077:
            raise UnsafeFile(f"{path} is readable or writable by others")
        chunks: list[bytes] = []
        left = size
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def _unlink(path: str) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True


class Claim:
    """An exclusive claim on one request: an ``flock`` on ``claims/<id>.lock``."""

    __slots__ = ("fd", "path")

    def __init__(self, fd: int, path: str) -> None:
        self.fd = fd
        self.path = path

    def release(self) -> None:
        """Remove the lock file (when it is still ours) and drop the lock."""
        if self.fd < 0:
            return
        try:
            if os.stat(self.path).st_ino == os.fstat(self.fd).st_ino:
                os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = -1


class Inbox:
    """The forwarding directories of serving session ``session`` under state root ``state``."""

    __slots__ = ("claims", "requests", "responses", "root", "session", "state")

    def __init__(self, state: str, session: str) -> None:
        self.state = state
        self.session = session
        self.root = os.path.join(forwarding_root(state), safe_name(session))
        self.requests = os.path.join(self.root, "requests")
        self.responses = os.path.join(self.root, "responses")
        self.claims = os.path.join(self.root, "claims")

    def prepare(self) -> Inbox:
        """Create or check every directory; raise :class:`UnsafeInbox` when one is unsafe."""
        name = safe_name(self.session)
        for leaf in ("requests", "responses", "claims"):
            _private_tree(self.state, "forwarding", name, leaf)
        return self

    def request_path(self, request_id: str) -> str:
        return os.path.join(self.requests, request_id + ".json")

    def response_path(self, request_id: str) -> str:
        return os.path.join(self.responses, request_id + ".json")

    def pending(self) -> list[str]:
        """Names of request files waiting, oldest name first (temp files skipped)."""
        try:
            names = os.listdir(self.requests)
        except OSError:
            return []
        return sorted(n for n in names if n.endswith(".json") and not n.startswith("."))

    def claim(self, request_id: str) -> Claim | None:
        """Claim ``request_id`` for answering, or ``None`` when another server has it or it is
        already answered (or gone)."""
        import fcntl

        path = os.path.join(self.claims, request_id + ".lock")
        flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path, flags, 0o600)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        claim = Claim(fd, path)
        # Answered or withdrawn while we were getting here: a response exists, or the request
        # is gone. Only a request that is there and unanswered is ours to answer.
        if os.path.lexists(self.response_path(request_id)) or not os.path.lexists(
            self.request_path(request_id)
        ):
            claim.release()
            return None
        return claim

    def answer(self, request_id: str, response: dict[str, Any], claim: Claim) -> bool:
        """Write the response, remove the request, release the claim. False when the requester
        had already withdrawn the request (nothing is written then)."""
        try:
            if not os.path.lexists(self.request_path(request_id)):
                return False
            write_private_json(self.response_path(request_id), response)
            _unlink(self.request_path(request_id))
            return True
        finally:
            claim.release()

    def withdraw(self, request_id: str) -> None:
        """The requester is done with ``request_id``: remove its request, then its response."""
        _unlink(self.request_path(request_id))
        _unlink(self.response_path(request_id))

    def discard(self, name: str) -> None:
        """Remove a request file that is malformed or foreign."""
        _unlink(os.path.join(self.requests, name))

    def sweep(self, now: float | None = None, *, max_age: float = 300.0) -> int:
        """Remove leftovers: responses nobody collected, lock files of gone requests, temp files
        older than ``max_age`` seconds. Returns how many files were removed."""
        now = time.time() if now is None else now
        removed = 0
        for directory in (self.responses, self.claims, self.requests):
            try:
                names = os.listdir(directory)
            except OSError:
                continue
            for name in names:
                path = os.path.join(directory, name)
                try:
                    age = now - os.lstat(path).st_mtime
                except OSError:
                    continue
                if directory == self.requests and not name.startswith("."):
                    continue  # requests expire by their own deadline (the server's business)
                if directory == self.claims and name.endswith(".lock"):
                    stem = name[: -len(".lock")]
                    if age < 5.0 or os.path.lexists(self.request_path(stem)):
                        continue
                    claim = self.claim_lock_only(path)
                    if claim is None:
                        continue
                    claim.release()
                    removed += 1
                    continue
                if age > max_age and _unlink(path):
                    removed += 1
        return removed

    @staticmethod
    def claim_lock_only(path: str) -> Claim | None:
        import fcntl

        try:
            fd = os.open(path, os.O_RDWR | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return Claim(fd, path)

    def remove_if_empty(self) -> None:
        """Remove the inbox when nothing is left in it (the server stopped)."""
        for leaf in (self.requests, self.claims, self.responses, self.root):
            try:
                os.rmdir(leaf)
            except OSError:
                return
