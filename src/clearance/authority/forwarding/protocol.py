"""The forwarding protocol: a request (child → serving session) and a response (back).

Both are JSON objects with ``"version": 1`` and a ``"kind"``. Readers are strict allowlists: a
file missing a required field, with a field of the wrong type, a foreign version or an id that is
not ours raises :class:`ProtocolError` and is ignored by the caller (logged, never trusted).

* A request carries the requester's facts as data — its provenance (agent, session, cwd, tool,
  surface, value), and every gate that asked on its side with the surface and the match values it
  used — so the serving session resolves them verbatim, without re-deriving paths against its own
  cwd (docs/forwarding.md, "What the serving session decides, and how"). The requester's
  ``host`` names what it runs in (the names are the hosts layer's, ``hosts.names.HOSTS``): a
  lowercase name of at most 40 characters. A request from a clearance that predates it has none
  (shown as an unknown host); the field is optional, so the protocol stays ``"version": 1`` and
  a serving session of that age ignores it. ``machine`` names the machine the requester runs
  on (its host name, optional in the same way): the web console shows it on every ask.
  ``grants`` are the session patterns the requester would record ("this subagent only"); ``via``
  the relaying sessions it passed through.
* A response echoes the request's ``id`` and ``nonce``: a child accepts only a response to the
  request it sent (on the same connection; the nonce is 128 random bits and never written to
  disk). A request sent again after a reconnect carries the same id and nonce.

It does not own how messages travel (:mod:`~clearance.authority.forwarding.transport`).
"""

from __future__ import annotations

import os

from clearance._frozen import Frozen
from clearance.authority.ask import Requester

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.decide.grant import Grant

__all__ = [
    "STATES",
    "VERSION",
    "GateFact",
    "ProtocolError",
    "Request",
    "Response",
    "is_host",
    "is_id",
    "is_machine",
    "new_id",
    "new_nonce",
]

VERSION = 1
STATES = ("approved", "approved_for_session", "denied", "denied_with_reason")
_HEX = frozenset("0123456789abcdef")
_HOST = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-.")
_MACHINE = _HOST | frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_set = object.__setattr__


class ProtocolError(ValueError):
    """A request or response that is not a valid message of this protocol."""


def new_id() -> str:
    """``req-`` and 32 hex digits (128 bits from ``os.urandom``): unguessable, file-name safe."""
    return "req-" + os.urandom(16).hex()


def new_nonce() -> str:
    return os.urandom(16).hex()


def is_id(text: object) -> bool:
    return (
        isinstance(text, str) and len(text) == 36 and text[:4] == "req-" and set(text[4:]) <= _HEX
    )


def is_host(text: object) -> bool:
    """A host name as a request carries it: 1–40 of ``a-z``, ``0-9``, ``-`` and ``.``."""
    return isinstance(text, str) and 0 < len(text) <= 40 and set(text) <= _HOST and text[0] != "-"


def is_machine(text: object) -> bool:
    """A machine's name as a request carries it (``os.uname().nodename``): 1–253 of ASCII
    letters, digits, ``-``, ``_`` and ``.``."""
    return isinstance(text, str) and 0 < len(text) <= 253 and set(text) <= _MACHINE


def _str(data: dict[str, Any], key: str, *, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not optional and not value):
        raise ProtocolError(f"{key!r} must be a non-empty string")
    return value


def _num(data: dict[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ProtocolError(f"{key!r} must be a number")
    return float(value)


def _strings(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProtocolError(f"{key!r} must be a list of strings")
    return tuple(value)


def _head(data: object, kind: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ProtocolError("not a JSON object")
    if data.get("version") != VERSION:
        raise ProtocolError(f"unsupported version {data.get('version')!r}")
    if data.get("kind") != kind:
        raise ProtocolError(f"not a {kind}")
    if not is_id(data.get("id")):
        raise ProtocolError("'id' is not a request id")
    nonce = data.get("nonce")
    if not isinstance(nonce, str) or len(nonce) != 32 or not set(nonce) <= _HEX:
        raise ProtocolError("'nonce' is missing or malformed")
    return data


class GateFact(Frozen):
    """One gate that asked on the requester's side: the facts it matched, verbatim."""

    __slots__ = ("gate", "message", "sentinel", "surface", "unit", "value", "values")
    gate: str
    surface: str
    value: str
    values: tuple[str, ...]
    sentinel: str | None
    unit: str | None
    message: str

    def __init__(
        self,
        gate: str,
        surface: str,
        value: str,
        values: tuple[str, ...] = (),
        sentinel: str | None = None,
        unit: str | None = None,
        message: str = "",
    ) -> None:
        _set(self, "gate", gate)
        _set(self, "surface", surface)
        _set(self, "value", value)
        _set(self, "values", tuple(values) or (value,))
        _set(self, "sentinel", sentinel)
        _set(self, "unit", unit)
        _set(self, "message", message)

    def as_json(self) -> dict[str, Any]:
        return {name: list(v) if name == "values" else v
                for name in self._fields for v in (getattr(self, name),)}  # fmt: skip

    @classmethod
    def from_json(cls, data: object) -> GateFact:
        if not isinstance(data, dict):
            raise ProtocolError("a gate must be an object")
        values = _strings(data, "values")
        if not values:
            raise ProtocolError("a gate needs match values")
        return cls(_str(data, "gate"), _str(data, "surface"), _str(data, "value", optional=True)
                   or values[0], values, _str(data, "sentinel", optional=True),
                   _str(data, "unit", optional=True),
                   _str(data, "message", optional=True) or "")  # fmt: skip


class Request(Frozen):
    """An ask forwarded to ``target`` (a serving session id)."""

    __slots__ = (
        "ask_id", "created", "expires", "gates", "grants", "id", "nonce", "pid", "reason",
        "requester", "target", "via",
    )  # fmt: skip
    id: str
    nonce: str
    target: str
    created: float
    expires: float
    requester: Requester
    reason: str
    gates: tuple[GateFact, ...]
    grants: tuple[Grant, ...]
    via: tuple[str, ...]
    ask_id: str | None
    pid: int

    def __init__(self, **fields: Any) -> None:
        defaults = {"via": (), "ask_id": None, "pid": os.getpid(), "grants": (), "gates": ()}
        for name in self._fields:
            _set(self, name, fields[name] if name in fields else defaults[name])

    def as_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "kind": "request",
            "id": self.id,
            "nonce": self.nonce,
            "target": self.target,
            "created": self.created,
            "expires": self.expires,
            "askId": self.ask_id,
            "pid": self.pid,
            "requester": self.requester.as_json(),
            "reason": self.reason,
            "gates": [g.as_json() for g in self.gates],
            "grants": [{"surface": g.surface, "pattern": g.pattern} for g in self.grants],
            "via": list(self.via),
        }

    @classmethod
    def from_json(cls, data: object) -> Request:
        head = _head(data, "request")
        who = head.get("requester")
        if not isinstance(who, dict):
            raise ProtocolError("'requester' must be an object")
        requester = Requester(**{k: _str(who, k, optional=True) for k in Requester._fields})
        if not requester.session:
            raise ProtocolError("the requester has no session id")
        if requester.host is not None and not is_host(requester.host):
            raise ProtocolError("'host' must be a lowercase name (letters, digits, '-', '.')")
        if requester.machine is not None and not is_machine(requester.machine):
            raise ProtocolError("'machine' must be a host name (letters, digits, '-', '_', '.')")
        gates = head.get("gates", [])
        grants = head.get("grants", [])
        if not isinstance(gates, list) or not isinstance(grants, list):
            raise ProtocolError("'gates' and 'grants' must be lists")
        pid = head.get("pid")
        return cls(
            id=head["id"],
            nonce=head["nonce"],
            target=_str(head, "target"),
            created=_num(head, "created"),
            expires=_num(head, "expires"),
            requester=requester,
            reason=_str(head, "reason", optional=True) or "",
            gates=tuple(GateFact.from_json(g) for g in gates),
            grants=tuple(_grant(g) for g in grants),
            via=_strings(head, "via"),
            ask_id=_str(head, "askId", optional=True),
            pid=pid if isinstance(pid, int) and not isinstance(pid, bool) else 0,
        )


def _grant(data: object) -> Grant:
    from clearance.decide.grant import Grant

    if not isinstance(data, dict):
        raise ProtocolError("a grant must be an object")
    return Grant(_str(data, "surface"), _str(data, "pattern"))


class Response(Frozen):
    """The serving session's answer to request ``id``, echoing its ``nonce``.

    ``state`` is ``approved``, ``approved_for_session`` (the requester records its grants: "this
    subagent only"), ``denied`` or ``denied_with_reason``; ``decided_by`` and ``resolution`` say
    how (``rule``/``policy_allow``, ``user``/``user_approved``, ``unavailable``/…).
    """

    __slots__ = (
        "decided_by", "id", "nonce", "reason", "resolution", "responded", "responder", "state",
    )  # fmt: skip
    id: str
    nonce: str
    state: str
    reason: str
    responder: str
    responded: float
    decided_by: str
    resolution: str

    def __init__(self, **fields: Any) -> None:
        for name in self._fields:
            _set(self, name, fields[name])
        if self.state not in STATES:
            raise ProtocolError(f"unknown state {self.state!r}")

    @property
    def approved(self) -> bool:
        return self.state in ("approved", "approved_for_session")

    def as_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "kind": "response",
            "id": self.id,
            "nonce": self.nonce,
            "approved": self.approved,
            "state": self.state,
            "reason": self.reason,
            "responder": self.responder,
            "responded": self.responded,
            "decidedBy": self.decided_by,
            "resolution": self.resolution,
        }

    @classmethod
    def from_json(cls, data: object) -> Response:
        head = _head(data, "response")
        response = cls(
            id=head["id"],
            nonce=head["nonce"],
            state=_str(head, "state"),
            reason=_str(head, "reason", optional=True) or "",
            responder=_str(head, "responder"),
            responded=_num(head, "responded"),
            decided_by=_str(head, "decidedBy", optional=True) or "forwarded",
            resolution=_str(head, "resolution", optional=True) or "",
        )
        if head.get("approved") is not response.approved:
            raise ProtocolError("'approved' disagrees with 'state'")
        return response
