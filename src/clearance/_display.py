"""Agent-controlled text made safe to print for a human: the one escaping function.

Every printer for people (the ask dialog, ``clearance serve``, ``log``, ``check``, ``explain``,
``doctor``, ``sessions``) passes text the agent could choose — commands, paths, reasons,
session ids, agent names, cwd — through :func:`escape` first, so no value can move the cursor,
set the clipboard (OSC 52), clear the screen or reorder what the human reads.

The spelling is backslash escapes, as in Python string literals, and it is reversible:

- newline, carriage return and tab become ``\\n``, ``\\r``, ``\\t``;
- every other character that is not printable — C0 controls (ESC is ``\\x1b``), DEL, C1 controls
  (U+0080–U+009F, e.g. ``\\x9b``), bidi overrides, isolates and marks (U+202A–U+202E,
  U+2066–U+2069, U+200E, U+200F, U+061C, e.g. ``\\u202e``), line and paragraph separators,
  zero-width and other format characters, unassigned and private-use code points, lone
  surrogates — becomes ``\\xHH``, ``\\uHHHH`` or ``\\UHHHHHHHH``;
- a backslash is doubled only where it would otherwise read as the start of an escape: before
  ``\\``, ``x``, ``u``, ``U``, ``n``, ``r``, ``t`` or before a character that is itself escaped.
  Elsewhere (``grep 'a\\.b'``) it stays single, so commands stay readable.

Reading back: ``\\\\`` is one backslash, the escapes above are their character, and any other
backslash is itself. Plain printable text is returned unchanged (one ``isascii`` test).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["escape", "escape_pieces"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_AFTER_BACKSLASH = frozenset("\\xuUnrt")


def _safe(char: str) -> bool:
    return char.isprintable() and char not in _NAMED


def _code(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_pieces(text: str) -> Iterator[str]:
    """What each character of ``text`` prints as, one piece per character, in order."""
    last = len(text) - 1
    for index, char in enumerate(text):
        if char == "\\":
            following = text[index + 1] if index < last else ""
            if following and (following in _AFTER_BACKSLASH or not _safe(following)):
                yield "\\\\"
            else:
                yield "\\"
        elif _safe(char):
            yield char
        else:
            yield _code(char)


def escape(text: str) -> str:
    """``text`` with every character that could act on a terminal shown as a visible escape."""
    if "\\" not in text and text.isprintable():  # printable excludes what would be escaped
        return text
    return "".join(escape_pieces(text))
