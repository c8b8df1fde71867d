"""An ask (a decision that needs someone to answer it) and a verdict (the answer).

An :class:`Ask` carries the decision and who is asking; when it was forwarded from a headless
agent, ``requester`` holds that agent's provenance as data (agent, session, cwd, tool, surface,
value, and the host it runs in), shown to the human and carried in the ``ui_prompt`` event.
"""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    from clearance.decide.decision import Decision
    from clearance.decide.grant import Grant

    VerdictAction = Literal["allow", "deny", "defer"]

__all__ = ["Ask", "Requester", "Verdict"]


_set = object.__setattr__


class Requester(Frozen):
    """Who asks, when it is not the session the human is in (a forwarded ask)."""

    __slots__ = (
        "agent", "agent_id", "cwd", "host", "machine", "session", "surface", "tool", "value",
    )  # fmt: skip
    agent: str | None
    session: str | None
    cwd: str | None
    tool: str | None
    surface: str | None
    value: str | None
    host: str | None
    agent_id: str | None
    machine: str | None

    def __init__(
        self,
        agent: str | None = None,
        session: str | None = None,
        cwd: str | None = None,
        tool: str | None = None,
        surface: str | None = None,
        value: str | None = None,
        host: str | None = None,
        agent_id: str | None = None,
        machine: str | None = None,
    ) -> None:
        for name, item in (("agent", agent), ("session", session), ("cwd", cwd), ("tool", tool),
                           ("surface", surface), ("value", value), ("host", host),
                           ("agent_id", agent_id), ("machine", machine)):  # fmt: skip
            _set(self, name, item)

    def as_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self._fields}

    def describe(self) -> str:
        parts = ["(Subagent)" if self.agent or self.agent_id else "(Headless agent)"]
        parts.append(f"host {self.host}" if self.host else "unknown host")
        if self.agent:
            parts.append(f"agent {self.agent}")
        if self.agent_id:
            parts.append(f"id {self.agent_id}")
        if self.session:
            parts.append(f"session {self.session}")
        if self.cwd:
            parts.append(self.cwd)
        if self.machine:
            parts.append(f"on {self.machine}")
        return " · ".join(parts)


class Ask(Frozen):
    """A decision that asked, with its request id and (for forwarded asks) the requester."""

    __slots__ = ("decision", "request_id", "requester")
    decision: Decision
    request_id: str
    requester: Requester | None

    def __init__(
        self, decision: Decision, request_id: str, requester: Requester | None = None
    ) -> None:
        _set(self, "decision", decision)
        _set(self, "request_id", request_id)
        _set(self, "requester", requester)

    @property
    def surfaces(self) -> tuple[str, ...]:
        """The surfaces of every gate that asked."""
        return tuple(dict.fromkeys(g.surface for g in self.decision.gates if g.action == "ask"))


class Verdict(Frozen):
    """An answer: ``allow``, ``deny`` or (chain links only) ``defer``.

    ``decided_by`` is one of ``user``, ``authorizer``, ``unavailable``, ``gate_error``,
    ``forwarded``, ``rule``, ``yolo``, ``session_approval``; ``resolution`` the finer word
    (``user_approved``, ``user_approved_for_session``, ``user_denied``,
    ``confirmation_unavailable``, …); ``grants`` what to record for the session.
    """

    __slots__ = ("action", "decided_by", "grants", "reason", "resolution")
    action: VerdictAction
    reason: str | None
    decided_by: str
    resolution: str
    grants: tuple[Grant, ...]

    def __init__(
        self,
        action: VerdictAction,
        reason: str | None = None,
        *,
        decided_by: str = "user",
        resolution: str = "",
        grants: tuple[Grant, ...] = (),
    ) -> None:
        _set(self, "action", action)
        _set(self, "reason", reason)
        _set(self, "decided_by", decided_by)
        _set(self, "resolution", resolution or {"allow": "approved", "deny": "denied",
                                                "defer": "deferred"}[action])  # fmt: skip
        _set(self, "grants", tuple(grants))

    @classmethod
    def defer(cls) -> Verdict:
        return cls("defer", decided_by="authorizer", resolution="deferred")
