"""``clearance authorize`` (formerly ``clearance gate``): decide a call end to end — asking a
human when the policy says ask.

Unlike ``check`` (which only reports), ``authorize`` runs the whole path: session grants, yolo, the
authorizer chain and the dialog on the terminal, the review log and events. Exit 0 allow, 4 deny.
With ``--session`` the grants are shared by every process of that session.
"""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args

__all__ = ["run_authorize"]


def run_authorize(args: Args) -> int:
    from clearance.cli.calls import call_input, load_engine
    from clearance.hosts.gatekeeper import Gatekeeper
    from clearance.intent.call import ToolCall

    if not args.positionals or len(args.positionals) > 2:
        raise UsageError('expected TOOL [INPUT], e.g. clearance authorize bash "git push"')
    tool = args.positionals[0]
    raw = args.positionals[1] if len(args.positionals) > 1 else None
    cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
    engine = load_engine(cwd, args, args.value("--agent"), args.value("--policy"))
    keeper = Gatekeeper.from_config(engine, tty_path=args.value("--tty") or "/dev/tty",
                                    host="gate")  # fmt: skip
    call = ToolCall(
        tool, call_input(tool, raw), cwd, args.value("--agent"), args.value("--session")
    )
    outcome = keeper.decide(call)
    if args.on("--json"):
        from clearance._json import dumps

        body = {
            "decision": outcome.action,
            "reason": outcome.reason,
            "resolution": outcome.resolution,
            "decidedBy": outcome.decided_by,
            "requestId": outcome.request_id,
        }
        sys.stdout.write(dumps(body) + "\n")
    else:
        from clearance._display import escape
        from clearance.cli._color import paint

        word = paint(outcome.action, outcome.action, sys.stdout)
        sys.stdout.write(f"{word}: {escape(outcome.reason)}\n")
    return 0 if outcome.action == "allow" else 4
