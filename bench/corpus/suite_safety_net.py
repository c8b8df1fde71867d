"""claude-code-safety-net's cases: its bun tests in TypeScript (for ``guard_cases.py``)."""

from __future__ import annotations

from collections.abc import Iterator

from gather import Snapshot
from suite_tokens import (
    Found,
    Skipped,
    Token,
    arguments,
    brackets,
    enclosing,
    js_tokens,
    strings_of,
)

_SN_SUBJECTS = ("assertBlocked", "assertAllowed", "runGuard", "analyzeCommand", "explainCommand")
_SN_ENV = {
    "SAFETY_NET_STRICT": "strict",
    "SAFETY_NET_PARANOID": "paranoid",
    "SAFETY_NET_PARANOID_RM": "paranoid rm",
    "SAFETY_NET_PARANOID_INTERPRETERS": "paranoid interpreters",
    "SAFETY_NET_WORKTREE": "worktree",
}
_SN_OPTIONS = {
    "strict": "strict",
    "paranoidRm": "paranoid rm",
    "paranoidInterpreters": "paranoid interpreters",
    "worktreeMode": "worktree",
}
_SN_EMPTY_CONFIGS = ("EMPTY_CONFIG", "DEFAULT_TEST_CONFIG", "emptyConfig")


def _sn_outcome(tokens: list[Token], pairs: dict[int, int], close: int) -> bool | None:
    """What the matcher chained after ``expect(…)`` (closing at ``close``) asserts: blocked
    (True), allowed (False), or None when it says neither."""
    names: list[str] = []
    i = close + 1
    while i + 1 < len(tokens) and tokens[i][1] in (".", "?"):
        if tokens[i + 1][0] == "id":
            names.append(tokens[i + 1][1])
        i += 2
    if not names or i >= len(tokens) or tokens[i][1] != "(":
        return None
    negated, matcher = "not" in names, names[-1]
    first = tokens[i + 1] if i + 1 < len(tokens) else ("op", ")", 0)
    verdict: bool | None
    if matcher in ("toBeNull", "toBeUndefined", "toBeFalsy"):
        verdict = False
    elif matcher in ("toBeDefined", "toBeTruthy"):
        verdict = True
    elif matcher in ("toContain", "toMatch", "toStartWith", "toInclude", "toEqual"):
        verdict = True if not negated else None
        negated = False
    elif matcher == "toBe" and first[0] == "str":
        verdict = {"blocked": True, "allowed": False}.get(first[1], True)
    elif matcher == "toBe" and first[1] == "null":
        verdict = False
    else:
        return None
    return (not verdict) if negated else verdict


def _sn_settings(tokens: list[Token], pairs: dict[int, int], span: tuple[int, int]) -> set[str]:
    """The settings named by the keys of an options object in ``span``, plus "custom" for a
    configuration with rules of its own."""
    found: set[str] = set()
    for i in range(*span):
        kind, text, _ = tokens[i]
        if kind == "id" and text == "config" and tokens[i + 1][1] in ",}":
            found.add("custom")  # { cwd, config }: a configuration built by the test
        if kind != "id" or i + 2 >= span[1] or tokens[i + 1][1] != ":":
            continue
        value = tokens[i + 2][1]
        if text in _SN_OPTIONS and value == "true":
            found.add(_SN_OPTIONS[text])
        elif text == "config" and value not in _SN_EMPTY_CONFIGS:
            rules = [j for j in range(i, span[1]) if tokens[j][1] == "rules"]
            if not (rules and tokens[rules[0] + 2][1] == "[" and tokens[rules[0] + 3][1] == "]"):
                found.add("custom")
    return found


def safety_net_file(path: str, text: str, skipped: Skipped) -> Iterator[Found]:
    tokens = js_tokens(text)
    pairs = brackets(tokens)
    opened = [i for i, t in enumerate(tokens) if t[1] in "([{" and t[0] == "op"]
    # withEnv({ KEY: '1' }, () => …): the settings in force inside its parentheses.
    env_scopes: list[tuple[int, int, set[str]]] = []
    for i, (kind, name, _) in enumerate(tokens[:-2]):
        if kind == "id" and name == "withEnv" and tokens[i + 1][1] == "(":
            settings = {
                _SN_ENV[tokens[j][1]]
                for j in range(i + 2, pairs.get(i + 2, i + 2))
                if tokens[j][1] in _SN_ENV
                and tokens[j + 2][0] == "str"
                and tokens[j + 2][1] not in ("", "0", "false")
            }
            env_scopes.append((i + 1, pairs.get(i + 1, i + 1), settings))
    for i, (kind, name, _) in enumerate(tokens[:-1]):
        if kind != "id" or name not in _SN_SUBJECTS or tokens[i + 1][1] != "(":
            continue
        if i and tokens[i - 1][1] in ("function", "."):
            continue
        args = arguments(tokens, pairs, i + 1)
        if not args:
            continue
        commands = _sn_commands(tokens, pairs, opened, i, args[0])
        if commands is None:
            skipped[f"{path}: {name}() of a command computed at run time"] += 1
            continue
        settings = set().union(*(s for a, b, s in env_scopes if a < i < b))
        if name in ("runGuard", "analyzeCommand", "explainCommand"):
            for a, b in args[1:]:
                if tokens[a][1] == "{":
                    settings |= _sn_settings(tokens, pairs, (a, b))
                elif name == "runGuard" and args.index((a, b)) == 2:
                    settings.add("custom")
        if path.endswith("rules-custom-integration.test.ts"):
            settings.add("custom")  # its cwd holds a .safety-net.json of the test's own rules
        if "custom" in settings:
            skipped[f"{path}: {name}() under a configuration of the test's own rules"] += 1
            continue
        if name == "assertBlocked":
            blocked: bool | None = True
        elif name == "assertAllowed":
            blocked = False
        else:
            blocked = _sn_asserted(tokens, pairs, opened, i)
        if blocked is None:
            skipped[f"{path}: {name}() whose outcome is not asserted in a form read here"] += 1
            continue
        if not blocked and "worktree" in settings:
            # The worktree mode relaxes the default: allowed there says nothing of the default.
            skipped[f"{path}: {name}() allowed only in the worktree mode"] += len(commands)
            continue
        for command in commands:
            if command is None:
                skipped[f"{path}: {name}() of a command computed at run time"] += 1
            else:
                yield path, command, blocked, ", ".join(sorted(settings))


def _sn_commands(
    tokens: list[Token], pairs: dict[int, int], opened: list[int], at: int, arg: tuple[int, int]
) -> list[str | None] | None:
    """The commands the first argument of the call at ``at`` stands for: a literal, a loop
    variable over an array (written in place or bound by ``const``), or a ``const`` string."""
    start, end = arg
    if end - start != 1:
        return None
    kind, text, _ = tokens[start]
    if kind == "str":
        return [text]
    if kind != "id":
        return None
    for j in reversed(enclosing(pairs, opened, at)):
        # for (const NAME of EXPR) { … } : the loop's parentheses precede its body.
        if tokens[j][1] == "{" and tokens[j - 1][1] == ")":
            head = pairs[j - 1]
            if tokens[head - 1][1] == "for" and tokens[head + 2][1] == text:
                expr = (head + 4, j - 1)
                if tokens[head + 3][1] != "of":
                    return None
                return _sn_array(tokens, pairs, expr, at)
    return _sn_const(tokens, pairs, text, at)


def _sn_array(
    tokens: list[Token], pairs: dict[int, int], expr: tuple[int, int], at: int
) -> list[str | None] | None:
    found = strings_of(tokens, expr)
    if found is not None:
        return found
    if expr[1] - expr[0] == 1 and tokens[expr[0]][0] == "id":
        bound = _sn_const(tokens, pairs, tokens[expr[0]][1], at)
        return bound
    return None


def _sn_const(
    tokens: list[Token], pairs: dict[int, int], name: str, at: int
) -> list[str | None] | None:
    """The value of the nearest ``const NAME = …`` before ``at``: a string or an array."""
    for j in range(at - 1, 0, -1):
        if tokens[j][1] == name and tokens[j - 1][1] in ("const", "let"):
            k = j + 1
            if tokens[k][1] == ":":  # a type annotation
                while k < at and tokens[k][1] != "=":
                    k += 1
            if tokens[k][1] != "=" or _sn_reassigned(tokens, name, k + 1, at):
                return None
            value = k + 1
            if tokens[value][0] == "str" and tokens[value + 1][1] in (";", ")", "}"):
                return [tokens[value][1]]
            if tokens[value][1] == "[":
                return strings_of(tokens, (value, pairs[value] + 1))
            return None
    return None


def _sn_reassigned(tokens: list[Token], name: str, start: int, end: int) -> bool:
    """Whether ``name = …`` or ``name += …`` stands between tokens ``start`` and ``end``."""
    for k in range(start, end):
        if tokens[k][1] == name and tokens[k - 1][1] != ".":
            after = "".join(t[1] for t in tokens[k + 1 : k + 3])
            if (after[:1] == "=" and after[:2] not in ("==", "=>")) or after in ("+=", "-="):
                return True
    return False


def _sn_asserted(
    tokens: list[Token], pairs: dict[int, int], opened: list[int], at: int
) -> bool | None:
    """Blocked (True) or allowed (False) as the test asserts the result of the call at ``at``:
    ``expect(call(…)).matcher(…)``, or ``const result = call(…)`` then ``expect(result…)``."""
    if tokens[at - 1][1] == "(" and tokens[at - 2][1] == "expect":
        return _sn_outcome(tokens, pairs, pairs[at - 1])
    if not (tokens[at - 1][1] == "=" and tokens[at - 2][0] == "id"):
        return None
    name = tokens[at - 2][1]
    blocks = [j for j in enclosing(pairs, opened, at) if tokens[j][1] == "{"]
    limit = pairs[blocks[-1]] if blocks else len(tokens)
    j = pairs.get(at + 1, at)
    while j < limit:
        if tokens[j][1] == name and tokens[j + 1][1] == "=" and tokens[j + 2][1] != "=":
            return None  # the name is bound anew
        if tokens[j][1] == "expect" and tokens[j + 1][1] == "(" and tokens[j + 2][1] == name:
            close = pairs[j + 1]
            field = [t[1] for t in tokens[j + 3 : close] if t[0] == "id"]
            if field in ([], ["result"], ["reason"]):
                verdict = _sn_outcome(tokens, pairs, close)
                if verdict is not None:
                    return verdict
        j += 1
    return None


def safety_net(snap: Snapshot, skipped: Skipped) -> Iterator[Found]:
    """Every ``assertBlocked``/``assertAllowed`` of the bun tests, and every ``runGuard``,
    ``analyzeCommand`` and ``explainCommand`` whose result the test asserts blocked or allowed;
    under ``withEnv({SAFETY_NET_STRICT: '1'}, …)`` or an options object the setting is named.
    Cases under a configuration of the test's own rules are left out (any command can be made
    blocked so), and so is a command allowed in the worktree mode, which relaxes the default."""
    for path in sorted(snap.paths):
        if path.startswith("tests/") and path.endswith(".test.ts"):
            yield from safety_net_file(path, snap.read(path), skipped)
