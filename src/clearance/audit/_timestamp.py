"""ISO-8601 UTC timestamps with milliseconds, without importing ``datetime``."""

from __future__ import annotations

import time

__all__ = ["iso_timestamp"]


def iso_timestamp(now: float | None = None) -> str:
    """``2025-01-31T09:15:02.123Z`` for ``now`` (seconds since the epoch; default: the clock)."""
    if now is None:
        now = time.time()
    millis = int(now * 1000)
    seconds, millis = divmod(millis, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"
