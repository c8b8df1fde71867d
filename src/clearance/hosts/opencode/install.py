"""``clearance install|uninstall|doctor opencode``: the shipped plugin in OpenCode's plugin
directory (``$XDG_CONFIG_HOME/opencode/plugins``, or a project's ``.opencode/plugins``)."""

from __future__ import annotations

import os

from clearance.hosts import plugin_files
from clearance.hosts.hook_files import Change

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["hooks_path", "install", "installed_command", "is_current", "uninstall"]


def hooks_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    if scope == "user":
        from clearance.policy.state import home_dir

        base = env.get("XDG_CONFIG_HOME") or os.path.join(home_dir(env), ".config")
        return os.path.join(os.path.abspath(base), "opencode", "plugins", "clearance.js")
    return os.path.join(os.path.abspath(directory), ".opencode", "plugins", "clearance.js")


def install(path: str, *, scope: str, directory: str, words: list[str] | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    return plugin_files.install(path, plugin_files.render("opencode", "clearance.js", words, env))


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    return plugin_files.uninstall(path)


def installed_command(path: str) -> str | None:
    return plugin_files.installed_command(path, "opencode")


def is_current(path: str, env: Mapping[str, str] | None = None) -> bool:
    return plugin_files.is_current(path, "opencode", "clearance.js", env)
