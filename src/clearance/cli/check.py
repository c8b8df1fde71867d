"""``clearance check`` and ``clearance explain``: decide a call from the command line."""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError
from clearance.cli.render import EXIT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.cli._args import Args
    from clearance.decide.engine import Engine

__all__ = ["call_input", "run_check", "run_explain"]

# Which input field a plain-string INPUT fills, per canonical tool.
_PLAIN_FIELD = {
    "bash": "command",
    "read": "path",
    "write": "path",
    "edit": "path",
    "grep": "path",
    "find": "path",
    "ls": "path",
    "skill": "skill",
    "webfetch": "url",
    "websearch": "query",
    "task": "subagent_type",
}


def call_input(tool: str, raw: str | None) -> Any:
    """INPUT as the tool's input: JSON when it is a JSON object, else the plain-string field."""
    from clearance.intent.call import canonical_tool

    if raw is None:
        return {}
    stripped = raw.lstrip()
    if stripped.startswith("{"):
        from clearance._json import loads

        try:
            value = loads(raw)
        except ValueError as exc:
            if canonical_tool(tool) != "bash":
                raise UsageError(f"INPUT looks like JSON but does not parse: {exc}") from None
        else:
            if isinstance(value, dict):
                return value
    kind = canonical_tool(tool)
    if kind == "mcp":
        return raw
    return {_PLAIN_FIELD.get(kind, "value"): raw}


def _engine(args_cwd: str, flags: Any, agent: str | None, policy_text: str | None) -> Engine:
    from clearance.decide.engine import Engine
    from clearance.hosts.facts import HOST_FACTS

    return Engine.load(
        cwd=args_cwd,
        agent=agent,
        config=flags.value("--config"),
        policy=policy_text,
        yolo=True if flags.on("--yolo") else None,
        use_cache=not flags.on("--no-cache"),
        host=HOST_FACTS,
    )


def _report_policy(engine: Engine) -> None:
    from clearance._display import escape

    for warning in engine.policy.warnings:
        sys.stderr.write(f"clearance: warning: {escape(warning)}\n")
    for error in engine.policy.errors:
        sys.stderr.write(f"clearance: error: {escape(str(error))}\n")
    if engine.policy.errors:
        sys.stderr.write("clearance: failing closed until the configuration is fixed\n")


def _run(args: Args, *, explain: bool) -> int:
    if args.on("--batch"):
        if explain:
            raise UsageError("--batch works with check, not explain")
        from clearance.cli.batch import run_batch

        return run_batch(args)
    if not args.positionals:
        raise UsageError('missing TOOL (for example: clearance check bash "git status")')
    if len(args.positionals) > 2:
        raise UsageError("too many arguments: quote INPUT as one argument")
    tool = args.positionals[0]
    raw = args.positionals[1] if len(args.positionals) > 1 else None
    cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
    engine = _engine(cwd, args, args.value("--agent"), args.value("--policy"))
    from clearance.intent.call import ToolCall

    call = ToolCall(
        tool, call_input(tool, raw), cwd, args.value("--agent"), args.value("--session")
    )
    decision = engine.check(call)
    if explain:
        from clearance.cli._color import enabled
        from clearance.cli.render import explain_text

        text = explain_text(decision, engine.policy)
        if enabled(sys.stdout):
            text = _colour_explain(text)
        sys.stdout.write(text)
    elif args.on("--json"):
        from clearance._json import dumps
        from clearance.cli.render import decision_json

        sys.stdout.write(dumps(decision_json(decision, engine.policy), indent=2) + "\n")
    else:
        from clearance.cli._color import paint
        from clearance.cli.render import decision_text

        text = decision_text(decision)
        word = decision.action
        sys.stdout.write(paint(word, word, sys.stdout) + text[len(word) :])
    if not explain:
        _report_policy(engine)
    if engine.policy.errors:
        return 1
    return EXIT[decision.action]


def run_check(args: Args) -> int:
    return _run(args, explain=False)


def run_explain(args: Args) -> int:
    return _run(args, explain=True)


def _colour_explain(text: str) -> str:
    """The action words at the start of explain's unit and gate lines, and its decision."""
    from clearance.cli._color import paint

    out = []
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        indent = line[: len(line) - len(stripped)]
        for word in ("allow", "ask", "deny"):
            if indent and stripped.startswith(word + " "):
                line = indent + paint(word, word, sys.stdout) + stripped[len(word) :]
                break
            if line.startswith(f"decision: {word}:"):
                line = (
                    "decision: "
                    + paint(word, word, sys.stdout)
                    + line[len("decision: ") + len(word) :]
                )
                break
        out.append(line)
    return "\n".join(out)
