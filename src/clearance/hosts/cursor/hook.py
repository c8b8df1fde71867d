"""``clearance hook cursor``: Cursor's ``hooks.json`` command hooks (not tested end to end).

Cursor cannot be installed from the registries clearance's tests use, so this adapter follows
Cursor's documented contract and is checked against recorded payloads only. Events:
``beforeShellExecution`` (``command``, ``cwd``), ``beforeMCPExecution`` (``tool_name``,
``tool_input`` as a JSON string, ``url`` or ``command``), ``beforeReadFile`` (``file_path``) and
``preToolUse`` (``tool_name``, ``tool_input``); every payload carries ``hook_event_name``,
``conversation_id`` and ``workspace_roots``. The answer is ``{"permission": "allow" | "deny" |
"ask", "user_message", "agent_message"}`` (``beforeReadFile`` knows no ``ask``: it is denied).
Exit 2 blocks; the installed hooks also set ``failClosed``, so a crash blocks too.
"""

from __future__ import annotations

from clearance._json import dumps
from clearance.hosts.command_hook import (
    PRE_TOOL,
    PREFIX,
    Adapter,
    HookEvent,
    PayloadError,
    Reply,
    headless_reason,
    json_block,
    main,
    object_field,
    required_text,
    text_field,
)
from clearance.hosts.tools import ToolSpec, file_tools, to_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["EVENTS", "CursorAdapter", "run"]

EVENTS = ("beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "preToolUse")

TOOLS = {
    "Shell": ToolSpec("Bash"),
    **file_tools(
        "path", Read=("Read",), Write=("Write", "TabWrite", "Delete"), Edit=("Edit", "StrReplace")
    ),
    "Grep": ToolSpec("Grep"),
    "Glob": ToolSpec("Glob"),
    "LS": ToolSpec("LS"),
}


def _workspace(data: dict[str, Any]) -> str | None:
    roots = data.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
        return roots[0]
    return None


class CursorAdapter(Adapter):
    name = "cursor"
    key = "cursor"

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        event = required_text(data, "hook_event_name")
        if event not in EVENTS:
            raise PayloadError(
                f"clearance does not handle the Cursor {event} event; it hooks {', '.join(EVENTS)}"
            )
        cwd = text_field(data, "cwd") or _workspace(data)
        if cwd is None:
            raise PayloadError(f"the {event} payload has neither cwd nor workspace_roots")
        session = text_field(data, "conversation_id")
        if event == "beforeShellExecution":
            command = required_text(data, "command")
            call = to_call(TOOLS, "Shell", {"command": command}, cwd, session=session)
        elif event == "beforeReadFile":
            path = required_text(data, "file_path")
            call = to_call(TOOLS, "Read", {"file_path": path}, cwd, session=session)
        elif event == "beforeMCPExecution":
            tool = required_text(data, "tool_name")
            arguments = object_field(data, "tool_input", f"tool_input of {tool}", text=True)
            server = text_field(data, "server_name") or text_field(data, "url") or text_field(
                data, "command"
            ) or "mcp"  # fmt: skip
            call = to_call(TOOLS, tool, arguments, cwd, session=session, mcp=(server, tool))
        else:
            tool = required_text(data, "tool_name")
            arguments = object_field(data, "tool_input", f"tool_input of {tool}", text=True)
            mcp = None
            if tool.startswith("MCP:"):
                mcp = ("mcp", tool[4:])
            call = to_call(TOOLS, tool, arguments, cwd, session=session, mcp=mcp)
        return HookEvent(PRE_TOOL, event, call, headless_reason(env))

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        if action == "silent":
            return Reply()
        if action == "ask" and event.host_event == "beforeReadFile":
            action = "deny"
            reason += "; Cursor cannot ask before a file read, so it is denied"
        if event.host_event == "preToolUse":
            decision = "deny" if action == "ask" else action
            out: dict[str, Any] = {"decision": decision, "reason": PREFIX + reason}
            if action == "ask":
                out["reason"] += "; Cursor's preToolUse cannot ask, so it is denied"
        else:
            out = {"permission": action, "user_message": PREFIX + reason,
                   "agent_message": PREFIX + reason}  # fmt: skip
        return Reply(dumps(out) + "\n")

    def failure(self, raw: bytes, reason: str) -> Reply:
        out = {"permission": "deny", "decision": "deny", "user_message": PREFIX + reason,
               "agent_message": PREFIX + reason, "reason": PREFIX + reason}  # fmt: skip
        return json_block(out, reason)


def run() -> int:
    return main(CursorAdapter())
