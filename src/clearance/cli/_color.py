"""Colour on a terminal: decisions in distinct colours, ``ok``/``FAIL`` in doctor and validate.

``--color=auto`` (the default) colours only when the stream is a terminal and ``NO_COLOR`` is
unset or empty (https://no-color.org); ``always`` and ``never`` override both.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

__all__ = ["MODE", "enabled", "paint"]

MODE = "auto"

_CODES = {
    "allow": "32",  # green
    "ok": "32",
    "ask": "33",  # yellow
    "warning": "33",
    "deny": "31",  # red
    "FAIL": "1;31",  # bold red
    "error": "31",
}


def enabled(stream: TextIO) -> bool:
    if MODE == "always":
        return True
    if MODE == "never" or os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError, OSError):
        return False


def paint(text: str, word: str, stream: TextIO) -> str:
    """``text`` in ``word``'s colour (``allow``, ``ask``, ``deny``, ``ok``, ``FAIL``…)."""
    code = _CODES.get(word)
    if code is None or not enabled(stream):
        return text
    return f"\x1b[{code}m{text}\x1b[0m"
