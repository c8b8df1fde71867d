"""Claude Code's ``settings.json``: install and remove our hook, hide fully denied tools.

Three files, as Claude Code names its scopes: ``user`` (``~/.claude/settings.json``),
``project`` (``<dir>/.claude/settings.json``, shared through the repository) and ``local``
(``<dir>/.claude/settings.local.json``, personal). Every write keeps every other key and hook,
reads JSONC (comments and trailing commas; they are not written back), keeps the previous file
under the state root's ``backups/`` (never beside the settings, where git would show it), and
replaces the file atomically.

The project scope is shared through the repository, so its hook runs ``clearance`` from ``PATH``
(:data:`PORTABLE_COMMAND`) rather than this machine's absolute path; on a machine without
clearance it blocks every call with a reason that says how to install it.

Our hook is recognised by its command (``… clearance hook claude-code``), so installing twice
leaves one entry and uninstall removes only ours. Hiding the tools the policy denies outright,
and the ``sandbox`` lists, are :mod:`clearance.hosts.claude_code.hiding`'s.
"""

from __future__ import annotations

import os

from clearance._json import dumps
from clearance.hosts import hook_files
from clearance.hosts.hook_files import HookFileError
from clearance.policy.protected import HOOK_TOKEN_VARIABLE
from clearance.policy.state import home_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


__all__ = [
    "EVENTS",
    "PORTABLE_COMMAND",
    "SCOPES",
    "Change",
    "SettingsError",
    "hook_command",
    "install",
    "installed_commands",
    "is_our_command",
    "read_settings",
    "settings_path",
    "sync",
    "uninstall",
]

SCOPES = ("user", "project", "local")
EVENTS = ("PreToolUse", "PermissionRequest")
# Seconds Claude Code waits for the hook; long enough for a forwarded ask to be answered. A hook
# that times out lets the call proceed in Claude Code, so this must outlast any wait we make.
HOOK_TIMEOUT = 600

# A settings file we will not rewrite (it does not parse, or is not an object).
SettingsError = HookFileError


class Change(hook_files.Change):
    """What one install, uninstall or sync did to one file, and the tools it hid or unhid."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.hidden: list[str] = []
        self.unhidden: list[str] = []


def settings_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    if scope == "user":
        config_dir = (env or os.environ).get("CLAUDE_CONFIG_DIR")
        base = config_dir or os.path.join(home_dir(env), ".claude")
        return os.path.join(os.path.abspath(base), "settings.json")
    name = "settings.json" if scope == "project" else "settings.local.json"
    return os.path.join(os.path.abspath(directory), ".claude", name)


# Claude Code lets a call through when a hook fails with any status but 2; if the hook process
# itself dies (a crash in a native library, a missing interpreter), the shell turns that into 2,
# which blocks the call. A working hook always exits 0 with its JSON answer.
FAIL_CLOSED_SUFFIX = "|| exit 2"


def _single_quoted(text: str) -> str:
    """``text`` as one shell word, as ``shlex.quote`` writes it; ``shlex`` (and ``re``) stay off
    the hook's path, which reads ``HOOK_TIMEOUT`` from this module on every ask."""
    return "'" + text.replace("'", "'\"'\"'") + "'"


# The project's shared hook: `clearance` from PATH, or a block (exit 2: Claude Code denies the call
# and shows stderr) that says how to get clearance. Recognised by its first words.
PORTABLE_PREFIX = "if command -v clearance >/dev/null 2>&1; then clearance hook claude-code"
INSTALL_HINT = (
    "clearance guards this project (its .claude/settings.json runs `clearance hook claude-code`) "
    "but clearance is not on PATH here, so every tool call is blocked. Install it so that "
    "`clearance` is on PATH (pipx install, uv tool install, or an activated venv; see clearance's "
    "README), or ask who set up this project."
)
PORTABLE_COMMAND = (
    f"{PORTABLE_PREFIX} {FAIL_CLOSED_SUFFIX}; "
    f"else echo {_single_quoted(INSTALL_HINT)} >&2; exit 2; fi"
)


def hook_command(executable: list[str] | None = None, *, portable: bool = False) -> str:
    """The hook command: this installation's absolute path, or (``portable``) the shared one."""
    if portable:
        return PORTABLE_COMMAND
    import shlex

    words = (executable or hook_files.executable()) + ["hook", "claude-code"]
    return " ".join(shlex.quote(w) for w in words) + " " + FAIL_CLOSED_SUFFIX


def is_our_command(command: object) -> bool:
    """``… clearance hook claude-code`` (a script, or ``python -m clearance``)."""
    if not isinstance(command, str):
        return False
    if command.startswith(PORTABLE_PREFIX):
        return True
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if words[-3:] == ["||", "exit", "2"]:
        words = words[:-3]
    if len(words) < 3 or words[-2:] != ["hook", "claude-code"]:
        return False
    before = words[-3]
    return before == "clearance" or os.path.basename(before).startswith("clearance")


def read_settings(path: str) -> tuple[dict[str, Any], bytes | None]:
    """The settings object and the file's bytes (``None`` when there is no file)."""
    return hook_files.read_json(path)


# The HTTP hook of ``clearance serve --listen`` (``install claude-code --http``): Claude Code POSTs
# the hook input to it with our token, read from this variable, and blocks the call on any failure
# (``onFailure``, which Claude Code honours since the version below; without it a refused
# connection, a 5xx or a timeout would let the call run).
HTTP_PATH = "/hooks/claude-code"
TOKEN_VAR = HOOK_TOKEN_VARIABLE
ONFAILURE_SINCE = (2, 1, 332)


def http_hook(url: str) -> dict[str, Any]:
    return {
        "type": "http", "url": url, "timeout": HOOK_TIMEOUT, "onFailure": "block",
        "headers": {"Authorization": f"Bearer ${TOKEN_VAR}"}, "allowedEnvVars": [TOKEN_VAR],
    }  # fmt: skip


def _is_our_http_hook(hook: dict[str, Any]) -> bool:
    url = hook.get("url")
    headers = hook.get("headers")
    return (
        hook.get("type") == "http" and isinstance(url, str) and url.endswith(HTTP_PATH)
        and isinstance(headers, dict) and TOKEN_VAR in str(headers.get("Authorization", ""))
    )  # fmt: skip


def _is_our_hook(hook: object) -> bool:
    if not isinstance(hook, dict):
        return False
    return is_our_command(hook.get("command")) or _is_our_http_hook(hook)


def _strip_ours(hooks: dict[str, Any]) -> None:
    """Remove our command from every matcher group of our events; drop emptied groups."""
    for event in EVENTS:
        groups = hooks.get(event)
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                inner = [h for h in group["hooks"] if not _is_our_hook(h)]
                if not inner and group["hooks"]:
                    continue
                group = {**group, "hooks": inner}
            kept.append(group)
        if kept:
            hooks[event] = kept
        else:
            del hooks[event]


def installed_commands(data: dict[str, Any]) -> dict[str, list[str]]:
    """Our hook commands in a settings object, per event."""
    out: dict[str, list[str]] = {}
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in EVENTS:
        for group in hooks.get(event) or []:
            if not isinstance(group, dict):
                continue
            for h in group.get("hooks") or []:
                if isinstance(h, dict) and is_our_command(h.get("command")):
                    out.setdefault(event, []).append(h["command"])
                elif isinstance(h, dict) and _is_our_http_hook(h):
                    out.setdefault(event, []).append(f"http {h['url']}")
    return out


def _set_token(data: dict[str, Any], path: str, token: str | None) -> None:
    """Put ``token`` in the settings' ``env`` (``None``: remove ours)."""
    env = data.get("env")
    if env is None and token is None:
        return
    if env is None:
        env = data["env"] = {}
    if not isinstance(env, dict):
        raise SettingsError(f'{path}: "env" is not an object; fix it first')
    if token is None:
        env.pop(TOKEN_VAR, None)
        if not env:
            del data["env"]
    else:
        env[TOKEN_VAR] = token


# --- the three operations -----------------------------------------------------------------


def install(
    path: str,
    *,
    command: str | None = None,
    hide: list[str] | None = None,
    sandbox: dict[str, list[str]] | None = None,
    env: Mapping[str, str] | None = None,
    http: str | None = None,
    token: str | None = None,
    fail_closed: bool = False,
) -> Change:
    """Add our hook for every event (replacing an older one of ours, command or http), hide
    ``hide`` and own the ``sandbox`` lists. ``http``: install the HTTP hook at that URL instead
    of the command hook, with ``token`` (when given) in the settings' ``env``. ``fail_closed``
    adds ``"onFailure": "block"`` to the command hook (Claude Code :data:`ONFAILURE_SINCE`+)."""
    from clearance.hosts.claude_code import hiding

    change = Change(path)
    data, before = read_settings(path)
    snapshot = dumps(data)
    hooks = data.get("hooks")
    if hooks is None:
        hooks = {}
    if not isinstance(hooks, dict):
        raise SettingsError(f'{path}: "hooks" is not an object; fix it first')
    _strip_ours(hooks)
    entry: dict[str, Any] = {
        "type": "command", "command": command or hook_command(), "timeout": HOOK_TIMEOUT,
    }  # fmt: skip
    if fail_closed:
        entry["onFailure"] = "block"
    if http is not None:
        entry = http_hook(http)
    _set_token(data, path, token if http is not None else None)
    for event in EVENTS:
        groups = hooks.get(event)
        if not isinstance(groups, list):
            groups = []
        groups.append({"matcher": "*", "hooks": [dict(entry)]})
        hooks[event] = groups
    data["hooks"] = hooks
    if hide is not None:
        hiding.apply_hiding(data, path, hide, change, env)
    if sandbox is not None:
        hiding.apply_sandbox(data, path, sandbox, env)
    hook_files.write_json(path, data, before, change, mode=0o644, snapshot=snapshot)
    return change


def uninstall(path: str, *, env: Mapping[str, str] | None = None) -> Change:
    """Remove our hook and the tools we hid; everything else stays as it is."""
    from clearance.hosts.claude_code import hiding

    change = Change(path)
    data, before = read_settings(path)
    if before is None:
        return change
    snapshot = dumps(data)
    hooks = data.get("hooks")
    if isinstance(hooks, dict):
        _strip_ours(hooks)
        if not hooks:
            del data["hooks"]
    _set_token(data, path, None)
    hiding.apply_hiding(data, path, [], change, env)
    hiding.apply_sandbox(data, path, {"denyRead": [], "denyWrite": []}, env)
    hook_files.write_json(path, data, before, change, mode=0o644, snapshot=snapshot)
    return change


def sync(
    path: str,
    hide: list[str],
    *,
    sandbox: dict[str, list[str]] | None = None,
    env: Mapping[str, str] | None = None,
) -> Change:
    """Refresh the hidden tools and projected denies after a policy change (``sandbox``: the
    ``sandbox.filesystem`` lists to own); the hooks are left alone."""
    from clearance.hosts.claude_code import hiding

    change = Change(path)
    data, before = read_settings(path)
    snapshot = dumps(data)
    hiding.apply_hiding(data, path, hide, change, env)
    if sandbox is not None:
        hiding.apply_sandbox(data, path, sandbox, env)
    hook_files.write_json(path, data, before, change, mode=0o644, snapshot=snapshot)
    return change
