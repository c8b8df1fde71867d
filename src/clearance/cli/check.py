"""``clearance check`` and ``clearance explain``: decide a call from the command line."""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError
from clearance.cli.render import EXIT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args
    from clearance.decide.engine import Engine

__all__ = ["run_check", "run_explain"]


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
    if args.value("--jobs") is not None:
        raise UsageError("--jobs works with --batch")
    if not args.positionals:
        raise UsageError('missing TOOL (for example: clearance check bash "git status")')
    if len(args.positionals) > 2:
        raise UsageError("too many arguments: quote INPUT as one argument")
    tool = args.positionals[0]
    raw = args.positionals[1] if len(args.positionals) > 1 else None
    if raw is None and tool.strip() != tool.split(maxsplit=1)[0]:
        # `clearance check "git status"`: a command line, not a tool name (none has a blank).
        from clearance._display import escape

        shown = escape(tool).replace("'", "'\\''")
        raise UsageError(
            f'"{escape(tool)}" is not a tool name; to decide a shell command, give the tool '
            f"first: clearance check bash '{shown}'"
        )
    cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
    from clearance.cli.calls import call_input, load_engine
    from clearance.intent.call import ToolCall

    engine = load_engine(cwd, args, args.value("--agent"), args.value("--policy"))

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
