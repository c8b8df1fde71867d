"""``clearance hook codex``: Codex's command hooks (``PreToolUse``, ``PermissionRequest``).

Codex sends ``{session_id, turn_id, cwd, hook_event_name, tool_name, tool_input, tool_use_id}``,
plus ``agent_id``/``agent_type`` inside a subagent. ``tool_name`` is ``Bash``
(``{"command": …}``), ``apply_patch`` (the patch envelope under ``command``) or
``mcp__server__tool`` (the tool's arguments).

``PreToolUse`` can only deny, and only with a non-empty ``permissionDecisionReason``; a plain
allow or ask is ignored. So an allow is silence, and an ask is forwarded to a serving session or
else denied with a reason that says how to allow it. ``PermissionRequest`` (Codex is about to
show its approval dialog) takes ``decision.behavior`` ``allow`` or ``deny``; an ask is silence,
so the dialog shows. A hook that crashes or times out lets the call run in Codex, but exit 2 with
a reason on stderr blocks: every failure of clearance answers that way.
"""

from __future__ import annotations

from clearance.hosts.claude_code.response import permission_request, pre_tool_use
from clearance.hosts.command_hook import (
    PERMISSION,
    PRE_TOOL,
    Adapter,
    HookEvent,
    PayloadError,
    Reply,
    call_fields,
    main,
    required_text,
    stderr_block,
    text_field,
)
from clearance.hosts.tools import ToolSpec, mcp_target, patch_call, to_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["CodexAdapter", "run"]

TOOLS = {
    "Bash": ToolSpec("Bash", directory="workdir"),
    "shell": ToolSpec("Bash", {"cmd": "command"}, directory="workdir"),
    "exec_command": ToolSpec("Bash", {"cmd": "command"}, directory="workdir"),
    "read_file": ToolSpec("Read", {"path": "file_path"}),
    "list_dir": ToolSpec("LS", {"dir_path": "path"}),
    "grep_files": ToolSpec("Grep"),
    "view_image": ToolSpec("Read", {"path": "file_path"}),
}

_EVENTS = {"PreToolUse": PRE_TOOL, "PermissionRequest": PERMISSION}
_NO_ASK = (
    "Codex's PreToolUse hook can only deny, and no serving session took the ask; "
    "to let it through, allow it in clearance's policy or run `clearance serve`"
)


class CodexAdapter(Adapter):
    name = "codex"
    key = "codex"
    internal = frozenset(
        {"update_plan", "request_user_input", "get_goal", "create_goal", "update_goal"}
    )

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        host_event = required_text(data, "hook_event_name")
        kind = _EVENTS.get(host_event)
        if kind is None:
            raise PayloadError(
                f"clearance does not handle the Codex {host_event} event; install it with "
                "`clearance install codex`, which hooks PreToolUse and PermissionRequest"
            )
        tool, cwd, arguments, session, agent = call_fields(
            data, "tool_name", "tool_input", "session_id", ("agent_type",)
        )
        agent_id = text_field(data, "agent_id")
        if tool == "apply_patch":
            call = _patch_call(arguments, cwd, session, agent, agent_id)
        else:
            call = to_call(TOOLS, tool, arguments, cwd, session=session, agent=agent,
                           mcp=mcp_target(tool), agent_id=agent_id)  # fmt: skip
        return HookEvent(kind, host_event, call, _NO_ASK if kind == PRE_TOOL else None)

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        if event.kind == PERMISSION:
            if action in ("allow", "deny"):
                return Reply(permission_request(action, reason))
            return Reply()
        if action == "allow" or action == "silent":
            return Reply()
        return Reply(pre_tool_use("deny", reason or "denied by policy"))

    def failure(self, raw: bytes, reason: str) -> Reply:
        return stderr_block(reason)


def _patch_call(
    arguments: dict[str, Any],
    cwd: str,
    session: str | None,
    agent: str | None,
    agent_id: str | None,
) -> Any:
    patch = arguments.get("command", arguments.get("patch", arguments.get("input")))
    return patch_call(patch, cwd, session=session, agent=agent, agent_id=agent_id)


def run() -> int:
    return main(CodexAdapter())
