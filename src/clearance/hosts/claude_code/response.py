"""What the hook prints: Claude Code's hook output objects, one per answer.

``PreToolUse`` takes ``hookSpecificOutput.permissionDecision`` (``allow``, ``deny``, ``ask``)
with ``permissionDecisionReason`` (shown to the model on a deny, to the user on an ask);
``PermissionRequest`` takes ``hookSpecificOutput.decision.behavior`` (``allow``, ``deny`` with a
``message``). Silence — no output at all — leaves Claude Code to its own rules. Any other event
gets the event-neutral ``{"decision": "block", "reason": ...}``.
"""

from __future__ import annotations

from clearance._json import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["PREFIX", "error_answer", "permission_request", "pre_tool_use"]

PREFIX = "[clearance] "


def pre_tool_use(decision: str, reason: str) -> str:
    """``decision`` is ``allow``, ``deny`` or ``ask``."""
    out: dict[str, Any] = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": PREFIX + reason,
        }
    }
    return dumps(out) + "\n"


def permission_request(behavior: str, message: str | None = None) -> str:
    """``behavior`` is ``allow`` or ``deny``; a deny carries the ``message`` the model sees."""
    decision: dict[str, Any] = {"behavior": behavior}
    if behavior == "deny":
        decision["message"] = PREFIX + (message or "denied by policy")
    return dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                         "decision": decision}}) + "\n"  # fmt: skip


def error_answer(event: str | None, reason: str) -> str:
    """A deny for a payload or failure that produced no decision, in the shape of ``event``."""
    if event == "PreToolUse":
        return pre_tool_use("deny", reason)
    if event == "PermissionRequest":
        return permission_request("deny", reason)
    return dumps({"decision": "block", "reason": PREFIX + reason}) + "\n"
