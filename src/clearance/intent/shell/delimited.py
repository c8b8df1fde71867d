"""Where a delimited regex ends: sed's ``/re/``, ``\\cREc`` and ``s/re/…/``, awk's ``/re/``.

sed and awk read a bracket expression inside a regex as one piece, so the delimiter inside it
does not end the regex: ``s/[/]/;/e`` substitutes ``;`` for ``/`` and runs the line (the ``e``
flag), where a reader that stops at the first ``/`` sees an address ``/e;/`` and nothing that
runs. Implementations differ on the finer points (a leading ``[]…]`` or a ``[:class:]`` may end
a bracket early elsewhere, gawk honours a backslash inside one where POSIX does not), so a
scanner reads a script twice, with and without brackets (:func:`regex_end`), and takes what
either reading finds; a bracket whose end is not certain is :data:`UNPLACED`, and the scanner
floors.
"""

from __future__ import annotations

from clearance.intent.shell.escape import unescaped

__all__ = ["UNCLOSED", "UNPLACED", "regex_end"]

UNCLOSED = -1  # no closing delimiter on this line
UNPLACED = -2  # a bracket expression whose end the implementations place differently


def regex_end(text: str, i: int, delimiter: str, brackets: bool) -> int:
    """Index just past the ``delimiter`` that closes the regex starting at ``i``, reading a
    bracket expression as one piece when ``brackets``; :data:`UNCLOSED` or :data:`UNPLACED`."""
    marks = delimiter + "\n" + ("[" if brackets else "")
    while True:
        k = unescaped(text, i, marks)
        if k < 0 or text[k] == "\n":
            return UNCLOSED
        if text[k] == delimiter:
            return k + 1
        i = _bracket_end(text, k, delimiter)
        if i < 0:
            return i


def _bracket_end(text: str, i: int, delimiter: str) -> int:
    """Index just past the bracket expression opening at ``i``, read as POSIX and GNU sed read
    it. One holding a backslash is not placed; one holding the delimiter is placed only when it
    is plain (``[/]``, ``[^/]``): no ``[:class:]`` or collating element, no leading ``]``."""
    count = len(text)
    j = i + 1
    if j < count and text[j] == "^":
        j += 1
    plain = True
    if j < count and text[j] == "]":  # a leading `]` is a member (POSIX), or the end (older)
        plain = False
        j += 1
    while j < count:
        ch = text[j]
        if ch == "]":
            if not plain and delimiter in text[i + 1 : j + 1]:
                return UNPLACED
            return j + 1
        if ch == "\n":
            return UNCLOSED
        if ch == "\\":  # literal to POSIX and GNU sed, an escape to gawk
            return UNPLACED
        if ch == "[" and j + 1 < count and text[j + 1] in ".:=":
            close = text.find(text[j + 1] + "]", j + 2)
            if close < 0:
                return UNPLACED
            plain = False
            j = close + 2
            continue
        j += 1
    return UNCLOSED
