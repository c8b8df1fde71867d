"""The child side of the broker: :class:`RedisTransport` asks through Redis.

A child XADDs its request, then XREADs its reply stream; meanwhile it refreshes its ``alive`` key
and reads the beacon. It accepts only a reply signed by a serving key it holds
(:mod:`~clearance.authority.forwarding.signing`) that echoes its id and nonce; anything else in
its reply stream is skipped. No live beacon for its grace, or the broker unreachable for its
grace: it gives up (``Unreachable``), and the child denies saying why.
"""

from __future__ import annotations

import time

from clearance.authority.forwarding.broker import codec
from clearance.authority.forwarding.broker.config import connect
from clearance.authority.forwarding.broker.keys import ALIVE, REFRESH, Keys, ms
from clearance.authority.forwarding.broker.wire import Wire, entries
from clearance.authority.forwarding.private import MAX_MESSAGE
from clearance.authority.forwarding.transport import Refused, TimedOut, Unreachable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.authority.forwarding.broker.config import BrokerConfig
    from clearance.authority.forwarding.protocol import Request, Response
    from clearance.authority.forwarding.signing import Verifier
    from clearance.authority.forwarding.transport import Beacon

__all__ = ["BrokenBroker", "RedisTransport"]


class BrokenBroker:
    """A broker setting that cannot be used: every ask is denied, saying what to fix."""

    scope = None

    def __init__(self, why: str) -> None:
        self.why = why

    def probe(self, session: str | None = None) -> list[Beacon]:
        if session is None:
            return []
        raise Unreachable("absent", f"the broker setting cannot be used: {self.why}")

    def exchange(self, request: Request, until: float) -> Response:
        raise Unreachable("absent", f"the broker setting cannot be used: {self.why}")


class RedisTransport:
    """The child side: asks ``target`` through the broker of ``config``; gives up after
    ``grace`` seconds without a live serving instance or without the broker."""

    def __init__(self, config: BrokerConfig, grace: float) -> None:
        self.config = config
        self.grace = grace
        self.scope = config.session  # the default target
        self.skipped = 0  # replies that failed verification (forged, replayed, garbled)
        self.host = codec.hostname()  # this machine, as the request's stream entry names it
        self._client: Any = None
        self._wire_: Wire | None = None
        self._verifier_: Verifier | None = None

    def _redis(self) -> Any:
        if self._client is None:
            try:
                # Reads wait up to REFRESH for an answer; a connect gives up within the grace.
                self._client = connect(self.config.url, REFRESH * 3,
                                        min(max(self.grace, 0.2), 2.0))  # fmt: skip
            except ValueError as exc:  # an option in the URL's query that does not parse
                raise Unreachable("absent", f"the broker URL {self.config.where} cannot be "
                                  f"used: {exc}") from None  # fmt: skip
        return self._client

    def _wire(self) -> Wire:
        """The connection an ask goes over, kept from one ask to the next."""
        if self._wire_ is None:
            self._wire_ = Wire(self._redis())
        return self._wire_

    def _verifier(self) -> Verifier:
        if self._verifier_ is None:
            from clearance.authority.forwarding.signing import Verifier

            self._verifier_ = Verifier(self.config.keys)
        return self._verifier_

    def _unreachable(self, exc: BaseException) -> Unreachable:
        detail = str(exc) or "the connection failed"
        return Unreachable("absent", f"broker unreachable: {self.config.where}: {detail}")

    def probe(self, session: str | None = None) -> list[Beacon]:
        import redis

        client = self._redis()
        try:
            if session is not None:
                found = codec.beacon(client.get(Keys(self.config.prefix, session).beacon))
                if found is None:
                    raise Unreachable("absent", self._absent(session))
                return [found]
            names = sorted(n.decode("utf-8", "replace")
                           for n in client.smembers(f"{self.config.prefix}:sessions"))  # fmt: skip
            if not names:
                return []
            raws = client.mget([Keys(self.config.prefix, n).beacon for n in names])
        except redis.RedisError as exc:
            if session is None:
                return []  # discovery finds nobody; a named session says why
            raise self._unreachable(exc) from None
        return [b for b in map(codec.beacon, raws) if b is not None]

    def _absent(self, session: str) -> str:
        return (f"no serving instance of session '{session}' has a heartbeat on the broker "
                f"{self.config.where}")  # fmt: skip

    def exchange(self, request: Request, until: float) -> Response:
        import redis

        if not self.config.keys:
            raise Refused("No one could approve this: the broker's public key is not configured "
                          "(set forwarding.broker.publicKey or CLEARANCE_BROKER_PUBLIC_KEY to the "
                          "line `clearance serve --broker-keygen` printed)")  # fmt: skip
        keys = Keys(self.config.prefix, request.target)
        rid = request.id
        alive, reply = keys.alive(rid), keys.reply(rid)
        add = ("XADD", keys.asks, "*", "m", codec.dumps(request.as_json()), "host", self.host)
        wire = self._wire()
        sent = False
        seen = False  # a beacon was seen at some point
        missing: float | None = None
        failing: float | None = None
        failures = 0
        beat = 0.0
        last: bytes | str = "0-0"
        while True:
            now = time.monotonic()
            if now >= until:
                raise TimedOut()
            if missing is not None and now - missing >= self.grace:
                raise Unreachable("stale" if seen else "absent", self._absent(request.target))
            # Wake up to refresh, at the deadline, or when the grace for a missing beacon ends.
            limit = until if missing is None else min(until, missing + self.grace)
            try:
                if not sent or now >= beat:
                    # One round trip: "still waiting", the request (once), the beacon, and the
                    # wait for the answer itself.
                    beat = now + (REFRESH if seen else min(REFRESH, max(self.grace, 0.05)))
                    wait = ("XREAD", "COUNT", 16, "BLOCK", ms(_wait(beat, limit)), "STREAMS",
                            reply, last)  # fmt: skip
                    ahead = (("SET", alive, b"1", "PX", ms(ALIVE)), *(() if sent else (add,)),
                             ("GET", keys.beacon))  # fmt: skip
                    *_, beacon, got = wire.call(*ahead, wait)
                    sent = True
                    if beacon:
                        seen, missing = True, None
                    elif missing is None:
                        missing = now
                else:
                    (got,) = wire.call(("XREAD", "COUNT", 16, "BLOCK", ms(_wait(beat, limit)),
                                        "STREAMS", reply, last))  # fmt: skip
                failing, failures = None, 0
            except redis.AuthenticationError as exc:
                raise self._unreachable(exc) from None
            except redis.ResponseError as exc:  # NOPERM and the like: the broker refuses us
                raise self._unreachable(exc) from None
            except redis.RedisError as exc:
                failing = now if failing is None else failing
                if now - failing >= self.grace:
                    raise self._unreachable(exc) from None
                sent = False  # it may not have arrived: send again (servers answer an id once)
                failures += 1
                time.sleep(min(0.02 * 2**failures, 0.25, max(until - now, 0)))
                continue
            for entry_id, fields in entries(got):
                last = entry_id
                answer = self._verified(request, fields)
                if answer is None:
                    self.skipped += 1
                    continue
                return answer

    def _verified(self, request: Request, fields: dict[bytes, bytes]) -> Response | None:
        """The answer in a reply entry when it is signed by a trusted key and answers
        ``request`` (its id and nonce); raises :class:`Refused` for a signed refusal."""
        from base64 import b64decode

        from clearance.authority.forwarding.protocol import ProtocolError, Response

        body, signature = fields.get(b"m"), fields.get(b"s")
        if not body or not signature or len(body) > MAX_MESSAGE:
            return None
        try:
            if not self._verifier().verify(body, b64decode(signature, validate=True)):
                return None
            data = codec.loads(body)
        except ValueError:
            return None
        if not isinstance(data, dict) or data.get("version") != 1:
            return None
        if data.get("id") != request.id or data.get("nonce") != request.nonce:
            return None  # a genuine answer, but to another request: a replay
        if data.get("kind") == "refused":
            reason = data.get("reason")
            raise Refused(reason if isinstance(reason, str) and reason else
                          "the serving session refused the request")  # fmt: skip
        try:
            return Response.from_json(data)
        except ProtocolError:
            return None


def _wait(beat: float, until: float) -> float:
    return max(min(beat, until) - time.monotonic(), 0.001)
