"""The ``clearance`` command. Each subcommand lives in its own module, imported on use."""

from __future__ import annotations

import sys

__all__ = ["main"]

USAGE = """\
usage: clearance <command> [options]

commands:
  check    [--config F] [--cwd D] [--agent A] [--session S] [--yolo] [--json] [--policy JSON]
           TOOL [INPUT]            decide one call (exit 0 allow, 3 ask, 4 deny)
  check    --batch [options]       decide JSON lines from stdin, one JSON result per line
  explain  (same as check)         a human-readable trace of every gate and rule
  validate [F] [--cwd D]           config errors with file:line:col, then the policy's self-tests
  trust    [DIR] [--remove|--list] trust a project so its .clearance/config.jsonc is loaded
  hook     HOST                    answer one hook payload of HOST (JSON in, the host's answer out)
  install  claude-code [--user|--project|--local]   add the hook to Claude Code's settings
  uninstall claude-code [--user|--project|--local]  remove it again
  sync     claude-code [--user|--project|--local]   refresh the tools hidden from Claude Code
  install|uninstall|sync|doctor HOST [--user|--project] [--dir D]
                                   the same for codex, gemini, copilot, cursor, qwen, opencode, pi
  doctor   [--cwd D]               check the installation, config, trust and state; say what to fix
  gate     (check's options) [--tty PATH] TOOL [INPUT]
                                   decide end to end, asking a human on the terminal when the
                                   policy says ask (exit 0 allow, 4 deny)
  log      [--follow] [--event E] [--tool T] [--decision D] [--session S] [--since T] [--json]
                                   read the review log
  sessions [--show ID | --clear ID | --clear-all | --prune]
                                   list and clear session grants
  serve    [--session ID] [--dir D] [--relay] [--parent ID] [--tty PATH] [--no-human]
                                   answer forwarded asks of agents without a screen

INPUT is the tool input as JSON, or a plain string: the command for bash, the path for file
tools, server:tool for mcp. Exit status 2 is a usage error, 1 a config or internal error.
"""

_COMMANDS = {
    "check": ("clearance.cli.check", "run_check"),
    "explain": ("clearance.cli.check", "run_explain"),
    "validate": ("clearance.cli.validate", "run_validate"),
    "trust": ("clearance.cli.trust", "run_trust"),
    "hook": ("clearance.cli.hook", "run_hook"),
    "install": ("clearance.cli.install", "run_install"),
    "uninstall": ("clearance.cli.install", "run_uninstall"),
    "sync": ("clearance.cli.install", "run_sync"),
    "doctor": ("clearance.cli.doctor", "run_doctor"),
    "gate": ("clearance.cli.gate", "run_gate"),
    "log": ("clearance.cli.log", "run_log"),
    "sessions": ("clearance.cli.sessions", "run_sessions"),
    "serve": ("clearance.cli.serve", "run_serve"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(USAGE)
        return 0 if argv else 2
    if argv[0] == "--version":
        from clearance import __version__

        sys.stdout.write(f"clearance {__version__}\n")
        return 0
    entry = _COMMANDS.get(argv[0])
    if entry is None:
        sys.stderr.write(f"clearance: unknown command {argv[0]!r}\n\n{USAGE}")
        return 2
    from clearance.cli._args import UsageError

    try:
        run = getattr(__import__(entry[0], fromlist=[entry[1]]), entry[1])
        return int(run(argv[1:]))
    except UsageError as exc:
        from clearance._display import escape

        sys.stderr.write(f"clearance {argv[0]}: {escape(str(exc))}\n(see `clearance --help`)\n")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # never a traceback for users; the message says what failed
        from clearance._display import escape

        message = escape(f"{type(exc).__name__}: {exc}")
        sys.stderr.write(f"clearance {argv[0]}: internal error: {message}\n")
        return 1
