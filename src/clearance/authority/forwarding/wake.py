"""Waking up when a directory changes: inotify where the kernel has it, polling otherwise.

A :class:`Waker` watches one directory; :meth:`Waker.wait` returns when a file was created,
renamed into, or removed from it — or after the timeout. With inotify (Linux, through ``ctypes``:
``inotify_init1`` and ``inotify_add_watch`` from the C library) a round trip costs microseconds;
elsewhere, or when ``CLEARANCE_FORWARDING_WAKE=poll``, it sleeps :data:`POLL` seconds at a time.
Callers always re-check the directory after a wake-up: a wake-up is a hint, never a message.

Closing an inotify descriptor costs the kernel a grace period (milliseconds — more than the whole
round trip), so a closed waker keeps its descriptor in a per-process pool for the next waker on
the same directory; one whose directory went away (``IN_IGNORED``) is really closed.
"""

from __future__ import annotations

import os
import select
import time

__all__ = ["POLL", "Waker", "inotify_available"]

POLL = 0.05
_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000
# IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
_MASK = 0x8 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800
_IN_IGNORED = 0x8000
_libc: object = None
_POOL: dict[str, list[int]] = {}  # directory -> idle inotify descriptors watching it


def _load() -> object:
    global _libc
    if _libc is None:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.inotify_init1.argtypes = [ctypes.c_int]
            libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
            _libc = libc
        except (OSError, AttributeError, ImportError):
            _libc = False
    return _libc


def inotify_available() -> bool:
    return os.environ.get("CLEARANCE_FORWARDING_WAKE", "") != "poll" and bool(_load())


class Waker:
    """Wake-ups for changes in ``directory``."""

    __slots__ = ("dead", "directory", "fd", "mode")

    def __init__(self, directory: str, *, mode: str | None = None) -> None:
        self.directory = directory
        self.fd = -1
        self.dead = False
        wanted = mode or os.environ.get("CLEARANCE_FORWARDING_WAKE", "") or "auto"
        if wanted != "poll" and _load():
            try:
                self.fd = _POOL.get(directory, []).pop()  # list.pop is atomic: thread-safe
            except IndexError:
                self.fd = self._watch(directory)
        self.mode = "inotify" if self.fd >= 0 else "poll"

    @staticmethod
    def _watch(directory: str) -> int:
        libc = _load()
        fd = int(libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC))  # type: ignore[attr-defined]
        if fd < 0:
            return -1
        watch = libc.inotify_add_watch(fd, os.fsencode(directory), _MASK)  # type: ignore[attr-defined]
        if watch < 0:
            os.close(fd)
            return -1
        return fd

    def wait(self, timeout: float) -> bool:
        """Sleep until something changes in the directory (True) or ``timeout`` passes."""
        timeout = max(timeout, 0.0)
        if self.fd < 0 or self.dead:
            time.sleep(min(POLL, timeout))
            return False
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        self._drain()
        return True

    def _drain(self) -> None:
        try:
            while True:
                data = os.read(self.fd, 65536)
                if not data:
                    break
                offset = 0
                while offset + 16 <= len(data):  # struct inotify_event: wd, mask, cookie, len
                    mask = int.from_bytes(data[offset + 4 : offset + 8], "little")
                    if mask & _IN_IGNORED:
                        self.dead = True  # the directory is gone: this watch never wakes again
                    offset += 16 + int.from_bytes(data[offset + 12 : offset + 16], "little")
        except BlockingIOError:
            pass
        except OSError:
            self.dead = True

    def close(self) -> None:
        """Give the descriptor back to the pool (or really close it when its watch is dead)."""
        if self.fd < 0:
            return
        self._drain()
        if self.dead:
            os.close(self.fd)
        else:
            _POOL.setdefault(self.directory, []).append(self.fd)
        self.fd = -1
        self.mode = "poll"

    def __enter__(self) -> Waker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
