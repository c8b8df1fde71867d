"""``clearance hook copilot``: GitHub Copilot CLI's ``preToolUse`` command hook.

Copilot CLI sends ``{sessionId, timestamp, cwd, toolName, toolArgs}`` (``toolArgs`` a JSON
string or object) and reads ``{"permissionDecision": "allow" | "deny" | "ask",
"permissionDecisionReason": …}``. A crashing hook denies, a timed-out one allows; clearance
answers every failure of its own with an explicit deny (and exit 2) so neither path is left to
chance.
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
    headless,
    main,
    text_field,
)
from clearance.hosts.tools import ToolSpec, to_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["CopilotAdapter", "run"]

TOOLS = {
    "bash": ToolSpec("Bash"),
    "shell": ToolSpec("Bash"),
    "powershell": ToolSpec("Bash"),
    "view": ToolSpec("Read", {"path": "file_path"}),
    "read": ToolSpec("Read", {"path": "file_path"}),
    "create": ToolSpec("Write", {"path": "file_path"}),
    "edit": ToolSpec("Edit", {"path": "file_path"}),
    "str_replace": ToolSpec("Edit", {"path": "file_path"}),
    "str_replace_editor": ToolSpec("Edit", {"path": "file_path"}),
    "glob": ToolSpec("Glob"),
    "grep": ToolSpec("Grep"),
    "web_fetch": ToolSpec("WebFetch"),
    "fetch": ToolSpec("WebFetch"),
}


class CopilotAdapter(Adapter):
    name = "copilot"
    key = "copilot"

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        tool = text_field(data, "toolName", required=True)
        assert tool is not None
        cwd = text_field(data, "cwd", required=True)
        assert cwd is not None
        arguments = data.get("toolArgs")
        if isinstance(arguments, str):
            from clearance._json import loads

            try:
                arguments = loads(arguments) if arguments.strip() else {}
            except ValueError as exc:
                raise PayloadError(f"toolArgs of {tool} is not JSON ({exc})") from None
        arguments = {} if arguments is None else arguments
        session = text_field(data, "sessionId")
        agent = text_field(data, "agentName") or text_field(data, "agent_type")
        mcp = None
        if tool.startswith("mcp__"):
            server, _, name = tool[5:].partition("__")
            mcp = (server, name)
        call = to_call(TOOLS, tool, arguments, cwd, session=session, agent=agent, mcp=mcp)
        nobody = "this is a headless run" if headless(env) else None
        return HookEvent(PRE_TOOL, "preToolUse", call, nobody)

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        if action == "silent":
            return Reply()
        out = {"permissionDecision": action, "permissionDecisionReason": PREFIX + reason}
        return Reply(dumps(out) + "\n")

    def failure(self, raw: bytes, reason: str) -> Reply:
        out = {"permissionDecision": "deny", "permissionDecisionReason": PREFIX + reason}
        return Reply(dumps(out) + "\n", PREFIX + reason + "\n", exit=2)


def run() -> int:
    return main(CopilotAdapter())
