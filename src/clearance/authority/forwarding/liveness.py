"""Whether a requester is still there: the process that sent a forwarded request.

A serving session abandons a request whose requester is gone (the host killed its hook): it is
discarded unanswered, and no grant is recorded for it
(:mod:`~clearance.authority.forwarding.server`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.authority.forwarding.protocol import Request

__all__ = ["requester_gone"]


def requester_gone(request: Request) -> bool:
    """Whether the process that wrote ``request`` has exited (a zombie counts as exited); a
    request without a pid is never judged gone."""
    if request.pid <= 0:
        return False
    if not _pid_alive(request.pid):
        return True
    try:
        with open(f"/proc/{request.pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
    except OSError:
        return False
    return bool(fields) and fields[0] in (b"Z", b"X")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (another user's, say)
    return True
