"""Installing a command hook into a host's JSON hook file, shared by every command-hook host.

Each host keeps its hooks in a JSON file (Codex ``hooks.json``, Gemini CLI and Qwen Code
``settings.json``, Copilot CLI and Cursor ``hooks.json``) as a map from event to a list of
entries. :func:`install` adds clearance's entry to each event, keeping everything else; running
it again changes nothing. :func:`uninstall` removes only clearance's entries. The previous file
is kept under the state directory's ``backups/`` (never beside the file, where git would show
it), and the new one replaces it atomically.

The installed command blocks when clearance itself cannot run (a missing interpreter, a crash):
the shell turns any status but 0 and 2 into 2 with a reason on stderr, the form every one of
these hosts treats as a block.
"""

from __future__ import annotations

import os
import sys

from clearance._json import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = [
    "Change",
    "HookFileError",
    "executable",
    "fail_closed_command",
    "folder_path",
    "install",
    "installed_entry",
    "is_ours",
    "read_json",
    "uninstall",
    "write_json",
    "write_text",
]


class HookFileError(ValueError):
    """A hook file clearance will not edit; the message says where and how to fix it."""


class Change:
    """What an install or uninstall did to one file."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.changed = False
        self.backup: str | None = None
        self.notes: list[str] = []


def executable() -> list[str]:
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


def fail_closed_command(
    host: str, words: list[str] | None = None, timeout: int | None = None
) -> str:
    """``clearance hook <host>``, wrapped so that any failure to run it blocks (exit 2 with a
    reason on stderr) while its own exit 2 passes through unchanged. ``timeout`` is the host's
    hook timeout in seconds, passed as ``CLEARANCE_HOOK_TIMEOUT`` so a forwarded ask is given
    up (and denied) before the host kills the hook and lets the call run."""
    import shlex

    command = " ".join(shlex.quote(w) for w in (words or executable()) + ["hook", host])
    if timeout is not None:
        command = f"CLEARANCE_HOOK_TIMEOUT={int(timeout)} {command}"
    message = shlex.quote(
        f"[clearance] the clearance hook could not run, so the call is blocked; "
        f"run `clearance doctor {host}` to find the fault"
    )
    return f'{command} || {{ s=$?; [ "$s" = 2 ] || echo {message} >&2; exit 2; }}'


def is_ours(command: object, host: str) -> bool:
    """Whether ``command`` runs ``clearance hook <host>`` (a script, or ``python -m``)."""
    if not isinstance(command, str):
        return False
    import shlex

    head = command.split(" || ", 1)[0]
    try:
        words = shlex.split(head)
    except ValueError:
        return False
    return (
        len(words) >= 3
        and words[-2:] == ["hook", host]
        and (os.path.basename(words[-3]) == "clearance" or words[-3] == "clearance")
    )


def folder_path(scope: str, directory: str, env: Mapping[str, str] | None, *parts: str) -> str:
    """A hook file in a host's dot-folder: under the home directory for the ``user`` scope,
    under ``directory`` for a project (``folder_path(scope, d, env, ".qwen", "settings.json")``)."""
    if scope == "user":
        from clearance.policy.state import home_dir

        return os.path.join(home_dir(env), *parts)
    return os.path.join(os.path.abspath(directory), *parts)


def read_json(path: str) -> tuple[dict[str, Any], bytes | None]:
    """The file's object (JSONC accepted) and its bytes (``None`` when there is no file)."""
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
        raise HookFileError(f"{path}:{line}: {exc.message}; fix or move it first") from None
    if not isinstance(value, dict):
        raise HookFileError(f"{path}: not a JSON object; fix or move it first")
    return value, raw


def write_json(
    path: str,
    data: dict[str, Any],
    before: bytes | None,
    change: Change,
    *,
    mode: int = 0o600,
    snapshot: str | None = None,
) -> None:
    """Write ``data`` (keeping the old file under the state directory) unless nothing changed:
    the file's bytes, or ``snapshot`` (the compact JSON of what was read, so a file whose
    content is unchanged keeps its comments). ``mode`` is a new file's; a file keeps its own."""
    from clearance.policy.state import atomic_write, backup

    if snapshot is not None and before is not None and dumps(data) == snapshot:
        return
    text = (dumps(data, indent=2) + "\n").encode()
    if before is not None and text == before:
        return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    if before is not None:
        mode = os.stat(path).st_mode & 0o777
        change.backup = backup(path, before)
    atomic_write(path, text, mode=mode)
    change.changed = True


def write_text(path: str, text: str, mode: int = 0o600) -> bool:
    """Make the file hold ``text`` (atomically, creating its directory); whether it changed."""
    from clearance.policy.state import atomic_write

    try:
        with open(path, encoding="utf-8") as f:
            before: str | None = f.read()
    except FileNotFoundError:
        before = None
    if before == text:
        return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, text.encode(), mode=mode)
    return True


def _events(data: dict[str, Any], path: str, container: str) -> dict[str, Any]:
    hooks = data.setdefault(container, {})
    if not isinstance(hooks, dict):
        raise HookFileError(f"{path}: {container!r} is not an object; fix or move it first")
    return hooks


def install(
    path: str,
    entries: dict[str, dict[str, Any]],
    ours: Callable[[Any], bool],
    *,
    container: str = "hooks",
    top: dict[str, Any] | None = None,
) -> Change:
    """Make ``entries`` (event → the entry to append) the only clearance entries of the file.

    ``ours`` recognizes a clearance entry (an old command is replaced, not duplicated); ``top``
    are top-level keys the host needs (``{"version": 1}``), set when missing.
    """
    change = Change(path)
    data, before = read_json(path)
    snapshot = dumps(data)
    for key, value in (top or {}).items():
        data.setdefault(key, value)
    hooks = _events(data, path, container)
    for event, entry in entries.items():
        current = hooks.get(event)
        if current is None:
            current = []
        if not isinstance(current, list):
            raise HookFileError(f"{path}: {container}.{event} is not a list; fix or move it first")
        kept = [e for e in current if not ours(e)]
        hooks[event] = [*kept, entry]
    write_json(path, data, before, change, snapshot=snapshot)
    return change


def uninstall(path: str, events: tuple[str, ...], ours: Callable[[Any], bool],
              *, container: str = "hooks") -> Change:  # fmt: skip
    """Remove every clearance entry of ``events``; other hooks stay."""
    change = Change(path)
    data, before = read_json(path)
    if before is None:
        return change
    snapshot = dumps(data)
    hooks = data.get(container)
    if not isinstance(hooks, dict):
        return change
    for event in events:
        current = hooks.get(event)
        if isinstance(current, list):
            kept = [e for e in current if not ours(e)]
            if kept:
                hooks[event] = kept
            else:
                del hooks[event]
    write_json(path, data, before, change, snapshot=snapshot)
    return change


def installed_entry(path: str, event: str, ours: Callable[[Any], bool]) -> Any:
    """The first of clearance's entries for ``event`` in the hook file, else ``None``."""
    data, _ = read_json(path)
    hooks = data.get("hooks")
    entries = hooks.get(event) if isinstance(hooks, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if ours(entry):
            return entry
    return None


def group_is_ours(host: str) -> Callable[[Any], bool]:
    """For Claude-style files (``{"matcher", "hooks": [{"command"}]}``): a group whose every
    hook is clearance's."""

    def ours(entry: Any) -> bool:
        if not isinstance(entry, dict):
            return False
        inner = entry.get("hooks")
        if isinstance(inner, list) and inner:
            return all(isinstance(h, dict) and is_ours(h.get("command"), host) for h in inner)
        return is_ours(entry.get("command") or entry.get("bash"), host)

    return ours
