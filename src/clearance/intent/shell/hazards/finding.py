"""What the knowledge base finds in one unit, and the option readers its checkers share.

:class:`Finding` collects a checker's verdict on one unit (see
:mod:`clearance.intent.shell.hazards`); :func:`option_values` and :func:`literal_line` read a
unit's option values the way every program family's checkers need them.
"""

from __future__ import annotations

from clearance.intent.sentinel import CODE_RUNNING

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.word import Word

    Values = Sequence[str | None]
    Checker = Callable[["Finding", Sequence[Word], Values], None]

__all__ = ["Checker", "Finding", "Values", "literal_line", "option_values"]


class Finding:
    """What the knowledge base found in one unit (see :mod:`clearance.intent.shell.hazards`)."""

    __slots__ = (
        "chdirs",
        "discovers",
        "floor",
        "folded",
        "git_dir",
        "git_sub",
        "listed",
        "paths",
        "payloads",
        "printed",
        "program_files",
        "reads",
        "tree_reads",
        "work_tree",
        "writes",
    )

    def __init__(self) -> None:
        self.floor: Floor | None = None
        self.payloads: list[str] = []
        self.writes: list[str] = []
        self.reads: list[str] = []
        self.tree_reads: list[str] = []  # relative to the top of the work tree (`HEAD:path`)
        self.paths: list[str] = []
        # files read whose names come from a list the line does not show (`sort --files0-from`)
        self.listed: list[str] = []
        # files a program reads its own program from, read where it runs (`jq -f prog.jq`)
        self.program_files: list[str] = []
        self.folded: str | None = None
        # git: it finds a repository from its directory after `-C` (``chdirs``, in order) or
        # is given one (``git_dir``), whose configuration names programs it runs (ADR 0040).
        self.discovers = False
        self.chdirs: list[str] = []
        self.git_dir: str | None = None
        # git: a subcommand that writes the work tree from what git holds (``git checkout
        # main``), its words from the subcommand on, and the global options that point git
        # at another repository or work tree (``--git-dir=D``, ``--work-tree=W``; ADR 0051).
        self.work_tree: tuple[tuple[str | None, ...], tuple[str, ...]] | None = None
        self.git_sub: str | None = None  # git's subcommand, when it is a literal word
        # git: a subcommand that may print files from its store (`git show`, `git log -p`),
        # its words from the subcommand on, and the relocating global options (ADR 0056).
        self.printed: tuple[tuple[str | None, ...], tuple[str, ...]] | None = None

    def runs(self, why: str, payload: str | None = None) -> None:
        """The option runs a command: floor the unit; a literal command is a payload too."""
        if self.floor is None:
            self.floor = (CODE_RUNNING, why)
        if payload:
            self.payloads.append(payload)

    def write(self, what: str, value: str | None) -> None:
        """The option writes the file ``value`` (a path token when literal, else a floor)."""
        if value:
            self.writes.append(value)
        else:
            self.runs(f"passes {what}, which writes a file clearance cannot name")

    def read(self, what: str, value: str | None) -> None:
        if value:
            self.reads.append(value)
        else:
            self.runs(f"passes {what}, which reads a file clearance cannot name")

    def __bool__(self) -> bool:
        return bool(
            self.floor
            or self.payloads
            or self.writes
            or self.reads
            or self.tree_reads
            or self.paths
            or self.listed
            or self.program_files
            or self.folded
            or self.discovers
            or self.work_tree
            or self.printed
        )


def option_values(
    values: Values, shorts: str, longs: Sequence[str], *, stop: bool = True
) -> list[tuple[str, str | None]]:
    """``(option, value)`` for each use of a value-taking option: ``-Xv``, ``-X v``, ``--long=v``,
    ``--long v``, and every abbreviation of ``longs`` down to one letter after ``--``: getopt
    and argp take any unique prefix (``sort --co=x`` is ``--compress-program``, ``tar --use``
    is ``--use-compress-program``), and a prefix the program finds ambiguous makes it refuse
    the line, so counting it costs nothing. An exact name wins over a prefix (``--cookie`` is
    not ``--cookie-jar``). ``value`` is ``None`` when computed or missing. ``stop``: ``--``
    ends options. A computed word among the options is reported as ``("?", None)``."""
    out: list[tuple[str, str | None]] = []
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        nxt = values[i + 1] if i + 1 < count else None
        i += 1
        if value is None:
            out.append(("?", None))
            continue
        if value == "--" and stop:
            break
        if value.startswith("--"):
            name, eq, rest = value.partition("=")
            long = _long_option(name, longs)
            if long is not None:
                if eq:
                    out.append((long, rest))
                else:
                    out.append((long, nxt))
                    i += 1
            continue
        if value.startswith("-") and len(value) > 1 and shorts:
            for j, letter in enumerate(value[1:], 1):
                if letter in shorts:
                    rest = value[j + 1 :]
                    if rest:
                        out.append(("-" + letter, rest))
                    else:
                        out.append(("-" + letter, nxt))
                        i += 1
                    break
    return out


def _long_option(name: str, longs: Sequence[str]) -> str | None:
    """The long option of ``longs`` that ``name`` (``--x…``, no value) names: itself, else the
    first one it abbreviates."""
    if name in longs:
        return name
    if len(name) < 3:
        return None
    return next((long for long in longs if long.startswith(name)), None)


def literal_line(values: Values) -> str | None:
    if not values or any(v is None for v in values):
        return None
    return " ".join(values)  # type: ignore[arg-type]
