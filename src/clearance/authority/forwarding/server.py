"""The serving side: receive forwarded requests, resolve each by policy, escalate only asks.

A :class:`Server` takes its session on a transport (the local socket,
:class:`~clearance.authority.forwarding.local.LocalInbound`; one server per session) and
resolves each request that arrives against its own base policy and session grants
(:func:`~clearance.authority.forwarding.resolution.resolve`): allow and deny are answered at
once, with no prompt and no ``ui_prompt``. An ask is escalated on a worker thread
(:mod:`~clearance.authority.forwarding.escalation`: the configured chain, then the human on the
dialog and the console, else a relay one hop up, else nobody), so automatic answers and
keep-alives go on while the human thinks; :mod:`~clearance.authority.forwarding.reach` applies
the answer's scope.

Each request id is answered once: a request sent again (its requester reconnected) joins the one
in progress, or gets the answer already given, and is never resolved twice.

Review events (``forwarded_permission.*``): ``serving_started``, ``serving_stopped``,
``auto_approved``, ``auto_denied``, ``prompted``, ``approved``, ``denied``, ``session_recorded``,
``file_rejected`` (a request that cannot be read, or a refused connection), ``abandoned``.

A request whose requester is gone (its connection closed, or its ``pid`` exited: the host killed
the hook, :mod:`~clearance.authority.forwarding.liveness`) is abandoned: it is discarded
unanswered before it is resolved, and one waiting for the human is dropped as soon as the
requester is gone; an answer the human gives to it is neither recorded (no grant) nor sent. It
does not own the command line or the live list (``clearance.cli.serve``).
"""

from __future__ import annotations

import os
import threading
import time

from clearance import _forwarded_events as events
from clearance.authority.ask import Verdict
from clearance.authority.forwarding.liveness import requester_gone
from clearance.authority.forwarding.protocol import Request
from clearance.authority.forwarding.resolution import resolve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from clearance.authority.forwarding.remote import RemoteHuman, Ticket
    from clearance.authority.forwarding.resolution import Resolution
    from clearance.authority.forwarding.transport import Delivery, Inbound, Reply
    from clearance.decide.engine import Engine
    from clearance.decide.grant import GrantStore

    Observer = Callable[[str, Request | None, str], None]
    Always = Callable[[str, str], str]
    Report = Callable[[str, dict[str, Any]], object]

__all__ = ["Server"]

_RELOAD = 2.0
_REMEMBER = 4096  # answers kept for requesters that reconnect and ask again


class Server:
    """One serving session: ``session`` serving ``directory``."""

    def __init__(
        self,
        load: Callable[[], Engine],
        *,
        session: str,
        directory: str,
        state: str,
        tty_path: str | None = None,
        relay: bool = False,
        parent: str | None = None,
        report: Report | None = None,
        emit: Report | None = None,
        observe: Observer | None = None,
        inbound: Callable[[Server], Inbound] | None = None,
        remote: RemoteHuman | None = None,
        always: Always | None = None,
    ) -> None:
        """``load`` builds the serving engine (base policy, agent-neutral); ``tty_path`` is the
        human's terminal (``None``: no human); ``report(event, fields)`` writes the review log,
        ``emit(kind, payload)`` the ``ui_prompt`` and ``decision`` events (the caller wires both:
        this layer does not import ``audit``); ``observe(event, request, text)`` hears about
        ``pending``, ``answered``, ``dialog_open``, ``dialog_closed`` and ``notice``;
        ``inbound(server)`` builds the transport's serving side (default: the local socket);
        ``remote`` is a second human (the web console), raced against the terminal: the first
        answer wins (:mod:`clearance.authority.forwarding.remote`); ``always(surface, pattern)``
        writes an allow rule into the configuration (the dialog's "always" answer) and says
        where, raising ``ValueError`` or ``OSError`` when it cannot."""
        self.load = load
        self.engine = load()
        self.loaded = time.monotonic()
        self.session = session
        self.directory = directory
        self.state = state
        self.tty_path = tty_path
        self.relay = relay
        self.parent = parent
        self.report = report
        self.emit = emit
        self.observe = observe or (lambda event, request, text: None)
        self.remote = remote
        self.always = always
        self.started = time.time()
        self.dialog_open = False
        self._rejected = ""  # why the session's grant file was last rejected (logged once)
        self._not_reloaded = ""  # why the policy was last not reloaded (logged once)
        self.inbound = (inbound or _local)(self)
        self._busy: dict[str, tuple[Request, Reply]] = {}
        self._tickets: dict[str, Ticket] = {}  # asks shown to the remote human, by request id
        self._answered: dict[str, tuple[str, dict[str, Any]]] = {}  # id -> (nonce, response)
        self._lock = threading.Lock()
        self.dialog_lock = threading.Lock()  # one terminal dialog at a time

    def describe(self) -> dict[str, Any]:
        """What a ping is answered with."""
        return {"session": self.session, "pid": os.getpid(), "started": self.started,
                "dir": self.directory, "relay": self.relay}  # fmt: skip

    # -- reporting ---------------------------------------------------------------------------

    def write(self, event: str, fields: dict[str, Any]) -> None:
        if self.report is not None:
            self.report(event, fields)

    def fields(self, request: Request) -> dict[str, Any]:
        """The review log's fields naming ``request``: its ids, requester, tool and value."""
        who = request.requester
        first = request.gates[0] if request.gates else None
        return {
            "requestId": request.id, "askId": request.ask_id, "requesterSession": who.session,
            "requesterAgent": who.agent, "requesterAgentId": who.agent_id, "host": who.host,
            "machine": who.machine,
            "responderSession": self.session, "tool": who.tool,
            "surface": first.surface if first else who.surface,
            "value": first.value if first else who.value, "cwd": who.cwd, "via": list(request.via),
        }  # fmt: skip

    def publish(self, kind: str, payload: dict[str, Any]) -> None:
        """Emit an event (``ui_prompt``, ``decision``) through the caller's ``emit``."""
        if self.emit is not None:
            self.emit(kind, payload)

    def forwarding_fields(self, request: Request) -> dict[str, Any]:
        """An event's ``forwarding`` object: the requester's provenance and its gates."""
        return {**request.requester.as_json(), "requesterSession": request.requester.session,
                "requesterAgent": request.requester.agent, "responderSession": self.session,
                "via": list(request.via),
                "gates": [{"surface": g.surface, "values": list(g.values), "sentinel": g.sentinel}
                          for g in request.gates]}  # fmt: skip

    def _refused_peer(self, why: str, pid: int) -> None:
        """The transport refused a connection, or found its directory unsafe."""
        self.write(events.FILE_REJECTED,
                   {"responderSession": self.session, "why": why, "peerPid": pid})  # fmt: skip
        self.observe("notice", None, f"refused: {why}")

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Take the session and listen; raises ``OSError`` saying why it cannot serve."""
        self.inbound.open()
        self.write(events.SERVING_STARTED, {
            "responderSession": self.session, "pid": os.getpid(), "dir": self.directory,
            "human": self.tty_path is not None, "relay": self.relay,
        })  # fmt: skip

    def stop(self, why: str = "stopped") -> None:
        """Deny what is still waiting on this session, stop listening."""
        with self._lock:
            busy = list(self._busy.values())
            self._busy.clear()
        for request, reply in busy:
            reason = (f"No one could approve this: the serving session '{self.session}' stopped "
                      f"({why}) before anyone answered.")  # fmt: skip
            verdict = Verdict("deny", reason, decided_by="unavailable",
                              resolution="confirmation_unavailable")  # fmt: skip
            self.answer(request, reply, verdict, None)
        self.inbound.close()
        self.write(events.SERVING_STOPPED,
                   {"responderSession": self.session, "pid": os.getpid(), "why": why})  # fmt: skip

    def run(self, stop: threading.Event) -> None:
        """Serve until ``stop`` is set."""
        while not stop.is_set():
            self.step(0.25)

    def step(self, timeout: float = 0.0) -> int:
        """One pass: reload the policy when due, drop abandoned asks, receive and handle what
        arrived within ``timeout`` seconds."""
        now = time.monotonic()
        if now - self.loaded >= _RELOAD:
            try:
                self.engine, self.loaded = self.load(), now
                self._not_reloaded = ""
            except Exception as exc:  # keep the last good policy; said once until it changes
                self.loaded = now
                why = str(exc) or type(exc).__name__
                if why != self._not_reloaded:
                    self._not_reloaded = why
                    self.observe("notice", None, f"policy not reloaded: {why}")
                    self.write(events.POLICY_NOT_RELOADED,
                               {"responderSession": self.session, "why": why})  # fmt: skip
        self.watch()
        handled = 0
        for delivery in self.inbound.receive(timeout):
            self.deliver(delivery)
            handled += 1
        return handled

    # -- requesters that went away -----------------------------------------------------------

    def watch(self) -> int:
        """Abandon every request waiting for the human whose requester is gone."""
        with self._lock:
            busy = list(self._busy.values())
        gone = 0
        for request, reply in busy:
            if (reply.gone() or requester_gone(request)) and self.abandon(
                request, "while it waited for the human"
            ):
                gone += 1
        return gone

    def abandon(self, request: Request, when: str, *, held: bool = True) -> bool:
        """Discard ``request`` (its requester is gone) unanswered, withdraw it from the remote
        human and log it; False when it was already answered or abandoned."""
        if held:
            with self._lock:
                if self._busy.pop(request.id, None) is None:
                    return False
                ticket = self._tickets.get(request.id)
            if ticket is not None:
                ticket.withdraw(f"its requester (pid {request.pid}) is gone")
        self.write(events.ABANDONED, {
            **self.fields(request), "pid": request.pid,
            "why": f"the requester (pid {request.pid}) is gone; discarded {when}",
        })  # fmt: skip
        self.observe("answered", request, f"abandoned: its requester (pid {request.pid}) is gone")
        return True

    def withdrawn(self, request: Request, why: str) -> bool:
        """The requester's host gave up on ``request`` (``why``) while the requester itself
        still waits: abandon it, log it, and answer the requester with a deny (resolution
        ``abandoned``) so that it stops waiting; False when it was already answered."""
        with self._lock:
            held = self._busy.pop(request.id, None)
        if held is None:
            return False
        self.write(events.ABANDONED, {
            **self.fields(request), "pid": request.pid, "why": f"withdrawn: {why}",
        })  # fmt: skip
        self.observe("answered", request, f"abandoned: {why}")
        body = {
            "version": 1, "kind": "response", "id": request.id, "nonce": request.nonce,
            "approved": False, "state": "denied", "responder": self.session,
            "reason": f"No one could approve this: the request was abandoned ({why}).",
            "responded": time.time(), "decidedBy": "unavailable", "resolution": "abandoned",
        }  # fmt: skip
        with self._lock:
            self._answered[request.id] = (request.nonce, body)
        held[1].send(body)
        return True

    def waiting(self, request: Request) -> bool:
        """Whether ``request`` still waits for an answer (not abandoned, not stopped)."""
        with self._lock:
            held = self._busy.get(request.id)
        if held is None:
            return False
        if held[1].gone() or requester_gone(request):
            self.abandon(request, "while the human was answering")
            return False
        return True

    def show(self, request_id: str, ticket: Ticket) -> bool:
        """Remember the console's ``ticket`` for a waiting request (so that abandoning the
        request withdraws it); False when the request no longer waits."""
        with self._lock:
            self._tickets[request_id] = ticket
            return request_id in self._busy

    def hide(self, request_id: str) -> None:
        """Forget the ticket of an answered request."""
        with self._lock:
            self._tickets.pop(request_id, None)

    # -- receiving ---------------------------------------------------------------------------

    def deliver(self, delivery: Delivery) -> None:
        """One arrival: refuse what cannot be read, join or repeat what was sent again, resolve
        what is new."""
        request, reply = delivery.request, delivery.reply
        if request is None:
            self._refuse(reply, delivery.problem, delivery.peer)
            return
        if request.target != self.session:
            self._refuse(reply, f"the request is addressed to session '{request.target}'",
                         delivery.peer)  # fmt: skip
            return
        with self._lock:
            done = self._answered.get(request.id)
            held = self._busy.get(request.id)
            if held is not None and held[0].nonce == request.nonce:
                self._busy[request.id] = (held[0], reply)  # its requester reconnected
        if done is not None or held is not None:
            nonce = done[0] if done is not None else held[0].nonce  # type: ignore[index]
            if nonce != request.nonce:
                self._refuse(reply, "another request with this id was already received",
                             delivery.peer)  # fmt: skip
            elif done is not None:
                reply.send(done[1])  # answered before its requester lost the connection
                self.observe("notice", request, "sent the answer again after a reconnect")
            return
        if request.expires < time.time():
            self._refuse(reply, "the request expired before it was received", delivery.peer)
            return
        if requester_gone(request):
            self.abandon(request, "before it was resolved", held=False)
            return
        self.handle(request, reply)

    def _refuse(self, reply: Reply, why: str, peer: int) -> None:
        self.write(events.FILE_REJECTED,
                   {"responderSession": self.session, "why": why, "peerPid": peer})  # fmt: skip
        self.observe("notice", None, f"refused a request: {why}")
        reason = (
            f"No one could approve this: the serving session '{self.session}' refused the "
            f"request ({why})."
        )
        reply.send({"version": 1, "kind": "refused", "reason": reason})

    def session_grants(self) -> GrantStore:
        """This session's "whole session" grants, read fresh (other processes, and other
        instances of a broker's session, may add some): the transport's when it keeps them
        (the broker's hash), else the session's grants on disk."""
        shared = getattr(self.inbound, "session_grants", None)
        store = shared() if shared is not None else None
        if store is None:
            from clearance.decide.grant import DiskGrants

            store = DiskGrants(self.state, self.session)
        return store

    def resolve(self, request: Request) -> Resolution:
        policy = self.engine.policy
        grants = self.session_grants()
        from clearance.decide.grant import DiskGrants

        if isinstance(grants, DiskGrants) and grants.rejected and grants.why != self._rejected:
            # Not written by clearance: its grants are ignored; said once until it changes.
            from clearance.decide.grant import GRANTS_REJECTED, rejected_fields

            self._rejected = grants.why
            fields = rejected_fields(self.session, grants.path, grants.why)
            self.write(GRANTS_REJECTED, {**fields, **self.fields(request)})
        return resolve(request, policy.rules, yolo=policy.yolo, grants=grants, home=policy.home)

    def handle(self, request: Request, reply: Reply) -> None:
        try:
            resolution = self.resolve(request)
        except Exception as exc:  # fail closed
            from clearance._fault import describe

            reason = f"Denied: the serving session could not decide ({describe(exc)})"
            verdict = Verdict("deny", reason, decided_by="gate_error", resolution="gate_error")
            self.answer(request, reply, verdict, None)
            return
        if resolution.action != "ask":
            verdict = Verdict(resolution.action, resolution.reason,  # type: ignore[arg-type]
                              decided_by=resolution.decided_by,
                              resolution=resolution.resolution)  # fmt: skip
            self.answer(request, reply, verdict, resolution, automatic=True)
            return
        with self._lock:
            self._busy[request.id] = (request, reply)
        self.write(events.PROMPTED, {**self.fields(request),
                                                     "reason": resolution.reason})  # fmt: skip
        self.observe("pending", request, resolution.reason)
        worker = threading.Thread(target=self._escalate, args=(request, resolution), daemon=True)
        worker.start()

    def _escalate(self, request: Request, resolution: Resolution) -> None:
        """The worker thread of one ask: ask (:mod:`~clearance.authority.forwarding.escalation`),
        then answer the requester if it still waits."""
        from clearance.authority.forwarding.escalation import escalate

        verdict = escalate(self, request, resolution)
        if not self.waiting(request):  # gone while it was being asked: no answer, no grant
            return
        with self._lock:
            held = self._busy.pop(request.id, None)
        if held is not None:
            self.answer(request, held[1], verdict, resolution)

    def answer(
        self,
        request: Request,
        reply: Reply,
        verdict: Verdict,
        resolution: Resolution | None,
        *,
        automatic: bool = False,
    ) -> None:
        allow = verdict.action == "allow"
        if allow:
            state = "approved_for_session" if verdict.grants else "approved"
        else:
            state = "denied_with_reason" if verdict.resolution.endswith("with_reason") else "denied"
        reason = verdict.reason or ("Approved." if allow else "Denied.")
        body = {
            "version": 1, "kind": "response", "id": request.id, "nonce": request.nonce,
            "approved": allow, "state": state, "reason": reason, "responder": self.session,
            "responded": time.time(), "decidedBy": verdict.decided_by,
            "resolution": verdict.resolution,
        }  # fmt: skip
        if automatic:
            event = events.AUTO_APPROVED if allow else events.AUTO_DENIED
        else:
            event = events.APPROVED if allow else events.DENIED
        rule = resolution.rule if resolution is not None and automatic else None
        fields = {
            **self.fields(request), "decision": "allow" if allow else "deny", "reason": reason,
            "state": state, "resolution": verdict.resolution, "decidedBy": verdict.decided_by,
            "rule": None if rule is None else {"surface": rule.surface, "pattern": rule.pattern,
                                               "origin": rule.origin},
        }  # fmt: skip
        self.write(event, fields)  # logged before the child can see it
        with self._lock:
            self._answered[request.id] = (request.nonce, body)
            while len(self._answered) > _REMEMBER:
                del self._answered[next(iter(self._answered))]
        if not reply.send(body):
            self.observe("notice", request, "the requester was gone before the answer")
        self.publish("decision", {**fields, "result": fields["decision"],
                                  "agent": request.requester.agent,
                                  "session": request.requester.session,
                                  "forwarding": self.forwarding_fields(request)})  # fmt: skip
        self.observe(
            "answered", request, f"{event.removeprefix(events.FORWARDED_PREFIX)}: {reason}"
        )


def _local(server: Server) -> Inbound:
    from clearance.authority.forwarding.local import LocalInbound

    return LocalInbound(server.state, server.session, server.describe,
                        reject=server._refused_peer)  # fmt: skip
