"""What a decision says: the action, why, which rule, and every gate's own result."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.intent.call import ToolCall
    from clearance.intent.path import PathFact
    from clearance.policy.rule import Rule
    from clearance.policy.rule_type import Action

__all__ = ["Decision", "GateResult", "UnitFact"]

_set = object.__setattr__
_new = object.__new__


class _GateResultFields:
    """The fields of a :class:`GateResult`, assignable only while one is being built."""

    __slots__ = (
        "action", "gate", "message", "rule", "sentinel", "surface", "unit", "value", "values",
    )  # fmt: skip
    gate: str
    surface: str
    value: str
    action: Action
    rule: Rule | None
    message: str
    sentinel: str | None
    unit: str | None
    values: tuple[str, ...]


class GateResult(_GateResultFields, Frozen):
    """One gate's answer for one value.

    ``gate`` is the gate's name (``tool``, ``mcp``, ``skill``, ``bash``, ``path``,
    ``external_directory``, ``gate_error``); ``surface`` the surface consulted; ``value`` the
    value matched; ``rule`` the deciding rule (``None`` for synthetic results such as the fail-
    closed sentinels, whose ``sentinel`` names them); ``message`` a line for humans and agents.
    """

    __slots__ = ()

    def __new__(
        cls,
        gate: str,
        surface: str,
        value: str,
        action: Action,
        rule: Rule | None,
        message: str,
        sentinel: str | None = None,
        unit: str | None = None,
        values: tuple[str, ...] = (),
    ) -> GateResult:
        self = _new(_GateResultFields)  # built on its fields class, then sealed (ADR 0001)
        self.gate = gate
        self.surface = surface
        self.value = value
        self.action = action
        self.rule = rule
        self.message = message
        self.sentinel = sentinel
        self.unit = unit
        self.values = tuple(values) or (value,)
        self.__class__ = cls
        return self  # type: ignore[return-value]

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


class _UnitFactFields:
    """The fields of a :class:`UnitFact`, assignable only while one is being built."""

    __slots__ = ("action", "context", "rule", "sentinel", "text", "wrapper")
    text: str
    context: str
    wrapper: str | None
    sentinel: str | None
    action: Action
    rule: Rule | None


class UnitFact(_UnitFactFields, Frozen):
    """One command unit of a bash call, as shown to users (``check --json`` ``units``)."""

    __slots__ = ()

    def __new__(
        cls,
        text: str,
        context: str = "",
        wrapper: str | None = None,
        sentinel: str | None = None,
        action: Action = "ask",
        rule: Rule | None = None,
    ) -> UnitFact:
        self = _new(_UnitFactFields)  # built on its fields class, then sealed (ADR 0001)
        self.text = text
        self.context = context
        self.wrapper = wrapper
        self.sentinel = sentinel
        self.action = action
        self.rule = rule
        self.__class__ = cls
        return self  # type: ignore[return-value]


class _DecisionFields:
    """The fields of a :class:`Decision`, assignable only while one is being built."""

    __slots__ = ("action", "call", "gates", "paths", "reason", "rule", "units")
    action: Action
    reason: str
    rule: Rule | None
    gates: tuple[GateResult, ...]
    call: ToolCall
    units: tuple[UnitFact, ...]
    paths: tuple[PathFact, ...]


class Decision(_DecisionFields, Frozen):
    """The answer for one call: ``action`` is ``allow``, ``ask`` or ``deny``.

    ``rule`` is the rule that decided (for a deny, the rule that denied; for an ask, the first
    asking gate's), ``reason`` a sentence an agent can act on, ``gates`` every gate's result.
    What a human could grant for an ask is not part of it: ``clearance.decide.offer`` derives it
    for the readers that show it.
    """

    __slots__ = ()

    def __new__(
        cls,
        action: Action,
        reason: str,
        rule: Rule | None,
        gates: tuple[GateResult, ...],
        call: ToolCall,
        units: tuple[UnitFact, ...] = (),
        paths: tuple[PathFact, ...] = (),
    ) -> Decision:
        self = _new(_DecisionFields)  # built on its fields class, then sealed (ADR 0001)
        self.action = action
        self.reason = reason
        self.rule = rule
        self.gates = gates
        self.call = call
        self.units = units
        self.paths = paths
        self.__class__ = cls
        return self  # type: ignore[return-value]

    @property
    def deciding(self) -> GateResult | None:
        """The gate result that decided."""
        for gate in self.gates:
            if gate.action == self.action:
                return gate
        return None
