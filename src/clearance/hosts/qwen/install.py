"""``clearance install|uninstall|doctor qwen``: Qwen Code's ``PreToolUse`` hook, Claude Code's
format, in ``~/.qwen/settings.json`` or a project's ``.qwen/settings.json``."""

from __future__ import annotations

from clearance.hosts.hook_files import (
    Change,
    fail_closed_command,
    folder_path,
    group_is_ours,
    installed_entry,
)
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
    return folder_path(scope, directory, env, ".qwen", "settings.json")


def install(path: str, *, scope: str, directory: str, command: str | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    command = command or fail_closed_command("qwen", timeout=TIMEOUT)
    entry = {"matcher": "", "hooks": [{"type": "command", "command": command,
                                       "timeout": TIMEOUT}]}  # fmt: skip
    return install_entries(path, {"PreToolUse": entry}, ours)


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    return uninstall_entries(path, EVENTS, ours)


def installed_command(path: str) -> str | None:
    group = installed_entry(path, "PreToolUse", ours)
    return None if group is None else str(group["hooks"][0]["command"])
