"""``clearance install|uninstall|doctor cursor``: Cursor's ``hooks.json`` (not tested end to end).

``~/.cursor/hooks.json`` or a project's ``.cursor/hooks.json``: ``{"version": 1, "hooks":
{event: [{"command": …, "failClosed": true}]}}`` for ``beforeShellExecution``,
``beforeMCPExecution``, ``beforeReadFile`` and ``preToolUse``. ``failClosed`` makes Cursor block
a call when the hook crashes or times out instead of letting it run.
"""

from __future__ import annotations

from clearance.hosts.cursor.hook import EVENTS
from clearance.hosts.hook_files import (
    Change,
    fail_closed_command,
    folder_path,
    installed_entry,
    is_ours,
)
from clearance.hosts.hook_files import install as install_entries
from clearance.hosts.hook_files import uninstall as uninstall_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["EVENTS", "hooks_path", "install", "installed_command", "uninstall"]

TIMEOUT = 120


def _ours(entry: Any) -> bool:
    return isinstance(entry, dict) and is_ours(entry.get("command"), "cursor")


def hooks_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    return folder_path(scope, directory, env, ".cursor", "hooks.json")


def install(path: str, *, scope: str, directory: str, command: str | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    command = command or fail_closed_command("cursor", timeout=TIMEOUT)
    entry = {"command": command, "timeout": TIMEOUT, "failClosed": True}
    return install_entries(path, {event: dict(entry) for event in EVENTS}, _ours,
                           top={"version": 1})  # fmt: skip


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    return uninstall_entries(path, EVENTS, _ours)


def installed_command(path: str) -> str | None:
    entry = installed_entry(path, EVENTS[0], _ours)
    return None if entry is None else str(entry["command"])
