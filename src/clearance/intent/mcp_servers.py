"""The MCP servers the agent host has configured: names an unprefixed MCP tool is matched to.

Read from the files the hosts read: Claude Code's project ``.mcp.json`` (``mcpServers``), its
``~/.claude.json`` (``mcpServers`` at the top and under ``projects[<dir>]``) and the
``mcpServers`` of its settings files (``~/.claude/settings.json``, the project's
``.claude/settings.json`` and ``.claude/settings.local.json``); pi's ``~/.pi/agent/mcp.json`` and
the project's ``.pi/mcp.json``. The project is the directory holding the nearest ``.git`` above
the working directory, else the working directory. A file that is missing or unreadable adds
nothing; names only ever add match targets (clearance.intent.target), never remove one.
"""

from __future__ import annotations

import os

__all__ = ["configured_servers"]

_CACHE: dict[tuple[str, str], tuple[str, ...]] = {}
_MAX_BYTES = 8 << 20


def configured_servers(cwd: str, home: str) -> tuple[str, ...]:
    """Every configured MCP server name for a call made in ``cwd`` (remembered per process)."""
    key = (cwd, home)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        found = _CACHE[key] = _read(cwd, home)
    return found


def _project(cwd: str) -> str:
    probe = os.path.abspath(cwd)
    for _ in range(64):
        if os.path.lexists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    return os.path.abspath(cwd)


def _load(path: str) -> object:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(_MAX_BYTES)
    except (OSError, UnicodeDecodeError):
        return None
    if "mcpServers" not in text and "mcp" not in os.path.basename(path):
        return None
    from clearance._json import loads

    try:
        return loads(text)
    except ValueError:
        return None


def _servers_of(data: object, out: list[str]) -> None:
    if not isinstance(data, dict):
        return
    servers = data.get("mcpServers")
    if isinstance(servers, dict):
        out.extend(name for name in servers if isinstance(name, str) and name)


def _read(cwd: str, home: str) -> tuple[str, ...]:
    project = _project(cwd)
    out: list[str] = []
    for path in (
        os.path.join(project, ".mcp.json"),
        os.path.join(project, ".claude", "settings.json"),
        os.path.join(project, ".claude", "settings.local.json"),
        os.path.join(project, ".pi", "mcp.json"),
    ):
        _servers_of(_load(path), out)
    if home:
        for path in (
            os.path.join(home, ".claude", "settings.json"),
            os.path.join(home, ".pi", "agent", "mcp.json"),
        ):
            _servers_of(_load(path), out)
        state = _load(os.path.join(home, ".claude.json"))
        _servers_of(state, out)
        projects = state.get("projects") if isinstance(state, dict) else None
        if isinstance(projects, dict):
            _servers_of(projects.get(project), out)
            if project != os.path.abspath(cwd):
                _servers_of(projects.get(os.path.abspath(cwd)), out)
    return tuple(dict.fromkeys(out))
