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


def _setters(cls: type, names: str) -> tuple[Any, ...]:
    """The slot descriptors' own setters for ``names``: a field written through its descriptor
    skips the attribute lookup ``object.__setattr__`` makes, about half of a frozen value's
    construction cost on the decision path."""
    return tuple(cls.__dict__[name].__set__ for name in names.split())


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
        s_gate, s_surface, s_value, s_action, s_rule, s_message, s_sentinel, s_unit, s_values = (
            _SET_RESULT
        )
        s_gate(self, gate)
        s_surface(self, surface)
        s_value(self, value)
        s_action(self, action)
        s_rule(self, rule)
        s_message(self, message)
        s_sentinel(self, sentinel)
        s_unit(self, unit)
        s_values(self, tuple(values) or (value,))

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
        s_text, s_context, s_wrapper, s_sentinel, s_action, s_rule = _SET_UNIT
        s_text(self, text)
        s_context(self, context)
        s_wrapper(self, wrapper)
        s_sentinel(self, sentinel)
        s_action(self, action)
        s_rule(self, rule)


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
        s_action, s_reason, s_rule, s_gates, s_call, s_units, s_paths, s_suggestions = _SET_DECISION
        s_action(self, action)
        s_reason(self, reason)
        s_rule(self, rule)
        s_gates(self, gates)
        s_call(self, call)
        s_units(self, units)
        s_paths(self, paths)
        s_suggestions(self, suggestions)

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


_SET_RESULT = _setters(GateResult, "gate surface value action rule message sentinel unit values")
_SET_UNIT = _setters(UnitFact, "text context wrapper sentinel action rule")
_SET_DECISION = _setters(Decision, "action reason rule gates call units paths _suggestions")
