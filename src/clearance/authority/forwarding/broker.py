"""The broker transport: forwarded asks through Redis (or Valkey), so agents on other machines
reach one human (docs/decisions/0018-redis-broker.md, docs/forwarding.md *Broker*).

Keys, for a serving session (the *serving scope*, e.g. a user or a team) ``S`` under the prefix
``P`` (default ``clearance``; ``S`` spelled as :func:`~.private.safe_name` spells it)::

    P:S:asks            stream of requests; consumer group "serve" of the serving instances
    P:S:beacon          a live instance's description, refreshed every second, expiring in 5 s
    P:sessions          set of the sessions ever served (discovery)
    P:S:alive:<id>      the child still waits for <id> (it refreshes it; expires in 5 s)
    P:S:reply:<id>      stream the child reads its answer from (signed), expires with the ask
    P:S:done:<id>       <id> was answered (or abandoned): the one-answer guard
    P:S:claim:<id>      which instance is deciding <id> (refreshed while it decides)
    P:S:grants          hash of the "whole session" grants every instance honours
    P:S:audit           stream of decisions and abandonments, one entry per request id

A child (:class:`RedisTransport`) XADDs its request, then XREADs its reply stream; meanwhile it
refreshes its ``alive`` key and reads the beacon. It accepts only a reply signed by a serving
key it holds (:mod:`.signing`) that echoes its id and nonce; anything else in its reply stream is
skipped. No live beacon for its grace, or the broker unreachable for its grace: it gives up
(``Unreachable``), and the child denies saying why.

A serving instance (:class:`RedisInbound`) reads the stream in the consumer group. Before it
hands a request on, one script checks, atomically: answered already (acknowledge, drop), the
child gone (mark abandoned, audit, acknowledge) or being decided by another live instance (leave
it pending). The answer is written by one script too: the ``done`` guard (``SET NX``), the
signed reply, the audit entry, then ``XACK`` — so a request is answered once, and acknowledged
only with its answer. An instance keeps the entries it is deciding fresh (``XCLAIM`` every
second); the entries of a dead one go idle and another instance takes them over
(``XAUTOCLAIM`` after :data:`VISIBILITY`). Redis down: the instance reconnects with backoff and
serves on.

``redis`` and ``cryptography`` (the ``clearance[redis]`` extra) are imported only here, and this
module only when a broker is configured: the hook's hot path never loads them otherwise.
"""

from __future__ import annotations

import os
import threading
import time

from clearance.authority.forwarding.private import MAX_MESSAGE, safe_name
from clearance.authority.forwarding.transport import (
    Beacon,
    Delivery,
    Refused,
    TimedOut,
    Unreachable,
)
from clearance.decide.grant import Grant, GrantStore
from clearance.policy.broker import BrokerSettingError, parse_broker, parse_public_key, shown_url

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from clearance.authority.forwarding.protocol import Request, Response
    from clearance.authority.forwarding.server import Server
    from clearance.authority.forwarding.signing import Signer
    from clearance.authority.forwarding.transport import Inbound

__all__ = [
    "ACL_CHILD",
    "ACL_SERVER",
    "ALIVE",
    "GROUP",
    "REFRESH",
    "STALE",
    "VISIBILITY",
    "BrokenBroker",
    "BrokerConfig",
    "Keys",
    "RedisInbound",
    "RedisTransport",
    "broker_config",
    "serve_inbound",
]

GROUP = "serve"
REFRESH = 1.0  # beacons, alive keys and claims are refreshed this often
STALE = 5.0  # a beacon (an instance's heartbeat) lives this long
ALIVE = 5.0  # a child's "still waiting" key lives this long
VISIBILITY = 10.0  # a dead instance's entry idle this long is taken over
KEEP = 3600.0  # answers (and the one-answer guard) outlive their ask by this long
AUDIT_MAX = 100_000  # the audit stream is trimmed to about this many entries
_BACKOFF = (0.1, 2.0)  # a server's reconnect delay: first, most


# Redis ACL rules (``ACL SETUSER <name> reset on ><password> <rules>``, ``{prefix}`` replaced;
# docs/forwarding.md quotes them). A child may add requests, keep its own "alive" key, read
# beacons and its reply stream — never write a reply, read the requests, or touch the grants. A
# serving instance may use the prefix's keys with stream, string, hash, set and script commands.
ACL_CHILD = (
    "resetchannels -@all +ping +hello +auth +client|setname +select +xadd +set "
    "+get +mget +smembers +xread %RW~{prefix}:*:asks %W~{prefix}:*:alive:* "
    "%R~{prefix}:*:beacon %R~{prefix}:sessions %R~{prefix}:*:reply:*"
)
ACL_SERVER = "resetchannels ~{prefix}:* +@all -@dangerous -@admin -@pubsub"


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))


def _env_seconds(env: Mapping[str, str], name: str, default: float) -> float:
    try:
        value = float(env.get(name, "")) / 1000
    except ValueError:
        return default
    return value if value > 0 else default


class Keys:
    """The key names of one serving session under a prefix."""

    __slots__ = ("asks", "audit", "base", "beacon", "grants", "sessions")

    def __init__(self, prefix: str, session: str) -> None:
        self.base = f"{prefix}:{safe_name(session)}"
        self.asks = self.base + ":asks"
        self.beacon = self.base + ":beacon"
        self.grants = self.base + ":grants"
        self.audit = self.base + ":audit"
        self.sessions = prefix + ":sessions"

    def alive(self, rid: str) -> str:
        return f"{self.base}:alive:{rid}"

    def reply(self, rid: str) -> str:
        return f"{self.base}:reply:{rid}"

    def done(self, rid: str) -> str:
        return f"{self.base}:done:{rid}"

    def claim(self, rid: str) -> str:
        return f"{self.base}:claim:{rid}"


class BrokerConfig:
    """Where the broker is, which session a child asks by default, and the keys it trusts."""

    __slots__ = ("keys", "prefix", "session", "url")

    def __init__(
        self, url: str, *, session: str | None = None, keys: tuple[bytes, ...] = (),
        prefix: str = "clearance",
    ) -> None:  # fmt: skip
        self.url = url
        self.session = session
        self.keys = keys
        self.prefix = prefix

    @property
    def where(self) -> str:
        return shown_url(self.url)


def broker_config(setting: object, env: Mapping[str, str]) -> BrokerConfig | None:
    """The broker a child uses: ``CLEARANCE_BROKER`` (a URL) over the config's
    ``forwarding.broker``; public keys from ``CLEARANCE_BROKER_PUBLIC_KEY`` (comma-separated)
    over the config's. ``None``: no broker. Raises ``BrokerSettingError``."""
    conf: dict[str, Any] = {"url": None, "session": None, "publicKeys": (), "prefix": "clearance"}
    if isinstance(setting, dict) and setting.get("broker") is not None:
        conf = parse_broker(setting["broker"])
    url = env.get("CLEARANCE_BROKER", "").strip() or conf["url"]
    if not url:
        return None
    from clearance.policy.broker import parse_url

    try:
        parse_url(url, ())
    except BrokerSettingError as exc:
        raise BrokerSettingError(f"CLEARANCE_BROKER: {exc}") from None
    keys: tuple[bytes, ...] = conf["publicKeys"]
    listed = env.get("CLEARANCE_BROKER_PUBLIC_KEY", "").strip()
    if listed:
        try:
            keys = tuple(parse_public_key(k.strip()) for k in listed.split(",") if k.strip())
        except BrokerSettingError as exc:
            raise BrokerSettingError(f"CLEARANCE_BROKER_PUBLIC_KEY: {exc}") from None
    return BrokerConfig(url, session=conf["session"], keys=keys, prefix=conf["prefix"])


def _connect(url: str, timeout: float, connect: float | None = None) -> Any:
    import redis

    connect = timeout if connect is None else connect
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=connect,
                                health_check_interval=0)  # fmt: skip


# JSON over the broker: the standard library's C codec. ``redis`` loads ``json`` anyway, so this
# costs no import; it parses a message about ten times faster than ``clearance._json`` (which the
# hook's hot path keeps to avoid importing ``json``), and writes the same compact ASCII text.
def _dumps(value: object) -> str:
    import json

    return json.dumps(value, separators=(",", ":"), default=str)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _loads(raw: bytes | str) -> Any:
    """Strict JSON (NaN and infinities refused). Raises ``ValueError`` (bad UTF-8 included)."""
    import json

    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw  # UTF-8 only, never UTF-16
    return json.loads(text, parse_constant=_no_constant)


def _beacon(raw: bytes | None) -> Beacon | None:
    if not raw:
        return None
    try:
        data = _loads(raw)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    session, pid, started, directory = (data.get("session"), data.get("pid"),
                                        data.get("started"), data.get("dir"))  # fmt: skip
    if not (isinstance(session, str) and isinstance(directory, str)):
        return None
    if not isinstance(pid, int) or isinstance(pid, bool):
        return None
    if isinstance(started, bool) or not isinstance(started, (int, float)):
        return None
    return Beacon(session, pid, float(started), directory, data.get("relay") is True)


# -- the child side -----------------------------------------------------------------------------


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
        self._client: Any = None

    def _redis(self) -> Any:
        if self._client is None:
            try:
                # Reads wait up to REFRESH for an answer; a connect gives up within the grace.
                self._client = _connect(self.config.url, REFRESH * 3,
                                        min(max(self.grace, 0.2), 2.0))  # fmt: skip
            except ValueError as exc:  # an option in the URL's query that does not parse
                raise Unreachable("absent", f"the broker URL {self.config.where} cannot be "
                                  f"used: {exc}") from None  # fmt: skip
        return self._client

    def _unreachable(self, exc: BaseException) -> Unreachable:
        detail = str(exc) or "the connection failed"
        return Unreachable("absent", f"broker unreachable: {self.config.where}: {detail}")

    def probe(self, session: str | None = None) -> list[Beacon]:
        import redis

        client = self._redis()
        try:
            if session is not None:
                found = _beacon(client.get(Keys(self.config.prefix, session).beacon))
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
        return [b for b in map(_beacon, raws) if b is not None]

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
        entry = {"m": _dumps(request.as_json()), "host": _hostname()}
        client = self._redis()
        sent = False
        seen = False  # a beacon was seen at some point
        missing: float | None = None
        failing: float | None = None
        failures = 0
        beat = 0.0
        last = "0-0"
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
                    pipe = client.pipeline(transaction=False)
                    pipe.set(keys.alive(rid), b"1", px=_ms(ALIVE))
                    if not sent:
                        pipe.xadd(keys.asks, entry)
                    pipe.get(keys.beacon)
                    pipe.xread({keys.reply(rid): last}, count=16,
                               block=_ms(_wait(beat, limit)))  # fmt: skip
                    *_, beacon, got = pipe.execute()
                    sent = True
                    if beacon:
                        seen, missing = True, None
                    elif missing is None:
                        missing = now
                else:
                    got = client.xread({keys.reply(rid): last}, count=16,
                                       block=_ms(_wait(beat, limit)))  # fmt: skip
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
            for _stream, entries in got or ():
                for entry_id, fields in entries:
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
        from clearance.authority.forwarding.signing import verify

        body, signature = fields.get(b"m"), fields.get(b"s")
        if not body or not signature or len(body) > MAX_MESSAGE:
            return None
        try:
            if not verify(self.config.keys, body, b64decode(signature, validate=True)):
                return None
            data = _loads(body)
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


def _hostname() -> str:
    import socket

    return socket.gethostname()


# -- the serving side ---------------------------------------------------------------------------

# KEYS[1] asks, KEYS[2] audit, KEYS[3] grants, then per request: done, alive, claim.
# ARGV: group, consumer, claim ms, keep ms, then per request: entry id, request id.
# Returns the state of each request and the session's grants (read in the same step).
_TAKE = """
local out = {}
local n = (#KEYS - 3) / 3
for i = 1, n do
  local done, alive, claim = KEYS[3*i+1], KEYS[3*i+2], KEYS[3*i+3]
  local eid, rid = ARGV[3 + 2*i], ARGV[4 + 2*i]
  if redis.call('EXISTS', done) == 1 then
    redis.call('XACK', KEYS[1], ARGV[1], eid)
    redis.call('XDEL', KEYS[1], eid)
    out[i] = 'answered'
  elseif redis.call('EXISTS', alive) == 0 then
    redis.call('SET', done, 'abandoned', 'PX', ARGV[4])
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', 'AUDIT_MAX', '*', 'event', 'abandoned', 'id', rid,
               'consumer', ARGV[2], 'why', 'the requester stopped waiting before it was read')
    redis.call('XACK', KEYS[1], ARGV[1], eid)
    redis.call('XDEL', KEYS[1], eid)
    out[i] = 'gone'
  else
    local owner = redis.call('GET', claim)
    if owner and owner ~= ARGV[2] then
      out[i] = 'busy'
    else
      redis.call('SET', claim, ARGV[2], 'PX', ARGV[3])
      out[i] = 'new'
    end
  end
end
return {out, redis.call('HKEYS', KEYS[3])}
""".replace("AUDIT_MAX", str(AUDIT_MAX))

# KEYS: done, reply, audit, asks, claim. ARGV: body, signature, keep ms, group, entry id,
# consumer, request id, event, record (JSON).
_ANSWER = """
if not redis.call('SET', KEYS[1], ARGV[8], 'NX', 'PX', ARGV[3]) then
  redis.call('XACK', KEYS[4], ARGV[4], ARGV[5])
  redis.call('XDEL', KEYS[4], ARGV[5])
  return 0
end
redis.call('XADD', KEYS[2], '*', 'm', ARGV[1], 's', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 'AUDIT_MAX', '*', 'event', ARGV[8], 'id', ARGV[7],
           'consumer', ARGV[6], 'record', ARGV[9])
redis.call('XACK', KEYS[4], ARGV[4], ARGV[5])
redis.call('XDEL', KEYS[4], ARGV[5])
redis.call('DEL', KEYS[5])
return 1
""".replace("AUDIT_MAX", str(AUDIT_MAX))


class _Reply:
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
        return self.inbound.answer(self, message)

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
            self.inbound.abandoned(self)
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
        self.consumer = f"{_hostname()}-{os.getpid()}-{os.urandom(3).hex()}"
        self.client: Any = None
        self.take: Any = None
        self.write: Any = None
        self.inflight: dict[str, _Reply] = {}  # request id → reply, while it is being decided
        self.shared: tuple[Grant, ...] = ()  # the session's grants, as last read
        self.queued: list[tuple[_Reply, list[Any], list[Any]]] = []  # answers not written yet
        self.lock = threading.Lock()
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

        try:
            self.client = _connect(self.url, 5.0)
        except ValueError as exc:
            raise OSError(f"the broker URL {self.where} cannot be used: {exc}") from None
        self.take = self.client.register_script(_TAKE)
        self.write = self.client.register_script(_ANSWER)
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
        beacon = {**self.describe(), "consumer": self.consumer, "host": _hostname()}
        pipe = self.client.pipeline(transaction=False)
        pipe.set(self.keys.beacon, _dumps(beacon), px=_ms(STALE))
        pipe.hkeys(self.keys.grants)
        self._grants(pipe.execute()[1])
        self.next_beat = time.monotonic() + REFRESH

    def _grants(self, fields: list[bytes]) -> None:
        """Keep the session's grants as last read from the broker (with each batch of requests,
        and every second)."""
        found = []
        for field in fields:
            surface, zero, pattern = field.decode("utf-8", "replace").partition("\x00")
            if zero:
                found.append(Grant(surface, pattern))
        self.shared = tuple(found)

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
            self.client.close()
            self.client = None

    # -- receiving ---------------------------------------------------------------------------

    def receive(self, timeout: float) -> list[Delivery]:
        import redis

        out: list[Delivery] = []
        now = time.monotonic()
        if not self.down:
            try:
                self.flush()
            except redis.RedisError as exc:
                self._unreachable(exc)
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
            got = self.client.xreadgroup(
                GROUP, self.consumer, {self.keys.asks: ">"}, count=64,
                block=None if out or block < 0.001 else _ms(block),
            )  # fmt: skip
            for _stream, entries in got or ():
                out.extend(self._take(entries))
        except redis.ResponseError as exc:
            if "NOGROUP" in str(exc):  # the stream was lost (a broker without persistence)
                self._unreachable(exc)
            else:
                raise
        except redis.RedisError as exc:
            self._unreachable(exc)
        return out

    def _unreachable(self, exc: BaseException) -> None:
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
                pipe.set(self.keys.claim(rid), self.consumer, px=_ms(self.visibility))
            pipe.execute()
        claimed = self.client.xautoclaim(self.keys.asks, GROUP, self.consumer,
                                         _ms(self.visibility), "0-0", count=64)  # fmt: skip
        entries = [e for e in claimed[1] if e and e[1]]
        if entries:
            out.extend(self._take(entries))

    def _take(self, entries: list[Any]) -> list[Delivery]:
        from clearance.authority.forwarding.protocol import ProtocolError, Request

        parsed: list[tuple[str, Request]] = []
        hosts: dict[str, str] = {}
        drop: list[str] = []
        for entry_id, fields in entries:
            eid = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
            body = fields.get(b"m", b"")
            try:
                if len(body) > MAX_MESSAGE:
                    raise ProtocolError(f"the request is larger than {MAX_MESSAGE} bytes")
                request = Request.from_json(_loads(body))
            except (UnicodeDecodeError, ValueError) as exc:  # ProtocolError is a ValueError
                self.report("forwarded_permission.file_rejected", {
                    "responderSession": self.session, "why": f"not a valid request: {exc}",
                    "entry": eid, "host": _text(fields.get(b"host")),
                })  # fmt: skip
                drop.append(eid)
                continue
            parsed.append((eid, request))
            hosts[eid] = _text(fields.get(b"host"))[:255]
        if drop:
            self.client.xack(self.keys.asks, GROUP, *drop)
            self.client.xdel(self.keys.asks, *drop)
        if not parsed:
            return []
        keys = [self.keys.asks, self.keys.audit, self.keys.grants]
        args: list[Any] = [GROUP, self.consumer, _ms(self.visibility), _ms(KEEP)]
        for eid, request in parsed:
            keys += [self.keys.done(request.id), self.keys.alive(request.id),
                     self.keys.claim(request.id)]  # fmt: skip
            args += [eid, request.id]
        states, grants = self.take(keys=keys, args=args)
        self._grants(grants)
        out = []
        for (eid, request), state in zip(parsed, states, strict=True):
            state = state.decode() if isinstance(state, bytes) else state
            if state == "gone":
                why = "the requester stopped waiting before the request was read"
                self.report("forwarded_permission.abandoned", {
                    "requestId": request.id, "requesterSession": request.requester.session,
                    "requesterAgent": request.requester.agent, "responderSession": self.session,
                    "why": why,
                })  # fmt: skip
                self._withdrawn(request, why)
            if state != "new":
                continue
            # The pid is the child's, on its own machine: liveness travels as its alive key.
            reply = _Reply(self, eid, request, hosts[eid])
            with self.lock:
                self.inflight[request.id] = reply
            out.append(Delivery(reply, request.replace(pid=0), "", 0))
        return out

    # -- answering ---------------------------------------------------------------------------

    def answer(self, reply: _Reply, message: dict[str, Any]) -> bool:
        """Sign ``message`` and write it as the one answer to ``reply``'s request, acknowledging
        the entry with it; False when the request was already answered (or abandoned), or the
        broker stayed unreachable (the entry stays pending, and is answered on a retry). The
        serving loop's own answers are queued and written together by :meth:`flush`."""

        request = reply.request
        body = dict(message)
        body.setdefault("id", request.id)
        body.setdefault("nonce", request.nonce)
        text = _dumps(body).encode("utf-8")
        from base64 import b64encode

        signature = b64encode(self.signer.sign(text))
        keep = max(request.expires - time.time(), 0.0) + KEEP
        record = _dumps({
            "session": self.session, "host": reply.host,
            "requesterSession": request.requester.session,
            "requesterAgent": request.requester.agent, "cwd": request.requester.cwd,
            "tool": request.requester.tool, "state": body.get("state"),
            "approved": body.get("approved"), "decidedBy": body.get("decidedBy"),
            "kind": body.get("kind"), "reason": body.get("reason"), "at": time.time(),
        })  # fmt: skip
        event = "answered" if body.get("kind") == "response" else "refused"
        keys = [self.keys.done(request.id), self.keys.reply(request.id), self.keys.audit,
                self.keys.asks, self.keys.claim(request.id)]  # fmt: skip
        args = [text, signature, _ms(keep), GROUP, reply.entry, self.consumer, request.id,
                event, record]  # fmt: skip
        if threading.current_thread() is threading.main_thread():
            # The serving loop answers a batch of requests one after the other: their answers
            # go out together, in one round trip, before it receives again (flush()).
            with self.lock:
                self.queued.append((reply, keys, args))
            return True
        return self._write(reply, keys, args)

    def flush(self) -> None:
        """Write the answers the serving loop queued (one pipeline; one by one, with retries,
        when that fails: each answer is written once whatever happens)."""
        import redis

        with self.lock:
            queued, self.queued = self.queued, []
        if not queued:
            return
        try:
            self._pipelined(queued)
        except redis.exceptions.NoScriptError:
            # The broker lost its script cache (a restart): nothing was written. Load the
            # script and write again (an answer already written would only be acknowledged).
            try:
                self.client.script_load(_ANSWER)
                self._pipelined(queued)
            except redis.ResponseError:
                raise
            except redis.RedisError:
                for reply, keys, args in queued:
                    self._write(reply, keys, args)
                return
        except redis.ResponseError:
            raise
        except redis.RedisError:
            for reply, keys, args in queued:
                self._write(reply, keys, args)
            return
        for reply, _keys, _args in queued:
            self._written(reply)

    def _pipelined(self, queued: list[tuple[_Reply, list[Any], list[Any]]]) -> None:
        """The queued answers in one round trip. EVALSHA directly: a pipeline of registered
        scripts would first ask the broker whether it knows them (SCRIPT EXISTS), a second
        round trip for every batch."""
        pipe = self.client.pipeline(transaction=False)
        for _reply, keys, args in queued:
            pipe.evalsha(self.write.sha, len(keys), *keys, *args)
        pipe.execute()

    def _written(self, reply: _Reply) -> None:
        reply.closed = True
        with self.lock:
            if self.inflight.get(reply.request.id) is reply:
                del self.inflight[reply.request.id]

    def _write(self, reply: _Reply, keys: list[Any], args: list[Any]) -> bool:
        import redis

        deadline = time.monotonic() + STALE
        delay = 0.05
        try:
            while True:
                try:
                    written = self.write(keys=keys, args=args)
                    return bool(written)
                except redis.ResponseError:
                    raise
                except redis.RedisError as exc:
                    if time.monotonic() + delay > deadline:
                        self._unreachable(exc)
                        return False
                    time.sleep(delay)
                    delay = min(delay * 2, 1.0)
        finally:
            self._written(reply)

    def alive(self, reply: _Reply) -> bool | None:
        """Whether the child of ``reply`` still waits (``None``: cannot tell now)."""
        import redis

        try:
            return bool(self.client.exists(self.keys.alive(reply.request.id)))
        except redis.RedisError:
            return None

    def abandoned(self, reply: _Reply) -> None:
        """The child stopped waiting while its ask was being decided: mark it answered (so no
        instance decides it again), audit it, acknowledge its entry."""
        import redis

        request = reply.request
        with self.lock:
            self.inflight.pop(request.id, None)
        why = "the requester stopped waiting while it was being decided"
        try:
            pipe = self.client.pipeline(transaction=True)
            pipe.set(self.keys.done(request.id), b"abandoned", nx=True, px=_ms(KEEP))
            pipe.xadd(self.keys.audit, {"event": "abandoned", "id": request.id,
                                        "consumer": self.consumer, "why": why},
                      maxlen=AUDIT_MAX, approximate=True)  # fmt: skip
            pipe.xack(self.keys.asks, GROUP, reply.entry)
            pipe.xdel(self.keys.asks, reply.entry)
            pipe.execute()
        except redis.RedisError:
            return  # the entry stays pending; whoever takes it over finds the child gone
        self._withdrawn(request, why)

    def _withdrawn(self, request: Request, why: str) -> None:
        """Tell a requester judged gone (its "alive" key expired: dead, or too slow to refresh
        it) that its ask was withdrawn, signed, so a live one denies at once instead of waiting
        for its timeout."""
        from base64 import b64encode

        import redis

        reason = (f"No one could approve this: the serving session '{self.session}' withdrew "
                  f"the request ({why}).")  # fmt: skip
        body = _dumps({"version": 1, "kind": "refused", "id": request.id, "nonce": request.nonce,
                      "reason": reason}).encode("utf-8")  # fmt: skip
        keep = _ms(max(request.expires - time.time(), 0.0) + KEEP)
        try:
            pipe = self.client.pipeline(transaction=True)
            pipe.xadd(
                self.keys.reply(request.id), {"m": body, "s": b64encode(self.signer.sign(body))}
            )
            pipe.pexpire(self.keys.reply(request.id), keep)
            pipe.execute()
        except redis.RedisError:
            pass

    # -- grants for the whole session --------------------------------------------------------

    def session_grants(self) -> GrantStore:
        return _SharedGrants(self, self.local_grants() if self.local_grants else None)


class _SharedGrants(GrantStore):
    """The serving session's "whole session" grants: the broker's hash (every instance honours
    them; read with each batch of requests and every second), with the local session's grants
    beside it. Adding one writes both. When the broker cannot be read, the grants last read stand
    (a missing grant only makes an ask ask)."""

    __slots__ = ("inbound", "local")

    def __init__(self, inbound: RedisInbound, local: GrantStore | None) -> None:
        self.inbound = inbound
        self.local = local
        found: list[Grant] = list(local.grants()) if local is not None else []
        super().__init__([*found, *inbound.shared])

    def add(self, grants: Any) -> None:
        grants = list(grants)
        super().add(grants)
        if self.local is not None:
            self.local.add(grants)
        if grants:
            fields = {f"{g.surface}\x00{g.pattern}": str(time.time()) for g in grants}
            self.inbound.client.hset(self.inbound.keys.grants, mapping=fields)
            self.inbound.shared = tuple(dict.fromkeys([*self.inbound.shared, *grants]))


def _text(raw: object) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw or "")


# -- wiring for ``clearance serve --broker URL`` -------------------------------------------------


def serve_inbound(url: str, server_state: str, setting: object) -> Callable[[Server], Inbound]:
    """The serving side for ``clearance serve --broker URL``: the local socket and the broker,
    served at once. ``setting`` is the serving policy's ``forwarding`` value (its prefix is
    used). Raises ``OSError`` (no key) or ``BrokerSettingError`` (a bad URL)."""
    from clearance.authority.forwarding.signing import Signer
    from clearance.policy.broker import parse_url

    parse_url(url, ())
    prefix = "clearance"
    if isinstance(setting, dict) and isinstance(setting.get("broker"), dict | str):
        prefix = parse_broker(setting["broker"])["prefix"]
    signer = Signer.load(server_state)
    visibility = _env_seconds(os.environ, "CLEARANCE_BROKER_VISIBILITY_MS", VISIBILITY)

    def build(server: Server) -> Inbound:
        from clearance.authority.forwarding.merged import Merged
        from clearance.authority.forwarding.server import _local
        from clearance.decide.grant import DiskGrants

        broker = RedisInbound(
            url, server.session, server.describe, signer, prefix=prefix, report=server.write,
            notice=lambda text: server.observe("notice", None, text), visibility=visibility,
            grants=lambda: DiskGrants(server.state, server.session),
        )  # fmt: skip
        return Merged(_local(server), broker)

    return build
