"""``clearance hook opencode|pi``: the process the shipped OpenCode plugin and pi extension call.

The plugin sends one JSON object, ``{tool, args, cwd, sessionID, agent, ui}`` (``ui``: whether
the host can show a dialog), and reads ``{"decision": "allow" | "deny" | "ask", "reason"}``; an
ask also carries ``choices`` (``[{label, choice}]``, the options of clearance's own dialog).
After the user chose, the plugin sends the same call again with ``answer`` set to the choice
(``once``, ``session``, ``session_both``, ``deny``) and the option's one-time ``token``:
clearance resolves it with that answer, records "for this session" grants under ``sessionID``
and logs it. The token lives in clearance's state, which agents cannot read, so an agent that
runs ``clearance hook`` itself cannot approve its own ask. A
plugin treats anything else (a non-zero exit, no JSON, a timeout) as a deny, so clearance that
cannot run blocks. ``ask`` is answered only when the host has a dialog (pi's ``ctx.ui``); without
one the ask is forwarded to a serving session, else denied with a reason.
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
    call_fields,
    decision_reply,
    headless,
    json_block,
    text_field,
)
from clearance.hosts.tools import ToolSpec, mcp_target, patch_call, to_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["PluginAdapter"]

_ANSWERS = ("once", "session", "session_both", "deny")


class PluginAdapter(Adapter):
    """A plugin host: ``tools`` maps its tool names; ``mcp_separator`` splits an MCP tool name
    (``server_tool``) when the host names MCP tools that way."""

    tools: dict[str, ToolSpec] = {}  # noqa: RUF012 (read-only per subclass)
    patches: dict[str, str] = {}  # noqa: RUF012 (patch tools: the argument with the patch)
    no_dialog = ""

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        tool, cwd, arguments, session, agent = call_fields(
            data, "tool", "args", "sessionID", ("agent",), arguments_name="the arguments"
        )
        patch = self.patches.get(tool)
        if patch is not None:
            call = patch_call(arguments.get(patch), cwd, session=session, agent=agent)
        else:
            call = to_call(self.tools, tool, arguments, cwd, session=session, agent=agent,
                           mcp=mcp_target(tool))  # fmt: skip
        ui = data.get("ui")
        if ui is not None and not isinstance(ui, bool):
            raise PayloadError("field 'ui' must be true or false")
        answer = data.get("answer")
        if answer is not None and answer not in _ANSWERS:
            raise PayloadError(f"field 'answer' must be one of {', '.join(_ANSWERS)}")
        forced = headless(env)
        nobody = None
        if forced or not ui:
            nobody = self.no_dialog or f"{self.name} has no dialog in this run"
        token = text_field(data, "token")
        return HookEvent(PRE_TOOL, "tool_call", call, nobody, answer, token)

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        return decision_reply("allow" if action == "silent" else action, reason)

    def encode_ask(self, event: HookEvent, reason: str, choices: list[dict[str, str]]) -> Reply:
        token = choices[0].get("token") if choices else None
        shown = [{"label": c["label"], "choice": c["choice"]} for c in choices]
        out = {"decision": "ask", "reason": PREFIX + reason, "choices": shown, "token": token}
        return Reply(dumps(out) + "\n")

    def failure(self, raw: bytes, reason: str) -> Reply:
        return json_block({"decision": "deny", "reason": PREFIX + reason}, reason)
