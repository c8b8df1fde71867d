"""``clearance install|uninstall|sync|doctor gemini``: the ``BeforeTool`` hook in Gemini CLI's
``settings.json`` (``~/.gemini/settings.json``, or a project's ``.gemini/settings.json``), and the
policy rules Gemini CLI needs to let an allowed command reach the hook at all.

A hook's allow does not get past Gemini CLI's own policy engine: in a headless run a shell
command no Gemini rule allows is refused ("requires user confirmation") after the hook allowed
it. ``sync`` writes ``~/.gemini/policies/clearance.toml`` with one ``commandPrefix`` allow per
bash allow rule of clearance's whose pattern is a literal command (``git status``,
``cat *`` → ``cat``). Those rules only let the call reach the ``BeforeTool`` hook, which runs
for every call and still decides: a Gemini allow never lets through what clearance denies.
Gemini CLI reads such rules for every project (it reads no project's own policies), so they go
only with the user's hook: ``sync`` refuses without it, and ``uninstall`` takes them away with it.
"""

from __future__ import annotations

import os

from clearance.hosts.hook_files import (
    Change,
    HookFileError,
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
    if scope == "user":
        change.notes.append("run `clearance sync gemini` so Gemini CLI lets allowed commands "
                            "reach the hook in headless runs")  # fmt: skip
    else:
        change.notes.append("Gemini CLI's own rules still ask about (or, headless, refuse) what "
                            "they do not allow; `clearance sync gemini` writes rules for every "
                            "project, so it needs the user's install")  # fmt: skip
    return change


def uninstall(path: str, env: Mapping[str, str] | None = None) -> Change:
    """Remove the hook, and with the user's hook the rules ``sync`` wrote for it: without the
    hook, those rules would let Gemini CLI run the commands undecided."""
    change = uninstall_entries(path, EVENTS, ours)
    if os.path.abspath(path) != hooks_path("user", "", env):
        return change
    rules = policy_path(env)
    try:
        with open(rules, encoding="utf-8") as f:
            ours_there = f.read().startswith(_HEADER)
    except FileNotFoundError:
        return change
    if ours_there:
        os.unlink(rules)
        change.changed = True
        change.notes.append(f"removed the Gemini rules `sync` wrote: {rules}")
    return change


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

    hooks = hooks_path("user", directory, env)
    if installed_command(hooks) is None:
        raise HookFileError(
            f"{hooks}: clearance's hook is not installed there. The rules `sync` writes "
            "(~/.gemini/policies) let commands through Gemini CLI's own checks in every project "
            "so that the hook decides them; where the hook does not run they would run "
            "undecided. Run `clearance install gemini` (for the user) first"
        )
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
