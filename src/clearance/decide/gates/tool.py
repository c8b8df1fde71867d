"""The per-tool gate: a tool's own surface (``webfetch``, ``task``, ``mcp``, ``skill``, …).

Path-bearing tools are matched by their path aliases (the path gates add the cross-cutting
``path`` and ``external_directory`` answers); MCP calls by every target name; skills by name.
"""

from __future__ import annotations

from clearance.decide.decision import GateResult
from clearance.decide.gates._message import gate_message
from clearance.intent.target import mcp_targets, skill_name, tool_value
from clearance.policy.rule import RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.call import ToolCall
    from clearance.policy.rule import RuleSet

__all__ = ["tool_gate"]


def tool_gate(
    rules: RuleSet,
    call: ToolCall,
    *,
    path_values: Sequence[str] | None = None,
    servers: Sequence[str] = (),
) -> GateResult:
    """``servers``: the configured MCP server names, for an MCP call."""
    kind = call.kind
    if kind == "mcp":
        values: Sequence[str] = mcp_targets(call, servers)
        what = f'mcp tool "{values[0]}"'
    elif kind == "skill":
        values = (skill_name(call),)
        what = f'skill "{values[0]}"'
    elif path_values is not None:
        values = tuple(path_values) or ("*",)
        what = f'{kind} of "{values[0]}"'
    else:
        values = (tool_value(call),)
        what = f'tool "{kind}"' if values[0] == "*" else f'{kind} "{values[0]}"'
    rule = rules.evaluate(kind, values)
    result = GateResult(kind if kind in ("mcp", "skill") else "tool", kind, values[0],
                        rule.action, rule, gate_message(rule.action, what, rule),
                        values=tuple(values))  # fmt: skip
    if call.tool != kind and call.tool in rules.surfaces():
        # A rule written under the host's own name (e.g. "mcp__github__delete") applies too.
        own = rules.evaluate(call.tool, ("*",))
        if RANK[own.action] > RANK[result.action]:
            what = f'tool "{call.tool}"'
            result = GateResult("tool", call.tool, "*", own.action, own,
                                gate_message(own.action, what, own))  # fmt: skip
    return result
