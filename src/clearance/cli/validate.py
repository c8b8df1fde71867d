"""``clearance validate [F]``: configuration errors with file:line:col, then self-tests.

A config may carry ``"tests": [{"tool": "bash", "input": "rm -rf /", "expect": "deny"}]``; each
test is decided with the policy as loaded and every failure says what was expected, what was
decided and which rule decided — fit for CI (exit 1 on any error or failure).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args
    from clearance.decide.engine import Engine
    from clearance.policy.config import SelfTest
    from clearance.policy.policy import Policy

__all__ = ["run_validate"]


def _run_tests(engine: Engine, tests: tuple[SelfTest, ...], cwd: str, out: list[str]) -> int:
    from clearance.cli.calls import call_input
    from clearance.decide.engine import Engine
    from clearance.decide.gates._message import describe_rule
    from clearance.intent.call import ToolCall

    failures = 0
    engines: dict[tuple[str, str | None], Engine] = {(cwd, engine.policy.agent): engine}
    for number, test in enumerate(tests, 1):
        test_cwd = os.path.abspath(os.path.join(cwd, test.cwd)) if test.cwd else cwd
        key = (test_cwd, test.agent)
        if key not in engines:
            base = engine.policy
            engines[key] = Engine.load(
                cwd=test_cwd, agent=test.agent, config=base.files[0] if _explicit(base) else None
            )
        data = call_input(test.tool, test.input) if isinstance(test.input, str) else test.input
        decision = engines[key].check(ToolCall(test.tool, data, test_cwd, test.agent))
        if decision.action != test.expect:
            failures += 1
            label = f" ({test.name})" if test.name else ""
            shown = test.input if isinstance(test.input, str) else str(test.input)
            out.append(
                f"FAIL test {number}{label} at {test.source}: {test.tool} {shown!r}: "
                f"expected {test.expect}, decided {decision.action} by "
                f"{describe_rule(decision.rule)}\n      {decision.reason}"
            )
    return failures


_EXPLICIT: set[int] = set()


def _explicit(policy: object) -> bool:
    return id(policy) in _EXPLICIT


def run_validate(args: Args) -> int:
    from clearance.decide.engine import Engine

    cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
    target = args.positionals[0] if args.positionals else None
    if target is not None and not os.path.exists(target):
        sys.stderr.write(f"clearance validate: {target}: no such file\n")
        return 1
    engine = Engine.load(cwd=cwd, agent=args.value("--agent"), config=target, use_cache=False)
    policy = engine.policy
    if target is not None:
        _EXPLICIT.add(id(policy))
    lines: list[str] = []
    for warning in policy.warnings:
        lines.append(f"warning: {warning}")
    for error in policy.errors:
        lines.append(f"error: {error}")
    notify_errors = _check_notify(policy)
    lines.extend(f"error: {e}" for e in notify_errors)
    failures = 0
    if not policy.errors and not args.on("--no-tests"):
        failures = _run_tests(engine, policy.tests, cwd, lines)
    files = ", ".join(f for f in policy.files) or "(no files)"
    if policy.errors:
        summary = f"{len(policy.errors)} error(s) in {files}; fix them (the policy fails closed)"
    elif notify_errors:
        summary = f"{len(notify_errors)} error(s) in {files}; notifications are off until fixed"
    else:
        passed = len(policy.tests) - failures
        summary = f"{files}: valid; {passed} test(s) passed, {failures} failed"
    from clearance.cli._color import paint

    out = sys.stdout
    for line in lines:
        word = line.split(":", 1)[0].split(" ", 1)[0]
        if word in ("warning", "error", "FAIL"):
            line = paint(word, word, out) + line[len(word) :]
        out.write(line + "\n")
    ok = not (policy.errors or failures or notify_errors)
    out.write(paint(summary, "ok" if ok else "FAIL", out) + "\n")
    return 1 if policy.errors or failures or notify_errors else 0


def _check_notify(policy: Policy) -> list[str]:
    """``notify`` is validated by the audit layer; point its errors into the file."""
    from clearance.audit.notify import NotifyConfigError, consumers_from_config
    from clearance.policy.errors import ConfigError
    from clearance.policy.jsonc import JsoncError, parse

    notify = policy.setting("notify")
    if not notify:
        return []
    try:
        consumers_from_config(notify)
    except NotifyConfigError as exc:
        for file in reversed(policy.files):
            try:
                with open(file, encoding="utf-8") as handle:
                    doc = parse(handle.read())
            except (OSError, JsoncError):
                continue
            if isinstance(doc.value, dict) and "notify" in doc.value:
                offset = doc.offset(tuple(exc.path))
                return [str(ConfigError.at(str(exc), file=file, source=doc.source, offset=offset))]
        return [str(exc)]
    return []
