"""Errors as sentences: what failed and where, never a bare errno or an exception's class name."""

from __future__ import annotations

import errno

__all__ = ["describe", "os_reason"]

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
    """One sentence for an error that reached the command line."""
    if isinstance(exc, OSError):
        where = exc.filename if exc.filename is not None else None
        reason = os_reason(exc)
        if where is None:
            return f"failed: {reason}"
        other = f" → {exc.filename2}" if exc.filename2 is not None else ""
        return f"{where}{other}: {reason}"
    text = str(exc) or "no details"
    return f"failed unexpectedly ({text}); please report this with the command that was run"
