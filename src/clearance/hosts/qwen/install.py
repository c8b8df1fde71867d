"""``clearance install|uninstall|doctor qwen``: Qwen Code's ``PreToolUse`` hook, Claude Code's
format, in ``~/.qwen/settings.json`` or a project's ``.qwen/settings.json``."""

from __future__ import annotations

import os

from clearance.hosts.hook_files import Change, fail_closed_command, group_is_ours, read_json
from clearance.hosts.hook_files import install as install_entries
from clearance.hosts.hook_files import uninstall as uninstall_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["EVENTS", "hooks_path", "install", "installed_command", "uninstall"]

EVENTS = ("PreToolUse",)
TIMEOUT = 120

ours = group_is_ours("qwen")


def hooks_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    if scope == "user":
        from clearance.policy.state import home_dir

        return os.path.join(home_dir(env), ".qwen", "settings.json")
    return os.path.join(os.path.abspath(directory), ".qwen", "settings.json")


def install(path: str, *, scope: str, directory: str, command: str | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    command = command or fail_closed_command("qwen", timeout=TIMEOUT)
    entry = {"matcher": "", "hooks": [{"type": "command", "command": command,
                                       "timeout": TIMEOUT}]}  # fmt: skip
    return install_entries(path, {"PreToolUse": entry}, ours)


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    return uninstall_entries(path, EVENTS, ours)


def installed_command(path: str) -> str | None:
    data, _ = read_json(path)
    hooks = data.get("hooks")
    for group in (hooks.get("PreToolUse") or []) if isinstance(hooks, dict) else []:
        if ours(group):
            return str(group["hooks"][0]["command"])
    return None
