"""An event on the bus: ``ui_prompt`` (a human is about to be asked) or ``decision``.

``ui_prompt`` is emitted exactly when a human is about to be asked — never for a policy, session,
yolo or authorizer resolution, nor by a process with no human. Its payload: ``requestId``,
``tool``, ``surface``, ``value``, ``agent``, ``session``, ``cwd``, ``forwarding`` (null for a
local ask; for a forwarded one the requester's provenance, ``Requester.as_json``). ``decision``
is emitted for every resolution: ``requestId``, ``tool``, ``surface``, ``value``, ``agent``,
``session``, ``cwd``, ``decision`` (``allow``/``deny``, or ``ask`` when a host's own dialog
takes over), ``reason``, ``resolution``, ``decidedBy``, ``rule``; a serving session's adds
``result``, the same word (docs/notifications.md).
"""

from __future__ import annotations

import time

from clearance._frozen import Frozen
from clearance.audit.event_kind import DECISION, EVENT_KINDS, UI_PROMPT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Literal

    EventKind = Literal["ui_prompt", "decision"]

__all__ = ["DECISION", "EVENT_KINDS", "UI_PROMPT", "Event"]

_set = object.__setattr__


class Event(Frozen):
    """One event: its kind, its payload, and when it happened (seconds since the epoch)."""

    __slots__ = ("kind", "payload", "timestamp")
    kind: EventKind
    payload: Mapping[str, object]
    timestamp: float

    def __init__(
        self, kind: EventKind, payload: Mapping[str, object], *, timestamp: float | None = None
    ) -> None:
        if kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {kind!r} (allowed: {', '.join(EVENT_KINDS)})")
        _set(self, "kind", kind)
        _set(self, "payload", dict(payload))
        _set(self, "timestamp", time.time() if timestamp is None else timestamp)

    def to_json(self, *, max_width: int = 1000) -> str:
        """``{"kind", "timestamp", "payload"}`` as JSON, payload capped and redacted."""
        from clearance._json import encode_json_types
        from clearance.audit.log import iso_timestamp
        from clearance.audit.redaction import redact_fields

        payload = redact_fields(self.payload, max_width=max_width)
        return encode_json_types(
            {"kind": self.kind, "timestamp": iso_timestamp(self.timestamp), "payload": payload}
        )

    def summary(self) -> str:
        """One human line, e.g. ``ask: bash git push origin (agent reviewer)``."""
        from clearance.audit.redaction import redact_fields

        payload = redact_fields(self.payload, max_width=200)
        what = payload.get("value") or payload.get("tool") or payload.get("surface") or "?"
        surface = payload.get("surface") or payload.get("tool")
        head = (
            "ask"
            if self.kind == UI_PROMPT
            else str(payload.get("decision") or payload.get("result") or "decision")
        )
        text = f"{head}: {surface} {what}" if surface and surface != what else f"{head}: {what}"
        agent = payload.get("agent")
        return f"{text} (agent {agent})" if agent else text
