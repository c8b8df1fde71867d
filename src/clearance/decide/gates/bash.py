"""The bash gate (interim): the whole command, only when it has no shell syntax at all.

Until the shell analyzer is wired in, a command with any of ``; & | < > $ ` ( ) { }``, quotes,
backslashes or newlines cannot be proven to be one simple command, so it is at least *ask*; an
explicit deny on the whole string still denies.
"""

from __future__ import annotations

from clearance.decide.decision import GateResult, UnitFact
from clearance.decide.gates._message import gate_message
from clearance.intent.target import tool_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.intent.call import ToolCall
    from clearance.policy.rule import RuleSet

__all__ = ["bash_gate"]

_SYNTAX = frozenset(";&|<>$`(){}'\"\\\n")
SENTINEL = "<unanalyzed-shell-syntax>"


def bash_gate(rules: RuleSet, call: ToolCall) -> tuple[list[GateResult], tuple[UnitFact, ...]]:
    command = tool_value(call)
    if command == "*" and not isinstance(call.field("command"), str):
        command = ""
    text = command.strip()
    rule = rules.evaluate("bash", (text,))
    what = f'bash command "{text}"'
    if _SYNTAX.isdisjoint(text) or rule.action == "deny":
        result = GateResult("bash", "bash", text, rule.action, rule,
                            gate_message(rule.action, what, rule), unit=text)  # fmt: skip
        return [result], (UnitFact(text, "", None, None, rule.action, rule),)
    message = (
        f'Needs approval: bash command "{text}" uses shell syntax that is not analyzed yet '
        f"({SENTINEL})"
    )
    result = GateResult("bash", "bash", text, "ask", rule, message, sentinel=SENTINEL, unit=text)
    return [result], (UnitFact(text, "", None, SENTINEL, "ask", rule),)
