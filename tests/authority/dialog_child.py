"""Child process for the dialog tests: make the given pty our controlling terminal, ask, print.

Usage: ``dialog_child.py SPEC.json PTY_FD``. The spec holds the prompt and the options; the
answer goes to stdout as JSON (``{"choice", "reason"}`` or ``{"error"}``). stdin is a pipe, as
under a hook, so the dialog must find the terminal through ``/dev/tty``.
"""

from __future__ import annotations

import fcntl
import json
import sys
import termios

from clearance.authority.dialog import NoTerminal, ask_on_terminal
from clearance.authority.prompt import Prompt
from clearance.decide.suggestion import Suggestion


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as file:
        spec = json.load(file)
    pty_fd = int(sys.argv[2])
    if pty_fd >= 0:
        # We are a session leader (setsid): make the pty our controlling terminal. The fd stays
        # open, so the pty never lacks a slave side before the dialog opens /dev/tty.
        fcntl.ioctl(pty_fd, termios.TIOCSCTTY, 0)
    if "engine" in spec:
        _through_the_authorizer(spec["engine"])
        return
    raw = spec["prompt"]
    prompt = Prompt(
        title=raw["title"],
        requester=raw.get("requester"),
        tool=raw["tool"],
        value=raw["value"],
        rule=raw.get("rule"),
        reasons=tuple(raw.get("reasons", ())),
        suggestions=tuple(Suggestion(*s) for s in raw.get("suggestions", ())),
        both_label=raw.get("both_label"),
        always_label=raw.get("always_label"),
    )
    options = dict(spec.get("options", {}))
    if "cancel_after" in options:
        # Answered elsewhere (the web console of clearance serve) after this many seconds.
        import threading

        cancel = threading.Event()
        threading.Timer(options.pop("cancel_after"), cancel.set).start()
        options["cancel"] = cancel
    try:
        answer = ask_on_terminal(prompt, **options)
    except NoTerminal as error:
        print(json.dumps({"error": type(error).__name__, "message": str(error)}))
        return
    print(json.dumps({"choice": answer.choice, "reason": answer.reason}))


def _through_the_authorizer(spec: dict[str, str]) -> None:
    """Decide a real call with the real engine, ask through the real terminal authorizer, and
    print what it granted."""
    from clearance.authority.ask import Ask
    from clearance.authority.terminal import TerminalAuthorizer
    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall

    engine = Engine.load(cwd=spec["cwd"])
    decision = engine.check(
        ToolCall("bash", {"command": spec["command"]}, spec["cwd"], session=spec.get("session"))
    )
    verdict = TerminalAuthorizer().authorize(Ask(decision, "r1"))
    grants = [[g.surface, g.pattern] for g in verdict.grants]
    print(json.dumps({"action": verdict.action, "grants": grants}))


if __name__ == "__main__":
    main()
