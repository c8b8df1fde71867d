"""The values a ``for`` loop's variable takes, where the line proves them (docs/shell-analysis.md,
"Loop variables").

``for f in a/*.yaml; do head "$f"; done`` reads one of the files the pattern matches, and
``for d in 16 17; do cat day-$d.md; done`` reads ``day-16.md`` and ``day-17.md``. A word of the
loop's body that is the variable with literal text around it gets those values as its
alternatives, so its paths are projected instead of being unknown. Anything the line does that
could give the variable another value, or read the value differently, leaves the word unknown.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.statement import Statement

__all__ = ["bind"]

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
# `$[d=5]`, `[[ 1 -eq d=5 ]]`), a function definition (its body may assign the variable),
# word splitting.
_UNSAFE_TEXT = ("((", "$[", "[[", "()", "function", "IFS")
_GLOB = frozenset("*?[")
_LEADS = frozenset("-*?[")  # a first character that is, or may expand to, an option's `-`
_BLANK = frozenset(" \t\n")
# Text that may stand around the variable unquoted (no quote, expansion, glob, brace, operator).
_PLAIN_OUT = frozenset("'\"\\$`*?[]{}~()<>|;&# \t\n=!")
_PLAIN_IN = frozenset('"\\$`\n')


def _only_read(line: str, name: str, loop: Statement, seen: Sequence[Statement]) -> bool:
    """Whether nothing in ``line`` (whose statements so far are ``seen``) may give ``name`` a
    value other than the one ``loop`` assigns, or read it otherwise than as typed."""
    if any(text in line for text in _UNSAFE_TEXT) or not _plain_braces(line, name):
        return False
    for stmt in seen:
        if stmt is loop:
            continue
        if stmt.kind == "plain" and stmt.assigns is None:
            return False  # a declaration, `unset`, a subscript assignment (arithmetic)
        if stmt.assigns and any(n == name for n, _ in stmt.assigns):
            return False  # `name=…`, also before a command (POSIX keeps it for `:`)
        if stmt.kind == "compound":
            head = stmt.text.split(None, 2)
            if len(head) > 1 and head[0] in ("for", "select") and head[1] == name:
                return False
        for word in (*stmt.words, *stmt.operands):
            if word.value in _UNSAFE or (word.value == "-v" and stmt.kind == "test"):
                return False  # `[ -v 'a[d=5]' ]` evaluates a subscript
        words = stmt.words
        if words and words[0].value == "test" and any(w.value == "-v" for w in words):
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


def bind(line: str, name: str, loop: Statement, seen: Sequence[Statement], first: int) -> None:
    """Give the words of the loop's body (``seen[first:]``) that are ``$name`` with literal text
    around it the values ``loop`` (``for name in …``) assigns; ``seen``: the statements of
    ``line`` walked so far. When it does, each use of the variable is a path with the effect of
    the command using it (or unknown), and the list itself is only read (a glob reads its
    directory), no longer a path that may be written."""
    items: list[tuple[str, bool]] = []  # (value, a pattern bash expands to the real values)
    for word in loop.operands:
        if word.value is None or word.segs is not None:
            return  # a computed list: its values are not known
        if not word.value:
            return  # an empty value: `${d:=x}`-style defaults would apply to it
        items.append((word.value, word.glob and not _GLOB.isdisjoint(word.value)))
    if not items or not _only_read(line, name, loop, seen):
        return
    # Unquoted, bash splits the value and expands it as a pattern again: only values with
    # no blank and no pattern character read as themselves.
    plain = all(not glob and _BLANK.isdisjoint(v) and _GLOB.isdisjoint(v) for v, glob in items)
    every = True  # each use of the variable in the body took the values
    for stmt in seen[first:]:
        if stmt.kind == "nested":
            every = False  # program text read later (a heredoc's substitution): not seen here
        for word in (*stmt.words, *stmt.operands, *(r.target for r in stmt.redirects if r.target)):
            if word.value is not None or word.segs is not None or "$" not in word.raw:
                continue
            found = _split(word.raw, name)
            if found is None or (not found[2] and not plain):
                every = every and not _mentions(word.raw, name)
                continue
            before, after, _ = found
            if any((before + v)[:1] == "-" or "\n" in v for v, _ in items):
                # An option, or a name the projection does not take: the word stays unknown,
                # and asks wherever a path rule could match it (`echo "--- $f"` opens nothing).
                continue
            word.alts = tuple((before + value + after,) for value, _ in items)
            word.unknown = False
            if not any((before + v)[:1] in _LEADS for v, _ in items):
                # No value can begin with `-` (an option): a reader's claim stands.
                word.lead_dyn = word.dq_dyn = False
    # The uses are the list's paths, with their commands' effects: the list is only read.
    loop.bound = every


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
