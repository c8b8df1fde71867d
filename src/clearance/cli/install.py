"""``clearance install|uninstall|sync claude-code [--user|--project|--local] [--dir D]``."""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args
    from clearance.hosts.claude_code.settings import Change

__all__ = ["run_install", "run_sync", "run_uninstall"]


def _target(args: Args, verb: str) -> tuple[str, str, bool, str]:
    """(settings path, directory whose policy applies, whether to hide tools, scope)."""
    from clearance.hosts.claude_code.settings import settings_path

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
    return settings_path(scope, directory), directory, not args.on("--no-hide"), scope


def _hidden(directory: str) -> tuple[list[str], dict[str, list[str]]]:
    """The ``permissions.deny`` entries clearance owns (tools denied outright, and the path
    denies and protected paths projected as ``Read(…)``/``Edit(…)``), and the
    ``sandbox.filesystem`` lists."""
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.hiding import hidden_tools, projected_denies

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


def _run(args: Args, verb: str) -> int:
    from clearance.hosts.setup import HOSTS

    if args.positionals and args.positionals[0] in HOSTS:  # codex, gemini, … (hosts/setup.py)
        from clearance.hosts.setup import run_parsed

        if args.on("--local") or args.on("--http") or args.on("--no-hide"):
            raise UsageError(f"{verb} {args.positionals[0]} takes --user or --project and --dir")
        scope = "project" if args.on("--project") else "user"
        return run_parsed(verb, args.positionals, scope, args.value("--dir"))
    from clearance.hosts.claude_code import settings

    path, directory, hide, scope = _target(args, verb)
    try:
        if verb == "install":
            http = _http_options(args)  # --http: the HTTP hook (clearance.service)
            if http is not None:
                hidden, sandbox = _hidden(directory) if hide else (None, None)
                url, token = http
                change = settings.install(path, hide=hidden, sandbox=sandbox, http=url,
                                          token=token)  # fmt: skip
                _report(change, "installed")
                _report_http(url, token)
                return 0
            portable = scope == "project"
            if portable and not _on_path():
                return _refuse_project(path)
            hidden, sandbox = _hidden(directory) if hide else (None, None)
            command = settings.hook_command(portable=portable)
            from clearance.hosts.claude_code.doctor_blocking import installed_claude

            version = installed_claude(os.environ)
            fail_closed = version is not None and version >= settings.ONFAILURE_SINCE
            change = settings.install(path, command=command, hide=hidden, sandbox=sandbox,
                                      fail_closed=fail_closed)  # fmt: skip
            _report(change, "installed")
            shown = ".".join(map(str, version)) if version else "not found on PATH"
            since = ".".join(map(str, settings.ONFAILURE_SINCE))
            state = 'on ("onFailure": "block")' if fail_closed else f"off (needs {since} or later)"
            sys.stdout.write(f"  Claude Code {shown}; a failing hook blocks: {state}\n")
            if change.changed and portable:
                sys.stdout.write(
                    "  hook command: `clearance hook claude-code` from PATH, as the file is shared "
                    "through the repository;\n  on a machine without clearance every call is "
                    "blocked with a reason that says how to install it\n"
                )
            elif change.changed:
                sys.stdout.write(f"  hook command: {command}\n")
        elif verb == "uninstall":
            _report(settings.uninstall(path), "uninstalled")
        else:
            hidden, sandbox = _hidden(directory) if hide else ([], None)
            change = settings.sync(path, hidden, sandbox=sandbox)
            if change.changed:
                _report(change, "updated: the hidden tools now match the policy")
            else:
                sys.stdout.write(f"{change.path}: in sync with the policy, nothing to change\n")
    except settings.SettingsError as exc:
        sys.stderr.write(f"clearance {verb}: {exc}\n")
        return 1
    except OSError as exc:
        from clearance.cli._errors import describe

        sys.stderr.write(f"clearance {verb}: cannot update {describe(exc)}\n")
        return 1
    return 0


def _http_options(args: Args) -> tuple[str, str | None] | None:
    """``--http``: (the hook's URL, the token to put in the settings' env, or ``None`` for a
    shared project file), after checking that Claude Code honours ``onFailure``."""
    from clearance.hosts.claude_code.claude_version import require_on_failure
    from clearance.hosts.claude_code.http_token import hook_token
    from clearance.policy.state import state_root

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


def _on_path() -> bool:
    import shutil

    return shutil.which("clearance") is not None


def _refuse_project(path: str) -> int:
    sys.stderr.write(
        f"clearance install: not writing {path}: the project's settings are shared through the "
        "repository, so its hook runs `clearance` from PATH, and `clearance` is not on PATH "
        "here (this one runs from "
        f"{os.path.dirname(os.path.abspath(sys.executable))}). Put clearance on PATH (pipx "
        "install, uv tool install, or activate its venv) and run this again, or use --local to "
        "install for this machine only (.claude/settings.local.json, not committed)\n"
    )
    return 1


def run_install(args: Args) -> int:
    return _run(args, "install")


def run_uninstall(args: Args) -> int:
    return _run(args, "uninstall")


def run_sync(args: Args) -> int:
    return _run(args, "sync")
