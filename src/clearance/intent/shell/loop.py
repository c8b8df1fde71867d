"""The values a ``for`` loop's variable takes, where the line proves them (docs/shell-analysis.md,
"Loop variables").

``for f in a/*.yaml; do head "$f"; done`` reads one of the files the pattern matches, and
``for d in 16 17; do cat day-$d.md; done`` reads ``day-16.md`` and ``day-17.md``. A word of the
loop's body that is the variable with literal text around it gets those values as its
alternatives, so its paths are projected instead of being unknown. Anything the line does that
could give the variable another value, or read the value differently, leaves the word unknown.
"""

from __future__ import annotations

from clearance.intent.shell.effect import CORE, INJECTABLE, reader_claim
from clearance.intent.shell.word import literal_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from clearance.intent.shell.statement import Statement
    from clearance.intent.shell.word import Word

    # How a value of the list reads unquoted: as itself, as a pattern `settle` may prove, or
    # not known.
    Kind = Literal["exact", "pattern", "other"]

__all__ = ["Waiting", "bind", "one_shell", "settle"]

_IDENT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# Commands that may set a variable by a name the line computes or reads from elsewhere, run code
# the line does not show, change how a value splits or globs, or move the working directory.
_UNSAFE = frozenset(
    {
        "eval", "source", ".", "read", "printf", "declare", "typeset", "local", "export",
        "readonly", "mapfile", "readarray", "getopts", "wait", "unset", "let", "alias", "trap",
        "select", "coproc", "cd", "pushd", "popd", "shopt", "set", "setopt", "emulate", "exec",
        "builtin", "command", "enable", "hash", "fc", "time", "noglob", "vared", "zle",
        "compgen",
    }
)  # fmt: skip
# Text after which the loop is not modelled: arithmetic, which assigns (`(( d = 5 ))`,
# `$[d=5]`, `[[ 1 -eq d=5 ]]`, the subscripts of `a=([d=5]=x)`), a function definition (its
# body may assign the variable), word splitting.
_UNSAFE_TEXT = ("((", "$[", "[[", "=(", "()", "function", "IFS")
_GLOB = frozenset("*?[")
_LEADS = frozenset("*?[")  # a first character that may expand to an option's `-`
# What splits an unquoted value or makes it a pattern again (beside what is not printable).
_BARE = frozenset(" \t\n\r\v\f*?[\\(")
_MAX_COMBINATIONS = 64
# Text that may stand around the variable unquoted (no quote, expansion, glob, brace, operator).
_PLAIN_OUT = frozenset("'\"\\$`*?[]{}~()<>|;&# \t\n=!")
_PLAIN_IN = frozenset('"\\$`\n')


def _only_read(
    line: str, name: str, loop: Statement, statements: Sequence[Statement], body: range
) -> bool:
    """Whether nothing in ``line`` (whose statements are ``statements``, the loop's body those
    at ``body``) may give ``name`` a value other than the one ``loop`` assigns at the start of
    each pass, or read it otherwise than as typed. A trap, a declaration or a subscript
    anywhere in the line may (another pass of an enclosing loop runs it first); an assignment
    or another loop of the name does in the body only (the pass assigns the name again)."""
    if any(text in line for text in _UNSAFE_TEXT) or not _plain_braces(line, name):
        return False
    for at, stmt in enumerate(statements):
        if stmt is loop:
            continue
        if stmt.kind == "plain" and stmt.assigns is None:
            return False  # a declaration, `unset`, a subscript assignment (arithmetic)
        for word in (*stmt.words, *stmt.operands):
            if word.value in _UNSAFE:
                return False
        words = stmt.words
        if (stmt.kind == "test" or (words and words[0].value in ("test", "["))) and (
            "-v" in stmt.text
        ):
            return False  # `[ -v 'a[d=5]' ]` evaluates a subscript
        if at not in body:
            continue
        if stmt.assigns and any(n == name for n, _ in stmt.assigns):
            return False  # `name=…`, also before a command (POSIX keeps it for `:`)
        if stmt.kind == "compound":
            head = stmt.text.split(None, 2)
            if len(head) > 1 and head[0] in ("for", "select") and head[1] == name:
                return False
    return True


def _plain_braces(line: str, name: str) -> bool:
    """Whether every ``${…}`` of ``line`` is a plain ``${name}`` (an operator may assign:
    ``${d:=x}``, an offset or a subscript is arithmetic: ``${x:d=1}``, ``${a[d=1]}``), and no
    ``{name}`` names a file descriptor (``: {d}>f`` assigns ``d``)."""
    at = line.find("${")
    while at >= 0:
        end = line.find("}", at)
        if end < 0 or not _IDENT.issuperset(line[at + 2 : end]) or end == at + 2:
            return False
        at = line.find("${", end)
    ref = "{" + name + "}"
    at = line.find(ref)
    while at >= 0:
        if line[at - 1 : at] != "$":
            return False
        at = line.find(ref, at + 1)
    return True


def _split(raw: str, name: str) -> tuple[str, str, bool] | None:
    """``(before, after, quoted)`` when ``raw`` is the variable once with literal text around
    it: ``pre$name.md``, ``"$name"``, ``"x ${name}: y"``; else ``None``."""
    quoted = len(raw) > 1 and raw[0] == '"' and raw[-1] == '"'
    inner = raw[1:-1] if quoted else raw
    allowed = _PLAIN_IN if quoted else _PLAIN_OUT
    for ref in ("${" + name + "}", "$" + name):
        at = inner.find(ref)
        if at < 0:
            continue
        before, after = inner[:at], inner[at + len(ref) :]
        if ref[1] != "{" and after[:1] in _IDENT:
            return None  # `$namex` is another variable
        if allowed.isdisjoint(before) and allowed.isdisjoint(after):
            return before, after, quoted
        return None
    return None


def bind(
    line: str, name: str, loop: Statement, statements: Sequence[Statement], first: int, end: int
) -> None:
    """Give the words of the loop's body (``statements[first:end]``) that are ``$name`` with
    literal text around it the values ``loop`` (``for name in …``) assigns; ``statements``:
    every statement of ``line``. When it does, each use of the variable is a path with the effect of
    the command using it (or unknown), and the list itself is only read (a glob reads its
    directory), no longer a path that may be written. An unquoted use of a glob list's values
    waits for :func:`settle`, which sees the whole line and the files the pattern matches."""
    from clearance.intent.shell.hazards.variables import ordinary_variable

    if not ordinary_variable(name):
        return  # the shell sets it too (`$_` is the last word of the command before)
    items: list[tuple[str, Kind]] = []
    for word in loop.operands:
        if word.value is None or word.segs is not None:
            return  # a computed list: its values are not known
        if not word.value:
            return  # an empty value: `${d:=x}`-style defaults would apply to it
        items.append((word.value, _kind(word)))
    if not items or not _only_read(line, name, loop, statements, range(first, end)):
        return
    # Unquoted, bash splits the value and expands it as a pattern again: a literal value reads
    # as itself when nothing in it splits or globs; a pattern's matches must be proven so, by
    # `settle`, which sees the whole line and the files.
    plain = all(kind == "exact" for _, kind in items)
    later = not plain and all(kind != "other" for _, kind in items)
    waiting: list[tuple[Word, str, str, bool]] = []
    every = True  # each use of the variable in the body took the values
    for stmt in statements[first:end]:
        if stmt.kind == "nested":
            every = False  # program text read later (a heredoc's substitution): not seen here
        head = stmt.words[0] if stmt.words else None
        # A core command with no option that writes or runs reads a value a pattern may
        # begin with `-` as it reads the pattern typed (`cat *.md`, effect.INJECTABLE).
        lax = head is not None and head.raw in CORE and head.raw not in INJECTABLE
        for word in (*stmt.words, *stmt.operands, *(r.target for r in stmt.redirects if r.target)):
            if word.value is not None or word.segs is not None or "$" not in word.raw:
                continue
            found = _split(word.raw, name)
            if found is None or (not found[2] and not plain and not later):
                every = every and not _mentions(word.raw, name)
                continue
            before, after, quoted = found
            if any((before + v)[:1] == "-" or "\n" in v for v, _ in items):
                # An option, or a name the projection does not take: the word stays unknown,
                # and asks wherever a path rule could match it (`echo "--- $f"` opens nothing).
                continue
            if quoted or plain:
                _give(word, before, after, items, lax)
            else:
                waiting.append((word, before, after, lax))
    # The uses are the list's paths, with their commands' effects: the list is only read.
    if waiting:
        loop.waiting = Waiting(items, waiting, every)
    else:
        loop.bound = every


def _give(
    word: Word, before: str, after: str, items: Sequence[tuple[str, Kind]], lax: bool
) -> None:
    """Give ``word`` (``before$nameafter``) the values of the list, as alternatives; ``lax``:
    its command reads a pattern that may expand to an option as it reads a file."""
    word.alts = tuple((before + value + after,) for value, _ in items)
    word.unknown = False
    if lax or not any((before + v)[:1] in _LEADS for v, _ in items):
        # No value can begin with `-` (an option; bind left those unknown), or its command
        # reads such a value as a file: a reader's claim stands.
        word.lead_dyn = word.dq_dyn = False


def _kind(word: Word) -> Kind:
    """How a word of the list reads where the variable is used unquoted."""
    value = word.value or ""
    if not word.glob or _GLOB.isdisjoint(value):
        return "exact" if _exact(value) else "other"
    if word.raw == value and _exact(value.replace("*", "").replace("?", "")):
        return "pattern"  # typed as is, only `*` and `?`: bash and the gate read it alike
    return "other"


def _exact(value: str) -> bool:
    """Whether ``value``, expanded unquoted, is one word that is itself: nothing in it splits
    (a blank, or a character that is not printable) or reads as a pattern (``*?[``, an escape,
    the ``(`` of an extended glob, which the user's shell may turn on)."""
    return _BARE.isdisjoint(value) and value.isprintable()


def _mentions(raw: str, name: str) -> bool:
    """Whether ``raw`` may expand the variable ``name`` (``$name``, ``${name…}``)."""
    if "${" + name in raw or "${!" in raw:
        return True
    at = raw.find("$" + name)
    while at >= 0:
        if raw[at + 1 + len(name) : at + 2 + len(name)] not in _IDENT:
            return True  # not the start of a longer name
        at = raw.find("$" + name, at + 1)
    return False


class Waiting:
    """The unquoted uses of a loop variable whose list holds a pattern (``for f in *.md; do
    cat $f; done``), which :func:`settle` gives their values once the whole line is known.

    ``items``: the list's values; ``uses``: each use with its text before and after the
    variable and whether its command reads a value beginning with `-` as a file (``_give``);
    ``every``: whether every other use of the variable in the body took the values.
    """

    __slots__ = ("every", "items", "uses")

    def __init__(
        self, items: list[tuple[str, Kind]], uses: list[tuple[Word, str, str, bool]], every: bool
    ) -> None:
        self.items = items
        self.uses = uses
        self.every = every


def settle(statements: Sequence[Statement], base: str | None) -> None:
    """Give the unquoted uses waiting in ``statements`` (every statement of a line that runs
    in ``base``) their values where bash neither splits nor globs them again: each pattern's
    matches, read now and complete, hold no character that would make it (``_exact``), and
    nothing in the line may make or rename a file, or move the directory, before a list is
    expanded (every statement is a pure reader writing nothing, an assignment, or a compound
    statement). A match holding such a character may split into any name (``a .env b.md``
    into ``.env``), so otherwise the uses stay unknown (docs/decisions/0044)."""
    loops = [(stmt, stmt.waiting) for stmt in statements if stmt.waiting is not None]
    values: dict[int, list[Word]] = {}
    for _, waiting in loops:
        for word, before, after, _ in waiting.uses:
            values[id(word)] = [_literal(word, before + v + after, k) for v, k in waiting.items]
    quiet = all(_makes_nothing(stmt, values) for stmt in statements)
    for loop, waiting in loops:
        loop.waiting = None
        if not quiet or not all(k != "pattern" or _matched(v, base) for v, k in waiting.items):
            continue
        for word, before, after, lax in waiting.uses:
            _give(word, before, after, waiting.items, lax)
        loop.bound = waiting.every


def one_shell(statements: Sequence[Statement]) -> bool:
    """Whether every statement of a line but one makes nothing (as :func:`settle` asks of
    them), and that one runs a shell whose script may be read as typed commands, with no
    assignment before it and no redirect that writes: nothing then makes a file before the
    script runs, and the script's loops are settled as a line's own are
    (``zsh -lc 'for f in config/*.yaml; do head $f; done'``, how Codex sends a loop)."""
    from clearance.intent.shell.layer import basename
    from clearance.intent.shell.script import SCRIPT_SHELLS

    shells = [
        stmt
        for stmt in statements
        if stmt.kind == "simple"
        and stmt.words
        and basename(stmt.words[0].value or "") in SCRIPT_SHELLS
    ]
    if len(shells) != 1:
        return False
    shell = shells[0]
    if shell.assigns or shell.writes or any(r.writes for r in shell.redirects):
        return False
    return all(stmt is shell or _makes_nothing(stmt, {}) for stmt in statements)


def _literal(word: Word, value: str, kind: Kind) -> Word:
    """The word ``word`` is when the variable takes ``value``, as if typed."""
    typed = literal_word(word.start, word.end, value)
    typed.glob = kind == "pattern"
    return typed


def _makes_nothing(stmt: Statement, values: dict[int, list[Word]]) -> bool:
    """Whether ``stmt`` can neither make, rename nor write a file, nor move the directory:
    a compound statement, a test or an assignment, or a command of the reader core but ``cd``
    with no assignment before it and no redirect that writes. Most core commands have no
    option that writes; the others must prove their read with a waiting use read as each of
    its values, as if typed (``sort -o``, ``sed w``, ``find -fprint``)."""
    if stmt.writes or any(r.writes for r in stmt.redirects):
        return False
    if stmt.kind in ("compound", "test") or (stmt.kind == "plain" and stmt.assigns is not None):
        return True
    words = stmt.words
    if stmt.kind != "simple" or not words or stmt.assigns:
        return False
    name = words[0].value
    if name not in CORE or words[0].raw != name or name == "cd":
        return False
    if name not in INJECTABLE:
        return True
    choices = [values.get(id(word), [word]) for word in words]
    count = 1
    for choice in choices:
        count *= len(choice)
    if count > _MAX_COMBINATIONS:
        return False
    from itertools import product

    return all(reader_claim(typed) == "read" for typed in product(*choices))


def _matched(pattern: str, base: str | None) -> bool:
    """Whether every file ``pattern`` (relative to ``base``) matches now is ``_exact``, and
    the expansion reached no bound."""
    if pattern[0] == "/":
        root = ""
    elif base is None:
        return False
    else:
        root = base.rstrip("/") + "/"
    from clearance.intent.glob import expand_pattern_bounded

    matches, complete = expand_pattern_bounded(root + pattern, recursive=True)
    return complete and all(_exact(match[len(root) :]) for match in matches)
