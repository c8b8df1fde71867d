"""``clearance doctor``'s checks that a failing hook blocks: the installed Claude Code's
version and ``"onFailure": "block"``, and the HTTP hook (its token and the service behind it)."""

from __future__ import annotations

import os
import time

from clearance.hosts.claude_code.checks import Check, each_settings
from clearance.policy.state import state_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["check_fail_closed", "check_http", "http_hooks", "installed_claude"]


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
    for _, _, data in each_settings(cwd, env):
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
    for _, path, data in each_settings(cwd, env):
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
    from clearance.hosts.claude_code.settings import ONFAILURE_SINCE

    since = ".".join(map(str, ONFAILURE_SINCE))
    version = installed_claude(env)
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
