"""The grammar of a sed script, read once for both its readers (GNU sed(1), COMMANDS).

:func:`commands` splits a script into its commands: addresses (line numbers, ``$``, ``~``
steps, ``+N``, ``/regex/`` and ``\\cregexc``) and blocks (``{``, ``}``) are passed over, every
other command is one :data:`Command`. What the scan does not understand ends it, unread:
the caller treats the script as unknown. Two readers share it: ``effect`` proves a script
only reads and prints (:func:`reads_only`), the knowledge base (``hazards.text``) names what a
script runs, writes and reads. :func:`skip_regex` (a regex up to its closing delimiter, on
one line) also serves the knowledge base's awk lexer.
"""

from __future__ import annotations

from clearance.intent.shell.delimited import regex_end
from clearance.intent.shell.escape import unescaped

TYPE_CHECKING = False
if TYPE_CHECKING:
    Command = tuple[str, str, str]
    """``(letter, flags, file)``: the command letter; for ``s`` and ``y`` the flags after the
    last delimiter; the rest of the line (stripped) for ``e``, ``w``, ``W``, ``r``, ``R`` and
    the text commands ``a``, ``i``, ``c``, and for ``s///w`` the file after its ``w``/``W``."""

__all__ = ["commands", "reads_only", "skip_regex"]

_PASSED = frozenset(" \t\n;!,0123456789$~+{}")
# Commands that take the rest of the line: a file, a command, or text.
_LINE = frozenset("ewWrRaic")
# Commands whose argument, if any, is a label (`b t T :`, up to a blank, `;` or the line's end),
# a count (`l L q Q`) or a comment (`#`, the rest of the line).
_LABELLED = frozenset("bt:T#lLqQ")
_BARE = frozenset("pPnNdDgGhHxz=Fv")
# What makes a script do more than read its input and print: run a command, write, read a
# file, or (for the s command) a flag that does one of these.
_NOT_READING = frozenset("ewWrRaic")
_S_FLAGS_NOT_READING = frozenset("ewW")


def skip_regex(script: str, i: int, delimiter: str, brackets: bool = False) -> int:
    """Index just past the closing ``delimiter`` of a regex starting at ``i`` (-1 if none).
    With ``brackets``, a bracket expression is one piece, as sed and awk read it
    (``clearance.intent.shell.delimited``: -2 when implementations place its end apart)."""
    if brackets:
        return regex_end(script, i, delimiter, True)
    end = unescaped(script, i, delimiter + "\n")
    return -1 if end < 0 or script[end] == "\n" else end + 1


def _line(script: str, i: int) -> tuple[str, int]:
    """The rest of the line from ``i``, stripped, and the index of its end."""
    end = script.find("\n", i)
    if end < 0:
        end = len(script)
    return script[i:end].strip(), end


def commands(script: str, brackets: bool = False) -> tuple[list[Command], bool]:
    """The commands of ``script`` in order, and whether the scan read it to its end (when not,
    the list holds the commands before the part it could not follow). ``brackets``: read a
    regex's bracket expressions as one piece (``s/[/]/;/e`` is one ``s`` with the ``e`` flag);
    a caller reads a script both ways and takes what either finds."""
    out: list[Command] = []
    i = 0
    count = len(script)
    while i < count:
        ch = script[i]
        if ch in _PASSED:
            i += 1
            continue
        if ch == "/":
            i = skip_regex(script, i + 1, "/", brackets)
        elif ch == "\\" and i + 1 < count and script[i + 1] not in "\n\\":
            i = skip_regex(script, i + 2, script[i + 1], brackets)
        elif ch == "s" or ch == "y":
            if i + 1 >= count or script[i + 1] in "\n\\":
                return out, False
            delimiter = script[i + 1]
            # `s`'s pattern is a regex; its replacement and both of `y`'s strings are not
            i = skip_regex(script, i + 2, delimiter, brackets and ch == "s")
            if i >= 0:
                i = skip_regex(script, i, delimiter)
            if i < 0:
                return out, False
            start = i
            while i < count and script[i] not in ";\n}":
                if ch == "s" and script[i] in "wW":  # s///w FILE: the rest of the line
                    name, end = _line(script, i + 1)
                    out.append((ch, script[start : i + 1], name))
                    i = end
                    break
                i += 1
            else:
                out.append((ch, script[start:i], ""))
        elif ch in _LINE:
            text, i = _line(script, i + 1)
            out.append((ch, "", text))
        elif ch in _LABELLED:
            out.append((ch, "", ""))
            i += 1
            if ch == "#":  # a comment: the rest of the line
                while i < count and script[i] != "\n":
                    i += 1
            else:
                # GNU sed ends a label at a blank as at `;` (`:x e` is a label, then `e`),
                # and a count at its last digit; what follows is read as commands.
                while i < count and script[i] in " \t":
                    i += 1
                stop = ";\n \t" if ch in ":btT" else ";\n \t}#"
                while i < count and script[i] not in stop and (ch in ":btT" or script[i].isdigit()):
                    i += 1
        elif ch in _BARE:
            out.append((ch, "", ""))
            i += 1
        else:
            return out, False
        if i < 0:
            return out, False
    return out, True


def reads_only(script: str) -> bool:
    """Whether ``script`` is read to its end and only reads its input and prints: no ``e``,
    ``w``, ``W``, ``r``, ``R``, ``a``, ``i``, ``c``, no ``s///e`` or ``s///w``."""
    for brackets in (True, False):
        found, complete = commands(script, brackets)
        if not complete:
            return False
        for letter, flags, _ in found:
            if letter in _NOT_READING:
                return False
            if letter == "s" and not _S_FLAGS_NOT_READING.isdisjoint(flags):
                return False
    return True
