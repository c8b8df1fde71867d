"""Command-line options, described once: the lean parser of the hook's hot path reads them.

Every command is a :class:`Command` in :mod:`clearance.cli._commands`, its options
:class:`Option` values. ``--help``, usage errors with a "did you mean" and the commands off the
hot path go through ``argparse`` (:mod:`clearance.cli._parser`, built from the same table);
``check``, ``explain``, ``gate`` and ``hook`` — what a hook process runs on every tool call — are
parsed here, because ``argparse`` pulls in ``re`` and ``gettext``. Both paths validate values
with :func:`check_value`, so ``--cwd``, ``--tty`` and word-valued options mean the same either way.
"""

from __future__ import annotations

__all__ = ["Args", "Command", "Option", "UsageError", "check_value", "parse_lean", "suggest"]


class UsageError(ValueError):
    """Bad command-line usage (exit status 2)."""


class Option:
    """One option: ``--name`` with a ``metavar`` value, or a switch when ``metavar`` is None.

    ``kind`` validates the value: ``"dir"`` an existing directory, ``"tty"`` a terminal,
    ``"count"`` a whole number from 1 to 256, ``"words"`` a comma-separated list of
    ``choices``; ``choices`` alone is one known word.
    ``aliases`` are older spellings that keep working (not shown in ``--help``).
    """

    __slots__ = ("aliases", "choices", "default", "help", "kind", "metavar", "name", "short")

    def __init__(
        self,
        name: str,
        help: str,
        metavar: str | None = None,
        *,
        short: str | None = None,
        choices: tuple[str, ...] | None = None,
        kind: str | None = None,
        default: str | None = None,
        aliases: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.help = help
        self.metavar = metavar
        self.short = short
        self.choices = choices
        self.kind = kind
        self.default = default
        self.aliases = aliases


class Command:
    """A subcommand: where it lives, what ``--help`` says, and what it accepts.

    ``positionals`` are ``(metavar, help, nargs)`` with argparse's ``nargs`` words (``None``
    for exactly one, ``"?"``, ``"*"``); ``hot`` commands are parsed without argparse.
    """

    __slots__ = (
        "aliases",
        "description",
        "examples",
        "function",
        "hot",
        "module",
        "name",
        "options",
        "positionals",
        "summary",
    )

    def __init__(
        self,
        name: str,
        target: str,
        summary: str,
        description: str,
        examples: tuple[str, ...],
        options: tuple[Option, ...] = (),
        positionals: tuple[tuple[str, str, str | None], ...] = (),
        *,
        hot: bool = False,
        aliases: tuple[str, ...] = (),
    ) -> None:
        self.name = name
        self.module, _, self.function = target.partition(":")
        self.summary = summary
        self.description = description
        self.examples = examples
        self.options = options
        self.positionals = positionals
        self.hot = hot
        self.aliases = aliases

    def option(self, word: str) -> Option | None:
        for option in self.options:
            if word == option.name or word == option.short or word in option.aliases:
                return option
        return None


class Args:
    """Parsed options by long name (``args.value("--cwd")``) and the positionals."""

    __slots__ = ("flags", "positionals")

    def __init__(self, flags: dict[str, str | bool], positionals: list[str]) -> None:
        self.flags = flags
        self.positionals = positionals

    def value(self, name: str) -> str | None:
        value = self.flags.get(name)
        return value if isinstance(value, str) else None

    def on(self, name: str) -> bool:
        return bool(self.flags.get(name))


def suggest(word: str, known: list[str] | tuple[str, ...]) -> str:
    """``"; did you mean --decision?"`` when ``word`` is close to one of ``known``, else ``""``."""
    from difflib import get_close_matches

    close = get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close else ""


def check_value(option: Option, value: str) -> str:
    """``value`` if it suits ``option``, else a :class:`UsageError` saying what to give."""
    import os

    name = option.name
    if option.kind == "dir":
        if not value or not os.path.isdir(value):
            what = "does not exist" if not os.path.exists(value) else "is not a directory"
            raise UsageError(f"{name} {value!r}: {what}; give an existing directory")
    elif option.kind == "tty":
        try:
            fd = os.open(value, os.O_RDWR | os.O_NOCTTY)
        except OSError as exc:
            why = exc.strerror.lower() if exc.strerror else "cannot be opened"
            raise UsageError(f"{name} {value!r}: cannot open it ({why}); give a terminal "
                             "such as /dev/tty or /dev/pts/N") from None  # fmt: skip
        try:
            if not os.isatty(fd):
                raise UsageError(f"{name} {value!r} is not a terminal; give one such as "
                                 "/dev/tty or /dev/pts/N")  # fmt: skip
        finally:
            os.close(fd)
    elif option.kind == "count":
        if not (value.isascii() and value.isdigit() and 1 <= int(value) <= 256):
            raise UsageError(f"{name} {value!r}: give a whole number from 1 to 256")
    elif option.choices is not None:
        words = value.split(",") if option.kind == "words" else [value]
        for word in words:
            if word not in option.choices:
                known = ", ".join(option.choices)
                hint = suggest(word, option.choices)
                raise UsageError(f"{name} {word!r} is not one of {known}{hint}")
    return value


def unknown_option(command: Command, word: str) -> UsageError:
    known = [o.name for o in command.options] + ["--help"]
    name = word.partition("=")[0]
    return UsageError(f"unknown option {name!r}{suggest(name, known)}")


def parse_lean(argv: list[str], command: Command) -> Args:
    """Split ``argv`` by ``command``'s options; a mistake is a :class:`UsageError`."""
    flags: dict[str, str | bool] = {}
    positionals: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if word == "--":
            positionals.extend(argv[i:])
            break
        if not word.startswith("-") or word == "-":
            positionals.append(word)
            continue
        name, eq, attached = word.partition("=")
        option = command.option(name)
        if option is None:
            raise unknown_option(command, word)
        if option.metavar is not None:
            if eq:
                value = attached
            elif i < len(argv):
                value = argv[i]
                i += 1
            else:
                raise UsageError(f"{option.name} needs a value ({option.metavar})")
            flags[option.name] = check_value(option, value)
        elif eq:
            raise UsageError(f"{option.name} takes no value")
        else:
            flags[option.name] = True
    top = sum(1 for p in command.positionals if p[2] is None or p[2] == "?")
    many = any(p[2] == "*" for p in command.positionals)
    if not many and len(positionals) > top:
        raise UsageError(
            f"unexpected argument {positionals[top]!r} (quote an argument that holds spaces)"
        )
    return Args(flags, positionals)
