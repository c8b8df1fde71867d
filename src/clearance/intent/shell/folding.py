"""Command words in another case (docs/configuration.md, "Case"; ADR 0042).

On a volume that folds case (macOS's default, WSL's ``/mnt/c``) bash finds ``Sudo`` as the file
``sudo``, ``Bash`` as ``bash``. Where a command word with capitals names, in lower case, a
program the analysis reads by its name — a wrapper, a shell, a launcher (what
:func:`~clearance.intent.shell.wrapper.layer` knows), or a program of the knowledge base — and
bash finds it as that program's file, the word is read in lower case, at every wrapper layer:
``Sudo rm -rf /`` runs the unit ``rm -rf /``. Where that cannot be told, the word is read so too
and the statement asks (:data:`~clearance.intent.sentinel.CASE_FOLDED`). On a case-sensitive
volume ``Sudo`` is another program, and its word stays as typed. The builtins whose effect on
the shell the analysis follows (``cd``, ``export``) are not read so: a capitalised spelling runs
a file, in a process of its own.
"""

from __future__ import annotations

from clearance.intent.sentinel import CASE_FOLDED
from clearance.intent.shell.launchers import LAUNCHERS
from clearance.intent.shell.names import KNOWLEDGE
from clearance.intent.shell.runners import RUNNERS, SHELLS
from clearance.intent.shell.unit_text import keywordless
from clearance.intent.shell.word import Word
from clearance.intent.shell.wrapper import INDIRECTION, basename, layer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.statement import Statement

__all__ = ["fold", "folded"]

# The names the analysis reads a program by: what `layer` knows (its own `find` and `fd`
# among them) and the knowledge base.
_NAMES = LAUNCHERS | RUNNERS | SHELLS | INDIRECTION | KNOWLEDGE | {"find", "fd"}
_LAYERS = 8  # command words followed through wrapper layers (the assembly peels fewer)


def fold(stmt: Statement, base: str | None) -> Sequence[Word] | None:
    """Lower the command words of ``stmt`` that name the lower-case program (:func:`folded`);
    where that cannot be told, floor it and return its words as typed, which count too."""
    for word in stmt.words:
        value = word.value
        if value and not value.islower() and basename(value).lower() in _NAMES:
            break
    else:
        return None  # `git commit -m "Fix"`: no word names such a program in another case
    found = folded(stmt.words, base)
    if found is None:
        return None
    typed = stmt.words
    stmt.words = found[0]
    if found[1] is None:
        return None
    stmt.floor = stmt.floor or found[1]
    return typed


def folded(words: Sequence[Word], base: str | None) -> tuple[list[Word], Floor | None] | None:
    """``words`` with the command word of each wrapper layer lowered where bash runs the
    lower-case program's file (from the directory ``base``, ``None``: unknown), and the floor
    when whether it does cannot be told; ``None`` when no word is lowered."""
    out: list[Word] | None = None
    floor: Floor | None = None
    end = len(words)
    at = end - len(keywordless(words)[0])  # `! Sudo rm x`: the command word after `!`
    for _ in range(_LAYERS):
        current = words if out is None else out
        word = current[at]
        value = word.value
        if value is None or word.glob or word.segs is not None:
            break  # a computed name: floored as such
        found = None
        name = basename(value)
        if not name.islower() and name.lower() != name:
            low = _lowered(word, value, name)
            found = layer([low, *current[at + 1 : end]])
            if found is None and basename(low.value or "") not in KNOWLEDGE:
                break  # a program the analysis reads by no name: the rules fold it
            from clearance.intent.volume import program_folds

            folds = program_folds(value, base)
            if folds is False:
                break  # another program (a case-sensitive volume)
            if out is None:
                out = list(words)
            out[at] = low
            if folds is None and floor is None:
                why = (
                    f'runs "{value}", which is "{low.value}" where the volume holding it folds '
                    "case, and clearance cannot tell whether it does"
                )
                floor = (CASE_FOLDED, why)
        else:
            found = layer(current[at:end])
        if found is None or found.kind == "opaque" or found.start is None:
            break
        if found.head is not None:
            # A launcher's command before its own `--` (`npx RM -- -rf ~`): fold that word;
            # one glued to an option (`fd -xRM`) is not folded
            if found.start < 2 or found.head is not current[at + found.start - 2]:
                break
            at, end = at + found.start - 2, at + found.end
            continue
        at, end = at + found.start, at + found.end
        if at >= end:
            break
    return None if out is None else (out, floor)


def _lowered(word: Word, value: str, name: str) -> Word:
    """``word`` with the name its value ends in lowered (as typed, ``raw`` is kept)."""
    low = word.copy()
    low.value = value[: len(value) - len(name)] + name.lower()
    return low
