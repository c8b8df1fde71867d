"""An internal fault, told as a sentence: where in clearance it happened and what it said.

Used where clearance fails closed (a ``gate_error`` deny): the agent and the human read what
went wrong and where, never an internal exception's name or a bare errno. Imported only when
something has failed, so it costs the hook's path nothing.
"""

from __future__ import annotations

import errno

__all__ = ["describe", "os_reason", "what"]

_REASONS = {
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOENT: "does not exist",
    errno.EISDIR: "is a directory, not a file",
    errno.ENOTDIR: "a part of the path is not a directory",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device",
    errno.EEXIST: "already exists",
    errno.ELOOP: "too many symbolic links",
    errno.ENAMETOOLONG: "the name is too long",
}


def os_reason(exc: OSError) -> str:
    """``"permission denied"``: the reason of an :class:`OSError` in words, without its number."""
    if exc.errno in _REASONS:
        return _REASONS[exc.errno]
    return (exc.strerror or "the operating system refused").lower()


def describe(exc: BaseException) -> str:
    """``an internal fault at clearance/decide/engine.py:112: boom``."""
    return f"an internal fault at {_where(exc)}: {what(exc)}"


def what(exc: BaseException) -> str:
    """What a failure said, in words: ``/x/y: does not exist``, or its message (an ``OSError``
    without an error number is one clearance raised with a sentence)."""
    if isinstance(exc, OSError) and exc.errno is not None:
        reason = os_reason(exc)
        return f"{exc.filename}: {reason}" if exc.filename else reason
    return str(exc) or "it gave no detail"


def _where(exc: BaseException) -> str:
    """The last line of clearance's own code the fault passed through."""
    found = "clearance"
    tb = exc.__traceback__
    while tb is not None:
        path = tb.tb_frame.f_code.co_filename.replace("\\", "/")
        at = path.rfind("/clearance/")
        if at >= 0:
            found = f"{path[at + 1 :]}:{tb.tb_lineno}"
        tb = tb.tb_next
    return found
