"""What a decision says: the action, why, which rule, and every gate's own result."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.intent.call import ToolCall
    from clearance.policy.rule import Rule

__all__ = ["Decision", "GateResult", "UnitFact"]

_set = object.__setattr__


class GateResult(Frozen):
    """One gate's answer for one value.

    ``gate`` is the gate's name (``tool``, ``mcp``, ``skill``, ``bash``, ``path``,
    ``external_directory``, ``gate_error``); ``surface`` the surface consulted; ``value`` the
    value matched; ``rule`` the deciding rule (``None`` for synthetic results such as the fail-
    closed sentinels, whose ``sentinel`` names them); ``message`` a line for humans and agents.
    """

    __slots__ = (
        "action", "gate", "message", "rule", "sentinel", "surface", "unit", "value", "values",
    )  # fmt: skip
    gate: str
    surface: str
    value: str
    action: str
    rule: Rule | None
    message: str
    sentinel: str | None
    unit: str | None
    values: tuple[str, ...]

    def __init__(
        self,
        gate: str,
        surface: str,
        value: str,
        action: str,
        rule: Rule | None,
        message: str,
        sentinel: str | None = None,
        unit: str | None = None,
        values: tuple[str, ...] = (),
    ) -> None:
        _set(self, "gate", gate)
        _set(self, "surface", surface)
        _set(self, "value", value)
        _set(self, "action", action)
        _set(self, "rule", rule)
        _set(self, "message", message)
        _set(self, "sentinel", sentinel)
        _set(self, "unit", unit)
        _set(self, "values", tuple(values) or (value,))

    def as_json(self) -> dict[str, Any]:
        return {
            "gate": self.gate,
            "surface": self.surface,
            "value": self.value,
            "action": self.action,
            "rule": None if self.rule is None else self.rule.as_json(),
            "sentinel": self.sentinel,
            "message": self.message,
        }


class UnitFact(Frozen):
    """One command unit of a bash call, as shown to users (``check --json`` ``units``)."""

    __slots__ = ("action", "context", "rule", "sentinel", "text", "wrapper")
    text: str
    context: str
    wrapper: str | None
    sentinel: str | None
    action: str
    rule: Rule | None

    def __init__(
        self,
        text: str,
        context: str = "",
        wrapper: str | None = None,
        sentinel: str | None = None,
        action: str = "ask",
        rule: Rule | None = None,
    ) -> None:
        _set(self, "text", text)
        _set(self, "context", context)
        _set(self, "wrapper", wrapper)
        _set(self, "sentinel", sentinel)
        _set(self, "action", action)
        _set(self, "rule", rule)


class Decision(Frozen):
    """The answer for one call: ``action`` is ``allow``, ``ask`` or ``deny``.

    ``rule`` is the rule that decided (for a deny, the rule that denied; for an ask, the first
    asking gate's), ``reason`` a sentence an agent can act on, ``gates`` every gate's result.
    """

    __slots__ = (
        "_suggestions", "action", "call", "gates", "paths", "reason", "rule", "units",
    )  # fmt: skip
    action: str
    reason: str
    rule: Rule | None
    gates: tuple[GateResult, ...]
    call: ToolCall
    units: tuple[UnitFact, ...]
    paths: tuple[Any, ...]
    _suggestions: tuple[Any, ...] | None

    def __init__(
        self,
        action: str,
        reason: str,
        rule: Rule | None,
        gates: tuple[GateResult, ...],
        call: ToolCall,
        units: tuple[UnitFact, ...] = (),
        paths: tuple[Any, ...] = (),
        suggestions: tuple[Any, ...] | None = None,
    ) -> None:
        """``suggestions`` default to the session offers of every asking gate, computed when
        first read (``clearance.decide.offer``)."""
        _set(self, "action", action)
        _set(self, "reason", reason)
        _set(self, "rule", rule)
        _set(self, "gates", gates)
        _set(self, "call", call)
        _set(self, "units", units)
        _set(self, "paths", paths)
        _set(self, "_suggestions", suggestions)

    @property
    def suggestions(self) -> tuple[Any, ...]:
        """Session-approval options for an ask (empty for allow and deny)."""
        found = self._suggestions
        if found is None:
            found = ()
            if self.action == "ask":
                from clearance.decide.offer import flatten, offers

                found = flatten(offers(self))
            _set(self, "_suggestions", found)
        return found

    @property
    def deciding(self) -> GateResult | None:
        """The gate result that decided."""
        for gate in self.gates:
            if gate.action == self.action:
                return gate
        return None
