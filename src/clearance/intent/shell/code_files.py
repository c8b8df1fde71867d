"""The files a command runs as code (a sourced file, a shell's script operand, a makefile, the
program file of ``jq -f``), for the line's check of files it writes and then runs."""

from __future__ import annotations

from clearance.intent.shell.runners import SHELLS, script_operand

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.word import Word

__all__ = ["JQ_ONE", "JQ_TWO", "jq_program_file", "script"]

_SOURCES = frozenset({".", "source"})
_MAKES = frozenset({"make", "gmake"})

# jq(1) options that take one value, and two (a name and a value or file); `-f` is a flag.
JQ_ONE = frozenset({"-L", "--library-path", "--indent"})
JQ_TWO = frozenset({"--arg", "--argjson", "--slurpfile", "--rawfile", "--argfile"})


def jq_program_file(words: Sequence[Word]) -> Word | None:
    """The file jq reads its program from: with ``-f``/``--from-file`` (a flag, in any short
    cluster), its first operand (``jq -f prog.jq data.json``, ``jq prog.jq -rf data.json``)."""
    first: Word | None = None
    from_file, options = False, True
    rest = iter(words[1:])
    for word in rest:
        value = word.value
        if not options or value is None or value[:1] != "-" or len(value) < 2:
            if first is None:
                first = word
        elif value == "--":
            options = False
        elif value in JQ_TWO:
            next(rest, None)
            next(rest, None)
        elif value in JQ_ONE or value == "-L":
            next(rest, None)
        elif value == "--from-file" or (value[1] not in "-L" and "f" in value):
            from_file = True
    return first if from_file else None


def script(words: Sequence[Word]) -> list[Word | str]:
    """The files a command runs as code: ``. f``/``source f``, a shell's script operand
    (``bash f``), the command word itself when it is a path (``./f``), the makefile
    ``make`` reads (``-f f``, else ``Makefile``, ``makefile``, ``GNUmakefile``) and the
    program file of ``jq -f``; a ``str`` is a name in the current directory."""
    head = words[0]
    name = head.value
    if name is None:
        return []
    if "/" in name:
        return [head]
    if name == "jq":
        program = jq_program_file(words)
        return [program] if program is not None else []
    if name in _SOURCES:
        return [words[1]] if len(words) > 1 else []
    if name in _MAKES:
        files: list[Word | str] = []
        for i, word in enumerate(words[1:-1], 1):
            if word.value in ("-f", "--file", "--makefile"):
                files.append(words[i + 1])
        return files or ["GNUmakefile", "makefile", "Makefile"]
    shell = name.rsplit("/", 1)[-1]
    if shell not in SHELLS:
        return []
    at = script_operand(shell, [word.value for word in words])
    return [words[at]] if at is not None else []
