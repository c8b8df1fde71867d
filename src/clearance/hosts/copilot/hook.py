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
    Reply,
    call_fields,
    headless_reason,
    json_block,
    main,
)
from clearance.hosts.tools import ToolSpec, file_tools, mcp_target, to_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["CopilotAdapter", "run"]

TOOLS = {
    "bash": ToolSpec("Bash"),
    "shell": ToolSpec("Bash"),
    "powershell": ToolSpec("Bash"),
    **file_tools(
        "path",
        Read=("view", "read"),
        Write=("create",),
        Edit=("edit", "str_replace", "str_replace_editor"),
    ),
    "glob": ToolSpec("Glob"),
    "grep": ToolSpec("Grep"),
    "web_fetch": ToolSpec("WebFetch"),
    "fetch": ToolSpec("WebFetch"),
}


class CopilotAdapter(Adapter):
    name = "copilot"
    key = "copilot"

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        tool, cwd, arguments, session, agent = call_fields(
            data, "toolName", "toolArgs", "sessionId", ("agentName", "agent_type"), text=True
        )
        call = to_call(TOOLS, tool, arguments, cwd, session=session, agent=agent,
                       mcp=mcp_target(tool))  # fmt: skip
        return HookEvent(PRE_TOOL, "preToolUse", call, headless_reason(env))

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        if action == "silent":
            return Reply()
        out = {"permissionDecision": action, "permissionDecisionReason": PREFIX + reason}
        return Reply(dumps(out) + "\n")

    def failure(self, raw: bytes, reason: str) -> Reply:
        return json_block(
            {"permissionDecision": "deny", "permissionDecisionReason": PREFIX + reason}, reason
        )


def run() -> int:
    return main(CopilotAdapter())
