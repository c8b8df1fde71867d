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

from clearance._json import dumps
from clearance.hosts.command_hook import (
    PERMISSION,
    PRE_TOOL,
    PREFIX,
    Adapter,
    HookEvent,
    PayloadError,
    Reply,
    main,
    text_field,
)
from clearance.hosts.tools import ToolSpec, patch_paths, to_call

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
        host_event = text_field(data, "hook_event_name", required=True)
        assert host_event is not None
        kind = _EVENTS.get(host_event)
        if kind is None:
            raise PayloadError(
                f"clearance does not handle the Codex {host_event} event; install it with "
                "`clearance install codex`, which hooks PreToolUse and PermissionRequest"
            )
        tool = text_field(data, "tool_name", required=True)
        assert tool is not None
        cwd = text_field(data, "cwd", required=True)
        assert cwd is not None
        arguments = data.get("tool_input")
        arguments = {} if arguments is None else arguments
        if not isinstance(arguments, dict):
            raise PayloadError(
                f"tool_input of {tool} is a {type(arguments).__name__}, not an object"
            )
        session = text_field(data, "session_id")
        agent = text_field(data, "agent_type")
        agent_id = text_field(data, "agent_id")
        if tool == "apply_patch":
            call = _patch_call(arguments, cwd, session, agent, agent_id)
        elif tool.startswith("mcp__"):
            server, _, name = tool[5:].partition("__")
            call = to_call(TOOLS, tool, arguments, cwd, session=session, agent=agent,
                           mcp=(server, name), agent_id=agent_id)  # fmt: skip
        else:
            call = to_call(TOOLS, tool, arguments, cwd, session=session, agent=agent,
                           agent_id=agent_id)  # fmt: skip
        return HookEvent(kind, host_event, call, _NO_ASK if kind == PRE_TOOL else None)

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        if event.kind == PERMISSION:
            if action == "allow":
                return Reply(_permission({"behavior": "allow"}))
            if action == "deny":
                return Reply(_permission({"behavior": "deny", "message": PREFIX + reason}))
            return Reply()
        if action == "allow" or action == "silent":
            return Reply()
        return Reply(_pre_tool_deny(reason))

    def failure(self, raw: bytes, reason: str) -> Reply:
        return Reply(stderr=PREFIX + reason + "\n", exit=2)


def _permission(decision: dict[str, Any]) -> str:
    out = {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}
    return dumps(out) + "\n"


def _pre_tool_deny(reason: str) -> str:
    out = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": PREFIX + (reason or "denied by policy"),
        }
    }
    return dumps(out) + "\n"


def _patch_call(
    arguments: dict[str, Any],
    cwd: str,
    session: str | None,
    agent: str | None,
    agent_id: str | None,
) -> Any:
    from clearance.intent.call import ToolCall

    patch = arguments.get("command", arguments.get("patch", arguments.get("input")))
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


def run() -> int:
    return main(CodexAdapter())
