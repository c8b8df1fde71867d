"""``clearance install|uninstall|doctor pi``: the shipped extension in pi's extension directory
(``~/.pi/agent/extensions``, or a project's ``.pi/extensions``)."""

from __future__ import annotations

import os

from clearance.hosts import plugin_files
from clearance.hosts.hook_files import Change

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["hooks_path", "install", "installed_command", "is_current", "uninstall"]


def hooks_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    if scope == "user":
        from clearance.policy.state import home_dir

        return os.path.join(home_dir(env), ".pi", "agent", "extensions", "clearance.ts")
    return os.path.join(os.path.abspath(directory), ".pi", "extensions", "clearance.ts")


def install(path: str, *, scope: str, directory: str, words: list[str] | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    return plugin_files.install(path, plugin_files.render("pi", "clearance.ts", words, env))


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    return plugin_files.uninstall(path)


def installed_command(path: str) -> str | None:
    return plugin_files.installed_command(path, "pi")


def is_current(path: str, env: Mapping[str, str] | None = None) -> bool:
    return plugin_files.is_current(path, "pi", "clearance.ts", env)
