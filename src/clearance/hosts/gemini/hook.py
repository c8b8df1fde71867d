"""``clearance hook gemini``: Gemini CLI's ``BeforeTool`` command hook.

Gemini CLI sends ``{session_id, transcript_path, cwd, hook_event_name: "BeforeTool", timestamp,
tool_name, tool_input}``, and for an MCP tool ``mcp_context`` (``server_name``, ``tool_name``).
The answer is ``{"decision": "allow" | "deny" | "ask", "reason": …}`` on stdout. Exit 1 (or a
timeout) lets the call run; exit 2 with text on stderr blocks: every failure of clearance
answers that way. A hook's allow does not get past Gemini's own policy engine, so allows that
must run without a prompt also need Gemini policy rules (``clearance sync gemini``).
"""

from __future__ import annotations

import os

from clearance.hosts.command_hook import (
    PRE_TOOL,
    Adapter,
    HookEvent,
    PayloadError,
    Reply,
    call_fields,
    decision_reply,
    headless,
    main,
    required_text,
    stderr_block,
)
from clearance.hosts.tools import ToolSpec, mcp_target, to_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["GEMINI_TOOLS", "GeminiAdapter", "gemini_style_read", "many_files", "run"]

# Gemini CLI's tool names (Qwen Code, a fork, shares most of them).
GEMINI_TOOLS = {
    "run_shell_command": ToolSpec("Bash", directory="dir_path"),
    "read_file": ToolSpec("Read", {"absolute_path": "file_path"}),
    "read_many_files": ToolSpec("Read", {"paths": "file_path"}),
    "write_file": ToolSpec("Write"),
    "replace": ToolSpec("Edit"),
    "edit": ToolSpec("Edit"),
    "glob": ToolSpec("Glob", {"dir_path": "path"}),
    "search_file_content": ToolSpec("Grep", {"dir_path": "path", "include": "glob"}),
    "grep_search": ToolSpec("Grep", {"dir_path": "path", "include": "glob"}),
    "list_directory": ToolSpec("LS", {"dir_path": "path"}),
    "web_fetch": ToolSpec("WebFetch"),
    "google_web_search": ToolSpec("WebSearch"),
}


def gemini_style_read(
    data: dict[str, Any], event_name: str, tools: dict[str, ToolSpec]
) -> tuple[Any, str]:
    """(call, hook event) for a Gemini-style payload (Gemini CLI, Qwen Code)."""
    host_event = required_text(data, "hook_event_name")
    if host_event != event_name:
        raise PayloadError(
            f"clearance does not handle the {host_event} event; it hooks {event_name}"
        )
    tool, cwd, arguments, session, agent = call_fields(
        data, "tool_name", "tool_input", "session_id", ("agent_type", "agent_name")
    )
    mcp = mcp_target(tool)
    context = data.get("mcp_context")
    if isinstance(context, dict) and isinstance(context.get("server_name"), str):
        name = context.get("tool_name")
        mcp = (context["server_name"], name if isinstance(name, str) else tool)
    elif mcp is None and tool.startswith("mcp_") and tool not in tools:
        server, _, name = tool[4:].partition("_")
        mcp = (server, name)
    if tool == "read_many_files" and mcp is None:
        arguments = {"file_path": many_files(arguments, cwd)}
    call = to_call(tools, tool, arguments, cwd, session=session, agent=agent, mcp=mcp)
    return call, host_event


def many_files(arguments: dict[str, Any], cwd: str) -> list[str]:
    """Every file ``read_many_files`` may read, as absolute paths. Its entries (``include``,
    or ``paths`` in older versions) are glob patterns matched without regard to case and
    joined to the workspace directory even when absolute (``/x`` reads ``<cwd>/x``); a
    directory is read whole by older versions. So a plain file name stands for itself, for
    its absolute spelling and for each of its case variants beside it; a glob or a directory
    cannot be decided by name and is refused."""
    import posixpath

    from clearance.intent.glob import GLOB_CHARS

    entries: list[str] = []
    for key in ("include", "paths"):
        value = arguments.get(key)
        if value is None:
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise PayloadError(f"the arguments of read_many_files: {key!r} must list paths")
        entries += value
    if not entries:
        raise PayloadError("the read_many_files call names no file ('include' is empty)")
    from clearance.intent.tool_paths import MAX_PATHS

    if len(entries) > MAX_PATHS:
        raise PayloadError(f"read_many_files names more than {MAX_PATHS} entries; split the call")
    found: list[str] = []
    for entry in entries:
        entry = entry.replace("\\", "/")
        if not GLOB_CHARS.isdisjoint(entry) or "]" in entry:
            raise PayloadError(
                f"read_many_files with the pattern {entry!r}: clearance cannot tell which files "
                "a pattern reads; name each file, or use read_file"
            )
        full = posixpath.normpath(posixpath.join(cwd, entry.lstrip("/")))
        if os.path.isdir(full):
            raise PayloadError(
                f"read_many_files of the directory {entry!r}: clearance cannot tell which files "
                "it reads; name each file, or use read_file"
            )
        found += [full] if entry[:1] != "/" else [full, entry]
        folder, name = posixpath.split(full)
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        low = name.lower()
        found += [posixpath.join(folder, n) for n in names if n != name and n.lower() == low]
    return list(dict.fromkeys(found))


def prompt_mode(pid: int | None = None, depth: int = 4) -> bool:
    """Whether an ancestor of this hook is Gemini CLI in prompt mode (``gemini -p``).

    Gemini CLI waits forever for a confirmation no one can give when a hook answers ``ask`` in
    a headless run, and tells its hooks nothing about the mode; so the hook looks at its parent
    processes (Linux ``/proc``). Where that cannot be read, the run counts as attended."""
    pid = os.getppid() if pid is None else pid
    for _ in range(depth):
        if pid <= 1:
            return False
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0") if a]
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read().decode("ascii", "replace")
        except OSError:
            return False
        if any("gemini" in a for a in argv[:3]) and any(
            a in ("-p", "--prompt") or a.startswith("--prompt=") for a in argv
        ):
            return True
        try:
            pid = int(stat.rsplit(")", 1)[1].split()[1])
        except (IndexError, ValueError):
            return False
    return False


class GeminiAdapter(Adapter):
    name = "gemini"
    key = "gemini"
    internal = frozenset(
        {"update_topic", "enter_plan_mode", "exit_plan_mode", "write_todos", "ask_user"}
    )

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        call, host_event = gemini_style_read(data, "BeforeTool", GEMINI_TOOLS)
        forced = headless(env)
        nobody = None
        if forced or (forced is None and prompt_mode()):
            nobody = "this is a headless Gemini CLI run (gemini -p), which cannot ask"
        return HookEvent(PRE_TOOL, host_event, call, nobody)

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        return Reply() if action == "silent" else decision_reply(action, reason)

    def failure(self, raw: bytes, reason: str) -> Reply:
        return stderr_block(reason)


def run() -> int:
    return main(GeminiAdapter())
