"""destructive_command_guard's Rust tests: the pack test helpers' calls, and the evaluations and
hook runs whose decision a test asserts (for ``guard_cases.py``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from suite_tokens import (
    Found,
    Skipped,
    Token,
    arguments,
    brackets,
    enclosing,
    rs_tokens,
    strings_of,
)


def dcg_pack_setting(pack: str) -> str:
    return "" if pack in ("", "core.git", "core.filesystem") else f"pack {pack}"


# Pack test helpers (src/packs/test_helpers.rs): name -> blocked?, for one command or a batch.
_DCG_PACK = {
    "assert_blocks": True,
    "assert_blocks_with_pattern": True,
    "assert_blocks_with_severity": True,
    "test_batch_blocks": True,
    "assert_allows": False,
    "assert_safe_pattern_matches": False,
    "assert_no_match": False,
    "test_batch_allows": False,
}
# Whole-evaluator helpers: name -> (blocked? or None when the second argument says).
_DCG_EVAL = {
    "assert_denies_with_rule": True,
    "assert_allows_command": False,
    "assert_decision": None,
}


def _dcg_pack_id(path: str, text: str) -> str | None:
    """The pack a file's pack tests check: the one a pack's source defines (``id: "…"``), or
    the one a test file uses (``use …::packs::backup::restic``)."""
    if path.startswith("src/packs/"):
        m = re.search(r'\bid:\s*"([a-z0-9_.]+)"', text)
        return m.group(1) if m else None
    used = re.search(r"\bpacks::(?!test_helpers|external|regex_engine)(\w+)::(\w+)", text)
    return f"{used.group(1)}.{used.group(2)}" if used else None


def dcg_rust_file(path: str, text: str, skipped: Skipped) -> Iterator[Found]:
    tokens = rs_tokens(text)
    pairs = brackets(tokens)
    opened = [i for i, t in enumerate(tokens) if t[0] == "op" and t[1] in "([{"]
    pack = _dcg_pack_id(path, text)
    for i, (kind, name, _) in enumerate(tokens[:-1]):
        if kind != "id" or tokens[i + 1][1] != "(" or tokens[i - 1][1] == "fn":
            continue
        method = tokens[i - 1][1] == "."
        if method and not (name == "check" and tokens[i - 2][1] == "pack"):
            continue
        args = arguments(tokens, pairs, i + 1)
        if method and args:  # pack.check(cmd).is_none() / .is_some() / .expect(…)
            verdict = _dcg_checked(tokens, pairs, i)
            if verdict is None:
                continue
            blocked, setting = verdict, dcg_pack_setting(pack or "")
            found = _dcg_values(tokens, pairs, opened, i, args[0], False)
        elif name in _DCG_PACK and len(args) >= 2:
            blocked = _DCG_PACK[name]
            setting = dcg_pack_setting(pack or "")
            batch = name.startswith("test_batch")
            found = _dcg_values(tokens, pairs, opened, i, args[1], batch)
        elif name in _DCG_EVAL and args:
            verdict = _DCG_EVAL[name]
            if verdict is None:
                said = tokens[args[1][0]] if len(args) > 1 else ("op", "", 0)
                verdict = {"deny": True, "allow": False}.get(said[1]) if said[0] == "str" else None
            if verdict is None:
                skipped[f"{path}: {name}() of a decision other than deny or allow"] += 1
                continue
            blocked, setting = verdict, ""
            found = _dcg_values(tokens, pairs, opened, i, args[0], False)
        else:
            continue
        if found is None:
            skipped[f"{path}: {name}() of a command computed at run time"] += 1
            continue
        for command in found:
            if command is None:
                skipped[f"{path}: {name}() of a command computed at run time"] += 1
            else:
                yield path, command, blocked, setting
    yield from _dcg_evaluated(path, tokens, pairs, opened, skipped)


def _dcg_checked(tokens: list[Token], pairs: dict[int, int], at: int) -> bool | None:
    """Whether ``pack.check(…)`` at ``at`` is asserted to match (True) or not (False):
    ``assert!(pack.check(c).is_none())``, ``.is_some()``, or ``.expect(…)``/``.unwrap…`` of the
    match."""
    after = [t[1] for t in tokens[pairs[at + 1] + 1 : pairs[at + 1] + 3]]
    if after[:1] != ["."] or len(after) < 2:
        return None
    negated = tokens[at - 3][1] == "!"
    if after[1] in ("expect", "unwrap", "unwrap_or_else"):
        return True
    if after[1] in ("is_none", "is_some"):
        return (after[1] == "is_some") != negated
    return None


def _dcg_values(
    tokens: list[Token],
    pairs: dict[int, int],
    opened: list[int],
    at: int,
    arg: tuple[int, int],
    batch: bool,
) -> list[str | None] | None:
    """The commands an argument stands for: a literal, an array (for a batch), a ``let`` binding
    or the variable of an enclosing ``for NAME in …`` loop."""
    start, end = arg
    while start < end and tokens[start][1] == "&":
        start += 1
    if end - start == 1 and tokens[start][0] == "str":
        return [tokens[start][1]]
    if batch:
        found = strings_of(tokens, (start, end))
        if found is not None:
            return found
    if end - start == 1 and tokens[start][0] == "id":
        return _dcg_name(tokens, pairs, opened, tokens[start][1], at)
    return None


def _dcg_name(
    tokens: list[Token], pairs: dict[int, int], opened: list[int], name: str, at: int
) -> list[str | None] | None:
    for j in reversed(enclosing(pairs, opened, at)):
        if tokens[j][1] != "{":
            continue
        # for NAME in EXPR { … }, for (NAME, _) in EXPR { … }, for &NAME in EXPR { … }
        k = j - 1
        while k > 0 and tokens[k][1] != "in" and tokens[k][1] not in (";", "{", "}"):
            k = pairs[k] - 1 if tokens[k][1] in ")]" and k in pairs else k - 1
        if tokens[k][1] != "in":
            continue
        head = k - 1
        while head > 0 and tokens[head][1] != "for" and tokens[head][1] not in (";", "{", "}"):
            head -= 1
        pattern = [t[1] for t in tokens[head + 1 : k] if t[0] == "id"]
        if tokens[head][1] != "for" or name not in pattern:
            continue
        expr = (k + 1, j)
        found = _dcg_sequence(tokens, pairs, opened, expr, at)
        if found is None or pattern.index(name) == 0:
            return found
        return None  # the command is not the first item of the rows
    for j in range(at - 1, 0, -1):
        if tokens[j][1] == name and tokens[j - 1][1] in ("let", "const", "static", "mut"):
            k = j + 1
            while k < at and tokens[k][1] != "=":
                k += 1
            semi = k
            while semi < len(tokens) and tokens[semi][1] != ";":
                semi = pairs[semi] if tokens[semi][1] in "([{" and semi in pairs else semi
                semi += 1
            if k + 2 == semi and tokens[k + 1][0] == "str":
                return [tokens[k + 1][1]]
            return strings_of(tokens, (k + 1, semi))
    return None


def _dcg_sequence(
    tokens: list[Token], pairs: dict[int, int], opened: list[int], expr: tuple[int, int], at: int
) -> list[str | None] | None:
    start, end = expr
    # NAME, NAME.iter(), &NAME, NAME.iter().copied()
    while end - start > 1 and tokens[end - 1][1] == ")" and tokens[end - 2][1] == "(":
        end -= 4 if tokens[end - 4][1] == "." else 3
    found = strings_of(tokens, (start, end))
    if found is not None:
        return found
    while start < end and tokens[start][1] == "&":
        start += 1
    if end - start == 1 and tokens[start][0] == "id":
        return _dcg_name(tokens, pairs, opened, tokens[start][1], at)
    return None


_DCG_RUNS = (
    "evaluate_command",
    "evaluate_command_with_pack_order",
    "run_hook",
    "run_dcg_hook",
    "eval_snapshot",
    "evaluate",
    "check",
    "run_hook_with_env",
    "run_hook_mode",
    "run_hook_with_allowlist",
)


# A test that allows a command only under its own allowlist or with a check turned off.
_DCG_OWN_SETTINGS = ("project_allowlists", "allowlist_content", "AllowlistEntry", "= false",
                     "Some ( false )", "languages", "with_toggles", "allow_once", "with_allowlist")  # fmt: skip


# A pack a test turns on: ``.env("DCG_PACKS", "system.disk")`` for the file's hook runs, or
# ``config.packs.enabled.push("containers.docker")`` in the test.
_DCG_ENABLES = re.compile(r'(?:"DCG_PACKS ,|enabled \. push \() "([a-z0-9_]+\.[a-z0-9_.]+)')


def _dcg_evaluated(
    path: str, tokens: list[Token], pairs: dict[int, int], opened: list[int], skipped: Skipped
) -> Iterator[Found]:
    """``let NAME = evaluate_command(cmd, …)`` (or run_hook, eval_snapshot …) followed in its
    block by ``assert!(NAME.is_denied())``, ``assert!(!NAME.is_allowed())``,
    ``assert!(NAME.contains("deny"))`` or ``assert_eq!(NAME.decision, …Deny)``."""
    words = " ".join(f'"{t[1]}' if t[0] == "str" else t[1] for t in tokens)
    file_packs = [p for p in _DCG_ENABLES.findall(words) if '"DCG_PACKS' in words]
    for i, (kind, name, _) in enumerate(tokens[:-1]):
        if kind != "id" or name not in _DCG_RUNS or tokens[i + 1][1] != "(":
            continue
        head = i  # the start of a method call's receiver: env.run_hook(…)
        while tokens[head - 1][1] == "." and tokens[head - 2][0] == "id":
            head -= 2
        if tokens[head - 1][1] != "=":
            continue
        if tokens[head - 2][0] == "id":
            names = {tokens[head - 2][1]}
        elif tokens[head - 2][1] == ")":  # let (stdout, stderr, code) = run_hook_mode(…)
            names = {t[1] for t in tokens[pairs[head - 2] : head - 2] if t[0] == "id"}
        else:
            continue
        args = arguments(tokens, pairs, i + 1)
        if not args:
            continue
        blocks = [j for j in enclosing(pairs, opened, i) if tokens[j][1] == "{"]
        limit = pairs[blocks[-1]] if blocks else len(tokens)
        blocked = _dcg_asserted(tokens, pairs, names - {"_"}, pairs[i + 1], limit)
        if blocked is None:
            continue  # no decision asserted on it: not a case
        functions = [
            j for j in blocks if tokens[j - 1][1] == ")" and tokens[pairs[j - 1] - 2][1] == "fn"
        ]
        body = " ".join(
            f'"{t[1]}' if t[0] == "str" else t[1]
            for t in (tokens[functions[-1] : pairs[functions[-1]]] if functions else [])
        )
        if not blocked and any(mark in body for mark in _DCG_OWN_SETTINGS):
            skipped[f"{path}: {name}() allowed under the test's own allowlist or setting"] += 1
            continue
        found = _dcg_values(tokens, pairs, opened, i, args[0], False)
        if found is None:
            skipped[f"{path}: {name}() of a command computed at run time"] += 1
            continue
        packs = _DCG_ENABLES.findall(body) + file_packs
        setting = "; ".join(sorted({dcg_pack_setting(p) for p in packs} - {""}))
        for command in found:
            if command is None:
                skipped[f"{path}: {name}() of a command computed at run time"] += 1
            else:
                yield path, command, blocked, setting


def _dcg_asserted(
    tokens: list[Token], pairs: dict[int, int], names: set[str], start: int, limit: int
) -> bool | None:
    """The decision the first assertion on the result (held in ``names``) asserts. A ``let``
    whose value is computed from the result holds it too (``let json = parse(&stdout)``)."""
    direct, names = names, set(names)
    j = start
    while j < limit:
        kind, text, _ = tokens[j]
        if text == "let":
            equals = j
            while equals < limit and tokens[equals][1] not in ("=", ";"):
                equals += 1
            end = equals
            while end < limit and tokens[end][1] != ";":
                end = pairs[end] if tokens[end][1] in "([{" and end in pairs else end
                end += 1
            bound = {t[1] for t in tokens[j + 1 : equals] if t[0] == "id"} - {"mut"}
            if any(tokens[k][1] in names for k in range(equals, end)):
                names |= bound
            elif bound & names:
                names -= bound  # bound anew to something else
                if not names:
                    return None
        if (
            kind == "id"
            and text in ("assert", "assert_eq", "assert_ne")
            and tokens[j + 1][1] == "!"
        ):
            args = arguments(tokens, pairs, j + 2)
            if (
                args
                and any(tokens[k][1] in names for k in range(*args[0]))
                and not _dcg_conditional(tokens, pairs, start, j)
            ):
                verdict = _dcg_verdict(tokens, text, args, direct)
                if verdict is not None:
                    return verdict
        j += 1
    return None


def _dcg_conditional(tokens: list[Token], pairs: dict[int, int], start: int, at: int) -> bool:
    """Whether the assertion at ``at`` stands in an ``if`` block opened after ``start``."""
    for k in range(at - 1, start, -1):
        if tokens[k][1] == "{" and pairs.get(k, 0) > at:
            head = k - 1
            while head > start and tokens[head][1] not in (";", "{", "}"):
                if tokens[head][1] in ("if", "else"):
                    return True
                head = pairs[head] - 1 if tokens[head][1] in ")]" and head in pairs else head - 1
    return False


def _dcg_verdict(
    tokens: list[Token], macro: str, args: list[tuple[int, int]], direct: set[str]
) -> bool | None:
    """What an assertion on the result asserts; ``direct`` holds the names the call's result
    was bound to (a hook's output is empty when it allows; a value computed from it may not)."""
    first = [t[1] for t in tokens[args[0][0] : args[0][1]]]
    if macro == "assert":
        negated = first[0] == "!"
        for method, blocked in (("is_denied", True), ("is_blocked", True), ("is_allowed", False)):
            if method in first:
                return blocked != negated
        if "contains" in first:
            said = tokens[args[0][0] + first.index("contains") + 2]
            if said[0] == "str" and said[1] in ("deny", "allow"):
                return (said[1] == "deny") != negated
        if first[negated] in direct and first[-3:] == ["is_empty", "(", ")"]:
            return negated  # the hook prints nothing when it allows
        return None
    if len(args) < 2:
        return None
    second = tokens[args[1][0] : args[1][1]]
    last = second[-1][1] if second else ""
    verdict = {"Deny": True, "deny": True, "Allow": False, "allow": False}.get(last)
    if verdict is None or not (any(w.endswith("ecision") for w in first) or len(first) == 1):
        return None
    return verdict if macro == "assert_eq" else None
