"""One rule, ``(surface, pattern, action)`` with where it came from, and how actions rank:
the values :mod:`clearance.policy.rule` indexes and evaluates."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal

    Action = Literal["allow", "ask", "deny"]
    Origin = Literal[
        "default", "builtin", "global", "project", "agent", "project_agent", "inline",
        "session", "yolo", "fail_closed", "protected",
    ]  # fmt: skip

__all__ = ["ACTIONS", "RANK", "Rule", "most_restrictive"]

ACTIONS = ("allow", "ask", "deny")
RANK = {"allow": 0, "ask": 1, "deny": 2}
_set = object.__setattr__


def most_restrictive(actions: Iterable[str]) -> str:
    """deny > ask > allow; ``allow`` for no actions."""
    best = "allow"
    for action in actions:
        if RANK[action] > RANK[best]:
            best = action
            if best == "deny":
                break
    return best


class Rule(Frozen):
    """``(surface, pattern, action)`` with where it came from.

    ``origin`` is the scope (or rewrite) that produced the rule; ``source`` names the file and
    line it was written on, when there is one; ``reason`` is shown to the agent on a deny.
    """

    __slots__ = ("action", "origin", "pattern", "reason", "source", "surface")
    surface: str
    pattern: str
    action: Action
    origin: Origin
    reason: str | None
    source: str | None

    def __init__(
        self,
        surface: str,
        pattern: str,
        action: Action,
        origin: Origin,
        reason: str | None = None,
        source: str | None = None,
    ) -> None:
        _set(self, "surface", surface)
        _set(self, "pattern", pattern)
        _set(self, "action", action)
        _set(self, "origin", origin)
        _set(self, "reason", reason)
        _set(self, "source", source)

    @property
    def universal(self) -> bool:
        """The universal fallback (``"*": ...``), which some gates do not listen to."""
        return self.surface == "*"

    def as_json(self) -> dict[str, str | None]:
        """``{"surface", "pattern", "origin", "source"}``: how logs and ``--json`` show a rule."""
        return {
            "surface": self.surface,
            "pattern": self.pattern,
            "origin": self.origin,
            "source": self.source,
        }

    def describe(self) -> str:
        where = f" at {self.source}" if self.source else ""
        if self.universal:
            return f'universal "*": {self.action} ({self.origin}{where})'
        return f'{self.surface} "{self.pattern}": {self.action} ({self.origin}{where})'
