"""The backslash escape as bash reads it outside single quotes: a backslash takes the next
character with it, whatever that character is. The scanners that look for the first character of
a kind that no backslash escapes (a closing quote or backtick, a regex delimiter, a ``$``) share
:func:`unescaped`.
"""

from __future__ import annotations

__all__ = ["unescaped"]


def unescaped(text: str, k: int, marks: str) -> int:
    """The index of the first character of ``marks`` at or after ``k`` that no backslash
    escapes, or -1."""
    n = len(text)
    while k < n:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch in marks:
            return k
        k += 1
    return -1
