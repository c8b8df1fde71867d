"""Errors as sentences: what failed and where, never a bare errno or an exception's class name."""

from __future__ import annotations

from clearance._fault import os_reason

__all__ = ["describe", "os_reason"]


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
