"""Statements that run at once: the elements of a pipeline, and a background job or a process
substitution beside what follows it (docs/shell-analysis.md, "Links and files made in the line").

bash starts every element of a pipeline together, so what one element writes may be there
before another opens it, whichever stands first in the text: in ``bash run.sh | tee run.sh``
tee writes into the script bash reads as it runs, and in ``cat > x.sh | sh x.sh`` the shell may
read what cat wrote. A background job or a process substitution runs on while the statements
after it run (``(sleep 1; bash run.sh) & echo … > run.sh``). The assembly checks a command that
runs a file against what earlier statements wrote as it meets it; :class:`Concurrent` keeps,
for one assembly, what such statements ran and wrote, so that a write that stands *later* but
may come first counts too: one in another element of the same pipeline, or any later one
outside the detached shell. Statements of one element or one detached shell run one after the
other.
"""

from __future__ import annotations

from clearance.intent.sentinel import OPAQUE, RUNS_WRITTEN, excerpt
from clearance.intent.shell.code_files import script
from clearance.intent.shell.token import absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.line import Line
    from clearance.intent.shell.statement import Scope
    from clearance.intent.shell.word import Word

    # Where a statement runs at once with others: (pipeline, element) or (detached, itself).
    Elements = tuple[tuple[object, Scope], ...]
    # A file a command runs as code: (its absolute path, its value, as shown); a value of None
    # is computed.
    Ran = tuple[str | None, str | None, str]

__all__ = ["Concurrent", "elements", "files_run", "runs_written", "streamed"]


def elements(scope: Scope | None) -> Elements:
    """Where the shell ``scope`` runs at once with others, innermost first: each pipeline it
    lies in with its element, and each detached shell it lies in (as itself, twice)."""
    out: list[tuple[object, Scope]] = []
    while scope is not None:
        if scope.pipeline is not None:
            out.append((scope.pipeline, scope))
        if scope.detached:
            out.append((scope, scope))
        scope = scope.parent
    return tuple(out)


def at_once(ran: Elements, wrote: Elements, later: bool) -> bool:
    """Whether a run in ``ran`` may come after a write in ``wrote`` (``later``: the write stands
    after the run in the text): in two elements of a pipeline, or written later outside a
    detached shell the run lies in."""
    for region, element in ran:
        if region is element:  # a detached shell: runs on beside what follows
            if later and not any(other is region for other, _ in wrote):
                return True
        elif any(other is region and theirs is not element for other, theirs in wrote):
            return True
    return False


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


def streamed(
    words: Sequence[Word], base: str | None, expand: Callable[[Word, str | None], str | None]
) -> Floor | None:
    """The floor of a command that runs as code a file whose text is not on disk: one that
    leads to a descriptor or standard input (``/dev/…``, ``/proc/…``), or is a pipe (FIFO), a
    socket or a device. Its text is what another process writes there: ``curl … | source lnk``
    beside ``lnk -> /dev/stdin`` runs what curl fetched. (The command word itself is left: a
    pipe or a device is not a program the system runs.)"""
    import os
    import stat

    links: dict[str, str | None] = {}  # what each step is a link to (None: no link)
    for item in script(words):
        if item is words[0]:
            continue
        value = item if isinstance(item, str) else expand(item, base)
        path = absolute(value, base) if value is not None else None
        if path is None or value is None:
            continue  # a computed one: opaque already, or asked about with what the line wrote
        if value == "-" or (
            value.startswith(_TYPED_STREAMS)
            and (words[0].value or "").rsplit("/", 1)[-1] in _NAMED_BY_TEXT
        ):
            # Typed as a descriptor: the wrappers and the shells' hazard name it so (not
            # `//dev/stdin` or `/dev/./stdin`: those are followed below).
            continue
        try:
            # Where it leads, followed link by link and never into `/dev` or `/proc`, whose
            # links the kernel would resolve for clearance's own process: a link to `/dev/fd/7`
            # leads to a descriptor the shell opens first (`source lnk 7<…`).
            mode = 0 if _into_devices(path, links) else os.stat(path).st_mode
        except (OSError, ValueError):
            # Nothing there now (what the line writes first is met by runs_written): the
            # shell, run as the same user, reads nothing either.
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            shown = item if isinstance(item, str) else item.raw
            why = (
                f"runs '{excerpt(shown)}' as code, which is no file on disk but a pipe, a "
                "device or a descriptor: its text is what another process writes there"
            )
            return (OPAQUE, why)
    return None


# The script operands a shell's hazard and `source`'s runner floor by their text.
_TYPED_STREAMS = ("/dev/stdin", "/dev/fd/", "/proc/")
_NAMED_BY_TEXT = frozenset({"source", ".", "bash", "sh", "dash", "zsh", "ksh"})


def _into_devices(path: str, links: dict[str, str | None]) -> bool:
    """Whether the absolute ``path`` passes into ``/dev`` or ``/proc`` on its way, each link
    read as text and followed in turn (as many as the kernel follows: past that, yes);
    ``links`` remembers each step read, for the other files of one command (a makefile's three
    names share their directory)."""
    import os

    queue = path.split("/")
    current = ""
    hops = 0
    while queue:
        part = queue.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            current = current.rsplit("/", 1)[0]
            continue
        step = current + "/" + part
        if step in ("/dev", "/proc"):
            return True
        if step not in links:
            try:
                links[step] = os.readlink(step)
            except OSError:  # no link (EINVAL), or nothing there
                links[step] = None
        target = links[step]
        if target is not None:
            hops += 1
            if hops > 40:
                return True
            queue = target.split("/") + queue
            if target.startswith("/"):
                current = ""
            continue
        current = step
    return False


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
    """What the statements of one assembly that run at once with others ran and wrote, to be
    met at its end."""

    __slots__ = ("detached", "ran", "wrote")

    def __init__(self) -> None:
        # (unit index, its words, its directory, where): a command that may run a file.
        self.ran: list[tuple[int, Sequence[Word], str | None, Elements]] = []
        # (first, end) in Line.written, where, and how many runs stood before it.
        self.wrote: list[tuple[int, int, Elements, int]] = []
        self.detached = False  # a run lies in a detached shell: every later write counts

    def run(self, index: int, words: Sequence[Word], base: str | None, where: Elements) -> None:
        self.ran.append((index, words, base, where))
        self.detached = self.detached or any(region is element for region, element in where)

    def floors(
        self, line: Line, expand: Callable[[Word, str | None], str | None]
    ) -> list[tuple[int, Floor]]:
        """The units (by index) that run a file a statement running at once with them may
        write, with their floor. ``expand`` gives a word's value in a directory."""
        out: list[tuple[int, Floor]] = []
        for number, (index, words, base, where) in enumerate(self.ran):
            writers = [(first, end) for first, end, writer, before in self.wrote
                       if at_once(where, writer, before > number)]  # fmt: skip
            if not writers:
                continue
            ran = files_run(words, base, expand)
            for first, end in writers:
                floor = runs_written(ran, line, line.written[first:end])
                if floor is not None:
                    out.append((index, floor))
                    break
        return out
