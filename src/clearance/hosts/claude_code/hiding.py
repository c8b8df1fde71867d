"""Claude Code's ``permissions.deny`` and ``sandbox.filesystem`` lists, as clearance owns them.

Tools the policy denies outright (every value of the tool's surface denied,
docs/hosts/claude-code.md, "Install") are added to ``permissions.deny`` so the model never sees
them, and the policy's path denies are projected into Claude Code's own deny lists. Which
entries clearance added is recorded under the state root, so uninstall and ``sync`` remove or
refresh only those, never one the user wrote.
"""

from __future__ import annotations

import os

from clearance._json import dumps
from clearance.hosts.claude_code.settings import SettingsError
from clearance.policy.state import atomic_write, ensure_private_dir, state_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from clearance.hosts.claude_code.settings import Change
    from clearance.policy.policy import Policy
    from clearance.policy.rule import RuleSet

__all__ = [
    "HIDEABLE_TOOLS",
    "apply_hiding",
    "apply_sandbox",
    "hidden_tools",
    "owned_entries",
    "projected_denies",
]

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
    """Claude Code tools whose every value the policy denies (docs/hosts/claude-code.md,
    "Install"), in a stable order."""
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


def apply_sandbox(
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
        _keep(filesystem, key, values)
        if mine != ours:
            record[mark] = mine
            changed = True
    _keep(sandbox, "filesystem", filesystem)
    _keep(data, "sandbox", sandbox)
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


def apply_hiding(
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
    _keep(permissions, "deny", deny)
    _keep(data, "permissions", permissions)
    if still_ours != ours:
        record[path] = still_ours
        _write_record(record, env)


def _keep(container: dict[str, Any], key: str, value: Any) -> None:
    """``container[key] = value``, or no ``key`` at all when ``value`` is empty: a settings file
    keeps no empty object or list clearance left behind."""
    if value:
        container[key] = value
    else:
        container.pop(key, None)
