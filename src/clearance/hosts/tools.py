"""Host tool names and argument names, mapped onto the tools clearance decides
(docs/architecture.md §3).

Every host spells the same few tools differently (``run_shell_command``, ``bash``, ``Bash``;
``absolute_path``, ``file_path``, ``path``). An adapter declares a table from its tool names to
:class:`ToolSpec`; :func:`to_call` renames the arguments to Claude Code's spelling and hands the
result to the Claude Code mapping, so Glob roots, MCP arguments and the required-field checks
are defined once. Arguments the table does not rename are kept, so a path under an unexpected
key is still seen by the path gates. A tool no table names keeps its own name and is decided by
the rules for it, or the universal ``"*"`` rule.
"""

from __future__ import annotations

import posixpath

from clearance._frozen import Frozen
from clearance.hosts.claude_code.payload import Payload, PayloadError
from clearance.hosts.claude_code.payload import to_call as claude_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.intent.call import ToolCall

__all__ = ["ToolSpec", "file_tools", "mcp_target", "patch_call", "to_call"]

_set = object.__setattr__


class ToolSpec(Frozen):
    """``tool`` is Claude Code's name for it; ``rename`` maps host argument names to Claude
    Code's; ``directory`` names the argument that moves a shell command's working directory."""

    __slots__ = ("directory", "rename", "tool")
    tool: str
    rename: dict[str, str]
    directory: str | None

    def __init__(
        self, tool: str, rename: dict[str, str] | None = None, directory: str | None = None
    ) -> None:
        _set(self, "tool", tool)
        _set(self, "rename", dict(rename or {}))
        _set(self, "directory", directory)


def file_tools(argument: str, **tools: tuple[str, ...]) -> dict[str, ToolSpec]:
    """Rows of a table for a host's file tools, whose path argument is ``argument``: each
    keyword is a tool clearance decides (``Read``, ``Write``, ``Edit``), its value the host's
    names for it."""
    rename = {argument: "file_path"}
    return {name: ToolSpec(tool, rename) for tool, names in tools.items() for name in names}


def mcp_target(tool: str) -> tuple[str, str] | None:
    """(server, tool) for an MCP tool named ``mcp__server__tool``, else ``None``."""
    if not tool.startswith("mcp__"):
        return None
    server, _, name = tool[5:].partition("__")
    return server, name


def to_call(
    table: dict[str, ToolSpec],
    tool: str,
    arguments: dict[str, Any],
    cwd: str,
    *,
    session: str | None = None,
    agent: str | None = None,
    mcp: tuple[str, str] | None = None,
    agent_id: str | None = None,
) -> ToolCall:
    """The call for one host tool use. ``mcp`` is (server, tool) for an MCP tool."""
    if not isinstance(arguments, dict):
        raise PayloadError(
            f"the arguments of {tool} are a {type(arguments).__name__}, not an object"
        )
    if mcp is not None:
        name, data = f"mcp__{mcp[0]}__{mcp[1]}", arguments
    else:
        spec = table.get(tool)
        if spec is None:
            name, data = tool, arguments
        else:
            name = spec.tool
            data = {k: v for k, v in arguments.items() if k not in spec.rename}
            for host_key, key in spec.rename.items():
                if host_key in arguments and key not in data:
                    data[key] = arguments[host_key]
                elif host_key in arguments:
                    data["_" + host_key] = arguments[host_key]  # kept: the path gates see it
            if spec.directory is not None:
                where = arguments.get(spec.directory)
                if where is not None:
                    if not isinstance(where, str) or not where:
                        raise PayloadError(
                            f"the arguments of {tool}: {spec.directory!r} is not a directory path"
                        )
                    _run_in(data, posixpath.normpath(posixpath.join(cwd, where)), cwd)
    listed = data.get("file_path")
    if isinstance(listed, list):  # a tool reading several files (read_many_files)
        paths = [p for p in listed if isinstance(p, str) and p]
        if not paths or len(paths) != len(listed):
            raise PayloadError(f"the arguments of {tool}: the paths must be non-empty strings")
        from clearance.intent.call import ToolCall

        return ToolCall(name, {**data, "file_path": paths}, cwd=cwd, agent=agent, session=session,
                        agent_id=agent_id)  # fmt: skip
    payload = Payload(
        "PreToolUse", name, data, cwd, session_id=session, agent_type=agent, agent_id=agent_id
    )
    return claude_call(payload)


def _run_in(data: dict[str, Any], where: str, cwd: str) -> None:
    """Make the command in ``data`` run in ``where``: it is decided as ``cd <where>`` followed
    by the command, which moves only the base of its relative paths. The policy and the project
    boundary stay those of the session's ``cwd``: a working directory the agent chose (``/``,
    a directory outside the project) must not make outside paths inside, nor shed the trusted
    project's configuration."""
    command = data.get("command")
    if where == posixpath.normpath(cwd) or not isinstance(command, str):
        return
    quoted = "'" + where.replace("'", "'\\''") + "'"
    data["command"] = f"cd {quoted}\n{command}"


def patch_call(
    patch: object,
    cwd: str,
    *,
    session: str | None = None,
    agent: str | None = None,
    agent_id: str | None = None,
) -> ToolCall:
    """The Edit call for a patch envelope (Codex's and OpenCode's ``apply_patch``): every file
    it adds, updates, deletes or moves to. A list of lines is joined."""
    from clearance.intent.call import ToolCall
    from clearance.intent.tool_paths import patch_paths

    if isinstance(patch, list):
        patch = "\n".join(p for p in patch if isinstance(p, str))
    if not isinstance(patch, str) or not patch.strip():
        raise PayloadError("the apply_patch call carries no patch text")
    paths = patch_paths(patch)
    if not paths:
        raise PayloadError("the apply_patch call names no file (no '*** Add/Update/Delete File:')")
    return ToolCall(
        "Edit", {"file_path": paths}, cwd=cwd, agent=agent, session=session, agent_id=agent_id
    )
