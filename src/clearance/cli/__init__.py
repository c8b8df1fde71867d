"""The ``clearance`` command. Each subcommand lives in its own module, imported on use.

The subcommands are listed once, in :mod:`clearance.cli._commands`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from clearance.cli._args import Args, Command

__all__ = ["main"]


def _usage_error(name: str, message: str) -> int:
    from clearance._display import escape

    where = f"clearance {name}" if name else "clearance"
    sys.stderr.write(f"{where}: {escape(message)} (see `{where} --help`)\n")
    return 2


def _top_help() -> str:
    from clearance import __version__
    from clearance.cli._commands import COMMANDS
    from clearance.cli._parser import top_help

    return top_help(COMMANDS, __version__)


def _parse(command: Command, argv: list[str]) -> Args:
    if command.hot:
        from clearance.cli._args import parse_lean

        return parse_lean(argv, command)
    from clearance.cli._parser import parse

    return parse(argv, command)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        sys.stderr.write(_top_help())
        return 2
    first = argv[0]
    if first in ("-h", "--help", "help"):
        if first == "help" and len(argv) > 1:
            return main([argv[1], "--help"])
        sys.stdout.write(_top_help())
        return 0
    if first in ("-V", "--version"):
        from clearance import __version__

        sys.stdout.write(f"clearance {__version__}\n")
        return 0
    if first == "hook" and len(argv) == 2:
        # A host's hook, once per tool call: straight to the host's module, without reading the
        # command table (an unknown host falls through to the table's usage error).
        from clearance.cli.hook import HOSTS, run_host

        host = argv[1]
        if host in HOSTS:
            return _guarded("hook", lambda: run_host(host))
    from clearance.cli._commands import COMMANDS, find

    command = find(first)
    if command is None:
        from clearance.cli._args import suggest

        if first.startswith("-"):
            return _usage_error(
                "", f"unknown option {first!r}{suggest(first, ['--help', '--version'])}"
            )
        names = [c.name for c in COMMANDS]
        return _usage_error("", f"unknown command {first!r}{suggest(first, names)}")
    rest = argv[1:]
    if "-h" in rest or "--help" in rest:
        cut = rest.index("--") if "--" in rest else len(rest)
        if "-h" in rest[:cut] or "--help" in rest[:cut]:
            from clearance.cli._parser import command_help

            sys.stdout.write(command_help(command))
            return 0

    def run() -> int:
        args = _parse(command, rest)
        color = args.value("--color")
        if color is not None:
            from clearance.cli import _color

            _color.MODE = color
        module = __import__(command.module, fromlist=[command.function])
        return int(getattr(module, command.function)(args))

    return _guarded(command.name, run)


def _guarded(name: str, run: Callable[[], int]) -> int:
    """``run()``'s exit status, with a usage error or a failure said in one line on stderr."""
    try:
        return run()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # never a traceback for users; the message says what failed
        from clearance.cli._args import UsageError
        from clearance.cli._errors import describe

        if isinstance(exc, UsageError):
            return _usage_error(name, str(exc))
        sys.stderr.write(f"clearance {name}: {describe(exc)}\n")
        return 1
