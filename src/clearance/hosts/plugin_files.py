"""Installing a shipped plugin file (OpenCode's ``clearance.js``, pi's ``clearance.ts``).

The file is copied from this package with the one line that says how to run clearance filled
in (the absolute ``clearance`` executable, as for the command hooks). Installing again changes
nothing; uninstalling removes the file only when it is clearance's.
"""

from __future__ import annotations

import os
import shlex

from clearance._json import dumps
from clearance.hosts.hook_files import Change, executable, write_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MARKER", "install", "installed_command", "is_current", "render", "uninstall"]

CLIENT = "__CLEARANCE_CLIENT__"
PLACEHOLDER = "__CLEARANCE_ARGV__"
SERVICE = "__CLEARANCE_SERVICE__"
HOST = "__CLEARANCE_HOST__"
MARKER = "clearance hook"
# Where `clearance serve --listen` is looked for (the address `clearance install claude-code
# --http` uses too); CLEARANCE_SERVICE_URL in the host's environment names another.
SERVICE_URL = "http://127.0.0.1:8765"


def render(
    host: str, name: str, words: list[str] | None = None, env: Mapping[str, str] | None = None
) -> str:
    """The host's plugin file with clearance's client (``plugin_client.js``) written in, and in
    it how to run clearance, where its service answers and the host's name."""
    from clearance.hosts.claude_code.http_token import token_path
    from clearance.policy.state import state_root

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, host, "plugin", name), encoding="utf-8") as f:
        template = f.read()
    with open(os.path.join(here, "plugin_client.js"), encoding="utf-8") as f:
        client = f.read()
    service = {"url": SERVICE_URL, "tokenFile": token_path(state_root(env))}
    text = template.replace(CLIENT, client.rstrip("\n"), 1)
    text = text.replace(PLACEHOLDER, dumps(words or executable()), 1)
    text = text.replace(SERVICE, dumps(service), 1)
    return text.replace(HOST, dumps(host), 1)


def install(path: str, text: str) -> Change:
    change = Change(path)
    try:
        with open(path, encoding="utf-8") as f:
            before: str | None = f.read()
    except FileNotFoundError:
        before = None
    if before is not None and before != text and MARKER not in before:
        from clearance.hosts.hook_files import HookFileError

        raise HookFileError(f"{path} exists and is not clearance's plugin; move it first")
    change.changed = write_text(path, text, mode=0o644)
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


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _words(text: str) -> list[str] | None:
    """How the plugin file ``text`` runs clearance (its ``const CLEARANCE`` line)."""
    from clearance._json import loads

    for line in text.splitlines():
        if line.startswith("const CLEARANCE") and "=" in line:
            value = line.split("=", 1)[1].strip().rstrip(";")
            try:
                words = loads(value)
            except ValueError:
                return None
            if isinstance(words, list) and all(isinstance(w, str) for w in words):
                return words
            return None
    return None


def installed_command(path: str, host: str) -> str | None:
    """The command the installed plugin runs, as a shell command (for the doctor)."""
    text = _read(path)
    words = None if text is None else _words(text)
    if words is None:
        return None
    return " ".join(shlex.quote(w) for w in [*words, "hook", host])


def is_current(path: str, host: str, name: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether the installed plugin is exactly the file this clearance writes (with the way to
    run clearance the file names): the doctor's round trip runs ``clearance hook`` as a process,
    so a plugin edited not to block, or left by another version, shows only here."""
    text = _read(path)
    words = None if text is None else _words(text)
    return words is not None and text == render(host, name, words, env)
