"""How a program reads its command line: options by level, subcommands, and the parse.

A program (``clearance.policy.programs`` holds the table of them) is read level by level: the
program, then each subcommand. Each level is written as one line of entries separated by spaces.
An entry is one option's spellings joined by ``,`` (the first is its name); a trailing ``=`` says
it takes a value (``-m,--message=``), ``=?`` an optional value that must be attached
(``--force-with-lease=?``, ``-i`` of sed), ``=;`` a list of words up to ``;`` or ``+`` (find's
``-exec``). ``-D>--delete+--force`` says a spelling stands for several options at once.

:func:`parse_command` reads a command's words with a program's grammar; a command rule's option
list (``clearance.policy.command_rule``) is read by the same grammar, so both sides meet on the
same option names.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["FLAG", "OPTIONAL", "UNTIL", "VALUE", "Level", "Parsed", "Program", "parse_command"]

FLAG, VALUE, OPTIONAL, UNTIL = 0, 1, 2, 3
# (the option names a spelling stands for, what it takes)
Spec = tuple[tuple[str, ...], int]


class Level:
    """One level of a command line: a program or one of its subcommands."""

    __slots__ = ("_long", "_short", "entries", "key", "parent", "posix", "subs")

    def __init__(self, key: str, entries: str, parent: Level | None, posix: bool) -> None:
        self.key = key  # "git push": the prefix of every option name at this level
        self.parent = parent
        self.posix = posix  # options end at the first operand (docker run IMAGE CMD …)
        self.entries = entries  # read on first use: a check pays only for the levels it meets
        self._short: dict[str, Spec] | None = None
        self._long: dict[str, Spec] = {}
        self.subs: dict[str, Level] = {}

    @property
    def short(self) -> dict[str, Spec]:
        found = self._short
        if found is None:
            found = self._short = {}
            for entry in self.entries.split():
                self._entry(entry)
        return found

    @property
    def long(self) -> dict[str, Spec]:
        if self._short is None:
            self.short  # noqa: B018 -- reads the entries
        return self._long

    def _entry(self, entry: str) -> None:
        expands: tuple[str, ...] | None = None
        if ">" in entry:
            entry, _, rest = entry.partition(">")
            expands = tuple(rest.split("+"))
        takes = FLAG
        spellings = []
        for spelling in entry.split(","):  # `-m=,--message=` and `-m,--message=` alike
            for suffix, kind in (("=?", OPTIONAL), ("=;", UNTIL), ("=", VALUE)):
                if spelling.endswith(suffix):
                    spelling = spelling[: -len(suffix)]
                    takes = kind
                    break
            spellings.append(spelling)
        if expands is None:  # an option is named by its first long spelling, else its first
            expands = (next((s for s in spellings if s.startswith("--")), spellings[0]),)
        names = expands
        spec = (tuple(self.key + " " + n for n in names), takes)
        short = self._short
        assert short is not None
        for spelling in spellings:
            if spelling.startswith("--") or (len(spelling) > 2 and spelling[0] == "-"):
                self._long[spelling] = spec
            else:
                short[spelling[1:]] = spec


class Program:
    """A program's grammar: its top level, the subcommands under it, and how it reads words.

    ``style`` is ``getopt`` (``-abc`` clusters letters, ``--name[=v]``), ``words`` (every
    ``-name`` is one option, one or two dashes alike: find, terraform) or ``none`` (no options:
    dd's ``if=``/``of=`` are operands). ``abbrev``: a unique prefix of a long option is that
    option (GNU getopt_long, git's parse-options, optparse, nopt). ``anywhere``: the top
    level's options may follow the subcommand (kubectl ``delete pod x -n ns``).
    """

    __slots__ = ("_posix", "_root", "_subs", "abbrev", "anywhere", "entries", "name", "style")

    def __init__(
        self,
        name: str,
        entries: str = "",
        subs: dict[str, str] | None = None,
        *,
        style: str = "getopt",
        abbrev: bool = False,
        anywhere: bool = False,
        posix: frozenset[str] = frozenset(),
    ) -> None:
        self.name = name
        self.style = style
        self.abbrev = abbrev
        self.anywhere = anywhere
        self.entries = entries
        self._subs = subs or {}
        self._posix = posix
        self._root: Level | None = None  # built on first use

    @property
    def root(self) -> Level:
        root = self._root
        if root is None:
            root = self._root = Level(self.name, self.entries, None, False)
            for path, line in self._subs.items():
                level = root
                key = self.name
                for word in path.split():
                    key += " " + word
                    found = level.subs.get(word)
                    if found is None:
                        found = level.subs[word] = Level(key, "", level, path in self._posix)
                    level = found
                level.entries = line
        return root

    def level(self, words: Sequence[str]) -> Level:
        """The deepest level the subcommand ``words`` reach."""
        level = self.root
        for word in words:
            found = level.subs.get(word)
            if found is None:
                break
            level = found
        return level

    def lookup(self, level: Level, spelling: str, long: bool) -> Spec | None:
        """The spec of ``spelling`` at ``level``, else at the subcommands above it, else (for a
        program whose top-level options may follow the subcommand) at the top."""
        here: Level | None = level
        while here is not None:
            if here.parent is None and here is not level and not self.anywhere:
                return None
            table = here.long if long else here.short
            spec = table.get(spelling)
            if spec is None and long and self.abbrev and len(spelling) > 2:
                spec = _abbreviation(table, spelling)
            if spec is not None:
                return spec
            here = here.parent
        return None


def _abbreviation(table: dict[str, Spec], prefix: str) -> Spec | None:
    """The one option ``prefix`` abbreviates (``--forc`` is ambiguous in git push)."""
    if "=" in prefix:
        return None
    found: Spec | None = None
    for name, spec in table.items():
        if name.startswith(prefix) and name.startswith("--"):
            if found is not None and found != spec:
                return None
            found = spec
    return found


class Parsed:
    """A command line as its program reads it.

    ``operands``: the words that are not options or option values, in order (``None`` for a
    computed word); the first ``--`` that ends the options is kept in place as ``"--"`` at
    index ``dashdash``. ``options``: each option name met, with the values it was given.
    """

    __slots__ = ("dashdash", "operands", "options")

    def __init__(self) -> None:
        self.operands: list[str | None] = []
        self.options: dict[str, list[str | None]] = {}
        self.dashdash = -1

    def add(self, names: tuple[str, ...], value: str | None) -> None:
        options = self.options
        for name in names:
            found = options.get(name)
            if found is None:
                options[name] = [value]
            else:
                found.append(value)


def parse_command(program: Program | None, name: str, argv: Sequence[str | None]) -> Parsed:
    """Read ``argv`` (the words after the command word) as ``program`` does.

    A program not in the table is read as getopt with every option a flag: a value it really
    takes is then seen as an operand, which only makes an allow rule harder to meet.
    """
    out = Parsed()
    if program is None:
        program = Program(name)
    level = program.root
    style = program.style
    count = len(argv)
    at_level = 0  # operands met at this level: a subcommand is only the first one
    ended = False
    i = 0
    while i < count:
        word = argv[i]
        i += 1
        if word is None or ended or style == "none" or word[:1] != "-" or word == "-":
            if word is not None and not ended and at_level == 0:
                sub = level.subs.get(word)
                if sub is not None:
                    level = sub
                    out.operands.append(word)
                    continue
            out.operands.append(word)
            at_level += 1
            if level.posix and not ended:
                ended = True
            continue
        if word == "--":
            if program.name == "git" and level.parent is None and at_level == 0:
                continue  # git(1): `--` before the subcommand only ends git's own options
            ended = True
            out.dashdash = len(out.operands)
            out.operands.append("--")
            continue
        if style == "words" or word.startswith("--"):
            spelling, eq, attached = word.partition("=")
            spec = program.lookup(level, spelling, True)
            if spec is None and style == "words":
                if spelling.startswith("--"):
                    spelling = spelling[1:]
                    spec = program.lookup(level, spelling, True)
                elif len(spelling) == 2:
                    spec = program.lookup(level, spelling[1], False)
            if spec is None:
                out.add((level.key + " " + spelling,), attached if eq else None)
                continue
            names, takes = spec
            if takes == VALUE and not eq:
                out.add(names, argv[i] if i < count else None)
                i += 1
            elif takes == UNTIL:
                while i < count and argv[i] not in (";", "+"):
                    i += 1
                i += 1
                out.add(names, None)
            else:
                out.add(names, attached if eq else None)
            continue
        j = 1
        while j < len(word):
            letter = word[j]
            j += 1
            spec = program.lookup(level, letter, False)
            if spec is None:
                out.add((level.key + " -" + letter,), None)
                continue
            names, takes = spec
            if takes == FLAG:
                out.add(names, None)
                continue
            rest = word[j:]
            if takes == OPTIONAL:
                # `-tf`: git reads `f` as the value of -t, another reading sees -t -f; a rule
                # meets both (the command is recorded either way).
                out.add(names, rest or None)
                continue
            if rest:
                out.add(names, rest)
            else:
                out.add(names, argv[i] if i < count else None)
                i += 1
            break
    return out
