"""The bash gate: every command a shell line runs, matched on its own; fail closed.

The analyzer (``clearance.intent.shell``) splits the line into units — chains, pipelines,
substitutions, subshells, compound statements, and the commands wrappers run. Each unit is
matched against the ``bash`` rules as typed (and with its paths absolutised,
docs/shell-analysis.md, "Paths") and
with its command word normalised (``\\rm``, ``/bin/rm``, ``r''m`` → ``rm``), the more
restrictive of the two counting; the most restrictive unit decides. What cannot be proven is at
least *ask* (docs/shell-analysis.md, "What is seen through"):

- an opaque wrapper (``bash -c``, ``eval``) whose own text is allowed → ``<opaque-bash-wrapper>``;
- an indirection wrapper (``sudo``, ``env``, ``xargs``, ``find -exec`` …) allowed by its text →
  ``<indirection-bash-wrapper>``, unless the analyzer proved it transparent (a pure reader or an
  execution modifier), where the inner command — a unit of its own — decides, or found the
  command a launcher (``uv run``, ``npx``) runs: a unit the rules naming it decide, and where
  only the catch-all names it, the rule the launcher met (ADR 0041);
- a unit whose command word is computed (``$(which rm) x``, ``"$CMD" …``) →
  ``<computed-bash-command>``;
- a unit inside a region the parser could not read → ``<unparsed-bash-subtree>``, naming the
  whole command line;
- a non-empty line with no units at all → ``<unparseable-bash-command>``, unless the whole string
  is denied.

An explicit deny or ask on a unit always stands. The paths the line touches feed the path and
outside-directory gates (``clearance.decide.gates.path``).
"""

from __future__ import annotations

from clearance.decide.decision import GateResult, UnitFact
from clearance.decide.gates._message import gate_message
from clearance.decide.gates.named_within import MOST_LINES, named_within
from clearance.decide.gates.named_within import catch_all as _catch_all
from clearance.decide.gates.operands import through_links
from clearance.decide.gates.path import DIRECTION_SURFACES, UNPROVEN_SURFACES
from clearance.decide.gates.protected import git_config_result
from clearance.intent.boundary import project_boundary
from clearance.intent.glob import GLOB_CHARS, expand_pattern_bounded
from clearance.intent.path import (
    SYSTEM_PROGRAMS,
    PathFact,
    canonical_cwd,
    canonicalize,
    path_fact,
)
from clearance.intent.sentinel import (
    COMPUTED,
    EXPANSION_LIMIT,
    INDIRECTION,
    OPAQUE,
    UNKNOWN_PATH,
    UNPARSEABLE,
    UNPARSED,
)
from clearance.policy.rule import RANK, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from clearance.intent.call import ToolCall
    from clearance.intent.fact import Direction
    from clearance.intent.shell import Analysis, PathToken, Unit
    from clearance.policy.rule import RuleSet

__all__ = ["bash_gate", "load"]

# A command word that starts with one of these is a known place, matched by its home spelling.
_KNOWN_PREFIXES = ("$HOME/", "${HOME}/", "$PWD/", "${PWD}/")

_CONTEXT = {
    "command_substitution": " (inside a command substitution)",
    "process_substitution": " (inside a process substitution)",
    "subshell": " (inside a subshell)",
    "heredoc": " (inside a here-document)",
    "wrapped": " (run by a wrapper command)",
    "opaque_payload": " (inside a shell string)",
    "compound": "",
}
_DIRECTION: dict[str, Direction] = {"read": "read", "write": "write"}
# Wrappers whose own meaning is benign: they change when, how fast or how often the inner
# command runs, never as whom, where or with what rights (not sudo, doas, chroot, env, nohup…).
_BENIGN_WRAPPERS = frozenset({"xargs", "timeout", "nice", "time", "stdbuf", "command", "builtin",
                              "ionice", "chrt", "taskset", "numactl", "setsid"})  # fmt: skip


def _command_of(call: ToolCall) -> str:
    value = call.field("command", "cmd")
    return value if isinstance(value, str) else ""


def _computed_name(text: str) -> bool:
    """Whether the command word is computed (``$(which rm) x``, ``"$RM" x``, `` `x` y``), or
    leaves the home or the working directory it starts from (``~/../bin/rm``,
    ``$PWD/../../bin/rm``): a place the analysis does not know."""
    if "$" not in text and "`" not in text and text[:1] != "~":
        return False  # nor in the command word, a prefix of it
    end = len(text)
    for i, ch in enumerate(text):
        if ch in " \t\n":
            end = i
            break
    word = text[:end]
    if word[:1] == "~" or word.startswith(_KNOWN_PREFIXES):
        return "/.." in word
    if "$" not in word and "`" not in word:
        return False
    name, eq, _ = word.partition("=")
    if eq and name and (name[0].isalpha() or name[0] == "_") and name.replace("_", "a").isalnum():
        return False  # `x=$(…)`: an assignment, whose substitution is a unit of its own
    return not word.startswith(_KNOWN_PREFIXES)


def _folds(unit: Unit, name: str) -> bool:
    """Whether the command word ``name`` (with capitals) runs, or may run, the program of its
    lower-case spelling: bash finds it as the same file where the volume folds case. A
    relative path is from a directory not known here (after a ``cd``): it may."""
    from clearance.intent.volume import program_folds

    typed = unit.argv[0] if unit.argv else None
    return program_folds(typed or name, None) is not False


def _unit_result(
    rules: RuleSet, unit: Unit, command: str, launchers: dict[str, Rule]
) -> tuple[GateResult, UnitFact]:
    """The result of one unit; ``launchers``: the rule each launcher unit of the line met."""
    text = unit.text
    canonical = unit.canonical
    spellings = unit.spellings
    values = (text, *spellings) if spellings else (text,)
    rule = rules.evaluate("bash", values, unit.argv)  # command rules read its words
    if canonical != text:
        # The normalised command word counts too, the more restrictive of the two deciding.
        # Its words meet the command rules as the typed ones do (`git --no-pager diff` is
        # `git diff` to `"git diff []"`, which reads past git's own options either way).
        other = rules.evaluate("bash", (canonical,), unit.argv)
        if RANK[other.action] > RANK[rule.action] or (
            _catch_all(rule) and text.startswith(SYSTEM_PROGRAMS)
        ):
            # `/bin/ls x` typed matches only the catch-all: `ls x`, the same program from a
            # directory the agent cannot write, is matched by the rules written for it.
            rule = other
        values = (*values, canonical)
    name = canonical.partition(" ")[0]
    if not name.islower() and name.lower() != name and _folds(unit, name):
        # `Rm -rf x` on a volume that folds case (or may) runs rm: the rules for rm speak too,
        # and only ever tighten (docs/configuration.md, "Case"). A wrapper's name the analysis
        # read in lower case already (ADR 0042).
        rule, values = _tightened(rules, rule, values, unit, name, name.lower())
    if name[-4:].lower() == ".exe" and len(name) > 4 and "/" not in name:
        # `python.exe -c …` is Python where the host's bash runs on Windows (Git Bash, MSYS,
        # which find `python` as `python.exe`, in any case): the rules for `python` speak
        # too, and only ever tighten, as for a name in capitals.
        rule, values = _tightened(rules, rule, values, unit, name, name[:-4].lower())
    what = f'bash command "{text}"{_CONTEXT.get(unit.context, "")}'
    message = ""
    if unit.launcher is not None and _catch_all(rule):
        # `uv run pytest` under `"uv run *": "allow"`: a command a launcher runs that no rule
        # names is decided by the rule the launcher met, and a session grant for the launcher's
        # text covers it too (ADR 0041). A rule naming it speaks for itself.
        values = (*values, unit.launcher)
        host = launchers.get(unit.launcher)
        if host is not None and not _catch_all(host):
            rule = host
            extra = f'as the command "{unit.launcher}" runs'
            message = gate_message(rule.action, what, rule, extra=extra)
    if unit.exemption == "launcher":
        launchers[text] = rule
    action = rule.action
    sentinel = None
    value = text
    if (
        action == "ask"
        and _catch_all(rule)
        and (
            unit.context == "compound"
            or unit.exemption == "assignment"
            or (
                unit.exemption
                and (
                    unit.exemption == "shell-script"
                    or canonical.partition(" ")[0] in _BENIGN_WRAPPERS
                )
            )
        )
    ):
        # A wrapper proven transparent (`timeout 60 npm test`, `xargs grep -l x`, `bash -lc
        # 'ls'`), a compound statement (`for f in a b; do …; done`) or an assignment of
        # ordinary variables (`PID=$!`) is not a command of its own for the catch-all: the
        # commands it runs, units of their own, decide. A rule written for its text still speaks.
        action = "allow"
        message = f"Allowed: {what} only runs the commands it holds, each decided on its own"
    if action == "allow":
        wrapper = unit.wrapper
        # A shell whose literal script was read as typed commands (units of their own) is not
        # floored as opaque; it still meets the checks below.
        if wrapper == "opaque" and unit.exemption not in ("shell-script", "launcher"):
            action, sentinel = "ask", OPAQUE
            message = (
                f"Needs approval: {what} runs a shell on a string clearance does not look into "
                f"({OPAQUE})"
            )
        elif wrapper == "indirection" and not unit.exemption:
            action, sentinel = "ask", INDIRECTION
            inner = f' "{unit.executed}"' if unit.executed else " another command"
            message = f"Needs approval: {what} runs{inner} through a wrapper ({INDIRECTION})"
        elif _computed_name(canonical):
            action, sentinel = "ask", COMPUTED
            message = (
                f"Needs approval: {what} runs a command whose name is computed when it runs, "
                f"so clearance cannot tell which program it is ({COMPUTED})"
            )
        elif unit.floor is not None:
            sentinel = unit.floor[0]
            action = "ask"
            message = f"Needs approval: {what} {unit.floor[1]} ({sentinel})"
        elif unit.unresolved:
            action, sentinel, value = "ask", UNPARSED, command
            message = (
                f'Needs approval: part of the command ("{text}") could not be parsed, so '
                f"the whole line needs approval ({UNPARSED})"
            )
    if not message:
        message = gate_message(action, what, rule)
    result = GateResult("bash", "bash", value, action, rule, message, sentinel, text, values)
    fact = UnitFact(text, unit.context, unit.wrapper, sentinel, action, rule)
    return result, fact


def _tightened(
    rules: RuleSet, rule: Rule, values: tuple[str, ...], unit: Unit, name: str, spelled: str
) -> tuple[Rule, tuple[str, ...]]:
    """``rule`` and ``values`` once the unit's command word ``name`` is also read as the program
    ``spelled`` (``Rm`` as ``rm``, ``python.exe`` as ``python``): its rules only tighten."""
    text = spelled + unit.canonical[len(name) :]
    argv = (spelled, *unit.argv[1:]) if unit.argv else None
    other = rules.evaluate("bash", (text,), argv)
    return (other if RANK[other.action] > RANK[rule.action] else rule), (*values, text)


def _paths(
    tokens: Sequence[PathToken],
    call: ToolCall,
    home: str,
    extra: tuple[str, ...],
    capped: list[PathToken],
) -> list[PathFact]:
    facts: list[PathFact] = []
    cwd = call.cwd
    found = project_boundary(cwd, home, extra)
    boundary, inside = found.root, found.inside
    for token in tokens:
        direction = _DIRECTION.get(token.effect, "both")
        if token.path is None:
            fact = path_fact(token.raw, cwd=None, home=home, direction=direction,
                             boundary=boundary, source=token.command, extra=inside)  # fmt: skip
        else:
            fact = path_fact(
                token.path, cwd=cwd, home=home, direction=direction, boundary=boundary,
                source=token.command, written=token.raw, extra=inside, recursive=token.deep,
                walk=token.walk,
            )  # fmt: skip
            if not GLOB_CHARS.isdisjoint(token.path):
                # `cat ~/.ss?/id_*`: the rules must see what the pattern reaches.
                matches, complete = expand_pattern_bounded(token.path, recursive=True)
                facts.extend(
                    path_fact(match, cwd=cwd, home=home, direction=direction, boundary=boundary,
                              source=token.command, written=token.raw, extra=inside,
                              recursive=token.deep, walk=token.walk)
                    for match in matches
                )  # fmt: skip
                if not complete:
                    # A bound was reached: what the rest reaches is unknown, so it asks.
                    facts.append(PathFact(token.raw, None, None, (token.raw,), direction, True,
                                          boundary, False, token.command))  # fmt: skip
                    capped.append(token)
        facts.append(fact)
    return facts


def bash_gate(
    rules: RuleSet,
    call: ToolCall,
    *,
    home: str,
    extra: Callable[[str], tuple[str, ...]] | None = None,
    _budget: list[int] | None = None,
) -> tuple[list[GateResult], tuple[UnitFact, ...], list[PathFact], list[PathFact]]:
    """Every unit's result, the units as shown to users, the paths the line touches (judged
    against the project of ``call.cwd``, an absolute path; ``extra(cwd)``: the directories the
    host counts as inside too), and the names its commands may make that are no file yet, for
    the protected-path gate alone (``uniq - opencode.json``; ADR 0060)."""
    analyze = _ANALYZE or _load_analyze()
    command = _command_of(call)
    text = command.strip()
    analysis = analyze(command, cwd=call.cwd, home=home)
    if not analysis.units:
        rule = rules.evaluate("bash", (text,))
        if analysis.unparseable and rule.action != "deny":
            message = f'Needs approval: bash command "{text}" could not be parsed ({UNPARSEABLE})'
            result = GateResult("bash", "bash", command, "ask", rule, message, UNPARSEABLE, text)
            return [result], (UnitFact(text, "", None, UNPARSEABLE, "ask", rule),), [], []
        what = f'bash command "{text}"'
        result = GateResult("bash", "bash", text, rule.action, rule,
                            gate_message(rule.action, what, rule), None, text)  # fmt: skip
        return [result], (UnitFact(text, "", None, None, rule.action, rule),), [], []
    results = []
    units = []
    decided: list[tuple[Unit, GateResult]] = []
    unresolved = False
    launchers: dict[str, Rule] = {}
    for unit in analysis.units:
        result, fact = _unit_result(rules, unit, command, launchers)
        results.append(result)
        units.append(fact)
        decided.append((unit, result))
        if unit.canonical.startswith("git ") and "config" in unit.canonical:
            found = git_config_result(unit.canonical, unit.text)
            if found is not None:
                results.append(found)
        if unit.unresolved:
            unresolved = True
    if unresolved:
        # Part of the line could not be parsed: a deny written for the whole line still fires.
        rule = rules.evaluate("bash", (text,))
        if rule.action == "deny":
            what = f'bash command "{text}"'
            results.append(GateResult("bash", "bash", text, "deny", rule,
                                      gate_message("deny", what, rule), None, text))  # fmt: skip
    facts: list[PathFact] = []
    if analysis.paths:
        capped: list[PathToken] = []
        facts = _paths(analysis.paths, call, home, extra(call.cwd) if extra else (), capped)
        _unknown_paths(rules, analysis.paths, results)
        if capped:
            _unknown_paths(rules, capped, results, capped=True)
        through_links(rules, decided, facts, results, home, call.cwd)
    if any(
        r.action == "allow" and len(u.argv) > 1 and r.rule is not None and _catch_all(r.rule)
        for u, r in decided
    ):
        # `tool rm -rf /`: a command an unknown program's words name (ADR 0062). The words
        # from a wrapper's or a shell's name on are decided as a line of their own, and so on
        # within it, up to a number of lines for the whole call.
        budget = _budget if _budget is not None else [MOST_LINES]

        def line(text: str) -> list[GateResult] | None:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            from clearance.intent.call import ToolCall  # the few lines that name one

            inner = ToolCall("bash", {"command": text}, call.cwd)
            return bash_gate(rules, inner, home=home, extra=extra, _budget=budget)[0]

        named_within(rules, decided, units, results, facts, home, line)
    # The names a command may make that are no file yet: for the protected-path gate alone.
    made = _made(analysis.makes, call.cwd) if analysis.makes else []
    return results, tuple(units), facts, made


def _made(tokens: Sequence[PathToken], cwd: str) -> list[PathFact]:
    """The facts of names a command may make, for the protected-path gate: writes (what may
    make a file writes it), each no file nor link, so its real path is its directory's,
    resolved once per directory, and its name."""
    reals: dict[str, str] = {}
    facts = []
    prefix = cwd.rstrip("/") + "/"
    for token in tokens:
        path = token.path
        if path is None:
            continue
        parent, _, name = path.rpartition("/")
        real = reals.get(parent)
        if real is None:
            found = canonical_cwd(parent) if parent == cwd else canonicalize(parent or "/")
            real = reals[parent] = found.rstrip("/")
        aliases = [path, real + "/" + name]
        if token.raw not in aliases:
            aliases.append(token.raw)
        if path.startswith(prefix) and path[len(prefix) :] not in aliases:
            aliases.append(path[len(prefix) :])
        facts.append(PathFact(token.raw, path, aliases[1], tuple(aliases), "write", False, "",
                              False, token.command))  # fmt: skip
    return facts


def _guard(rules: RuleSet, surfaces: tuple[str, ...]) -> Rule | None:
    """The most restrictive path rule on ``surfaces`` that allows nothing, if any."""
    guard = None
    for rule in rules.rules:
        if rule.surface not in surfaces or rule.action == "allow":
            continue
        if guard is None or RANK[rule.action] > RANK[guard.action]:
            guard = rule
    return guard


_UNKNOWN_VERB = {"read": "reads", "write": "writes"}


def _unknown_paths(
    rules: RuleSet, tokens: Iterable[PathToken], results: list[GateResult], capped: bool = False
) -> None:
    """A computed operand (``cat "$f"``) is an unknown path: it asks when a path rule that
    allows nothing could match it, whatever it turns out to be. So is a pattern whose
    expansion reached a bound (``capped``): what the rest of it reaches is not known."""
    guards: dict[str, Rule | None] = {}  # by effect: the rules are scanned once per effect
    for token in tokens:
        if token.path is not None and not capped:  # only unknown paths: computed, or in an
            continue  # unknown directory
        effect = token.effect
        if effect in guards:
            guard = guards[effect]
        else:
            guard = guards[effect] = _guard(
                rules, DIRECTION_SURFACES.get(effect, UNPROVEN_SURFACES)
            )
        verb = _UNKNOWN_VERB.get(token.effect, "uses")
        if guard is None:
            if token.effect == "read":
                continue
            # A write may reach a protected path (clearance's own files, a shell start-up
            # file) whatever the policy says.
            guard = Rule("protected_write", "*", "ask", "protected", None)
            why = "and it could be one of the protected paths"
        else:
            why = "and a path rule could match it"
        sentinel = EXPANSION_LIMIT if capped else UNKNOWN_PATH
        if capped:
            unknown = "a pattern that names more paths than clearance expands"
        elif token.source == "computed":
            unknown = "which is computed when the command runs"
        elif token.raw[:1] == ":":
            unknown = "a pathspec with magic git may read beyond the working directory (`:/`)"
        else:
            unknown = "in a directory clearance cannot know (after a computed cd)"
        message = (
            f'Needs approval: bash command "{token.command}" {verb} the path "{token.raw}", '
            f"{unknown}, {why} ({sentinel})"
        )
        results.append(GateResult("path", guard.surface, token.raw, "ask", guard, message,
                                  sentinel, token.command))  # fmt: skip


_ANALYZE: Callable[..., Analysis] | None = None


def _load_analyze() -> Callable[..., Analysis]:
    """The shell analyzer, imported on the first bash call (it loads the parser)."""
    global _ANALYZE
    from clearance.intent.shell import analyze

    _ANALYZE = analyze
    return analyze


def load() -> None:
    """Load the shell analyzer, once per process.

    The engine calls this before it arms the decision deadline (``decide/deadline.py``): the
    deadline bounds the analysis of a line, which the line's author controls, not the loading
    of code every line needs. Counted inside it, a cold start on a loaded machine (dozens of
    hooks starting at once) ran out of time on ``make test``. (The parser itself, a millisecond
    to build, is still built only for a line that needs it.)"""
    _ANALYZE or _load_analyze()
