"""``clearance install|uninstall|sync|doctor gemini``: the ``BeforeTool`` hook in Gemini CLI's
``settings.json`` (``~/.gemini/settings.json``, or a project's ``.gemini/settings.json``), and the
policy rules Gemini CLI needs to let an allowed command reach the hook at all.

A hook's allow does not get past Gemini CLI's own policy engine: in a headless run a shell
command no Gemini rule allows is refused ("requires user confirmation") after the hook allowed
it. ``sync`` writes ``~/.gemini/policies/clearance.toml`` with one ``commandPrefix`` allow per
bash allow rule of clearance's whose pattern is a literal command (``git status``,
``cat *`` → ``cat``). Those rules only let the call reach the ``BeforeTool`` hook, which runs
for every call and still decides: a Gemini allow never lets through what clearance denies.
"""

from __future__ import annotations

from clearance.hosts.hook_files import (
    Change,
    fail_closed_command,
    folder_path,
    group_is_ours,
    installed_entry,
    write_text,
)
from clearance.hosts.hook_files import install as install_entries
from clearance.hosts.hook_files import uninstall as uninstall_entries

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["EVENTS", "hooks_path", "install", "policy_path", "prefixes", "sync", "uninstall"]

EVENTS = ("BeforeTool",)
# Gemini CLI lets a call run when its hook times out (milliseconds); forwarding gives up first.
TIMEOUT_MS = 120_000

ours = group_is_ours("gemini")


def hooks_path(scope: str, directory: str, env: Mapping[str, str] | None = None) -> str:
    return folder_path(scope, directory, env, ".gemini", "settings.json")


def policy_path(env: Mapping[str, str] | None = None) -> str:
    return folder_path("user", "", env, ".gemini", "policies", "clearance.toml")


def entry(command: str) -> dict[str, Any]:
    return {"hooks": [{"type": "command", "name": "clearance", "command": command,
                       "timeout": TIMEOUT_MS}]}  # fmt: skip


def install(path: str, *, scope: str, directory: str, command: str | None = None,
            env: Mapping[str, str] | None = None) -> Change:  # fmt: skip
    command = command or fail_closed_command("gemini", timeout=TIMEOUT_MS // 1000)
    change = install_entries(path, {"BeforeTool": entry(command)}, ours)
    if scope == "project":
        change.notes.append(
            "Gemini CLI runs a project's hooks only in a trusted folder, and warns once "
            "about new project hooks"
        )
    change.notes.append("run `clearance sync gemini` so Gemini CLI lets allowed commands reach "
                        "the hook in headless runs")  # fmt: skip
    return change


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    return uninstall_entries(path, EVENTS, ours)


def installed_command(path: str) -> str | None:
    group = installed_entry(path, "BeforeTool", ours)
    return None if group is None else str(group["hooks"][0]["command"])


_SHELL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./= ")


def prefixes(policy: Any) -> list[str]:
    """The literal command prefixes of the policy's bash allow rules (``cat *`` → ``cat``)."""
    out: list[str] = []
    for rule in policy.rules.rules:
        if rule.surface != "bash" or rule.action != "allow" or rule.origin == "session":
            continue
        pattern = rule.pattern
        if pattern.endswith(" *"):
            pattern = pattern[:-2]
        pattern = pattern.strip()
        if pattern and set(pattern) <= _SHELL_SAFE and pattern not in out:
            out.append(pattern)
    return out


_HEADER = (
    "# Written by `clearance sync gemini`; rewritten on every sync. These rules only let\n"
    "# a call reach clearance's BeforeTool hook, which still decides every call.\n"
)


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def sync(*, scope: str, directory: str, env: Mapping[str, str] | None = None) -> Change:
    from clearance.decide.engine import Engine

    path = policy_path(env)
    change = Change(path)
    engine = Engine.load(cwd=directory, env=env)
    found = prefixes(engine.policy)
    text = _HEADER
    if found:
        listed = ", ".join(_toml_string(p) for p in found)
        text += ('\n[[rule]]\ntoolName = "run_shell_command"\n'
                 f"commandPrefix = [{listed}]\n"
                 'decision = "allow"\npriority = 100\n')  # fmt: skip
    change.changed = write_text(path, text)
    change.notes.append(
        "command prefixes Gemini CLI passes to the hook: " + (", ".join(found) or "(none)")
    )
    return change
