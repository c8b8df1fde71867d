"""``clearance install|uninstall|sync claude-code [--user|--project|--local] [--dir D]``."""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError, parse_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.hosts.claude_code.settings import Change

__all__ = ["run_install", "run_sync", "run_uninstall"]

_SWITCHES = ("--user", "--project", "--local", "--no-hide")


def _target(argv: list[str], verb: str) -> tuple[str, str, bool]:
    """(settings path, directory whose policy applies, whether to hide tools)."""
    from clearance.hosts.claude_code.settings import settings_path

    args = parse_args(argv, valued=("--dir",), switches=_SWITCHES)
    if args.positionals != ["claude-code"]:
        raise UsageError(f"{verb} takes one host: claude-code")
    scopes = [s for s in ("user", "project", "local") if args.on("--" + s)]
    if len(scopes) > 1:
        raise UsageError("choose one of --user, --project, --local")
    scope = scopes[0] if scopes else "user"
    directory = os.path.abspath(args.value("--dir") or os.getcwd())
    if scope == "user":
        from clearance.policy.state import home_dir

        directory = home_dir()
    return settings_path(scope, directory), directory, not args.on("--no-hide")


def _hidden(directory: str) -> tuple[list[str], dict[str, list[str]]]:
    """The ``permissions.deny`` entries clearance owns (tools denied outright, and the path
    denies and protected paths projected as ``Read(…)``/``Edit(…)``), and the
    ``sandbox.filesystem`` lists."""
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.settings import hidden_tools, projected_denies

    engine = Engine.load(cwd=directory)
    policy = engine.policy
    for error in policy.errors:
        sys.stderr.write(f"warning: {error}\n")
    entries, reads, writes = projected_denies(policy, engine.protected())
    return hidden_tools(policy) + entries, {"denyRead": reads, "denyWrite": writes}


def _report(change: Change, what: str) -> None:
    if not change.changed:
        sys.stdout.write(f"{change.path}: already {what}, nothing to change\n")
        return
    sys.stdout.write(f"{change.path}: {what}\n")
    if change.backup:
        sys.stdout.write(f"  previous file kept as {change.backup}\n")
    if change.hidden:
        sys.stdout.write(f"  hidden from the model (denied outright): {', '.join(change.hidden)}\n")
    if change.unhidden:
        sys.stdout.write(f"  no longer hidden: {', '.join(change.unhidden)}\n")


def _other_host(argv: list[str]) -> bool:
    """Whether the first positional names a host other than Claude Code."""
    from clearance.hosts.setup import HOSTS

    first = next((a for a in argv if not a.startswith("-")), None)
    return first in HOSTS


def _run(argv: list[str], verb: str) -> int:
    if _other_host(argv):
        from clearance.hosts.setup import run

        return run(verb, argv)
    from clearance.hosts.claude_code import settings

    path, directory, hide = _target(argv, verb)
    try:
        if verb == "install":
            hidden, sandbox = _hidden(directory) if hide else (None, None)
            from clearance.hosts.claude_code.version import installed_version, supports_on_failure

            command = settings.hook_command()
            version = installed_version()
            fail_closed = supports_on_failure(version)
            change = settings.install(path, command=command, hide=hidden, sandbox=sandbox,
                                      fail_closed=fail_closed)  # fmt: skip
            _report(change, "installed")
            if change.changed:
                sys.stdout.write(f"  hook command: {command}\n")
            shown = ".".join(map(str, version)) if version else "not found on PATH"
            state = 'on ("onFailure": "block")' if fail_closed else "off (needs 2.1.332 or later)"
            sys.stdout.write(f"  Claude Code {shown}; a failing hook blocks: {state}\n")
        elif verb == "uninstall":
            _report(settings.uninstall(path), "uninstalled")
        else:
            hidden, sandbox = _hidden(directory) if hide else ([], None)
            _report(settings.sync(path, hidden, sandbox=sandbox), "in sync")
    except (settings.SettingsError, OSError) as exc:
        sys.stderr.write(f"clearance {verb}: {exc}\n")
        return 1
    return 0


def run_install(argv: list[str]) -> int:
    return _run(argv, "install")


def run_uninstall(argv: list[str]) -> int:
    return _run(argv, "uninstall")


def run_sync(argv: list[str]) -> int:
    return _run(argv, "sync")
