"""``clearance doctor``: is clearance really guarding Claude Code here, and if not, what to fix.

Five checks, each a :class:`Check` with what was found and, when it failed, the fix: the hook is
installed (for both events, in some settings file, its command executable); the configuration
validates; the project's own configuration is trusted (else it is silently skipped); the state
directory keeps its modes (0700 directories, 0600 files); and a sample payload round-trips
through the installed hook command as a real process, answering JSON.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time

from clearance.hosts.claude_code.settings import (
    EVENTS,
    SCOPES,
    SettingsError,
    hook_command,
    installed_commands,
    read_settings,
    settings_path,
)
from clearance.policy.state import state_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["Check", "run_checks"]


class Check:
    __slots__ = ("fix", "name", "ok", "summary")

    def __init__(self, name: str, ok: bool, summary: str, fix: str | None = None) -> None:
        self.name = name
        self.ok = ok
        self.summary = summary
        self.fix = fix


def _runnable(command: str) -> str | None:
    """Why ``command``'s program cannot run, or ``None``."""
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return f"the hook command {command!r} does not parse"
    if not os.path.isabs(program):
        return f"the hook command runs {program!r} by name; PATH may differ under Claude Code"
    if not os.access(program, os.X_OK):
        return f"{program} is missing or not executable"
    return None


def check_installation(cwd: str, env: Mapping[str, str]) -> tuple[Check, list[str]]:
    found: list[str] = []
    commands: list[str] = []
    problems: list[str] = []
    for scope in SCOPES:
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError as exc:
            problems.append(str(exc))
            continue
        events = installed_commands(data)
        if not events:
            continue
        found.append(f"{path} ({', '.join(events)})")
        for event in EVENTS:
            if event not in events:
                problems.append(f"{path} has no {event} hook")
        for command in {c for cs in events.values() for c in cs}:
            if command.startswith("http "):
                continue  # the HTTP hook: checked by check_http
            commands.append(command)
            why = _runnable(command)
            if why:
                problems.append(why)
    if not found:
        return Check(
            "installation", False, "the clearance hook is in none of Claude Code's settings files",
            "run `clearance install claude-code` (or --project / --local)",
        ), commands  # fmt: skip
    if problems:
        fix = "run `clearance install claude-code` again for that scope"
        return Check("installation", False, "; ".join(problems), fix), commands
    return Check("installation", True, "hook installed in " + "; ".join(found)), commands


def check_sandbox(cwd: str, env: Mapping[str, str]) -> Check:
    """Whether Claude Code's own sandbox is on: with it, a command the analysis misreads still
    cannot touch the paths ``clearance sync claude-code`` projected into it."""
    enabled = None
    where = ""
    for scope in SCOPES:  # user, project, local: the later scope wins, as in Claude Code
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError:
            continue
        sandbox = data.get("sandbox")
        if isinstance(sandbox, dict) and isinstance(sandbox.get("enabled"), bool):
            enabled, where = sandbox["enabled"], path
    if enabled:
        return Check("sandbox", True, f"Claude Code's sandbox is on ({where})")
    return Check(
        "sandbox", True,
        "Claude Code's sandbox is off: clearance's projected denies then bind only its own "
        "tools, not what a shell command does",
        'for defence in depth, set "sandbox": {"enabled": true} in Claude Code\'s settings',
    )  # fmt: skip


def check_config(cwd: str, env: Mapping[str, str]) -> Check:
    from clearance.policy.loader import load_policy

    policy = load_policy(cwd=cwd, env=env, use_cache=False)
    if policy.errors:
        text = "\n".join(str(e) for e in policy.errors)
        return Check("config", False, "the configuration has errors, so clearance fails closed "
                     f"(every allow now asks):\n{text}", "fix the file at the line shown, then "
                     "run `clearance validate`")  # fmt: skip
    files = ", ".join(policy.files) or "the built-in policy"
    warnings = "".join(f"\n  warning: {w}" for w in policy.warnings)
    return Check("config", True, f"valid ({files}){warnings}")


def check_trust(cwd: str, env: Mapping[str, str]) -> Check:
    from clearance.policy.loader import load_policy

    policy = load_policy(cwd=cwd, env=env)
    project = policy.project
    if project is None:
        return Check("trust", True, f"{cwd} is in no project")
    own = [os.path.join(project, p) for p in (".clearance/config.jsonc", ".clearance/agents",
                                              ".claude/agents")]  # fmt: skip
    present = [p for p in own if os.path.exists(p)]
    if policy.trusted:
        changed = [
            w.partition(": skipped")[0]
            for w in policy.warnings
            if "since the project was trusted" in w
        ]
        if changed:
            return Check(
                "trust", False,
                f"project {project} is trusted, but {', '.join(changed)} changed since, so it "
                f"is skipped",
                f"review the change, then run `clearance trust {shlex.quote(project)}`",
            )  # fmt: skip
        return Check("trust", True, f"project {project} is trusted")
    if not present:
        return Check(
            "trust", True, f"project {project} is not trusted (it has no config of its own)"
        )
    return Check(
        "trust", False,
        f"project {project} is not trusted, so {', '.join(present)} is skipped",
        f"if you trust this repository's policy, run `clearance trust {shlex.quote(project)}`",
    )  # fmt: skip


def check_state(env: Mapping[str, str]) -> Check:
    root = state_root(env)
    if not os.path.isdir(root):
        return Check("state", True, f"{root} does not exist yet (created 0700 on first use)")
    loose: list[str] = []
    unsafe: dict[str, None] = {}  # forwarding inboxes writable by others: remove, never repair
    forwarding = os.path.join(root, "forwarding")
    seen = 0
    for directory, _dirs, files in os.walk(root):
        for name, want in [(directory, 0o700)] + [
            (os.path.join(directory, f), 0o600) for f in files
        ]:
            seen += 1
            try:
                st = os.lstat(name)
            except OSError:
                continue
            if st.st_mode & 0o077:
                loose.append(f"{name} ({oct(st.st_mode & 0o777)}, want {oct(want)})")
            if st.st_mode & 0o022 and (name + os.sep).startswith(forwarding + os.sep):
                rest = os.path.relpath(name, forwarding).split(os.sep)[0]
                top = forwarding if rest in (".", "serving") else os.path.join(forwarding, rest)
                unsafe[top] = None
        if seen > 5000:
            break
    if loose:
        shown = "\n  ".join(loose[:5]) + (
            f"\n  … and {len(loose) - 5} more" if len(loose) > 5 else ""
        )
        fix = f"run `chmod -R go-rwx {shlex.quote(root)}`"
        if unsafe:
            # Files may already have been planted in a forwarding directory others could write:
            # it is refused, never repaired (docs/forwarding.md).
            dirs = " ".join(shlex.quote(d) for d in unsafe)
            fix = (f"remove {dirs} (others could write there, so it is refused and never "
                   f"repaired: `rm -rf {dirs}`), then restart `clearance serve`")  # fmt: skip
            if len(loose) > sum(1 for x in loose if x.startswith(tuple(unsafe))):
                fix += f"; for the rest, run `chmod -R go-rwx {shlex.quote(root)}`"
        return Check("state", False, f"others can read clearance's state:\n  {shown}", fix)
    return Check("state", True, f"{root}: directories 0700, files 0600")


def check_round_trip(cwd: str, command: str, env: Mapping[str, str]) -> Check:
    from clearance._json import dumps, loads

    payload = dumps({
        "session_id": "clearance-doctor", "transcript_path": os.devnull, "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
        "tool_input": {"file_path": os.path.join(cwd, "clearance-doctor-probe.txt")},
        "tool_use_id": "toolu_doctor",
    })  # fmt: skip
    child_env = {k: v for k, v in env.items() if not k.startswith("CLAUDE_CODE_")}
    start = time.monotonic()
    try:
        proc = subprocess.run(
            command, shell=True, input=payload, capture_output=True, text=True, cwd=cwd,
            env=child_env, timeout=30,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("round trip", False, f"the hook did not answer: {exc}",
                     "run `clearance install claude-code` again")  # fmt: skip
    ms = (time.monotonic() - start) * 1000
    try:
        answer = loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"]
    except (ValueError, KeyError, TypeError):
        answer = None
    if proc.returncode != 0 or answer not in ("allow", "deny", "ask"):
        got = (proc.stdout or proc.stderr).strip()[:300]
        return Check("round trip", False, f"`{command}` exited {proc.returncode} and answered "
                     f"{got!r}", "run `clearance install claude-code` again; if that does not "
                     "help, reinstall clearance")  # fmt: skip
    return Check("round trip", True, f"a sample Read answered {answer!r} in {ms:.0f} ms")


def installed_claude(env: Mapping[str, str]) -> tuple[int, int, int] | None:
    """The version of the ``claude`` on ``PATH``; ``None`` when there is none or it fails."""
    import shutil

    from clearance.hosts.claude_code.claude_version import claude_version

    binary = shutil.which("claude", path=env.get("PATH"))
    return claude_version(binary) if binary else None


def check_fail_closed(cwd: str, env: Mapping[str, str]) -> Check | None:
    """The installed Claude Code's version, and whether clearance's command hooks carry
    ``"onFailure": "block"`` (a crashed, timed-out or unstartable hook then blocks); ``None``
    when no command hook of clearance's is installed."""
    from clearance.hosts.claude_code.settings import EVENTS, ONFAILURE_SINCE, is_our_command

    version = installed_claude(env)
    since = ".".join(map(str, ONFAILURE_SINCE))
    shown = "Claude Code " + (".".join(map(str, version)) if version else "not found on PATH")
    entries = []
    for scope in SCOPES:
        try:
            data, _ = read_settings(settings_path(scope, cwd, env))
        except SettingsError:
            continue
        found = data.get("hooks")
        hooks: dict[str, Any] = found if isinstance(found, dict) else {}
        for event in EVENTS:
            for group in hooks.get(event) or []:
                for hook in (group.get("hooks") or []) if isinstance(group, dict) else []:
                    if isinstance(hook, dict) and is_our_command(hook.get("command")):
                        entries.append(hook)
    if not entries:
        return None
    if all(h.get("onFailure") == "block" for h in entries):
        return Check("fail-closed", True, f"{shown}; a failing hook blocks (onFailure: block)")
    if version is None or version < ONFAILURE_SINCE:
        return Check("fail-closed", True, f"{shown}; onFailure needs {since} or later, so a "
                     "failing hook blocks only through the command's `|| exit 2`")  # fmt: skip
    return Check("fail-closed", False, f"{shown} supports onFailure, but the installed hooks do "
                 "not set it", "run `clearance install claude-code` again")  # fmt: skip


def http_hooks(cwd: str, env: Mapping[str, str]) -> list[tuple[str, dict[str, Any], str | None]]:
    """(settings path, our HTTP hook, the token in that file's ``env``) for every scope."""
    from clearance.hosts.claude_code.settings import TOKEN_VAR, _is_our_http_hook

    found = []
    for scope in SCOPES:
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError:
            continue
        hooks = data.get("hooks")
        settings_env = data.get("env")
        token = settings_env.get(TOKEN_VAR) if isinstance(settings_env, dict) else None
        for groups in hooks.values() if isinstance(hooks, dict) else ():
            for group in groups if isinstance(groups, list) else ():
                for hook in group.get("hooks") or [] if isinstance(group, dict) else ():
                    if isinstance(hook, dict) and _is_our_http_hook(hook):
                        found.append((path, hook, token if isinstance(token, str) else None))
                        break
    return found


def check_http(cwd: str, env: Mapping[str, str]) -> list[Check]:
    """With the HTTP hook installed: onFailure, the token, and a round trip to the service."""
    from clearance.hosts.claude_code.http_token import hook_token, token_path
    from clearance.hosts.claude_code.settings import TOKEN_VAR

    installed = http_hooks(cwd, env)
    if not installed:
        return []
    path, hook, token = installed[0]
    checks = []
    if hook.get("onFailure") != "block":
        checks.append(Check("http hook", False, f'{path}: the HTTP hook lacks "onFailure": '
                            '"block", so a failed POST lets the call run',
                            "run `clearance install claude-code --http` again"))  # fmt: skip
    try:
        expected = hook_token(state_root(env), create=False)
    except OSError as exc:
        return [*checks, Check("http token", False, str(exc), "remove it and reinstall")]
    given = token or env.get(TOKEN_VAR)
    if expected is None or given != expected:
        what = "missing" if expected is None else "not the one in " + token_path(state_root(env))
        checks.append(Check("http token", False, f"the HTTP hook's token is {what}",
                            "run `clearance install claude-code --http` again"))  # fmt: skip
        return checks
    checks.append(Check("http token", True, f"{TOKEN_VAR} matches the service's token"))
    checks.append(_claude_version(env))
    checks.append(_http_round_trip(cwd, str(hook["url"]), expected))
    return checks


def _claude_version(env: Mapping[str, str]) -> Check:
    import shutil

    from clearance.hosts.claude_code.claude_version import claude_version
    from clearance.hosts.claude_code.settings import ONFAILURE_SINCE

    since = ".".join(map(str, ONFAILURE_SINCE))
    binary = shutil.which("claude", path=env.get("PATH"))
    version = claude_version(binary) if binary else None
    if version is None:
        return Check("claude version", True, f"no `claude` on PATH to check (it must be {since} "
                     "or later for the HTTP hook to fail closed)")  # fmt: skip
    shown = ".".join(map(str, version))
    if version < ONFAILURE_SINCE:
        return Check("claude version", False, f"Claude Code {shown} ignores onFailure (before "
                     f"{since}): a failed POST lets the call run", "update Claude Code, or "
                     "`clearance install claude-code` for the command hook")  # fmt: skip
    return Check("claude version", True, f"Claude Code {shown} honours onFailure")


def _http_round_trip(cwd: str, url: str, token: str) -> Check:
    import urllib.error
    import urllib.request

    from clearance._json import dumps, loads

    payload = dumps({
        "session_id": "clearance-doctor", "transcript_path": os.devnull, "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
        "tool_input": {"file_path": os.path.join(cwd, "clearance-doctor-probe.txt")},
        "tool_use_id": "toolu_doctor",
    }).encode()  # fmt: skip
    request = urllib.request.Request(url, payload, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})  # fmt: skip
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            answer = loads(response.read().decode())["hookSpecificOutput"]["permissionDecision"]
    except (OSError, ValueError, KeyError, TypeError, urllib.error.URLError) as exc:
        return Check("http service", False, f"{url} did not answer ({exc}); every call is "
                     "blocked until it does", "start `clearance serve --listen HOST:PORT` "
                     "(see docs/console.md)")  # fmt: skip
    ms = (time.monotonic() - start) * 1000
    return Check("http service", True, f"{url} answered {answer!r} in {ms:.0f} ms")


def run_checks(cwd: str, env: Mapping[str, str] | None = None) -> list[Check]:
    env = os.environ if env is None else env
    installation, commands = check_installation(cwd, env)
    checks = [installation, check_config(cwd, env), check_trust(cwd, env), check_state(env),
              check_sandbox(cwd, env), *check_http(cwd, env)]  # fmt: skip
    fail_closed = check_fail_closed(cwd, env)
    if fail_closed is not None:
        checks.append(fail_closed)
    if http_hooks(cwd, env) and not commands:
        return checks  # only the HTTP hook: its round trip is above
    command = commands[0] if commands and _runnable(commands[0]) is None else hook_command()
    checks.append(check_round_trip(cwd, command, env))
    return checks
