"""What the agent hosts know about a call's surroundings, for the engine (``HostFacts`` in
clearance.intent.boundary): the directories they count as inside besides the project, and the
MCP servers they have configured.

* **Inside**: Claude Code's task outputs under ``/tmp/claude/`` (``/private/tmp/claude/`` on
  macOS) when that is a real directory of this user's (not a link planted in ``/tmp``), and
  the directories its settings list in ``permissions.additionalDirectories`` (the project's
  ``.claude/settings.json`` and ``.claude/settings.local.json``, and ``~/.claude/settings.json``;
  those files are protected paths, so the agent cannot add one).
  Directories given with ``claude --add-dir`` are not visible to a hook and are not known.
* **MCP servers**: Claude Code's project ``.mcp.json``, the ``mcpServers`` of ``~/.claude.json``
  (at the top and under ``projects[<dir>]``) and of its settings files; pi's
  ``~/.pi/agent/mcp.json`` and the project's ``.pi/mcp.json``.

A file that is missing, unreadable or malformed adds nothing. Answers are remembered per
process (a batch or a long-lived host reads each file once per project).
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["HOST_FACTS", "HOST_SCRATCH", "AgentHostFacts", "relocated_homes"]

# Directories an agent host writes for the agent and reads back (Claude Code's task outputs).
HOST_SCRATCH = ("/tmp/claude", "/private/tmp/claude")
_MAX_BYTES = 8 << 20


# The variables with which a host moves its home directory (where `clearance install` then writes
# its hook), and the directory of the protected paths each one replaces.
_MOVED = (
    ("CLAUDE_CONFIG_DIR", "~/.claude"),
    ("CODEX_HOME", "~/.codex"),
    ("COPILOT_HOME", "~/.copilot"),
    ("XDG_CONFIG_HOME", "~/.config"),
)


def relocated_homes(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """(protected home directory, where the environment moved it) for each host variable set,
    for ``Engine.relocated``: a hook installed under ``$CODEX_HOME`` is protected there."""
    out = []
    for variable, head in _MOVED:
        value = env.get(variable)
        if value and value[:1] == "/":
            out.append((head, os.path.normpath(value)))
    return tuple(out)


def _load(path: str, marker: str) -> object:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(_MAX_BYTES)
    except (OSError, UnicodeDecodeError):
        return None
    if marker not in text:
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


class AgentHostFacts:
    """The facts of the agent hosts clearance integrates with (Claude Code, pi)."""

    __slots__ = ("_inside", "_servers")

    def __init__(self) -> None:
        self._inside: dict[tuple[str, str], tuple[str, ...]] = {}
        self._servers: dict[tuple[str, str, str], tuple[str, ...]] = {}

    def inside(self, project: str, home: str) -> tuple[str, ...]:
        key = (project, home)
        found = self._inside.get(key)
        if found is None:
            if len(self._inside) > 256:
                self._inside.clear()
            scratch = tuple(path for path in HOST_SCRATCH if _own_directory(path))
            found = self._inside[key] = (*scratch, *_additional(project, home))
        return found

    def mcp_servers(self, project: str, cwd: str, home: str) -> tuple[str, ...]:
        key = (project, cwd, home)
        found = self._servers.get(key)
        if found is None:
            if len(self._servers) > 64:
                self._servers.clear()
            found = self._servers[key] = _servers(project, cwd, home)
        return found


def _own_directory(path: str) -> bool:
    """Whether ``path`` is a real directory (not a link) owned by this user, or nothing yet: the
    host's scratch space lies in the shared ``/tmp``, where anyone (the agent too) may plant a
    link by that name to another directory. A link made later in the same line is followed by
    the path gates, which judge the path it reaches."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid()


def _additional(project: str, home: str) -> list[str]:
    """Claude Code's ``permissions.additionalDirectories``, as absolute paths."""
    files = [os.path.join(project, ".claude", "settings.json"),
             os.path.join(project, ".claude", "settings.local.json")]  # fmt: skip
    if home:
        files.append(os.path.join(home, ".claude", "settings.json"))
    out: list[str] = []
    for name in files:
        data = _load(name, "additionalDirectories")
        permissions = data.get("permissions") if isinstance(data, dict) else None
        extra = permissions.get("additionalDirectories") if isinstance(permissions, dict) else None
        if not isinstance(extra, list):
            continue
        for item in extra:
            if not isinstance(item, str) or not item.strip():
                continue
            if item == "~" or item.startswith("~/"):
                item = home + item[1:] if home else item
            path = item if item[:1] == "/" else os.path.join(project, item)
            out.append(os.path.normpath(path))
    return out


def _servers(project: str, cwd: str, home: str) -> tuple[str, ...]:
    out: list[str] = []
    for path in (
        os.path.join(project, ".mcp.json"),
        os.path.join(project, ".claude", "settings.json"),
        os.path.join(project, ".claude", "settings.local.json"),
        os.path.join(project, ".pi", "mcp.json"),
    ):
        _servers_of(_load(path, "mcpServers"), out)
    if home:
        for path in (
            os.path.join(home, ".claude", "settings.json"),
            os.path.join(home, ".pi", "agent", "mcp.json"),
        ):
            _servers_of(_load(path, "mcpServers"), out)
        state = _load(os.path.join(home, ".claude.json"), "mcpServers")
        _servers_of(state, out)
        projects = state.get("projects") if isinstance(state, dict) else None
        if isinstance(projects, dict):
            _servers_of(projects.get(project), out)
            if cwd != project:
                _servers_of(projects.get(cwd), out)
    return tuple(dict.fromkeys(out))


HOST_FACTS = AgentHostFacts()
