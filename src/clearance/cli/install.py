"""``clearance install|uninstall|sync claude-code [--user|--project|--local] [--dir D]``."""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError, parse_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.hosts.claude_code.settings import Change

__all__ = ["run_install", "run_sync", "run_uninstall"]

_SWITCHES = ("--user", "--project", "--local", "--no-hide", "--http")


def _target(argv: list[str], verb: str) -> tuple[str, str, bool]:
    """(settings path, directory whose policy applies, whether to hide tools)."""
    from clearance.hosts.claude_code.settings import settings_path

    args = parse_args(argv, valued=("--dir", "--url", "--claude"), switches=_SWITCHES)
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
            http = _http_options(argv, path)  # --http: the HTTP hook (clearance.service)
            hidden, sandbox = _hidden(directory) if hide else (None, None)
            command = settings.hook_command()
            if http is not None:
                url, token = http
                change = settings.install(path, hide=hidden, sandbox=sandbox, http=url,
                                          token=token)  # fmt: skip
                _report(change, "installed")
                _report_http(url, token)
                return 0
            from clearance.hosts.claude_code.doctor import installed_claude

            version = installed_claude(os.environ)
            fail_closed = version is not None and version >= settings.ONFAILURE_SINCE
            change = settings.install(path, command=command, hide=hidden, sandbox=sandbox,
                                      fail_closed=fail_closed)  # fmt: skip
            _report(change, "installed")
            if change.changed:
                sys.stdout.write(f"  hook command: {command}\n")
            shown = ".".join(map(str, version)) if version else "not found on PATH"
            since = ".".join(map(str, settings.ONFAILURE_SINCE))
            state = 'on ("onFailure": "block")' if fail_closed else f"off (needs {since} or later)"
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


def _http_options(argv: list[str], path: str) -> tuple[str, str | None] | None:
    """``--http``: (the hook's URL, the token to put in the settings' env, or ``None`` for a
    shared project file), after checking that Claude Code honours ``onFailure``."""
    from clearance.hosts.claude_code.claude_version import require_on_failure
    from clearance.hosts.claude_code.http_token import hook_token
    from clearance.policy.state import state_root

    args = parse_args(argv, valued=("--dir", "--url", "--claude"), switches=_SWITCHES)
    if not args.on("--http"):
        if args.value("--url") or args.value("--claude"):
            raise UsageError("--url and --claude go with --http")
        return None
    require_on_failure(args.value("--claude"))
    url = args.value("--url") or "http://127.0.0.1:8765/hooks/claude-code"
    if not url.startswith(("http://", "https://")) or not url.endswith("/hooks/claude-code"):
        raise UsageError(f"--url {url}: expected http(s)://HOST:PORT/hooks/claude-code")
    token = hook_token(state_root())
    shared = args.on("--project")
    return url, None if shared else token


def _report_http(url: str, token: str | None) -> None:
    sys.stdout.write(f"  HTTP hook: {url} (onFailure: block); run `clearance serve --listen "
                     "HOST:PORT` to serve it\n")  # fmt: skip
    if token is None:
        sys.stdout.write(
            "  the project's settings are shared, so the token is not written there: export "
            "CLEARANCE_HOOK_TOKEN=$(cat <state>/service/hook-token) where Claude Code starts\n"
        )


def run_install(argv: list[str]) -> int:
    return _run(argv, "install")


def run_uninstall(argv: list[str]) -> int:
    return _run(argv, "uninstall")


def run_sync(argv: list[str]) -> int:
    return _run(argv, "sync")
