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
leaves one entry and uninstall removes only ours. Tools the policy denies outright (every value
of the tool's surface denied, notes §3.1) are added to ``permissions.deny`` so the model never
sees them; which entries we added is recorded under the state root, so uninstall and ``sync``
remove or refresh only those, never one the user wrote.
"""

from __future__ import annotations

import os
import sys

from clearance._json import dumps
from clearance.policy.state import (
    atomic_write,
    backup,
    ensure_private_dir,
    home_dir,
    state_root,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from clearance.policy.policy import Policy
    from clearance.policy.rule import RuleSet

__all__ = [
    "EVENTS",
    "HIDEABLE_TOOLS",
    "PORTABLE_COMMAND",
    "SCOPES",
    "Change",
    "SettingsError",
    "hidden_tools",
    "hook_command",
    "install",
    "installed_commands",
    "is_our_command",
    "owned_entries",
    "projected_denies",
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

# Claude Code tool name → the clearance surface whose rules decide it.
HIDEABLE_TOOLS = {
    "Bash": "bash",
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "MultiEdit": "edit",
    "NotebookEdit": "edit",
    "Glob": "find",
    "Grep": "grep",
    "WebFetch": "webfetch",
    "WebSearch": "websearch",
    "Agent": "task",
    "Skill": "skill",
}
_PATH_SURFACES = ("read", "write", "edit", "grep", "find", "ls")


class SettingsError(ValueError):
    """A settings file we will not rewrite (it does not parse, or is not an object)."""


class Change:
    """What one install, uninstall or sync did to one file."""

    __slots__ = ("backup", "changed", "hidden", "path", "unhidden")

    def __init__(self, path: str) -> None:
        self.path = path
        self.changed = False
        self.backup: str | None = None
        self.hidden: list[str] = []
        self.unhidden: list[str] = []


def settings_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    if scope == "user":
        config_dir = (env or os.environ).get("CLAUDE_CONFIG_DIR")
        base = config_dir or os.path.join(home_dir(env), ".claude")
        return os.path.join(os.path.abspath(base), "settings.json")
    name = "settings.json" if scope == "project" else "settings.local.json"
    return os.path.join(os.path.abspath(directory), ".claude", name)


def _executable() -> list[str]:
    """How to run this clearance: the ``clearance`` script beside the interpreter (a venv's
    ``bin``), else the one on ``PATH``, else ``python -m clearance``; always absolute."""
    here = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "clearance")
    if os.access(here, os.X_OK):
        return [here]
    import shutil

    found = shutil.which("clearance")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "clearance"]


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

    words = (executable or _executable()) + ["hook", "claude-code"]
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
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return {}, None
    from clearance.policy.jsonc import JsoncError, parse

    text = raw.decode("utf-8-sig", errors="replace")
    if not text.strip():
        return {}, raw
    try:
        value = parse(text).value
    except JsoncError as exc:
        line = text.count("\n", 0, exc.offset) + 1
        raise SettingsError(f"{path}:{line}: {exc.message}; fix or move it first") from None
    if not isinstance(value, dict):
        raise SettingsError(f"{path}: the settings are not a JSON object; fix or move it first")
    return value, raw


def _write(
    path: str, data: dict[str, Any], before: bytes | None, snapshot: str, change: Change
) -> None:
    """Write ``data`` unless it is what was read (``snapshot``: its compact JSON)."""
    if dumps(data) == snapshot:
        return
    text = (dumps(data, indent=2) + "\n").encode()
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    mode = 0o644
    if before is not None:
        mode = os.stat(path).st_mode & 0o777
        change.backup = backup(path, before)
    atomic_write(path, text, mode=mode)
    change.changed = True


# The HTTP hook of ``clearance serve --listen`` (``install claude-code --http``): Claude Code POSTs
# the hook input to it with our token, read from this variable, and blocks the call on any failure
# (``onFailure``, which Claude Code honours since the version below; without it a refused
# connection, a 5xx or a timeout would let the call run).
HTTP_PATH = "/hooks/claude-code"
TOKEN_VAR = "CLEARANCE_HOOK_TOKEN"
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


# --- tool hiding --------------------------------------------------------------------------


def _fully_denied(policy: Policy, tool: str, surface: str) -> bool:
    from clearance.policy.wildcard import expand_home

    rules = policy.rules
    if tool in rules.surfaces() and rules.evaluate(tool, ("*",)).action == "deny":
        return True
    probes = {"*"}
    for rule in rules.rules:
        if rule.surface == surface:
            pattern = rule.pattern
            if surface in _PATH_SURFACES:
                pattern = expand_home(pattern, policy.home)
            probes.add(pattern)
    return all(rules.evaluate(surface, (probe,)).action == "deny" for probe in sorted(probes))


def hidden_tools(policy: Policy) -> list[str]:
    """Claude Code tools whose every value the policy denies (notes §3.1), in a stable order."""
    return [tool for tool, surface in HIDEABLE_TOOLS.items()
            if _fully_denied(policy, tool, surface)]  # fmt: skip


def _claude_pattern(pattern: str, home: str) -> str | None:
    """A clearance path pattern as a Claude Code permission path (gitignore-style: ``//`` for
    an absolute path, ``~/`` for the home, ``**`` for any depth); ``None`` when it has no such
    spelling."""
    if "?" in pattern:
        return None
    if pattern.startswith(home + "/"):
        pattern = "~" + pattern[len(home) :]
    if pattern.startswith("*/"):
        pattern = "**/" + pattern[2:]
    elif pattern.startswith("/"):
        pattern = "/" + pattern
    elif not pattern.startswith("~/") and "/" not in pattern:
        pattern = "**/" + pattern  # `*.env`: a file of that name anywhere
    if pattern.endswith("/*"):
        pattern = pattern[:-1] + "**"
    return pattern


def projected_denies(policy: Policy, protected: RuleSet) -> tuple[list[str], list[str], list[str]]:
    """What Claude Code itself should enforce too, so a command the analysis misreads still
    cannot touch it: ``permissions.deny`` entries (``Read(…)``, ``Edit(…)``) for the policy's
    path denies and the protected paths whose writes are denied, and the
    ``sandbox.filesystem`` ``denyRead`` and ``denyWrite`` lists."""
    home = policy.home
    entries: list[str] = []
    reads: list[str] = []
    writes: list[str] = []
    for rule in (*policy.rules.rules, *protected.rules):
        if rule.action != "deny":
            continue
        target = _claude_pattern(rule.pattern, home)
        if target is None:
            continue
        if rule.surface == "path_read":
            entries.append(f"Read({target})")
            reads.append(target)
        elif rule.surface in ("path_write", "protected_write"):
            entries.append(f"Edit({target})")
            writes.append(target)
    return list(dict.fromkeys(entries)), list(dict.fromkeys(reads)), list(dict.fromkeys(writes))


def _apply_sandbox(
    data: dict[str, Any],
    path: str,
    lists: dict[str, list[str]],
    env: Mapping[str, str] | None,
) -> None:
    """Make our entries of ``sandbox.filesystem.<key>`` exactly ``lists[key]``; never touch the
    user's own entries."""
    record = _read_record(env)
    sandbox = data.get("sandbox")
    if sandbox is not None and not isinstance(sandbox, dict):
        raise SettingsError(f'{path}: "sandbox" is not an object; fix it first')
    sandbox = dict(sandbox or {})
    filesystem = sandbox.get("filesystem")
    if filesystem is not None and not isinstance(filesystem, dict):
        raise SettingsError(f'{path}: "sandbox.filesystem" is not an object; fix it first')
    filesystem = dict(filesystem or {})
    changed = False
    for key, wanted in lists.items():
        mark = f"{path}#sandbox.filesystem.{key}"
        ours = record.get(mark, [])
        current = filesystem.get(key)
        if current is not None and not isinstance(current, list):
            raise SettingsError(f'{path}: "sandbox.filesystem.{key}" is not a list; fix it first')
        values = [v for v in (current or []) if v not in ours or v in wanted]
        added = [v for v in wanted if v not in values]
        values += added
        mine = [v for v in wanted if v in added or v in ours]
        if values:
            filesystem[key] = values
        else:
            filesystem.pop(key, None)
        if mine != ours:
            record[mark] = mine
            changed = True
    if filesystem:
        sandbox["filesystem"] = filesystem
    else:
        sandbox.pop("filesystem", None)
    if sandbox:
        data["sandbox"] = sandbox
    else:
        data.pop("sandbox", None)
    if changed:
        _write_record(record, env)


def _record_path(env: Mapping[str, str] | None) -> str:
    return os.path.join(state_root(env), "hosts", "claude-code", "hidden.json")


def _read_record(env: Mapping[str, str] | None) -> dict[str, list[str]]:
    from clearance._json import loads

    try:
        with open(_record_path(env), encoding="utf-8") as f:
            data = loads(f.read())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: [x for x in v if isinstance(x, str)] for k, v in data.items() if isinstance(v, list)}


def owned_entries(path: str, env: Mapping[str, str] | None = None) -> list[str]:
    """The ``permissions.deny`` entries of ``path`` that clearance added (not the user)."""
    return list(_read_record(env).get(path, []))


def _write_record(record: dict[str, list[str]], env: Mapping[str, str] | None) -> None:
    path = _record_path(env)
    directory = state_root(env)
    for part in ("", "hosts", "claude-code"):  # makedirs would leave the parents 0755
        directory = ensure_private_dir(os.path.join(directory, part) if part else directory)
    atomic_write(path, (dumps({k: v for k, v in record.items() if v}, indent=2) + "\n").encode())


def _apply_hiding(
    data: dict[str, Any], path: str, hide: list[str], change: Change, env: Mapping[str, str] | None
) -> None:
    """Make our entries of ``permissions.deny`` exactly ``hide``; never touch the user's own."""
    record = _read_record(env)
    ours = record.get(path, [])
    permissions = data.get("permissions")
    if permissions is None:
        permissions = {}
    if not isinstance(permissions, dict):
        raise SettingsError(f'{path}: "permissions" is not an object; fix it first')
    deny = permissions.get("deny")
    if deny is None:
        deny = []
    if not isinstance(deny, list):
        raise SettingsError(f'{path}: "permissions.deny" is not a list; fix it first')
    deny = list(deny)
    still_ours = []
    for entry in ours:
        if entry in hide:
            still_ours.append(entry)
        elif entry in deny:
            deny.remove(entry)
            change.unhidden.append(entry)
    for tool in hide:
        if tool not in deny:
            deny.append(tool)
            still_ours.append(tool)
            change.hidden.append(tool)
    if deny:
        permissions["deny"] = deny
    else:
        permissions.pop("deny", None)
    if permissions:
        data["permissions"] = permissions
    else:
        data.pop("permissions", None)
    if still_ours != ours:
        record[path] = still_ours
        _write_record(record, env)


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
) -> Change:
    """Add our hook for every event (replacing an older one of ours, command or http), hide
    ``hide`` and own the ``sandbox`` lists. ``http``: install the HTTP hook at that URL instead
    of the command hook, with ``token`` (when given) in the settings' ``env``."""
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
        _apply_hiding(data, path, hide, change, env)
    if sandbox is not None:
        _apply_sandbox(data, path, sandbox, env)
    _write(path, data, before, snapshot, change)
    return change


def uninstall(path: str, *, env: Mapping[str, str] | None = None) -> Change:
    """Remove our hook and the tools we hid; everything else stays as it is."""
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
    _apply_hiding(data, path, [], change, env)
    _apply_sandbox(data, path, {"denyRead": [], "denyWrite": []}, env)
    _write(path, data, before, snapshot, change)
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
    change = Change(path)
    data, before = read_settings(path)
    snapshot = dumps(data)
    _apply_hiding(data, path, hide, change, env)
    if sandbox is not None:
        _apply_sandbox(data, path, sandbox, env)
    _write(path, data, before, snapshot, change)
    return change
