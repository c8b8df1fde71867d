"""``clearance doctor``'s checks of the rules around the hook: one install, not several; the
tools hidden from the model still match the policy; and Claude Code's own permission lists
compared with what clearance decides."""

from __future__ import annotations

import os

from clearance.hosts.claude_code.checks import Check, each_settings
from clearance.hosts.claude_code.settings import installed_commands

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["check_claude_rules", "check_hidden", "check_overlap"]


def _installed_scopes(cwd: str, env: Mapping[str, str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for scope, path, data in each_settings(cwd, env):
        if any(os.path.realpath(path) == os.path.realpath(p) for _, p in out):
            continue  # in the home directory, the project's settings are the user's
        if installed_commands(data):
            out.append((scope, path))
    return out


def check_overlap(cwd: str, env: Mapping[str, str]) -> Check:
    installs = _installed_scopes(cwd, env)
    if len(installs) <= 1:
        return Check("overlap", True, "the hook is installed once" if installs else "no install")
    where = ", ".join(f"{path} ({scope})" for scope, path in installs)
    return Check(
        "overlap", False,
        f"the hook is installed {len(installs)} times ({where}): Claude Code runs each, so every "
        "call is decided (and an ask shown) once per install",
        "keep one: `clearance uninstall claude-code --SCOPE` for the others",
    )  # fmt: skip


def check_hidden(cwd: str, env: Mapping[str, str]) -> Check:
    """The tools hidden from the model still match the policy (after a policy edit, `sync`)."""
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.hiding import hidden_tools, owned_entries, projected_denies

    stale = []
    for scope, path in _installed_scopes(cwd, env):
        owned = owned_entries(path, env)
        if not owned:
            continue  # installed with --no-hide, or nothing to hide
        directory = home_dir_of(env) if scope == "user" else cwd
        engine = Engine.load(cwd=directory, env=env)
        entries, _, _ = projected_denies(engine.policy, engine.protected())
        want = set(hidden_tools(engine.policy) + entries)
        if want != set(owned):
            missing, extra = sorted(want - set(owned)), sorted(set(owned) - want)
            parts = [f"to hide: {', '.join(missing)}"] if missing else []
            parts += [f"no longer denied: {', '.join(extra)}"] if extra else []
            stale.append((scope, f"{path} ({'; '.join(parts)})"))
    if not stale:
        return Check("hidden tools", True, "the tools hidden from the model match the policy")
    scopes = " ".join(f"--{s}" for s, _ in stale[:1])
    return Check(
        "hidden tools", False,
        "the policy changed since the tools were hidden: " + "; ".join(t for _, t in stale),
        f"run `clearance sync claude-code {scopes}`",
    )  # fmt: skip


def home_dir_of(env: Mapping[str, str]) -> str:
    from clearance.policy.state import home_dir

    return home_dir(env)


def _sample(surface: str, pattern: str) -> str | None:
    """A value a Claude Code entry's pattern surely matches, to ask clearance about."""
    value = pattern
    for tail in (" *", "/**", "/*", "**", "*"):
        if value.endswith(tail):
            value = value[: -len(tail)]
            break
    if not value or any(c in value for c in "*?"):
        return None
    return value


_MAX_COMPARED = 200  # entries decided per doctor run; a huge allow list stays quick


def check_claude_rules(cwd: str, env: Mapping[str, str]) -> Check:
    """Claude Code permission entries that clearance decides differently (informational: once
    the hook runs, clearance decides)."""
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.hiding import owned_entries
    from clearance.hosts.claude_code.permissions import permission_entries, translate
    from clearance.intent.call import ToolCall

    fields = {"bash": "command", "webfetch": "url", "websearch": "query", "task": "subagent_type"}
    engine = Engine.load(cwd=cwd, env=env)
    differ: list[str] = []
    total = 0
    for scope, path, data in each_settings(cwd, env):
        ours = set(owned_entries(path, env))
        for action, entry in permission_entries(data):
            if entry in ours:
                continue
            result = translate(entry, action, cwd if scope != "user" else None)
            if not result.rules:
                continue
            surface, pattern = result.rules[0]
            value = _sample(surface, pattern)
            if value is None or total >= _MAX_COMPARED:
                continue
            total += 1
            tool = surface if surface not in ("path_read", "path_write") else (
                "read" if surface == "path_read" else "write"
            )  # fmt: skip
            data_in: object = value if tool == "mcp" else {fields.get(tool, "path"): value}
            decided = engine.check(ToolCall(tool, data_in, cwd)).action
            if decided != action:
                differ.append(f"{entry}: Claude Code says {action}, clearance {decided}")
    if not differ:
        note = f"{total} checked, all decided alike" if total else "none to compare"
        return Check("claude code rules", True, f"Claude Code's own permission lists: {note}")
    shown = "\n  ".join(differ[:8]) + (
        f"\n  … and {len(differ) - 8} more" if len(differ) > 8 else ""
    )
    return Check(
        "claude code rules", True,
        f"clearance decides {len(differ)} of Claude Code's own permission entries differently "
        f"(clearance's answer is the one that counts):\n  {shown}",
        "to carry them over, `clearance init --from-claude-code --stdout` shows them as rules",
    )  # fmt: skip
