"""Request ids: unguessable, url- and file-name-safe, cheap to make.

An id names a request across the review log, events and forwarding files
(``requests/<id>.json``), so it must not be guessable by another local process: 128 bits from
``os.urandom``, spelled in lowercase hex (``uuid`` and ``secrets`` stay off the hot path).
"""

from __future__ import annotations

import os

__all__ = ["new_request_id"]


def new_request_id() -> str:
    """``req-`` and 32 hex digits, e.g. ``req-5f0c…``; matches ``^[A-Za-z0-9._-]+$``."""
    return "req-" + os.urandom(16).hex()
