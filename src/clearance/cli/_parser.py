"""``argparse`` parsers built from the command table: ``--help`` and every command off the hot path.

Help is laid out at a fixed width so it reads the same on every terminal (and in the golden
tests); a mistake is one line with a "did you mean" rather than argparse's usage dump.
"""

from __future__ import annotations

import argparse

from clearance.cli._args import Args, Command, UsageError, check_value, unknown_option

__all__ = ["command_help", "parse", "top_help"]

WIDTH = 100


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, width=WIDTH, max_help_position=30)


def _dest(name: str) -> str:
    return name.lstrip("-").replace("-", "_")


def build(command: Command) -> argparse.ArgumentParser:
    examples = "\n".join(f"  {line}" for line in command.examples)
    parser = _Parser(
        prog=f"clearance {command.name}",
        description=command.description,
        epilog=f"examples:\n{examples}" if examples else None,
        formatter_class=_formatter,
        allow_abbrev=False,
    )
    for metavar, text, nargs in command.positionals:
        parser.add_argument(metavar, help=text, nargs=nargs)
    for option in command.options:
        names = [option.name] if option.short is None else [option.short, option.name]
        text = option.help
        if option.choices is not None and "one of" not in text:
            text += f" (one of: {', '.join(option.choices)})"
        if option.default is not None:
            text += f" (default: {option.default})"
        dest = _dest(option.name)
        if option.metavar is None:
            parser.add_argument(*names, dest=dest, action="store_true", help=text)
        else:
            parser.add_argument(*names, dest=dest, metavar=option.metavar, help=text)
        for alias in option.aliases:
            kind = "store_true" if option.metavar is None else "store"
            parser.add_argument(alias, dest=dest, action=kind, help=argparse.SUPPRESS)
    return parser


def parse(argv: list[str], command: Command) -> Args:
    parser = build(command)
    namespace, extra = parser.parse_known_args(argv)
    for word in extra:
        if word.startswith("-") and word != "-":
            raise unknown_option(command, word)
    if extra:
        raise UsageError(f"unexpected argument {extra[0]!r}")
    flags: dict[str, str | bool] = {}
    for option in command.options:
        value = getattr(namespace, _dest(option.name), None)
        if value is None or value is False:
            continue
        flags[option.name] = value if value is True else check_value(option, value)
    positionals: list[str] = []
    for metavar, _, _ in command.positionals:
        value = getattr(namespace, metavar, None)
        if isinstance(value, list):
            positionals.extend(value)
        elif value is not None:
            positionals.append(value)
    return Args(flags, positionals)


def command_help(command: Command) -> str:
    return build(command).format_help()


def top_help(commands: tuple[Command, ...], version: str) -> str:
    lines = [
        "usage: clearance [-h] [-V] <command> [options]",
        "",
        f"clearance {version}: decide every tool call of a coding agent — allow, ask or deny —",
        "from a policy you write.",
        "",
        "commands:",
    ]
    for command in commands:
        lines.append(f"  {command.name:<11}{command.summary}")
    lines += [
        "",
        "options:",
        "  -h, --help   show this help, or a command's with `clearance <command> --help`",
        "  -V, --version",
        "               print the version",
        "",
        "exit status: 0 allow (or success), 3 ask, 4 deny, 2 usage error, 1 config or other error.",
        "examples:",
        '  clearance check bash "git push --force"',
        "  clearance init && clearance validate",
        "  clearance install claude-code --user",
        "",
    ]
    return "\n".join(lines)
