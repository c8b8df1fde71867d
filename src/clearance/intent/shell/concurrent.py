"""Statements that run at once: the elements of a pipeline (docs/shell-analysis.md, "Links and
files made in the line").

bash starts every element of a pipeline together, so what one element writes may be there
before another opens it, whichever stands first in the text: in ``bash run.sh | tee run.sh``
tee writes into the script bash reads as it runs, and in ``cat > x.sh | sh x.sh`` the shell may
read what cat wrote. The assembly checks a command that runs a file against what earlier
statements wrote as it meets it; :class:`Concurrent` keeps, for one assembly, what each
pipeline element ran and wrote, so that a write in a *later* element of the same pipeline
counts too. Two statements run at once when they lie in different elements of one pipeline
(``Scope.pipeline``); statements of one element run one after the other.
"""

from __future__ import annotations

from clearance.intent.sentinel import RUNS_WRITTEN, excerpt
from clearance.intent.shell.line import script
from clearance.intent.shell.token import absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.line import Line
    from clearance.intent.shell.statement import Scope
    from clearance.intent.shell.word import Word

    # The pipelines a statement lies in, each with the element (a scope) it lies in.
    Elements = tuple[tuple[object, Scope], ...]
    # A file a command runs as code: (its absolute path, its value, as shown); a value of None
    # is computed.
    Ran = tuple[str | None, str | None, str]

__all__ = ["Concurrent", "elements", "files_run", "runs_written"]


def elements(scope: Scope | None) -> Elements:
    """The pipelines the shell ``scope`` lies in, innermost first, each with its element."""
    out: list[tuple[object, Scope]] = []
    while scope is not None:
        if scope.pipeline is not None:
            out.append((scope.pipeline, scope))
        scope = scope.parent
    return tuple(out)


def at_once(one: Elements, other: Elements) -> bool:
    """Whether statements in ``one`` and ``other`` run at once: in two elements of a pipeline."""
    return any(pipe is them and element is not theirs
               for pipe, element in one for them, theirs in other)  # fmt: skip


def files_run(
    words: Sequence[Word], base: str | None, expand: Callable[[Word, str | None], str | None]
) -> list[Ran]:
    """The files the command ``words`` runs as code, which the line may write first (``echo
    'rm x' > f; . ./f``, ``cp a f; bash f``, ``… > x; ./x``, ``bash f | tee f``)."""
    out: list[Ran] = []
    for item in script(words):
        if isinstance(item, str):
            value: str | None = item
            shown = item
        else:
            value = expand(item, base)
            shown = item.raw
            if value is not None and "{}" in value:
                value = None  # `find … -exec bash {} \;`: whatever file find finds
        out.append((absolute(value, base) if value is not None else None, value, shown))
    return out


def runs_written(
    ran: Sequence[Ran], line: Line, written: Sequence[tuple[str | None, str]] | None = None
) -> Floor | None:
    """The floor of a command that runs a file of ``ran`` the line may write first (of
    ``written`` only, when given): a computed one, or one a write may have made."""
    for path, value, shown in ran:
        if value is None or line.wrote(path, value, written):
            why = f"runs '{excerpt(shown)}' as code, a file the line itself may write first"
            return (RUNS_WRITTEN, why)
    return None


class Concurrent:
    """What the pipeline elements of one assembly ran and wrote, to be met at its end."""

    __slots__ = ("ran", "wrote")

    def __init__(self) -> None:
        # (unit index, its words, its directory, where): a command that may run a file.
        self.ran: list[tuple[int, Sequence[Word], str | None, Elements]] = []
        self.wrote: list[tuple[int, int, Elements]] = []  # (first, end) in Line.written, where

    def floors(
        self, line: Line, expand: Callable[[Word, str | None], str | None]
    ) -> list[tuple[int, Floor]]:
        """The units (by index) that run a file a statement running at once with them may
        write, with their floor. ``expand`` gives a word's value in a directory."""
        out: list[tuple[int, Floor]] = []
        for index, words, base, where in self.ran:
            writers = [(first, end) for first, end, writer in self.wrote if at_once(where, writer)]
            if not writers:
                continue
            ran = files_run(words, base, expand)
            for first, end in writers:
                floor = runs_written(ran, line, line.written[first:end])
                if floor is not None:
                    out.append((index, floor))
                    break
        return out
