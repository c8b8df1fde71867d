"""``find … -exec PROGRAM … {} +``: the commands find runs, on the entries it finds now (ADR 0043).

``find`` is a wrapper whose inner command runs on the paths it finds beneath its start points.
Where every part of that is known, the inner command is the program it runs on those paths, and
the analysis reads it so: the entries are found on disk the way find finds them (every entry
beneath each start point, the start point included, hidden ones too, links not followed), kept
by the ``-name`` patterns an entry must match, and substituted for ``{}``. The commands so made
are units of their own, decided and projected like typed ones (``rm -rf a/__pycache__`` meets
the ``rm`` rules and its path the path rules), and the ``find`` unit is no longer floored.

All of these must hold, or :func:`commands` gives ``None`` and the ``find`` unit keeps its
floor (``<indirection-bash-wrapper>``):

* the line is this command alone (:attr:`Line.alone`): nothing in it makes an entry first;
* find's options before the start points are at most ``-P``: ``-H``/``-L``/``-follow`` follow
  links out of the tree, ``-D``/``-O`` are not read;
* every start point is a literal word (no glob, no expansion) naming a path beneath the line's
  working directory (symlinks resolved), which is itself no symlink;
* every word of the expression is one :data:`_FLAGS`, :data:`_VALUED` or :data:`_OPERATORS`
  names; ``-files0-from`` (start points from a file), ``-delete``, ``-fprint…``, ``-fls`` and
  any other action are not;
* exactly one action runs a command, ``-exec`` (``-execdir`` runs in each entry's directory,
  ``-ok`` asks on the terminal), and nothing follows its terminator;
* its command is a literal program that is no wrapper, shell or runner, every word of it is
  literal, and ``{}`` stands only as a whole word (``{}.bak`` is a name find builds): once,
  last, before ``+``; anywhere before ``;``;
* the walk stays within :data:`MAX_VISITED` entries and :data:`MAX_ENTRIES` kept ones.

``-name`` narrows only when the expression is a plain conjunction (no ``-o``, ``!``, ``(``) and
the test comes before ``-exec``; a pattern is read with ``*`` and ``?`` only (``[`` and ``\\``
keep every entry). Every other test is ignored, which keeps more entries, never fewer.
"""

from __future__ import annotations

import os

from clearance.intent.shell.token import absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.layer import Layer
    from clearance.intent.shell.line import Line
    from clearance.intent.shell.word import Word

__all__ = ["MAX_ENTRIES", "MAX_VISITED", "commands"]

MAX_ENTRIES = 256  # entries handed to the command, as a glob's matches are bounded
MAX_VISITED = 10_000  # entries walked beneath the start points
# Expression words without a value: global options, tests and actions that only print.
_FLAGS = frozenset({
    "-a", "-and", "-d", "-depth", "-ignore_readdir_race", "-noignore_readdir_race", "-mount",
    "-xdev", "-noleaf", "-nowarn", "-warn", "-daystart", "-empty", "-executable", "-false",
    "-nogroup", "-nouser", "-readable", "-true", "-writable", "-print", "-print0", "-ls",
    "-prune", "-quit",
})  # fmt: skip
# Expression words that take the next word as their value.
_VALUED = frozenset({
    "-maxdepth", "-mindepth", "-regextype", "-amin", "-anewer", "-atime", "-cmin", "-cnewer",
    "-ctime", "-context", "-fstype", "-gid", "-group", "-ilname", "-iname", "-inum", "-ipath",
    "-iregex", "-iwholename", "-links", "-lname", "-mmin", "-mtime", "-name", "-newer", "-path",
    "-perm", "-regex", "-samefile", "-size", "-type", "-uid", "-used", "-user", "-wholename",
    "-xtype", "-printf",
})  # fmt: skip
# Operators: an entry may then pass without the tests before -exec (no narrowing).
_OPERATORS = frozenset({"(", ")", "!", "-not", "-o", "-or", ","})
_NAME_UNREAD = frozenset("[\\")  # a -name pattern read only with `*` and `?`


def commands(
    words: Sequence[Word], found: Layer, base: str | None, line: Line
) -> list[list[Word]] | None:
    """The commands ``find`` runs (their words, ``{}`` replaced by the entries), or ``None``
    when they are not known (see the module's list)."""
    runs = _runs(words, found, base, line)
    if runs is None:
        return None
    line.globbed = True
    return [[_word(value) for value in run] for run in runs]


def _word(value: str) -> Word:
    """A literal word of ``value``, spelled quoted where bash would read it otherwise."""
    from shlex import quote

    from clearance.intent.shell.word import literal_word

    word = literal_word(0, 0, quote(value))
    word.value = value
    return word


def _runs(
    words: Sequence[Word], found: Layer, base: str | None, line: Line
) -> list[list[str]] | None:
    top = line.top
    if not line.alone or base is None or top is None or found.start is None:
        return None
    if found.name != "find" or words[found.start - 1].value != "-exec":
        return None
    if found.end + 1 != len(words) or any(_unknown(w) for w in words):
        return None  # something follows the terminator, or a word is not known
    values = [w.value or "" for w in words]
    inner = values[found.start : found.end]
    batch = values[found.end] == "+"
    places = [i for i, v in enumerate(inner) if v == "{}"]
    if not places or (batch and places != [len(inner) - 1]):
        return None
    if any("{}" in v for v in inner if v != "{}"):
        return None  # `{}.bak`: a name find builds
    if not _ordinary(words[found.start : found.end]):
        return None
    starts, names = _expression(values[1 : found.start - 1])
    if starts is None:
        return None
    entries = _entries(starts or ["."], names, base, top)
    if entries is None:
        return None
    if batch:
        return [inner[:-1] + entries] if entries else []
    return [[entry if v == "{}" else v for v in inner] for entry in entries]


def _ordinary(inner: Sequence[Word]) -> bool:
    """Whether find's command is a program by its name that runs no other command: no
    wrapper, shell or runner, and not an entry it finds (``-exec {} +``)."""
    from clearance.intent.shell.layer import basename
    from clearance.intent.shell.wrapper import SHELLS, layer

    name = inner[0].value or "{}"
    return "{}" not in name and basename(name) not in SHELLS and layer(inner) is None


def _unknown(word: Word) -> bool:
    """A word whose value is computed or a pattern (``{}`` is literal to bash)."""
    return word.value is None or (word.glob and word.value != "{}")


def _expression(values: Sequence[str]) -> tuple[list[str] | None, tuple[str, ...] | None]:
    """The start points and the ``-name`` patterns every entry must match (``None``: any) of
    find's words before ``-exec``; ``(None, None)`` when a word is not understood."""
    i = 0
    count = len(values)
    while i < count and values[i] == "-P":
        i += 1
    starts: list[str] = []
    while i < count and values[i][:1] not in ("-", "(", "!"):
        starts.append(values[i])
        i += 1
    names: list[str] | None = []
    while i < count:
        value = values[i]
        if value in _OPERATORS:
            names = None
        elif value in _VALUED:
            if i + 1 >= count:
                return None, None
            pattern = values[i + 1]
            if value == "-name" and names is not None and _NAME_UNREAD.isdisjoint(pattern):
                names.append(pattern)
            i += 1
        elif value not in _FLAGS:
            return None, None  # `-L`, `-follow`, `-delete`, `-fprint f`, `-files0-from`, …
        i += 1
    return starts, tuple(names) if names else None


def _entries(
    starts: Sequence[str], names: tuple[str, ...] | None, base: str, top: str
) -> list[str] | None:
    """The entries find hands on, spelled as it spells them (a start point, then ``/`` and
    the names beneath), or ``None`` past a bound or for a start point not plainly in ``top``."""
    real_top = os.path.realpath(top)
    out: list[str] = []
    budget = [MAX_VISITED]
    for start in starts:
        place = absolute(start, base)
        if place is None or place.startswith("//"):
            return None
        real = os.path.realpath(place)
        if os.path.islink(place) or (real != real_top and not real.startswith(real_top + "/")):
            return None  # a link, or outside the working directory
        if not os.path.lexists(place):
            continue  # find reports it and goes on
        if not _walk(start, place, _kept(names, start), names, out, budget):
            return None
    return sorted(out)


def _kept(names: tuple[str, ...] | None, spelled: str) -> bool:
    """Whether an entry of this name passes the ``-name`` tests (find tests a start point by
    its last segment: ``src/`` is ``src``, ``/`` is ``/``)."""
    if names is None:
        return True
    from fnmatch import fnmatchcase  # imports `re`: only for a line that needs it

    name = spelled.rstrip("/").rpartition("/")[2] or "/"
    return all(fnmatchcase(name, pattern) for pattern in names)


def _walk(
    spelled: str,
    place: str,
    kept: bool,
    names: tuple[str, ...] | None,
    out: list[str],
    budget: list[int],
) -> bool:
    """Add ``spelled`` (at ``place``) when kept, then the entries beneath it that are;
    ``False`` past a bound. A kept entry is then judged as any path operand is."""
    if kept:
        if len(out) >= MAX_ENTRIES:
            return False
        out.append(spelled)
    if os.path.islink(place) or not os.path.isdir(place):
        return True
    from fnmatch import fnmatchcase

    stack = [(spelled, place)]
    while stack:
        shown, directory = stack.pop()
        try:
            listing = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue  # unreadable: find reports it and goes on
        for entry in listing:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            child = shown.rstrip("/") + "/" + entry.name
            if names is None or all(fnmatchcase(entry.name, p) for p in names):
                if len(out) >= MAX_ENTRIES:
                    return False
                out.append(child)
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append((child, entry.path))
            except OSError:
                continue
    return True
