"""The serving side of the broker: :class:`RedisInbound`, one instance of the consumer group.

It reads the request stream in the consumer group. Before it hands a request on, one script
(:data:`~.scripts.TAKE`) checks, atomically: answered already (acknowledge, drop), the child gone
(mark abandoned, audit, acknowledge) or being decided by another live instance (leave it
pending). Answers are written by :class:`~.answers.Answers`. An instance keeps the entries it is
deciding fresh (``XCLAIM`` every second); the entries of a dead one go idle and another instance
takes them over (``XAUTOCLAIM`` after :data:`~.keys.VISIBILITY`). Redis down: the instance
reconnects with backoff and serves on.
"""

from __future__ import annotations

import os
import threading
import time

from clearance import _forwarded_events as events
from clearance.authority.forwarding.broker import codec
from clearance.authority.forwarding.broker.answers import Answers
from clearance.authority.forwarding.broker.config import connect
from clearance.authority.forwarding.broker.keys import (
    GROUP,
    KEEP,
    REFRESH,
    STALE,
    VISIBILITY,
    Keys,
    ms,
)
from clearance.authority.forwarding.broker.wire import Wire, entries
from clearance.authority.forwarding.private import MAX_MESSAGE
from clearance.authority.forwarding.transport import Delivery
from clearance.decide.grant import Grant
from clearance.policy.broker import shown_url

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from clearance.authority.forwarding.protocol import Request
    from clearance.authority.forwarding.signing import Signer
    from clearance.decide.grant import GrantStore

__all__ = ["RedisInbound", "Reply"]

_BACKOFF = (0.1, 2.0)  # a server's reconnect delay: first, most


class Reply:
    """The way back to one child: its signed reply stream."""

    __slots__ = ("checked", "closed", "entry", "host", "inbound", "request", "was_gone")

    def __init__(self, inbound: RedisInbound, entry: str, request: Request, host: str) -> None:
        self.inbound = inbound
        self.entry = entry
        self.request = request
        self.host = host  # the child's machine, as it says
        self.checked = 0.0
        self.was_gone = False
        self.closed = False

    def send(self, message: dict[str, Any]) -> bool:
        if message.get("kind") in ("pending", "pong"):
            return True
        return self.inbound.answers.answer(self, message)

    def gone(self) -> bool:
        """Whether the child stopped waiting (its ``alive`` key expired); checked at most every
        half second, and never judged gone while the broker is unreachable."""
        if self.was_gone or self.closed:
            return self.was_gone or self.closed
        now = time.monotonic()
        if now - self.checked < 0.5:
            return False
        self.checked = now
        if self.inbound.alive(self) is False:
            self.was_gone = True
            self.inbound.answers.abandoned(self)
        return self.was_gone


class RedisInbound:
    """The serving side: one instance of the consumer group serving ``session``."""

    def __init__(
        self,
        url: str,
        session: str,
        describe: Callable[[], dict[str, Any]],
        signer: Signer,
        *,
        prefix: str = "clearance",
        report: Callable[[str, dict[str, Any]], None] | None = None,
        notice: Callable[[str], None] | None = None,
        visibility: float = VISIBILITY,
        grants: Callable[[], GrantStore] | None = None,
    ) -> None:
        self.url = url
        self.session = session
        self.describe = describe
        self.signer = signer
        self.keys = Keys(prefix, session)
        self.report = report or (lambda event, fields: None)
        self.notice = notice or (lambda text: None)
        self.visibility = visibility
        self.local_grants = grants
        self.consumer = f"{codec.hostname()}-{os.getpid()}-{os.urandom(3).hex()}"
        self.client: Any = None
        self.take: Any = None
        self.wire: Wire | None = None  # the receiving thread's connection
        self.inflight: dict[str, Reply] = {}  # request id → reply, while it is being decided
        self.shared: tuple[Grant, ...] = ()  # the session's grants, as last read
        self.revoked: frozenset[Grant] = frozenset()  # revoked since, as last read
        self.lock = threading.Lock()
        self.answers = Answers(self)
        self.next_beat = 0.0
        self.down: str = ""  # why the broker is unreachable ("" while it is reachable)
        self.retry_at = 0.0
        self.backoff = _BACKOFF[0]

    @property
    def where(self) -> str:
        return shown_url(self.url)

    # -- life cycle --------------------------------------------------------------------------

    def open(self) -> None:
        import redis

        from clearance.authority.forwarding.broker.scripts import TAKE

        try:
            self.client = connect(self.url, 5.0)
        except ValueError as exc:
            raise OSError(f"the broker URL {self.where} cannot be used: {exc}") from None
        self.take = self.client.register_script(TAKE)
        self.wire = Wire(self.client)
        self.answers.open(self.client)
        try:
            self._announce()
        except redis.AuthenticationError as exc:
            raise OSError(f"the broker {self.where} refused the credentials ({exc})") from None
        except redis.RedisError as exc:
            raise OSError(f"broker unreachable: {self.where}: {exc}") from None

    def _announce(self) -> None:
        import redis

        try:
            self.client.xgroup_create(self.keys.asks, GROUP, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        self.client.sadd(self.keys.sessions, self.session)
        self._beat()

    def _beat(self) -> None:
        """The beacon, and a fresh copy of the session's grants."""
        beacon = {**self.describe(), "consumer": self.consumer, "host": codec.hostname()}
        pipe = self.client.pipeline(transaction=False)
        pipe.set(self.keys.beacon, codec.dumps(beacon), px=ms(STALE))
        pipe.hkeys(self.keys.grants)
        pipe.hkeys(self.keys.revoked)
        _set, grants, revoked = pipe.execute()
        self.keep_grants(grants, revoked)
        self.next_beat = time.monotonic() + REFRESH

    def keep_grants(self, grants: list[bytes], revoked: list[bytes]) -> None:
        """Keep the session's grants, and the grants revoked since, as last read from the broker
        (with each batch of requests, and every second)."""
        self.shared = tuple(_grants(grants))
        self.revoked = frozenset(_grants(revoked))

    def close(self) -> None:
        if self.client is not None:
            try:
                self.flush()
            except Exception:
                pass  # unwritten answers stay pending: another instance answers them
        with self.lock:
            self.inflight.clear()
        if self.client is not None:
            try:  # leave the group, unless entries are still pending with us (the others
                # take those over: deleting the consumer would drop them)
                mine = self.client.xpending_range(self.keys.asks, GROUP, "-", "+", 1,
                                                  consumername=self.consumer)  # fmt: skip
                if not mine:
                    self.client.xgroup_delconsumer(self.keys.asks, GROUP, self.consumer)
            except Exception:
                pass
            for wire in (self.wire, self.answers):
                if wire is not None:
                    wire.close()
            self.client.close()
            self.client = None

    def flush(self) -> None:
        """Write the answers the serving loop queued (:meth:`Answers.flush`)."""
        self.answers.flush()

    # -- receiving ---------------------------------------------------------------------------

    def receive(self, timeout: float) -> list[Delivery]:
        import redis

        out: list[Delivery] = []
        now = time.monotonic()
        if not self.down:
            try:
                self.flush()
            except redis.RedisError as exc:
                self.unreachable(exc)
        if self.down and now < self.retry_at:
            time.sleep(max(0.0, min(timeout, self.retry_at - now)))
            return out
        try:
            if self.down:
                self._announce()
                self.notice(f"broker {self.where} reachable again; serving on")
                self.down, self.backoff = "", _BACKOFF[0]
            if time.monotonic() >= self.next_beat:
                self._maintain(out)
            block = min(timeout, max(self.next_beat - time.monotonic(), 0.0))
            wait = () if out or block < 0.001 else ("BLOCK", ms(block))
            assert self.wire is not None
            (got,) = self.wire.call(("XREADGROUP", "GROUP", GROUP, self.consumer, "COUNT", 64,
                                     *wait, "STREAMS", self.keys.asks, ">"))  # fmt: skip
            found = entries(got)
            if found:
                out.extend(self._take(found))
        except redis.ResponseError as exc:
            if "NOGROUP" in str(exc):  # the stream was lost (a broker without persistence)
                self.unreachable(exc)
            else:
                raise
        except redis.RedisError as exc:
            self.unreachable(exc)
        return out

    def unreachable(self, exc: BaseException) -> None:
        why = str(exc) or "the connection failed"
        if not self.down:
            self.notice(f"broker unreachable: {self.where}: {why}; reconnecting")
        self.down = why
        self.retry_at = time.monotonic() + self.backoff
        self.backoff = min(self.backoff * 2, _BACKOFF[1])

    def _maintain(self, out: list[Delivery]) -> None:
        """Every second: the beacon; keep the entries being decided ours; take over the entries
        a dead instance left idle."""
        self._beat()
        with self.lock:
            busy = [(rid, reply.entry) for rid, reply in self.inflight.items()]
        if busy:
            pipe = self.client.pipeline(transaction=False)
            pipe.xclaim(self.keys.asks, GROUP, self.consumer, 0, [e for _, e in busy],
                        justid=True)  # fmt: skip
            for rid, _ in busy:
                pipe.set(self.keys.claim(rid), self.consumer, px=ms(self.visibility))
            pipe.execute()
        claimed = self.client.xautoclaim(self.keys.asks, GROUP, self.consumer,
                                         ms(self.visibility), "0-0", count=64)  # fmt: skip
        entries = [e for e in claimed[1] if e and e[1]]
        if entries:
            out.extend(self._take(entries))

    def _take(self, entries: list[Any]) -> list[Delivery]:
        from clearance.authority.forwarding.protocol import ProtocolError, Request, is_machine

        parsed: list[tuple[str, Request]] = []
        hosts: dict[str, str] = {}
        drop: list[str] = []
        for entry_id, fields in entries:
            eid = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
            body = fields.get(b"m", b"")
            try:
                if len(body) > MAX_MESSAGE:
                    raise ProtocolError(f"the request is larger than {MAX_MESSAGE} bytes")
                request = Request.from_json(codec.loads(body))
            except (UnicodeDecodeError, ValueError) as exc:  # ProtocolError is a ValueError
                self.report(events.FILE_REJECTED, {
                    "responderSession": self.session, "why": f"not a valid request: {exc}",
                    "entry": eid, "host": codec.text(fields.get(b"host")),
                })  # fmt: skip
                drop.append(eid)
                continue
            parsed.append((eid, request))
            hosts[eid] = codec.text(fields.get(b"host"))[:255]
        if drop:
            self.client.xack(self.keys.asks, GROUP, *drop)
            self.client.xdel(self.keys.asks, *drop)
        if not parsed:
            return []
        keys = [self.keys.asks, self.keys.audit, self.keys.grants, self.keys.revoked]
        args: list[Any] = [GROUP, self.consumer, ms(self.visibility), ms(KEEP)]
        for eid, request in parsed:
            keys += [self.keys.done(request.id), self.keys.alive(request.id),
                     self.keys.claim(request.id)]  # fmt: skip
            args += [eid, request.id]
        states, grants, revoked = self._run_take(keys, args)
        self.keep_grants(grants, revoked)
        out = []
        for (eid, request), state in zip(parsed, states, strict=True):
            state = state.decode() if isinstance(state, bytes) else state
            if state == "gone":
                why = "the requester stopped waiting before the request was read"
                self.report(events.ABANDONED, {
                    "requestId": request.id, "requesterSession": request.requester.session,
                    "requesterAgent": request.requester.agent, "responderSession": self.session,
                    "why": why,
                })  # fmt: skip
                self.answers.withdrawn(request, why)
            if state != "new":
                continue
            # The pid is the child's, on its own machine: liveness travels as its alive key.
            # The machine is the request's, else the one its stream entry names.
            request = request.replace(pid=0)
            if request.requester.machine is None and is_machine(hosts[eid]):
                request = request.replace(requester=request.requester.replace(machine=hosts[eid]))
            reply = Reply(self, eid, request, request.requester.machine or hosts[eid])
            with self.lock:
                self.inflight[request.id] = reply
            out.append(Delivery(reply, request, "", 0))
        return out

    def _run_take(self, keys: list[Any], args: list[Any]) -> Any:
        """The take script, on the receiving thread's connection (loaded again when the broker
        lost its scripts in a restart)."""
        import redis

        assert self.wire is not None
        try:
            (result,) = self.wire.call(("EVALSHA", self.take.sha, len(keys), *keys, *args))
        except redis.exceptions.NoScriptError:
            self.client.script_load(self.take.script)
            (result,) = self.wire.call(("EVALSHA", self.take.sha, len(keys), *keys, *args))
        return result

    def alive(self, reply: Reply) -> bool | None:
        """Whether the child of ``reply`` still waits (``None``: cannot tell now)."""
        import redis

        try:
            return bool(self.client.exists(self.keys.alive(reply.request.id)))
        except redis.RedisError:
            return None

    # -- grants for the whole session --------------------------------------------------------

    def recent_audit(self, count: int) -> list[dict[str, Any]]:
        """The latest ``count`` entries of the session's audit stream (``XREVRANGE``), newest
        first: each ``{"at", "event", "id", "consumer", "why", "mine", "record"}`` (``mine``: this
        instance decided it; ``record`` the decoded JSON, ``{}`` for an abandonment or one that
        does not parse). Raises ``OSError`` when the
        broker cannot be read."""
        import json

        import redis

        client = self.client
        if client is None:
            raise OSError(f"broker unreachable: {self.where}: not connected")
        try:
            entries = client.xrevrange(self.keys.audit, "+", "-", count=count)
        except redis.RedisError as exc:
            raise OSError(f"broker unreachable: {self.where}: {exc}") from None
        out = []
        for eid, fields in entries:
            try:
                record = json.loads(codec.text(fields.get(b"record")) or "{}")
            except ValueError:
                record = {}
            millis = codec.text(eid).partition("-")[0]
            out.append({
                "at": int(millis) / 1000 if millis.isdigit() else 0.0,
                "event": codec.text(fields.get(b"event")), "id": codec.text(fields.get(b"id")),
                "consumer": codec.text(fields.get(b"consumer")),
                "why": codec.text(fields.get(b"why")),
                "mine": codec.text(fields.get(b"consumer")) == self.consumer,
                "record": record if isinstance(record, dict) else {},
            })  # fmt: skip
        return out

    def session_grants(self) -> GrantStore:
        from clearance.authority.forwarding.broker.grants import SharedGrants

        return SharedGrants(self, self.local_grants() if self.local_grants else None)


def _grants(fields: list[bytes]) -> list[Grant]:
    """Grants from the fields of a grants hash (``surface NUL pattern``)."""
    found = []
    for field in fields:
        surface, zero, pattern = field.decode("utf-8", "replace").partition("\x00")
        if zero:
            found.append(Grant(surface, pattern))
    return found
