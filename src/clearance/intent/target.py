"""What a non-path, non-shell call is about: the values its tool surface matches against.

MCP calls are looked up under every name a user might write a rule for (``server:tool``,
``server_tool``, ``server``, ``tool``, ``mcp__server__tool``; docs/configuration.md, "The
`permission` map"); rule position decides
which wins, not the order of these names.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.call import ToolCall

__all__ = ["mcp_parts", "mcp_targets", "skill_name", "tool_value"]

# The input field whose value the tool's own surface matches, per canonical tool.
_VALUE_FIELDS: dict[str, tuple[str, ...]] = {
    "bash": ("command",),
    "webfetch": ("url",),
    "websearch": ("query",),
    "task": ("subagent_type", "agent"),
    "skill": ("skill", "name"),
}


def _sanitize(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)


def mcp_parts(call: ToolCall) -> tuple[str | None, str | None]:
    """(server, tool) of an MCP call, from ``mcp__server__tool`` or the input."""
    if call.tool.startswith("mcp__"):
        rest = call.tool[5:]
        server, sep, tool = rest.partition("__")
        return (server or None, tool or None) if sep else (rest or None, None)
    data = call.input
    if isinstance(data, str):
        server, sep, tool = data.partition(":")
        return (server or None, tool or None) if sep else (None, data or None)
    if isinstance(data, dict):
        raw_server = data.get("server")
        raw_tool = data.get("tool") or data.get("name")
        srv = raw_server if isinstance(raw_server, str) and raw_server else None
        name = raw_tool if isinstance(raw_tool, str) and raw_tool else None
        if srv is None and name and name.startswith("mcp__"):
            s, sep, t = name[5:].partition("__")
            if sep:
                return s or None, t or None
        if srv is None and name and ":" in name:
            s, _, t = name.partition(":")
            return s or None, t or None
        return srv, name
    return None, None


def mcp_targets(call: ToolCall, servers: Sequence[str] = ()) -> tuple[str, ...]:
    """Every name an MCP call is matched under. ``servers``: the configured MCP server names
    (``HostFacts.mcp_servers``, ``clearance.intent.boundary``); a tool named without its server
    takes it from them — the longest server that is a leading ``server_`` of the tool name, else
    one that is a trailing ``_server`` — and a sanitized server name in ``mcp__server__tool`` is
    also matched under the configured spelling it stands for (``danger_srv`` for
    ``danger-srv``)."""
    server, tool = mcp_parts(call)
    out: list[str] = []
    if tool and not server and servers:
        server, tool = _derived(tool, servers, out)
    if server and tool:
        spellings = [server]
        if call.tool.startswith("mcp__"):
            spellings += [s for s in servers if s != server and _sanitize(s) == server]
        for name in spellings:
            out += [f"{name}:{tool}", f"{name}_{tool}", name]
        out.append(tool)
        out.append(f"mcp__{_sanitize(server)}__{_sanitize(tool)}")
    elif server:
        out.append(server)
    elif tool:
        out.append(tool)
    if call.tool.startswith("mcp__"):
        # A configured server whose name holds "__" (`my__srv`) splits `mcp__my__srv__drop`
        # elsewhere than the first "__": it is matched under that server too.
        rest = call.tool[5:]
        for name in servers:
            head = _sanitize(name) + "__"
            if "__" in head[:-2] and rest.startswith(head) and len(rest) > len(head):
                part = rest[len(head) :]
                out += [f"{name}:{part}", f"{name}_{part}", name, part]
    if call.tool.startswith("mcp__") and call.tool not in out:
        out.append(call.tool)
    return tuple(dict.fromkeys(out)) or ("*",)


def _derived(tool: str, servers: Sequence[str], out: list[str]) -> tuple[str | None, str | None]:
    """(server, tool) of an unprefixed tool name from the configured servers; the name as
    given is kept as a target of its own (``github_search_code``)."""
    best = ""
    for name in servers:
        if len(name) > len(best) and tool.startswith(name + "_") and len(tool) > len(name) + 1:
            best = name
    if best:
        out.append(tool)
        return best, tool[len(best) + 1 :]
    for name in servers:
        if len(name) > len(best) and tool.endswith("_" + name) and len(tool) > len(name) + 1:
            best = name
    if best:
        out.append(tool)
        return best, tool[: -len(best) - 1]
    return None, tool


def skill_name(call: ToolCall) -> str:
    value = call.field("skill", "name", "command")
    return value.strip().removeprefix("/skill:") if isinstance(value, str) else "*"


def tool_value(call: ToolCall) -> str:
    """The value a tool surface without paths matches: a known field, else ``*``."""
    fields = _VALUE_FIELDS.get(call.kind)
    if fields:
        value = call.field(*fields)
        if isinstance(value, str):
            return value
    return "*"
