"""Installing a shipped plugin file (OpenCode's ``clearance.js``, pi's ``clearance.ts``).

The file is copied from this package with the one line that says how to run clearance filled
in (the absolute ``clearance`` executable, as for the command hooks). Installing again changes
nothing; uninstalling removes the file only when it is clearance's.
"""

from __future__ import annotations

import os
import shlex

from clearance._json import dumps
from clearance.hosts.hook_files import Change, executable

__all__ = ["MARKER", "install", "installed_command", "render", "uninstall"]

PLACEHOLDER = "__CLEARANCE_ARGV__"
MARKER = "clearance hook"


def render(host: str, name: str, words: list[str] | None = None) -> str:
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), host, "plugin", name)
    with open(here, encoding="utf-8") as f:
        template = f.read()
    return template.replace(PLACEHOLDER, dumps(words or executable()), 1)


def install(path: str, text: str) -> Change:
    from clearance.policy.state import atomic_write

    change = Change(path)
    try:
        with open(path, encoding="utf-8") as f:
            before: str | None = f.read()
    except FileNotFoundError:
        before = None
    if before == text:
        return change
    if before is not None and MARKER not in before:
        from clearance.hosts.hook_files import HookFileError

        raise HookFileError(f"{path} exists and is not clearance's plugin; move it first")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, text.encode(), mode=0o644)
    change.changed = True
    return change


def uninstall(path: str) -> Change:
    change = Change(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return change
    if MARKER in text and "CLEARANCE" in text:
        os.unlink(path)
        change.changed = True
    return change


def installed_command(path: str, host: str) -> str | None:
    """The command the installed plugin runs, as a shell command (for the doctor)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    from clearance._json import loads

    for line in text.splitlines():
        if line.startswith("const CLEARANCE") and "=" in line:
            value = line.split("=", 1)[1].strip().rstrip(";")
            try:
                words = loads(value)
            except ValueError:
                return None
            if isinstance(words, list) and all(isinstance(w, str) for w in words):
                return " ".join(shlex.quote(w) for w in [*words, "hook", host])
    return None
