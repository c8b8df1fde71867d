"""The transport seam: how a forwarded ask and its answer travel.

Resolution, relays, provenance and grant scopes (``child``, ``server``, ``resolution``, ``relay``,
``scope``) speak to a transport only through these protocols, so another transport (a broker
across machines) can be added beside :mod:`~clearance.authority.forwarding.local` without
touching them (``docs/decisions/0010-socket-transport.md``):

* the child side, :class:`Transport` — ``probe`` (who is serving, and are they alive) and
  ``exchange`` (send one request, return its one answer, or raise saying why none will come);
* the serving side, :class:`Inbound` — ``receive`` (the requests that arrived, each with the
  :class:`Reply` that answers it), between ``open`` and ``close``.

A transport owns framing, liveness (a dead or silent server is noticed within the grace,
reconnecting and re-sending when a server restarts) and the authenticity of what it delivers:
an answer a transport returns comes from the serving session and from nothing else. It does not
decide anything.
"""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, Protocol

    from clearance.authority.forwarding.protocol import Request, Response

    Liveness = Literal["absent", "dead_pid", "stale", "unsafe"]

    class Transport(Protocol):
        """The child side: reaching a serving session."""

        def probe(self, session: str | None = None) -> list[Beacon]:
            """``[beacon]`` of ``session`` when it is serving (else raise :class:`Unreachable`);
            with no session, every session serving now (none: ``[]``)."""
            ...

        def exchange(self, request: Request, until: float) -> Response:
            """Deliver ``request`` to ``request.target`` and return its answer, waiting until
            ``until`` (``time.monotonic()``). Raises :class:`Unreachable` (not serving within
            the grace, or gone silent), :class:`Refused` (the serving session refused the
            request, saying why) or :class:`TimedOut`."""
            ...

    class Reply(Protocol):
        """The way back to one requester."""

        def send(self, message: dict[str, Any]) -> bool:
            """Deliver an answer; False when the requester can no longer get it."""
            ...

        def gone(self) -> bool:
            """Whether the requester stopped waiting (its connection closed)."""
            ...

    class Inbound(Protocol):
        """The serving side: requests arriving for one session."""

        def open(self) -> None:
            """Take the session and start receiving; raise ``OSError`` saying why not."""
            ...

        def close(self) -> None:
            """Stop receiving (what is still connected is dropped)."""
            ...

        def receive(self, timeout: float) -> list[Delivery]:
            """What arrived within ``timeout`` seconds (the transport keeps its connections
            alive meanwhile)."""
            ...


__all__ = ["Beacon", "Delivery", "Refused", "TimedOut", "Unreachable"]

_set = object.__setattr__


class Beacon(Frozen):
    """A live serving session, as it describes itself over a verified channel."""

    __slots__ = ("directory", "pid", "relay", "session", "started")
    session: str
    pid: int
    started: float
    directory: str
    relay: bool

    def __init__(
        self, session: str, pid: int, started: float, directory: str, relay: bool = False
    ) -> None:
        for name, value in (("session", session), ("pid", pid), ("started", started),
                            ("directory", directory), ("relay", relay)):  # fmt: skip
            _set(self, name, value)


class Delivery:
    """One incoming request (or, with ``problem``, one that cannot be read) and its reply."""

    __slots__ = ("peer", "problem", "reply", "request")

    def __init__(
        self, reply: Reply, request: Request | None, problem: str = "", peer: int = 0
    ) -> None:
        self.reply = reply
        self.request = request
        self.problem = problem
        self.peer = peer  # the sender's pid, as the transport verified it (0: unknown)


class Unreachable(Exception):
    """No serving session answers: ``why`` is ``absent``, ``dead_pid``, ``stale`` or
    ``unsafe`` (``detail`` says what is wrong)."""

    def __init__(self, why: Liveness, detail: str = "") -> None:
        super().__init__(detail or why)
        self.why: Liveness = why
        self.detail = detail


class Refused(Exception):
    """The serving session refused the request (malformed, too large, expired), saying why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TimedOut(Exception):
    """No answer came before the deadline."""
