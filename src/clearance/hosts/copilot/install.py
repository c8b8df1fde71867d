"""``clearance install|uninstall|doctor copilot``: the ``preToolUse`` hook of GitHub Copilot CLI.

User level: ``hooks`` in ``$COPILOT_HOME/settings.json`` (``~/.copilot``); project level:
``.github/hooks/clearance.json`` (``{"version": 1, "hooks": …}``), which Copilot CLI reads only
in a folder it trusts. Each entry is ``{"type": "command", "bash": …, "timeoutSec": …}``.
"""

from __future__ import annotations

import os

from clearance.hosts.hook_files import Change, fail_closed_command, installed_entry
from clearance.hosts.hook_files import install as install_entries
from clearance.hosts.hook_files import uninstall as uninstall_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["EVENTS", "hooks_path", "install", "installed_command", "uninstall"]

EVENTS = ("preToolUse",)
# Copilot CLI lets a call run when its hook times out; forwarding gives up well before.
TIMEOUT = 120


def _ours(entry: Any) -> bool:
    from clearance.hosts.hook_files import is_ours

    return isinstance(entry, dict) and is_ours(entry.get("bash"), "copilot")


def hooks_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    if scope == "user":
        from clearance.policy.state import home_dir

        base = env.get("COPILOT_HOME") or os.path.join(home_dir(env), ".copilot")
        return os.path.join(os.path.abspath(base), "settings.json")
    return os.path.join(os.path.abspath(directory), ".github", "hooks", "clearance.json")


def install(path: str, *, scope: str, directory: str, command: str | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    command = command or fail_closed_command("copilot", timeout=TIMEOUT)
    entry = {"type": "command", "bash": command, "timeoutSec": TIMEOUT}
    top = {"version": 1} if scope == "project" else None
    change = install_entries(path, {"preToolUse": entry}, _ours, top=top)
    if scope == "project":
        change.notes.append("Copilot CLI reads .github/hooks only in a folder it trusts")
    return change


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    return uninstall_entries(path, EVENTS, _ours)


def installed_command(path: str) -> str | None:
    entry = installed_entry(path, "preToolUse", _ours)
    return None if entry is None else str(entry["bash"])
