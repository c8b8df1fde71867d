"""The host-neutral tool call every decision starts from."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CANONICAL_TOOLS", "ToolCall", "canonical_tool"]

_set = object.__setattr__

# Names hosts use for the canonical tools (docs/architecture.md §3). Lookup is case-insensitive.
_ALIASES = {
    "bash": "bash",
    "shell": "bash",
    "read": "read",
    "write": "write",
    "edit": "edit",
    "multiedit": "edit",
    "notebookedit": "edit",
    "grep": "grep",
    "glob": "find",
    "find": "find",
    "ls": "ls",
    "skill": "skill",
    "webfetch": "webfetch",
    "websearch": "websearch",
    "task": "task",
    "agent": "task",
    "mcp": "mcp",
}

CANONICAL_TOOLS = frozenset(_ALIASES.values())


def canonical_tool(name: str) -> str:
    """``Bash`` → ``bash``, ``MultiEdit`` → ``edit``, ``mcp__srv__tool`` → ``mcp``; others as
    given."""
    if name.startswith("mcp__"):
        return "mcp"
    return _ALIASES.get(name.lower(), name)


class ToolCall(Frozen):
    """``tool`` is the name as the host gave it; ``input`` the tool's arguments (a mapping, or
    a plain string: the command for ``bash``, the path for file tools). ``agent`` is the kind of
    (sub)agent that made the call (it selects the per-agent policy); ``agent_id`` the host's id
    of that one agent instance, when the host gives one (it travels in a forwarded ask's
    provenance)."""

    __slots__ = ("agent", "agent_id", "cwd", "input", "session", "tool")
    tool: str
    input: Any
    cwd: str
    agent: str | None
    session: str | None
    agent_id: str | None

    def __init__(
        self,
        tool: str,
        input: Any = None,
        cwd: str = ".",
        agent: str | None = None,
        session: str | None = None,
        agent_id: str | None = None,
    ) -> None:
        _set(self, "tool", tool)
        _set(self, "input", {} if input is None else input)
        _set(self, "cwd", cwd)
        _set(self, "agent", agent or None)
        _set(self, "session", session or None)
        _set(self, "agent_id", agent_id or None)

    @property
    def kind(self) -> str:
        """The canonical tool name (the surface its own rules live on)."""
        return canonical_tool(self.tool)

    def field(self, *names: str) -> Any:
        """The first of ``names`` present in a mapping input; a string input answers any."""
        data = self.input
        if isinstance(data, str):
            return data
        if isinstance(data, dict):
            for name in names:
                value = data.get(name)
                if value is not None:
                    return value
        return None
