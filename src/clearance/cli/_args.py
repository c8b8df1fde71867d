"""A small argument parser for the command line.

``argparse`` pulls in ``re`` and ``gettext``, which a hook process calling ``clearance check`` on
every tool call would pay for each time; this covers what the commands need: long flags with or
without a value (``--cwd D``, ``--cwd=D``), ``--`` and positionals.
"""

from __future__ import annotations

__all__ = ["Args", "UsageError", "parse_args"]


class UsageError(ValueError):
    """Bad command-line usage (exit status 2)."""


class Args:
    __slots__ = ("flags", "positionals")

    def __init__(self, flags: dict[str, str | bool], positionals: list[str]) -> None:
        self.flags = flags
        self.positionals = positionals

    def value(self, name: str) -> str | None:
        value = self.flags.get(name)
        return value if isinstance(value, str) else None

    def on(self, name: str) -> bool:
        return bool(self.flags.get(name))


def parse_args(argv: list[str], *, valued: tuple[str, ...], switches: tuple[str, ...]) -> Args:
    """Split ``argv`` into flags and positionals; unknown flags are a :class:`UsageError`."""
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
        if name in valued:
            if eq:
                flags[name] = attached
            elif i < len(argv):
                flags[name] = argv[i]
                i += 1
            else:
                raise UsageError(f"{name} needs a value")
        elif name in switches and not eq:
            flags[name] = True
        else:
            known = ", ".join(sorted(valued + switches))
            raise UsageError(f"unknown option {word!r} (known: {known})")
    return Args(flags, positionals)
