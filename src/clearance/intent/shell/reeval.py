"""Strings bash evaluates again as code (``docs/shell-analysis.md``, "Strings bash evaluates
again").

A quoted string is inert where it is typed, but bash reads some strings a second time as code:
an array subscript is arithmetic, and arithmetic expands ``$(…)``; ``declare -a a='(…)'``
parses its value as a compound assignment; ``printf -v``, ``read``, ``unset`` and ``-v`` tests
take a name that may carry a subscript; ``PS4`` is expanded at every traced command; an alias
is a command line run where its name is typed later; ``mapfile -C`` runs its callback.

Each finding is ``(text, why, program)``: ``text`` is the string bash re-reads, ``why``
completes the gate's "Needs approval" sentence, and ``program`` says whether ``text`` is a
command line of its own (an alias value, a ``mapfile`` callback: ``True``), an expression whose
``$(…)`` and backtick substitutions are what runs (``False``), or a computed value whose code
cannot be known (``None``: the floor alone). The caller floors the unit with
:data:`~clearance.intent.sentinel.REEVALUATED` and parses the code as units, so a deny
on the inner command still fires.

The checks cost nothing on the usual line: the walk scans a tree only when the line holds a
quote or a backslash next to ``$(``, a backtick, ``${`` or ``$'`` (:func:`gate`), and the
assembly looks at a simple command only when its command word is in :data:`COMMANDS`.

This module holds the findings, their floor and the code they run, and reads a simple command's
words (:func:`command`); the walk's trees are read by :mod:`~clearance.intent.shell.reeval_tree`.
"""

from __future__ import annotations

from clearance.intent.sentinel import CODE_RUNNING, REEVALUATED, REPLAYED, excerpt
from clearance.intent.shell.brace import is_list
from clearance.intent.shell.heredoc import substitutions
from clearance.intent.shell.names import LATER, REREAD
from clearance.intent.shell.names import rereads as gate
from clearance.intent.shell.statement import stdin_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container, Iterator, Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.statement import Redirect
    from clearance.intent.shell.word import Word

    Finding = tuple[str, str, bool | None]

__all__ = [
    "CODE_VARIABLES",
    "COMMANDS",
    "LATER",
    "NUMERIC_DYNAMIC",
    "NUMERIC_SPECIALS",
    "REREAD_FLAGS",
    "TABLES",
    "code",
    "command",
    "computed_arithmetic",
    "computed_operator",
    "declared",
    "floor",
    "gate",
    "heredoc_arithmetic",
    "history",
    "inner_code",
    "later",
    "loop",
    "named",
    "names_in",
    "numeric_names",
    "subscript_name",
    "unknown_name",
    "why",
]

_NAME = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

# Simple commands whose arguments bash may read again (the command word, by value).
DECLARATIONS = frozenset({"declare", "typeset", "local", "readonly", "export"})
COMMANDS = REREAD  # defined in names.py, so the assembly can tell without importing this module
# Builtins that run code the line does not show: `fc` replays the shell's history (even in a
# non-interactive bash: `history -s rm x; fc -s` runs `rm x`), `enable -f` loads a shared
# object into bash. `history -s` stores a command line for `fc` to run (names.LATER).
# Variables whose value bash runs as code later: prompt strings (PS4 at every command traced by
# `set -x`; the others in an interactive shell), the alias and command hash tables.
CODE_VARIABLES = frozenset(
    {"PS0", "PS1", "PS2", "PS4", "PROMPT_COMMAND", "BASH_ALIASES", "BASH_CMDS"}
)
TABLES = frozenset({"BASH_ALIASES", "BASH_CMDS"})  # any entry is a command run later
# Declaration attributes under which a value is re-read: arrays (a compound assignment),
# integers (arithmetic), namerefs (the value is a name, subscript and all).
REREAD_FLAGS = frozenset("aAin")
# read's options that take a value (`-a NAME` names the target array).
_READ_VALUES = frozenset("adinNptu")


def code(value: str) -> bool:
    """Whether ``value``, read again by bash, would run or expand more than plain names: it
    holds ``$(``, ``$((``, a backtick, or a ``${`` that is more than ``${NAME}``."""
    if "$(" in value or "`" in value:
        return True
    at = value.find("${")
    while at >= 0:
        end = value.find("}", at)
        name = value[at + 2 : end]
        if end < 0 or not name or name[0].isdigit() or not _NAME.issuperset(name):
            return True
        at = value.find("${", end)
    return False


# Values arithmetic may read without running anything: bash keeps them numbers itself. The
# special parameters `$?`, `$#`, `$$`, `$!` are always numbers; the dynamic variables too, unless
# the line may unset or redeclare them (:func:`numeric_names`).
NUMERIC_SPECIALS = frozenset("?#$!")
NUMERIC_DYNAMIC = frozenset(
    {"RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS", "BASHPID", "PPID", "UID", "EUID"}
)
_REDECLARES = ("unset", "declare", "typeset", "local", "readonly", "export")
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_COMPUTED_ARITHMETIC = (
    "reads {what} as arithmetic, where a value holding an array subscript with `$(…)` runs it "
    "as code, and its value is not known before it runs"
)


def numeric_names(line: str) -> frozenset[str]:
    """The names arithmetic in ``line`` may read as known numbers: bash's dynamic variables,
    unless the line may unset or redeclare one (then it could hold anything)."""
    for word in _REDECLARES:
        at = line.find(word)
        while at >= 0:
            end = at + len(word)
            alone = at == 0 or line[at - 1] not in _NAME
            if alone and (end == len(line) or line[end] not in _NAME):
                return frozenset()
            at = line.find(word, end)
    return NUMERIC_DYNAMIC


def unknown_name(text: str, numbers: Container[str]) -> str | None:
    """The first variable ``text``, read as arithmetic, takes its value from (a name, ``$x``,
    ``${x}``) that is not one of ``numbers`` or a special parameter, or a substitution; else
    ``None``. Bash evaluates a variable's value again as arithmetic, so a value that holds
    ``a[$(cmd)]`` runs ``cmd`` (``x=$(…); (( x ))``)."""
    if "$(" in text or "`" in text:
        return text
    i = 0
    size = len(text)
    while i < size:
        ch = text[i]
        if ch == "$":
            if i + 1 < size and text[i + 1] in NUMERIC_SPECIALS:
                i += 2
                continue
            start = i + 1 + (text[i + 1 : i + 2] == "{")
            if text[start : start + 1] == "#":  # `${#x}`, a length: a number
                i = start + 1
                continue
            end = start
            while end < size and text[end] in _NAME:
                end += 1
            name = text[start:end]
            if name not in numbers or not name:
                return text[i : max(end, i + 1)]
            i = end
            continue
        if ch in _NAME_START and (i == 0 or (text[i - 1] not in _NAME and text[i - 1] != "#")):
            end = i
            while end < size and text[end] in _NAME:
                end += 1
            name = text[i:end]
            if name not in numbers:
                return name
            i = end
            continue
        i += 1
    return None


def subscript_name(value: str) -> str | None:
    """For a literal ``NAME[SUBSCRIPT]`` (a ``-v`` test's operand, a name a builtin sets), the
    variable its subscript reads as arithmetic that no number is known for, else ``None``
    (``a[i]``: ``i``; ``a[1]``, ``HOME``: none)."""
    at = value.find("[")
    if at < 0:
        return None
    return unknown_name(value[at + 1 : value.rfind("]")], frozenset())


def names_in(text: str) -> Iterator[str]:
    """Every name in ``text`` (a run of name characters that starts with a letter or ``_``
    and follows no name character)."""
    i = 0
    size = len(text)
    while i < size:
        if text[i] in _NAME_START and (i == 0 or text[i - 1] not in _NAME):
            end = i + 1
            while end < size and text[end] in _NAME:
                end += 1
            yield text[i:end]
            i = end
        else:
            i += 1


def heredoc_arithmetic(body: str) -> str | None:
    """The first arithmetic in an unquoted heredoc body (``$(( … ))``, ``$[ … ]``, a subscript
    or an offset in ``${…}``) that reads a value the body does not show, else ``None``. The
    line's own numbers are not followed into the body: any name counts."""
    numbers = numeric_names(body)
    at = body.find("$")
    while at >= 0:
        inner = None
        if body.startswith("$((", at):
            inner = body[at + 3 : _closing(body, at + 3, "(", ")")]
        elif body.startswith("$[", at):
            inner = body[at + 2 : _closing(body, at + 2, "[", "]")]
        elif body.startswith("${", at):
            content = body[at + 2 : _closing(body, at + 2, "{", "}")].lstrip("#!")
            name = 0
            while name < len(content) and content[name] in _NAME:
                name += 1
            rest = content[name:]
            if rest[:1] == "[" or (rest[:1] == ":" and rest[1:2] not in ("-", "=", "+", "?")):
                inner = rest[1:]
        if inner is not None and unknown_name(inner, numbers) is not None:
            return inner
        at = body.find("$", at + 1)
    return None


def _closing(text: str, start: int, opening: str, closing: str) -> int:
    """Where the ``closing`` that balances an ``opening`` just before ``start`` is (the end
    of ``text`` when none is): ``${a[${#b}+y]}`` holds ``y`` past the inner ``}``."""
    depth = 1
    i = start
    while i < len(text):
        ch = text[i]
        if ch == opening:
            depth += 1
        elif ch == closing:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(text)


def computed_arithmetic(what: str) -> str:
    return _COMPUTED_ARITHMETIC.format(what=f"'{excerpt(what)}'")


def floor(findings: Sequence[Finding]) -> Floor:
    return (REEVALUATED, findings[0][1])


MAX_FINDINGS = 16  # findings whose code is parsed; past them the floor alone stands


def inner_code(finding: Finding) -> list[tuple[str, bool]]:
    """The program texts a finding runs, each with whether its end was found."""
    text, _, program = finding
    if program is None:
        return []
    if program:
        return [(text, True)]
    return substitutions(text)


def later(words: Sequence[Word]) -> Floor | None:
    """The floor of ``fc`` (but for listing, ``fc -l``) and ``enable -f``: both run code the
    line does not show (verified against bash 5.2: ``bash -c 'history -s echo hi; fc -s'``
    prints ``hi``)."""
    name = words[0].value
    flags = "".join(w.value[1:] for w in words[1:] if w.value and w.value[:1] == "-")
    computed = any(w.value is None for w in words[1:])
    if name == "fc":
        if "l" in flags and "s" not in flags and "e" not in flags and not computed:
            return None  # `fc -l`, `fc -ln -5`: lists the history, runs nothing
        return (REPLAYED, "replays a command from the shell's history, which the line does "
                "not show")  # fmt: skip
    if name == "enable" and ("f" in flags or computed):
        return (CODE_RUNNING, "loads a shared object into bash, which runs its code")
    return None


def history(words: Sequence[Word]) -> str | None:
    """The command line ``history -s …`` stores for ``fc`` to run (its words joined), when
    every word is literal."""
    if words[0].value != "history" or len(words) < 3 or words[1].value != "-s":
        return None
    values = [w.value for w in words[2:]]
    if any(v is None for v in values):
        return None
    return " ".join(values)  # type: ignore[arg-type]


def why(text: str, where: str) -> str:
    return f"re-evaluates '{excerpt(text)}' as code {where}"


# -- simple commands (the assembly's words) ------------------------------------------------


def command(words: Sequence[Word], redirects: Sequence[Redirect] = ()) -> list[Finding]:
    """Findings for a simple command whose command word is in :data:`COMMANDS` (``redirects``:
    its own, for what ``read`` reads)."""
    name = words[0].value
    out: list[Finding] = []
    args = words[1:]
    if name in ("test", "["):
        for i, word in enumerate(args[:-1]):
            if word.value == "-v":
                _expr(args[i + 1], "as an array subscript in a -v test", out)
                _subscript_inputs(args[i + 1], out)
        operator = computed_operator(args[:-1] if name == "[" else args)
        if operator is not None:  # `test $(cat f)`, `test {-v,'a[…]'}`: it may be -v NAME
            out.append((operator.raw, computed_arithmetic(operator.raw), None))
    elif name == "let":
        for word in args:  # (the line's other commands are not at hand: no variable is known)
            _expr(word, "as an arithmetic expression", out)
            _arithmetic_inputs(word, frozenset(), out)
    elif name == "printf" or name == "wait":
        _option_targets(args, "v" if name == "printf" else "p", name, out)
        first = args[0] if args else None
        if (
            name == "printf"
            and first is not None
            and _may_be_option(first)
            and (len(args) > 2 or not first.quoted or first.glob or is_list(first.raw))
        ):
            # `printf $(cat f) NAME …`: the first word may be -v, the next a name it sets
            out.append((args[0].raw, computed_arithmetic(args[0].raw), None))
        if name == "printf" and any(w.value is not None and w.value[:2] == "-v" for w in args):
            for word in args:  # `printf -v x %s 'a[$(id)]'`: x holds code for arithmetic
                if word.value is not None and word.value[:1] != "-":
                    _stored(word.value, "printf -v", out)
    elif name == "set" or name == "shopt":
        for word in args:
            value = word.value
            if value == "--" or value == "-":
                break
            if (
                value is None
                or value == "keyword"
                or (name == "set" and value[:1] == "-" and value[1:2] != "-" and "k" in value)
            ):
                # `set -k; git log PAGER='sh x'`: every NAME=VALUE argument of a later
                # command is an assignment that command runs with.
                out.append((word.raw, "makes the NAME=VALUE arguments of later commands "
                            "variables they run with", None))  # fmt: skip
                break
    elif name == "getopts":
        if len(args) > 1:  # `getopts a PATH`: the option letter found goes into PATH
            _target(args[1], "as the variable of getopts", out)
    elif name == "read":
        _read(args, out)
        _stored(stdin_text(list(redirects)), "read", out)
    elif name == "unset":
        for word in args:
            if word.value is None or not word.value.startswith("-"):
                _target(word, "as an array subscript of unset", out)  # `unset PATH`
    elif name == "alias":
        _alias(args, out)
    elif name == "mapfile" or name == "readarray":
        _mapfile(args, out)
        _mapfile_target(args, out)
    elif name == "hash":
        for word in args:  # `hash -p /tmp/x ls`: `ls` runs /tmp/x from now on
            if word.value is None or (word.value[:1] == "-" and "p" in word.value):
                out.append((word.raw, "binds a command name to another program, which then "
                            "runs as code under that name", None))  # fmt: skip
                break
    elif name in DECLARATIONS:
        flags: set[str] = set()
        for word in args:
            value = word.value
            if value is None:
                if word.raw.split("=", 1)[0].lstrip("\"'") in CODE_VARIABLES:
                    out.append((word.raw, f"sets {word.raw.split('=', 1)[0]}, which bash "
                                "runs as code", False))  # fmt: skip
                continue
            if value[:1] in ("-", "+") and "=" not in value:
                flags.update(value[1:])
                continue
            target, eq, rhs = value.partition("=")
            declared(target, rhs if eq else None, flags, value, str(name), out)
    return out


def _expr(word: Word, where: str, out: list[Finding]) -> None:
    value = word.value
    if value is not None:
        if code(value):
            out.append((value, why(value, where), False))
    elif "\\$" in word.raw or "\\`" in word.raw:  # an escaped substitution in a computed word
        out.append((word.raw, why(word.raw, where), None))


# The operators of test(1) whose operands are strings, files or numbers (`-v` aside).
_TEST_OPERATORS = frozenset(
    {"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w",
     "-x", "-G", "-L", "-N", "-O", "-S", "-n", "-z", "-o", "-R", "=", "==", "!=", "<", ">",
     "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"}
)  # fmt: skip
# (`!`, `(` and `)` are no operators whose neighbour is an operand: `test ( "$x" "$y" )` is
# the two-word test `"$x" "$y"`, where "$x" may be -v.)


def _may_be_option(word: Word) -> bool:
    """Whether ``word`` may turn into ``-v`` (or more words) when the line runs: computed, or
    a pattern or brace list bash expands."""
    return word.value is None or word.glob or is_list(word.raw)


def computed_operator(args: Sequence[Word]) -> Word | None:
    """A word of a ``test`` that may be the operator ``-v`` when it runs: unquoted and computed
    (it may split into ``-v NAME``), a pattern or a brace list, or a quoted computed word where
    test(1) reads an operator — not the operand of a literal operator (``[ -f "$x" ]``,
    ``[ "$a" = "$b" ]``)."""
    for i, word in enumerate(args):
        if not _may_be_option(word):
            continue
        if not word.quoted or word.glob or is_list(word.raw):
            return word
        before = args[i - 1].value if i else None
        after = args[i + 1].value if i + 1 < len(args) else None
        if before in _TEST_OPERATORS or after in _TEST_OPERATORS:
            continue  # an operand
        return word
    return None


def _arithmetic_inputs(word: Word, numbers: frozenset[str], out: list[Finding]) -> None:
    """A ``let`` expression whose value comes from a variable or a substitution (``let
    "x=$y"``, ``let x=y+1``): the variable's value is arithmetic too, and may hold code. The
    name a ``let`` assigns is not read (``let x=1``)."""
    value = word.value
    if value is None:
        out.append((word.raw, computed_arithmetic(word.raw), None))
        return
    head = 0
    while head < len(value) and value[head] in _NAME:
        head += 1
    rest = value[head:].lstrip()
    expression = rest[1:] if head and rest[:1] == "=" and rest[1:2] != "=" else value
    found = unknown_name(expression, numbers)
    if found is not None:
        out.append((value, computed_arithmetic(found), None))


def _subscript_inputs(word: Word, out: list[Finding]) -> None:
    """``test -v NAME[SUBSCRIPT]``: a computed operand (``test -v "$x"``, ``"$(…)"``) may hold a
    subscript with code; a literal one's subscript is arithmetic, and may read a variable that
    does."""
    value = word.value
    if value is None:
        out.append((word.raw, computed_arithmetic(word.raw), None))
        return
    found = subscript_name(value)
    if found is not None:
        out.append((value, computed_arithmetic(found), None))


def _stored(value: str | None, name: str, out: list[Finding]) -> None:
    """A value stored in a variable that holds an array subscript with code: arithmetic on the
    variable later runs it (``x='a[$(id)]'; (( x ))``)."""
    if value is not None and "[" in value and code(value):
        out.append((value, why(value, f"once {name} stores it and arithmetic reads it"), False))


def _option_targets(args: Sequence[Word], letter: str, name: str, out: list[Finding]) -> None:
    """The variable named by ``-v NAME`` (printf) or ``-p NAME`` (wait), also glued."""
    where = f"as an array subscript of {name} -{letter}"
    for i, word in enumerate(args):
        value = word.value
        if value is None or not value.startswith("-") or value == "--":
            if value == "--" or (value is not None and not value.startswith("-")):
                break
            continue
        cluster = value[1:]
        at = cluster.find(letter)
        if at < 0:
            continue
        rest = cluster[at + 1 :]
        if rest:
            named(rest, where, out)
        elif i + 1 < len(args):
            _target(args[i + 1], where, out)


def named(value: str, where: str, out: list[Finding]) -> None:
    """Findings for a variable a builtin sets by the name ``value``."""
    from clearance.intent.shell.hazards.variables import ordinary_variable

    base = value.split("[", 1)[0]
    if code(value):
        out.append((value, why(value, where), False))
    elif subscript_name(value) is not None:
        # `printf -v 'a[x]' 1`: the subscript reads x as arithmetic
        out.append((value, computed_arithmetic(value), None))
    elif base in CODE_VARIABLES:
        out.append((value, f"sets {value}, which bash runs as code", None))
    elif not ordinary_variable(base):
        # `printf -v PATH bin; ls`, `for PAGER in 'sh x'`: a variable the shell or a program
        # reads for code, paths or parsing, set by name rather than by an assignment.
        out.append((value, f"changes {base}, which the shell or a program reads for what it runs",
                    None))  # fmt: skip


def loop(name: str, values: Sequence[str | None]) -> list[Finding]:
    """Findings for ``for NAME in VALUES`` (and ``select``): each value is assigned to ``NAME``,
    as ``NAME=VALUE`` would be (``for PATH in bin``, ``for f in 'a[$(id)]'; do (( f ))``)."""
    out: list[Finding] = []
    named(name, "as a loop variable", out)
    for value in values:
        _stored(value, "a loop", out)
    return out


def _target(word: Word, where: str, out: list[Finding]) -> None:
    if word.value is not None:
        named(word.value, where, out)
    else:
        before = len(out)
        _expr(word, where, out)
        if len(out) == before:  # `printf -v "$x" bin`: any variable, PATH among them
            out.append((word.raw, "sets a variable whose name is computed when it runs", None))


def _read(args: Sequence[Word], out: list[Finding]) -> None:
    where = "as an array subscript of a read target"
    expect = ""  # the option letter whose value comes next
    options = True
    for word in args:
        value = word.value
        if expect:
            if expect == "a":
                _target(word, where, out)
            expect = ""
            continue
        if options and value is not None and value.startswith("-") and len(value) > 1:
            if value == "--":
                options = False
                continue
            cluster = value[1:]
            for j, letter in enumerate(cluster):
                if letter in _READ_VALUES:
                    rest = cluster[j + 1 :]
                    if not rest:
                        expect = letter
                    elif letter == "a":
                        named(rest, where, out)
                    break
            continue
        options = False
        _target(word, where, out)


def _alias(args: Sequence[Word], out: list[Finding]) -> None:
    for word in args:
        value = word.value
        if value is None:
            out.append((word.raw, why(word.raw, "as an alias definition"), None))
            continue
        if value.startswith("-") or "=" not in value:
            continue  # `alias -p`, `alias name` print
        name, _, body = value.partition("=")
        out.append((body, f"defines alias '{name}', which bash runs as code where it is "
                    "typed on a later line", True))  # fmt: skip


_MAPFILE_VALUES = frozenset("dnOsuCc")  # mapfile's options that take a value


def _mapfile_target(args: Sequence[Word], out: list[Finding]) -> None:
    """The array ``mapfile`` fills (``mapfile -t PATH < f``: ``$PATH`` is its first line)."""
    expect = False
    for word in args:
        value = word.value
        if expect:
            expect = False
        elif value is not None and value[:1] == "-" and len(value) > 1 and value != "--":
            expect = value[-1] in _MAPFILE_VALUES
        elif value != "--":
            _target(word, "as the array of mapfile", out)
            return


def _mapfile(args: Sequence[Word], out: list[Finding]) -> None:
    for i, word in enumerate(args):
        value = word.value
        if value is None or not value.startswith("-") or "C" not in value:
            continue
        rest = value[value.index("C") + 1 :]
        if rest:
            out.append((rest, f"runs the callback '{rest}' as code", True))
        elif i + 1 < len(args):
            callback = args[i + 1]
            text = callback.value if callback.value is not None else callback.raw
            out.append(
                (
                    text,
                    f"runs the callback '{text}' as code",
                    True if callback.value is not None else None,
                )
            )
        return


def declared(
    target: str, value: str | None, flags: set[str], whole: str, name: str, out: list[Finding]
) -> None:
    """One ``NAME[=VALUE]`` operand of a declaration builtin, under ``flags``."""
    base = target.split("[", 1)[0].rstrip("+")
    if base in CODE_VARIABLES and (
        value is None or code(value) or "n" in flags or base in TABLES or "[" in target
    ):
        out.append((whole, f"sets {base}, which bash runs as code", False))
        return
    if "[" in target and code(target):
        out.append((target, why(target, f"as an array subscript of {name}"), False))
        return
    if value is None or not code(value):
        if value is not None and "n" in flags and value in CODE_VARIABLES:
            out.append((whole, f"makes a reference to {value}, which bash runs as code", False))
        elif value is not None and "n" in flags:
            named(value, f"as the target of {name} -n", out)  # `declare -n r=PATH`
        return
    # `declare a='(…)'` into an array; a variable holding `(…)` for a later `declare -a a=$v`
    array = value.lstrip()[:1] == "("
    if flags & REREAD_FLAGS or array or "[" in value:
        out.append((value, why(value, f"in {name} {target}=…"), False))
