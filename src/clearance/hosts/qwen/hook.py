"""``clearance hook qwen``: Qwen Code's ``PreToolUse`` command hook (Claude Code's format).

Qwen Code sends Claude Code's hook payload with its own tool names (``run_shell_command``,
``read_file``, ``write_file``, ``edit``, ``glob``, ``grep_search``, ``list_directory``,
``mcp__server__tool``) and reads ``hookSpecificOutput.permissionDecision`` (``allow``, ``deny``,
``ask``) with ``permissionDecisionReason``. Exit 2 with a reason on stderr blocks: every failure
of clearance answers that way.
"""

from __future__ import annotations

from clearance.hosts.claude_code.response import pre_tool_use
from clearance.hosts.command_hook import (
    PRE_TOOL,
    Adapter,
    HookEvent,
    Reply,
    headless_reason,
    main,
    stderr_block,
)
from clearance.hosts.gemini.hook import GEMINI_TOOLS, gemini_style_read
from clearance.hosts.tools import ToolSpec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["QwenAdapter", "run"]

QWEN_TOOLS = {
    **GEMINI_TOOLS,
    "task": ToolSpec("Task"),
    "skill": ToolSpec("Skill"),
}


class QwenAdapter(Adapter):
    name = "qwen"
    key = "qwen"
    internal = frozenset({"todo_write", "exit_plan_mode"})

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        call, host_event = gemini_style_read(data, "PreToolUse", QWEN_TOOLS)
        return HookEvent(PRE_TOOL, host_event, call, headless_reason(env))

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        return Reply() if action == "silent" else Reply(pre_tool_use(action, reason))

    def failure(self, raw: bytes, reason: str) -> Reply:
        return stderr_block(reason)


def run() -> int:
    return main(QwenAdapter())
