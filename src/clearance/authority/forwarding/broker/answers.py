"""The answers of a serving instance: signed, written once, acknowledged with the write.

One script (:data:`~.scripts.ANSWER`) writes each answer: the ``done`` guard (``SET NX``), the
signed reply, the audit entry, then ``XACK`` — so a request is answered once, and acknowledged
only with its answer. The serving loop's own answers are queued and written together, in one
round trip, before it receives again (:meth:`Answers.flush`).
"""

from __future__ import annotations

import threading
import time

from clearance.authority.forwarding.broker import codec
from clearance.authority.forwarding.broker.keys import AUDIT_MAX, GROUP, KEEP, STALE, ms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.authority.forwarding.broker.inbound import RedisInbound, Reply
    from clearance.authority.forwarding.protocol import Request

    Queued = tuple[Reply, list[Any], list[Any]]

__all__ = ["Answers"]


class Answers:
    """Writes the answers of ``inbound`` (its client, keys, signer and in-flight requests)."""

    def __init__(self, inbound: RedisInbound) -> None:
        self.inbound = inbound
        self.write: Any = None
        self.wire: Any = None  # the connection the queued answers go out on (wire.Wire)
        self.queued: list[Queued] = []  # answers not written yet

    def open(self, client: Any) -> None:
        from clearance.authority.forwarding.broker.scripts import ANSWER
        from clearance.authority.forwarding.broker.wire import Wire

        self.write = client.register_script(ANSWER)
        self.wire = Wire(client)

    def close(self) -> None:
        if self.wire is not None:
            self.wire.close()

    def _signed(self, body: dict[str, Any]) -> tuple[bytes, bytes]:
        from base64 import b64encode

        text = codec.dumps(body).encode("utf-8")
        return text, b64encode(self.inbound.signer.sign(text))

    def answer(self, reply: Reply, message: dict[str, Any]) -> bool:
        """Sign ``message`` and write it as the one answer to ``reply``'s request, acknowledging
        the entry with it; False when the request was already answered (or abandoned), or the
        broker stayed unreachable (the entry stays pending, and is answered on a retry). The
        serving loop's own answers are queued and written together by :meth:`flush`."""
        inbound, request = self.inbound, reply.request
        body = dict(message)
        body.setdefault("id", request.id)
        body.setdefault("nonce", request.nonce)
        text, signature = self._signed(body)
        keep = max(request.expires - time.time(), 0.0) + KEEP
        record = codec.dumps({
            "session": inbound.session, "host": reply.host, "machine": reply.host,
            "requesterSession": request.requester.session,
            "surface": request.requester.surface, "value": (request.requester.value or "")[:1000],
            "requesterAgent": request.requester.agent, "cwd": request.requester.cwd,
            "tool": request.requester.tool, "state": body.get("state"),
            "approved": body.get("approved"), "decidedBy": body.get("decidedBy"),
            "kind": body.get("kind"), "reason": body.get("reason"), "at": time.time(),
        })  # fmt: skip
        event = "answered" if body.get("kind") == "response" else "refused"
        keys = inbound.keys
        names = [keys.done(request.id), keys.reply(request.id), keys.audit, keys.asks,
                 keys.claim(request.id)]  # fmt: skip
        args = [text, signature, ms(keep), GROUP, reply.entry, inbound.consumer, request.id,
                event, record]  # fmt: skip
        if threading.current_thread() is threading.main_thread():
            # The serving loop answers a batch of requests one after the other: their answers
            # go out together, in one round trip, before it receives again (flush()).
            with inbound.lock:
                self.queued.append((reply, names, args))
            return True
        return self._write(reply, names, args)

    def flush(self) -> None:
        """Write the queued answers (one pipeline; one by one, with retries, when that fails:
        each answer is written once whatever happens)."""
        import redis

        with self.inbound.lock:
            queued, self.queued = self.queued, []
        if not queued:
            return
        try:
            self._pipelined(queued)
        except redis.exceptions.NoScriptError:
            # The broker lost its script cache (a restart): nothing was written. Load the
            # script and write again (an answer already written would only be acknowledged).
            try:
                self.inbound.client.script_load(self.write.script)
                self._pipelined(queued)
            except redis.ResponseError:
                raise
            except redis.RedisError:
                self._one_by_one(queued)
                return
        except redis.ResponseError:
            raise
        except redis.RedisError:
            self._one_by_one(queued)
            return
        for reply, _keys, _args in queued:
            self._written(reply)

    def _one_by_one(self, queued: list[Queued]) -> None:
        for reply, keys, args in queued:
            self._write(reply, keys, args)

    def _pipelined(self, queued: list[Queued]) -> None:
        """The queued answers in one round trip, on a connection of their own. EVALSHA directly:
        a pipeline of registered scripts would first ask the broker whether it knows them
        (SCRIPT EXISTS), a second round trip for every batch."""
        sha = self.write.sha
        self.wire.call(*(("EVALSHA", sha, len(keys), *keys, *args) for _r, keys, args in queued))

    def _written(self, reply: Reply) -> None:
        reply.closed = True
        inbound = self.inbound
        with inbound.lock:
            if inbound.inflight.get(reply.request.id) is reply:
                del inbound.inflight[reply.request.id]

    def _write(self, reply: Reply, keys: list[Any], args: list[Any]) -> bool:
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
                        self.inbound.unreachable(exc)
                        return False
                    time.sleep(delay)
                    delay = min(delay * 2, 1.0)
        finally:
            self._written(reply)

    def abandoned(self, reply: Reply) -> None:
        """The child stopped waiting while its ask was being decided: mark it answered (so no
        instance decides it again), audit it, acknowledge its entry."""
        import redis

        inbound, request = self.inbound, reply.request
        with inbound.lock:
            inbound.inflight.pop(request.id, None)
        why = "the requester stopped waiting while it was being decided"
        keys = inbound.keys
        try:
            pipe = inbound.client.pipeline(transaction=True)
            pipe.set(keys.done(request.id), b"abandoned", nx=True, px=ms(KEEP))
            pipe.xadd(keys.audit, {"event": "abandoned", "id": request.id,
                                   "consumer": inbound.consumer, "why": why},
                      maxlen=AUDIT_MAX, approximate=True)  # fmt: skip
            pipe.xack(keys.asks, GROUP, reply.entry)
            pipe.xdel(keys.asks, reply.entry)
            pipe.execute()
        except redis.RedisError:
            return  # the entry stays pending; whoever takes it over finds the child gone
        self.withdrawn(request, why)

    def withdrawn(self, request: Request, why: str) -> None:
        """Tell a requester judged gone (its "alive" key expired: dead, or too slow to refresh
        it) that its ask was withdrawn, signed, so a live one denies at once instead of waiting
        for its timeout."""
        import redis

        inbound = self.inbound
        reason = (f"No one could approve this: the serving session '{inbound.session}' withdrew "
                  f"the request ({why}).")  # fmt: skip
        body, signature = self._signed({"version": 1, "kind": "refused", "id": request.id,
                                        "nonce": request.nonce, "reason": reason})  # fmt: skip
        keep = ms(max(request.expires - time.time(), 0.0) + KEEP)
        reply = inbound.keys.reply(request.id)
        try:
            pipe = inbound.client.pipeline(transaction=True)
            pipe.xadd(reply, {"m": body, "s": signature})
            pipe.pexpire(reply, keep)
            pipe.execute()
        except redis.RedisError:
            pass
