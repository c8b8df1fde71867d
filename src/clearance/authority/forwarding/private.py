"""Private directories under the state root, for the forwarding socket.

Layout (docs/forwarding.md)::

    forwarding/<session>/serve.sock    the serving session's listening socket
    forwarding/<session>/serve.lock    flock held by the one process serving <session>

Every directory is a real directory (never a symlink), owned by the user and not writable by
group or others. One that is refuses with :class:`UnsafeInbox` — it is never "fixed": a socket may
already have been planted in it. A directory the user owns that is merely readable by others is
tightened by the server that creates it; a child only checks, and refuses anything but 0700.
"""

from __future__ import annotations

import os

__all__ = [
    "MAX_MESSAGE",
    "UnsafeInbox",
    "check_private",
    "forwarding_root",
    "private_dir",
    "safe_name",
]

MAX_MESSAGE = 1 << 20  # the largest request a serving session reads; a requester never sends more
_S_IFMT = 0o170000
_S_IFDIR = 0o040000


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


def forwarding_root(state: str) -> str:
    return os.path.join(state, "forwarding")


def check_private(path: str, st: os.stat_result, *, strict: bool) -> None:
    """Raise :class:`UnsafeInbox` unless ``st`` (of ``path``, not followed) is a directory of
    this user that others cannot write (``strict``: nor read, exactly 0700)."""
    if st.st_mode & _S_IFMT != _S_IFDIR:
        raise UnsafeInbox(f"{path} is not a directory (a symlink is not accepted here)")
    if st.st_uid != os.getuid():
        raise UnsafeInbox(f"{path} is owned by uid {st.st_uid}, not by this user")
    if st.st_mode & 0o022:
        raise UnsafeInbox(f"{path} is writable by other users (mode {st.st_mode & 0o777:04o})")
    if strict and st.st_mode & 0o077:
        raise UnsafeInbox(f"{path} is open to other users (mode {st.st_mode & 0o777:04o}, "
                          "want 0700)")  # fmt: skip


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
    check_private(path, st, strict=False)
    if st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path
