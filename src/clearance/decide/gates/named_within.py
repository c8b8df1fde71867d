"""Commands named among the words of a program that may run them (docs/shell-analysis.md,
"Commands named among an unknown program's words"; ADR 0062).

``tool rm -rf /`` runs ``tool``, which may run ``rm -rf /``. For a unit its own rules leave to
the catch-all, the words that may begin a command it runs
(:func:`clearance.intent.shell.may_run.tried_from`) are tried: where a word names a program a
rule allowing nothing is written for, the words from there on are matched as a command of their
own, as typed and with their operands spelled as the paths they reach (``~`` for the home,
``/etc`` for ``/tmp/../etc``, through the links on them), as the bash gate meets any command.
Where a rule other than the catch-all denies or asks about them, the unit asks
(``<command-in-arguments>``): it may not run them at all, so a deny becomes a question.
"""

from __future__ import annotations

from clearance.decide.decision import GateResult, UnitFact
from clearance.decide.gates._message import describe_rule
from clearance.intent.glob import GLOB_CHARS
from clearance.intent.path import normal_path
from clearance.intent.sentinel import NAMED_WITHIN
from clearance.policy.rule import RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.path import PathFact
    from clearance.intent.shell import Unit
    from clearance.policy.rule import Rule, RuleSet

__all__ = ["MOST_LINES", "catch_all", "named_within"]

_FALLBACK = frozenset({"bash", "*"})  # the catch-all rules: `"*"` and `"bash": {"*": …}`
# Commands tried per unit; a unit naming more programs that rules are written for asks.
_MOST = 16
# Lines decided for one call, from a wrapper's or a shell's name on; past them the unit asks.
MOST_LINES = 8
# The home directory as a word names it (the analysis keeps `$HOME` symbolic where the line
# leaves it alone; a computed word is tried as `~` only where it is typed so).
_HOME_WORDS = frozenset({"~", "~/", "~/.", "$HOME", "${HOME}", '"$HOME"', '"${HOME}"'})


def catch_all(rule: Rule) -> bool:
    """Whether ``rule`` is a catch-all: ``"*"`` or ``"bash": {"*": …}``."""
    return rule.pattern == "*" and rule.surface in _FALLBACK


def named_within(
    rules: RuleSet,
    decided: Sequence[tuple[Unit, GateResult]],
    units: list[UnitFact],
    results: list[GateResult],
    facts: Sequence[PathFact],
    home: str,
    line: Callable[[str], Sequence[GateResult] | None] | None = None,
) -> None:
    """Make each unit of ``decided`` that only the catch-all allows ask where the words it
    may run name a command a rule denies or asks about: its answer in ``results`` and its row
    in ``units`` (both in the order of ``decided``, beside other gates' results) are replaced.
    ``line`` decides a command line as the bash gate does: the words from a wrapper's or a
    shell's name on (``tool sh -c 'rm -rf ~'``, ``tool env rm -rf ~``) are decided as a line,
    so what that program runs is read as the analysis reads it."""
    heads = rules.strict_heads()
    if not heads[0] and not heads[1]:
        return
    spelled: dict[str, tuple[str, str]] | None = None
    for at, (unit, result) in enumerate(decided):
        argv = unit.argv
        if (
            result.action != "allow"
            or result.sentinel is not None
            or len(argv) < 2
            or result.rule is None
            or not catch_all(result.rule)
            or not _names_a_head(argv, heads, line is not None)
        ):
            continue
        from clearance.intent.shell.may_run import tried_from  # for the few units tried

        start = tried_from(argv, unit.text)
        if start is None:
            continue
        if spelled is None:
            spelled = _spellings(facts, normal_path(home) if home[:1] == "/" else "")
        found = _tried(rules, unit, start, heads, spelled, line)
        if found is None:
            continue
        rule, command = found
        what = f'bash command "{unit.text}"'
        if rule is None and command:
            message = (
                f'Needs approval: {what} may run the command "{command}", which would be '
                f"asked about on its own ({NAMED_WITHIN})"
            )
        elif rule is None:
            message = (
                f"Needs approval: {what} names more commands it may run than clearance "
                f"tries ({_MOST} commands, {MOST_LINES} lines within a call) ({NAMED_WITHIN})"
            )
        else:
            verb = "denies" if rule.action == "deny" else "asks about"
            message = (
                f'Needs approval: {what} may run the command "{command}" its words name, '
                f"which {describe_rule(rule)} {verb} ({NAMED_WITHIN})"
            )
        replaced = GateResult(result.gate, result.surface, result.value, "ask", result.rule,
                              message, NAMED_WITHIN, result.unit, result.values)  # fmt: skip
        for i, other in enumerate(results):
            if other is result:
                results[i] = replaced
                break
        fact = units[at]
        units[at] = UnitFact(fact.text, fact.context, fact.wrapper, NAMED_WITHIN, "ask", fact.rule)


def _names_a_head(
    argv: Sequence[str | None], heads: tuple[frozenset[str], tuple[str, ...]], through: bool
) -> bool:
    return any(word and (_head(word, heads) or (through and _runs_rest(word))) for word in argv[1:])


def _runs_rest(word: str) -> bool:
    """Whether the command word ``word`` names a program the analysis reads as running a
    command from the words after it (``sh``, ``/usr/bin/env``, ``/bin/s[h]``, ``Sudo`` where
    the volume folds case, ``bash.exe``, ``git``: ``may_run.RUNS_WORDS``)."""
    return _head(word, _names()[0]) is not None


_Heads = tuple[frozenset[str], tuple[str, ...]]
_NAMES: list[tuple[_Heads, _Heads]] = []


def _names() -> tuple[_Heads, _Heads]:
    """The programs that run a command from their words, and the shells, as :func:`_head`
    reads a set of names (read on first use: a line naming none pays nothing)."""
    if not _NAMES:
        from clearance.intent.shell.may_run import RUNS_WORDS
        from clearance.intent.shell.runners import SHELLS

        _NAMES.append(((RUNS_WORDS, ()), (SHELLS, ())))
    return _NAMES[0]


def _head(word: str, heads: tuple[frozenset[str], tuple[str, ...]]) -> str | None:
    """The program a rule allowing nothing is written for that ``word`` may run as a command
    word: its basename, also in lower case and without ``.exe`` (another volume's spelling of
    the same file), and the programs a pattern in a path's basename may expand to
    (``/usr/bin/r[m]``)."""
    exact, starts = heads
    name = word.rpartition("/")[2]
    for head in (name, name.removesuffix(".exe"), name.lower().removesuffix(".exe")):
        known = head in exact or (starts and head.startswith(starts))
        if known and (head == name or head == name[:-4] or _folds(word)):
            return head
    if "{" in word:  # `r{m,}`: the words bash passes
        from clearance.intent.shell.brace import expand

        for each in expand(word) or ():
            if each != word and (found := _head(each, heads)) is not None:
                return found
    if "/" in word and name and not GLOB_CHARS.isdisjoint(name) and name.strip("*?"):
        from fnmatch import fnmatchcase

        for head in sorted(exact):
            if fnmatchcase(head, name):
                return head
    return None


def _folds(word: str) -> bool:
    """Whether the command word ``word`` in capitals may run the program of its lower-case
    name: where the volume it is found on folds case (or that cannot be told)."""
    from clearance.intent.volume import program_folds

    return program_folds(word, None) is not False


def _spellings(facts: Sequence[PathFact], home: str) -> dict[str, tuple[str, str]]:
    """For each word the analysis found a path in: the absolute normal path it names and the
    path through the links on it, ``~`` for the home directory."""
    out: dict[str, tuple[str, str]] = {}
    for fact in facts:
        if fact.path is None or fact.canonical is None:
            continue
        path = "~" if fact.path == home else fact.path
        real = "~" if fact.canonical == home else fact.canonical
        out.setdefault(fact.raw, (path, real))
    return out


def _tried(
    rules: RuleSet,
    unit: Unit,
    start: int,
    heads: tuple[frozenset[str], tuple[str, ...]],
    spelled: dict[str, tuple[str, str]],
    line: Callable[[str], Sequence[GateResult] | None] | None,
) -> tuple[Rule | None, str] | None:
    """The most restrictive rule other than the catch-all that denies or asks about a command
    named among ``unit``'s words from ``start`` on, with that command's text as typed; ``(None,
    "")`` when more commands are named than are tried; ``None`` when none is met."""
    argv = unit.argv
    typed = _typed_words(unit.text)
    if len(typed) != len(argv):
        typed = [_shown(w) for w in argv]
    best: tuple[Rule | None, str] | None = None
    tried = 0
    for i in range(start, len(argv)):
        word = argv[i]
        # A program that runs a command from its words (a shell, a wrapper, git, awk) is
        # decided as a line, as the analysis reads it; another, by the rules written for it.
        through = line is not None and word is not None and _runs_rest(word)
        head = _head(word, heads) if word and not through else None
        if head is None and not through:
            continue
        tried += 1
        if tried > _MOST:
            return (None, "")  # (a deny met before ends the loop)
        rest = argv[i + 1 :]
        if not rest and not through:
            # A program named last, with nothing after it: a test filter or a package's name
            # far more often than a command (`pytest -k drop`, `brew install node`). A shell
            # named last reads its commands from the input, which is decided below.
            continue
        if through and line is not None:
            words = list(typed[i:])
            if rest and rest[0] == "--" and len(rest) > 1:
                del words[1]  # (the program's own `--`: `start-stop-daemon -a /bin/sh -- -c …`)
            decided = line(" ".join(words))
            if decided is None:
                return (None, "")  # more lines than are decided for one call
            command, found, asks = _through(decided, _head(word or "", _names()[1]) is not None)
            if found is None and asks:
                # What it runs is asked about on its own: it names a command in turn, or
                # cannot be told (`tool sh -c 'x=rm; $x -rf ~'`, `tool sh` reading its input).
                if best is None:
                    best = (None, command)
                continue
        else:
            command = " ".join((str(head), *typed[i + 1 :]))
            found = _met(rules, str(head), rest, typed[i + 1 :], spelled)
            if rest[0] == "--" and len(rest) > 1:
                # The program's own `--` ends its options, and goes no further (`start-stop-
                # daemon -x /bin/rm -- -rf ~` runs `rm -rf ~`).
                other = _met(rules, str(head), rest[1:], typed[i + 2 :], spelled)
                if other is not None and (found is None or RANK[other.action] > RANK[found.action]):
                    found, command = other, " ".join((str(head), *typed[i + 2 :]))
        if found is None:
            continue
        if best is None or best[0] is None or RANK[found.action] > RANK[best[0].action]:
            best = (found, command)
            if found.action == "deny":
                break
    return best


def _through(decided: Sequence[GateResult], shell: bool) -> tuple[str, Rule | None, bool]:
    """The command among those a line runs (its results: ``decided``) that the most
    restrictive rule other than the catch-all denies or asks about, with that rule; else the
    first that asks for a command named among its own words, or, for a ``shell``'s line, that
    asks with any sentinel (its input, a computed name, a string not looked into, a line not
    parsed: a shell may run anything), and whether there is one."""
    best: tuple[str, Rule | None] = ("", None)
    nested = ""
    for result in decided:
        sentinel = result.sentinel
        if (
            sentinel is not None
            and result.action != "allow"
            and (shell or sentinel == NAMED_WITHIN)
            and not nested
        ):
            nested = result.unit or result.value or "?"
        rule = result.rule
        if (
            rule is None
            or rule.surface != "bash"
            or result.action == "allow"
            or sentinel is not None
            or rule.universal
            or catch_all(rule)
        ):
            continue
        if best[1] is None or RANK[result.action] > RANK[best[1].action]:
            best = (result.unit or result.value or "", rule)
    if best[1] is None and nested:
        return nested, None, True
    return best[0], best[1], False


def _met(
    rules: RuleSet,
    head: str,
    rest: Sequence[str | None],
    typed: Sequence[str],
    spelled: dict[str, tuple[str, str]],
) -> Rule | None:
    """The most restrictive rule other than the catch-all and allowing nothing that the command
    ``head rest`` meets, as typed, with its operands spelled as the paths they name, and
    through the links on them."""
    words = (head, *rest)
    variants = [((" ".join((head, *typed)),), words)]
    paths: list[str | None] = []
    reals: list[str | None] = []
    respelled = False
    for word, raw in zip(rest, typed, strict=True):
        found = spelled.get(raw) or (spelled.get(word) if word is not None else None)
        if found is None and raw in _HOME_WORDS:
            found = ("~", "~")
        if found is None and word is not None and word[:1] == "/":
            normal = normal_path(word)
            found = (normal, normal)
        if found is None or found == (word, word):
            paths.append(word)
            reals.append(word)
            continue
        respelled = True
        paths.append(found[0])
        reals.append(found[1])
    if respelled:
        for spelling in (paths, reals):
            shown = " ".join(w if w is not None else "$_" for w in (head, *spelling))
            variants.append(((shown,), (head, *spelling)))
    best: Rule | None = None
    for values, argv in variants:
        rule = rules.evaluate("bash", values, argv)
        if rule.action == "allow" or rule.universal or catch_all(rule):
            continue
        if best is None or RANK[rule.action] > RANK[best.action]:
            best = rule
    return best


def _typed_words(text: str) -> list[str]:
    """The words of a unit's ``text`` as typed: split at blanks outside quotes, escapes,
    substitutions and expansions. Only a guide: the caller checks that there are as many as
    bash passes."""
    words: list[str] = []
    start = -1
    quote = ""
    depth = 0
    i = 0
    end = len(text)
    while i < end:
        ch = text[i]
        if ch == "\\" and quote != "'":
            if start < 0:
                start = i
            i += 2
            continue
        if quote == "'":
            quote = "" if ch == "'" else quote
        elif ch in " \t\n" and not quote and not depth:
            if start >= 0:
                words.append(text[start:i])
                start = -1
        else:
            if start < 0:
                start = i
            if ch == '"' and not depth:
                quote = "" if quote else '"'
            elif ch == "'" and not quote and not depth:
                quote = "'"
            elif ch in "({":
                depth += text[i - 1 : i] in ("$", "<", ">") or depth > 0
            elif ch in ")}" and depth:
                depth -= 1
        i += 1
    if start >= 0:
        words.append(text[start:])
    return words


# Characters a word may hold and be shown unquoted (`_shown`).
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%^~")


def _shown(word: str | None) -> str:
    """A word of a command as a rule's pattern reads it: quoted where bash would split or
    expand it, ``$_`` for a computed one."""
    if word is None:
        return "$_"
    if word and _PLAIN.issuperset(word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"
