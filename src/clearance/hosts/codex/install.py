"""``clearance install|uninstall|doctor codex``: the hooks in Codex's ``hooks.json``, trusted.

Codex reads command hooks from ``$CODEX_HOME/hooks.json`` (``~/.codex``) and from a project's
``.codex/hooks.json``, and silently skips a hook until it is trusted: its hash must be in the
user's ``config.toml`` as ``[hooks.state."<file>:<event>:<group>:<handler>"] trusted_hash``.
Install writes that hash the way Codex computes it (sha256 of the hook's normalized identity as
canonical JSON: ``event_name`` plus the matcher group with this one handler, ``None`` fields
dropped), so the hook runs from the first call; ``doctor`` checks that the hash still matches.
A project's ``.codex`` is read only in a project Codex trusts; install says so when it applies.
"""

from __future__ import annotations

import hashlib
import os

from clearance._json import dumps
from clearance.hosts.hook_files import (
    Change,
    HookFileError,
    fail_closed_command,
    group_is_ours,
    read_json,
    write_text,
)
from clearance.hosts.hook_files import install as install_entries
from clearance.hosts.hook_files import uninstall as uninstall_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = [
    "EVENTS",
    "HOOK_TIMEOUT",
    "codex_home",
    "hooks_path",
    "install",
    "trust_hash",
    "trust_state",
    "uninstall",
]

EVENTS = ("PreToolUse", "PermissionRequest")
_LABELS = {"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request"}
# Codex's default; a hook that times out lets the call run, and forwarding gives up before this.
HOOK_TIMEOUT = 600

ours = group_is_ours("codex")


def codex_home(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    from clearance.policy.state import home_dir

    return os.path.abspath(env.get("CODEX_HOME") or os.path.join(home_dir(env), ".codex"))


def hooks_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    if scope == "user":
        return os.path.join(codex_home(env), "hooks.json")
    return os.path.join(os.path.abspath(directory), ".codex", "hooks.json")


def _handler(command: str) -> dict[str, Any]:
    return {"type": "command", "command": command, "timeout": HOOK_TIMEOUT}


def trust_hash(event: str, group: dict[str, Any]) -> str:
    """The hash Codex records as ``trusted_hash`` for the one handler of ``group``."""
    handler = dict(group["hooks"][0])
    handler.setdefault("timeout", 600)
    handler.setdefault("async", False)
    identity: dict[str, Any] = {"event_name": _LABELS[event], "hooks": [handler]}
    if group.get("matcher") is not None:
        identity["matcher"] = group["matcher"]
    canonical = dumps(_sorted(identity))
    return "sha256:" + hashlib.sha256(canonical.encode()).hexdigest()


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value) if value[k] is not None}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def _our_keys(path: str) -> dict[str, str]:
    """``{state key: hash}`` for every clearance hook in the file as it is now."""
    data, _ = read_json(path)
    hooks = data.get("hooks")
    out: dict[str, str] = {}
    if not isinstance(hooks, dict):
        return out
    for event in EVENTS:
        groups = hooks.get(event)
        if not isinstance(groups, list):
            continue
        for index, group in enumerate(groups):
            if ours(group):
                out[f"{path}:{_LABELS[event]}:{index}:0"] = trust_hash(event, group)
    return out


# --- config.toml ---------------------------------------------------------------------------


def _toml_key(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _drop_tables(text: str, keys: set[str]) -> str:
    """``text`` without the ``[hooks.state."<key>"]`` tables of ``keys``."""
    headers = {f"[hooks.state.{_toml_key(k)}]" for k in keys}
    out: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("["):
            skipping = stripped in headers
        if not skipping:
            out.append(line)
    return "".join(out)


def trust_state(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``{state key: trusted_hash}`` from Codex's user ``config.toml``."""
    import tomllib

    path = os.path.join(codex_home(env), "config.toml")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise HookFileError(f"{path}: not valid TOML ({exc}); fix it first") from None
    state = data.get("hooks", {}).get("state", {}) if isinstance(data.get("hooks"), dict) else {}
    return {k: v["trusted_hash"] for k, v in state.items()
            if isinstance(v, dict) and isinstance(v.get("trusted_hash"), str)}  # fmt: skip


def _write_trust(remove: set[str], add: dict[str, str], env: Mapping[str, str] | None,
                 change: Change) -> None:  # fmt: skip
    import tomllib

    from clearance.policy.state import atomic_write

    path = os.path.join(codex_home(env), "config.toml")
    try:
        with open(path, encoding="utf-8") as f:
            before: str | None = f.read()
    except FileNotFoundError:
        before = None
    text = _drop_tables(before or "", remove | set(add))
    if add:
        if text and not text.endswith("\n"):
            text += "\n"
        for key, value in add.items():
            text += f'\n[hooks.state.{_toml_key(key)}]\ntrusted_hash = "{value}"\n'
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        lines = "".join(
            f'[hooks.state.{_toml_key(k)}]\ntrusted_hash = "{v}"\n' for k, v in add.items()
        )
        raise HookFileError(
            f"{path}: clearance could not add the hook's trust entry without breaking the file "
            f"({exc}); add these lines to it yourself, or trust the hook in Codex with /hooks:\n"
            + lines
        ) from None
    if text == before:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = 0o600 if before is None else os.stat(path).st_mode & 0o777
    atomic_write(path, text.encode(), mode=mode)
    change.changed = True
    change.notes.append(f"trusted in {path}")


# --- install / uninstall -------------------------------------------------------------------


def install(path: str, *, scope: str, directory: str, command: str | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    """Add the hooks to ``path`` and record their trust in Codex's user config."""
    command = command or fail_closed_command("codex")
    old = _our_keys(path)
    entries = {event: {"hooks": [_handler(command)]} for event in EVENTS}
    change = install_entries(path, entries, ours)
    new = _our_keys(path)
    current = trust_state(env)
    if any(current.get(k) != v for k, v in new.items()) or set(old) - set(new):
        _write_trust(set(old) - set(new), new, env, change)
    if scope == "project":
        change.notes.append(
            "Codex reads a project's .codex/ only when it trusts the project: answer its trust "
            f"prompt once in {directory}, or run `codex exec --trust` there"
        )
    return change


def uninstall(path: str, *, env: Mapping[str, str] | None = None) -> Change:
    old = _our_keys(path)
    change = uninstall_entries(path, EVENTS, ours)
    if old:
        _write_trust(set(old), {}, env, change)
    return change


def installed(path: str, env: Mapping[str, str] | None = None) -> tuple[list[str], list[str]]:
    """(events hooked by clearance in ``path``, events whose hook Codex does not trust)."""
    keys = _our_keys(path)
    state = trust_state(env)
    events = {label: event for event, label in _LABELS.items()}
    hooked = sorted({events[k.split(":")[-3]] for k in keys})
    untrusted = sorted({events[k.split(":")[-3]] for k, v in keys.items() if state.get(k) != v})
    return hooked, untrusted


# --- sync: execpolicy rules ------------------------------------------------------------------

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@+,")


def forbidden_prefixes(policy: Any) -> list[tuple[list[str], str]]:
    """(tokens, justification) for each bash deny rule of the form ``<literal words> *``.

    Codex's execpolicy ``prefix_rule`` matches every command that starts with its tokens, which
    is exactly what such a rule denies; other patterns are left to the hook. No allow rule is
    generated: a prefix rule cannot say "exactly this", so it would allow more than clearance.
    """
    out: list[tuple[list[str], str]] = []
    for rule in policy.rules.rules:
        if rule.surface != "bash" or rule.action != "deny" or rule.origin == "session":
            continue
        if not rule.pattern.endswith(" *"):
            continue
        words = rule.pattern[:-2].split()
        if not words or any(not set(w) <= _WORD for w in words):
            continue
        reason = rule.reason or "denied by clearance's policy"
        if all(words != seen for seen, _ in out):
            out.append((words, reason))
    return out


_RULES_HEADER = (
    "# Written by `clearance sync codex`; rewritten on every sync. Commands clearance's\n"
    "# policy denies outright, refused by Codex itself even without the hook.\n"
)


def rules_path(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(codex_home(env), "rules", "clearance.rules")


def _starlark(value: str) -> str:
    return dumps(value)  # a JSON string is a valid Starlark string literal


def sync(*, scope: str, directory: str, env: Mapping[str, str] | None = None) -> Change:
    """Write ``$CODEX_HOME/rules/clearance.rules``: a ``forbidden`` prefix rule for each bash
    deny that is a literal command prefix, so Codex refuses it even without the hook."""
    from clearance.decide.engine import Engine

    path = rules_path(env)
    change = Change(path)
    engine = Engine.load(cwd=directory, env=env)
    found = forbidden_prefixes(engine.policy)
    text = _RULES_HEADER
    for words, reason in found:
        pattern = ", ".join(_starlark(w) for w in words)
        text += (f"\nprefix_rule(\n    pattern = [{pattern}],\n    decision = \"forbidden\",\n"
                 f"    justification = {_starlark('[clearance] ' + reason)},\n)\n")  # fmt: skip
    change.changed = write_text(path, text)
    shown = ", ".join(" ".join(w) for w, _ in found) or "(none)"
    change.notes.append(f"commands Codex itself refuses: {shown}")
    return change
