"""Text for a plain terminal: safe characters, their width in cells, wrapping and fitting.

Everything shown in the dialog comes from the agent or a subagent (a command, a path, a
requester's name), so nothing is written raw: control characters, C1 codes and every other
non-printable character (bidi overrides, zero-width marks, unassigned code points) are shown
as visible escapes by :func:`clearance._display.escape` (ESC as ``\\x1b``, U+202E as
``\\u202e``), so a value cannot move the cursor, recolour the screen or reorder what the human
reads.
"""

from __future__ import annotations

import unicodedata

from clearance._display import escape, escape_pieces

__all__ = ["BOLD", "DIM", "RESET", "REVERSE", "cells", "fit", "fit_middle", "visible", "wrap"]

BOLD = "\x1b[1m"
DIM = "\x1b[2m"
REVERSE = "\x1b[7m"
RESET = "\x1b[0m"
ELLIPSIS = "…"


def _char_cells(char: str) -> int:
    if " " <= char < "\x7f":
        return 1
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def visible(text: str) -> str:
    """``text`` with every character that could act on the terminal made visible."""
    return escape(text)


def cells(text: str) -> int:
    """Columns ``text`` (already :func:`visible`) takes on screen."""
    if text.isascii():
        return len(text)
    return sum(_char_cells(c) for c in text)


def fit(text: str, width: int) -> str:
    """``text`` made visible and cut to ``width`` cells, ending in ``…`` when cut."""
    text = visible(text)
    if cells(text) <= width:
        return text
    out: list[str] = []
    used = 0
    for char in text:
        size = _char_cells(char)
        if used + size > width - 1:
            break
        out.append(char)
        used += size
    return "".join(out) + ELLIPSIS if width > 0 else ""


def fit_middle(text: str, width: int) -> str:
    """``text`` made visible and cut to ``width`` cells in the middle, keeping both ends."""
    text = visible(text)
    if cells(text) <= width or width < 8:
        return fit(text, width)
    tail_width = (width - 1) // 3
    tail: list[str] = []
    used = 0
    for char in reversed(text):
        size = _char_cells(char)
        if used + size > tail_width:
            break
        tail.append(char)
        used += size
    head = fit(text, width - used)
    return head + "".join(reversed(tail))


def wrap(text: str, width: int, limit: int | None = None) -> tuple[list[str], int]:
    """Hard-wrap ``text`` to ``width`` cells, breaking at newlines too.

    Returns the visible lines (at most ``limit``) and how many characters of ``text`` they
    show, so a caller can say how many are left. Stops as soon as ``limit`` lines are full,
    so previewing a huge value costs no more than the preview.
    """
    width = max(width, 4)
    lines: list[str] = []
    line: list[str] = []
    used = 0
    for index, (char, shown_as) in enumerate(zip(text, escape_pieces(text), strict=True)):
        if char == "\n":
            lines.append("".join(line))
            line, used = [], 0
            if limit is not None and len(lines) >= limit:
                return lines, index + 1
            continue
        for piece in shown_as:  # an escape such as \\u202e may wrap too
            size = 1 if " " <= piece < "\x7f" else _char_cells(piece)
            if used + size > width and line:
                lines.append("".join(line))
                line, used = [], 0
                if limit is not None and len(lines) >= limit:
                    return lines, index
            line.append(piece)
            used += size
    if line or not lines:
        lines.append("".join(line))
    return lines, len(text)


def wrap_words(text: str, width: int, limit: int | None = None) -> tuple[list[str], int]:
    """Like :func:`wrap`, but prose breaks between words; a word wider than a line is cut.

    Text with a newline or anything :func:`visible` would change is hard-wrapped as by
    :func:`wrap`, so every character stays where the escaping shows it.
    """
    width = max(width, 4)
    if "\n" in text or visible(text) != text:
        return wrap(text, width, limit)
    lines: list[str] = []
    line = ""
    pos = 0  # where the current word starts in text
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if cells(candidate) <= width:
            line = candidate
        else:
            if line:
                lines.append(line)
                if limit is not None and len(lines) >= limit:
                    return lines, pos
            while cells(word) > width:
                part, taken = wrap(word, width, 1)
                lines.append(part[0])
                pos += taken
                word = word[taken:]
                if limit is not None and len(lines) >= limit:
                    return lines, pos
            line = word
        pos += len(word) + 1
    lines.append(line)
    return lines, len(text)
