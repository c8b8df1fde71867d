"""The child side: an agent with no human forwards its ask to a serving session and waits.

:class:`ForwardingAuthorizer` is the terminal authorizer's fallback (docs/approvals.md, "Who
answers an ask"): it answers
``allow`` or ``deny``, never ``defer``. Its target is the session named by
``CLEARANCE_PARENT_SESSION``, else the live serving session whose served directory holds the
call's cwd. It hands the request to a transport
(:class:`~clearance.authority.forwarding.transport.Transport`; the local socket by default) and
adopts the answer that comes back on it:

* an answer → adopt it (an approval "for this subagent only" hands the request's grants to the
  caller to record in the child's own session);
* the target not serving (no socket, its process gone) for :data:`GRACE` seconds, or silent for
  a few seconds → deny "Session '<id>' is not serving forwarded permission requests";
* the serving session refusing the request → deny with its reason;
* no answer within the timeout (``forwardingTimeoutMs``, default 10 minutes) → deny.

Every abandonment says why nobody approved (docs/forwarding.md, "Failure behaviour: every
abandonment says why"). It does not own: moving bytes (the
transport), resolving the request (the server), or recording grants (the gatekeeper records
``Verdict.grants``).
"""

from __future__ import annotations

import os
import time

from clearance import _forwarded_events as events

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from clearance.authority.ask import Ask, Requester, Verdict
    from clearance.authority.forwarding.protocol import Request, Response
    from clearance.authority.forwarding.transport import Beacon, Transport
    from clearance.decide.decision import Decision
    from clearance.decide.engine import Engine
    from clearance.policy.policy import Policy

__all__ = ["DEFAULT_TIMEOUT", "GRACE", "ForwardingAuthorizer", "forward_decision", "parent_session"]

DEFAULT_TIMEOUT = 600.0
GRACE = 2.0
# What a request copies for display (the reason, each gate's message, value and unit, the
# requester's value) is cut to this many characters; the match values are kept whole.
CAP = 4096


def cap(text: str, limit: int = CAP) -> str:
    """``text``, cut to ``limit`` characters with a marker saying how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [truncated: {len(text) - limit} more characters]"


def _cap_optional(text: str | None) -> str | None:
    return None if text is None else cap(text)


def parent_session(env: Mapping[str, str] | None = None) -> str | None:
    """The session named by ``CLEARANCE_PARENT_SESSION`` (blank or ``unknown`` is none)."""
    value = (os.environ if env is None else env).get("CLEARANCE_PARENT_SESSION", "").strip()
    return value if value and value.lower() != "unknown" else None


def _grace(env: Mapping[str, str]) -> float:
    try:
        return max(float(env.get("CLEARANCE_FORWARDING_GRACE_MS", "")) / 1000, 0.0)
    except ValueError:
        return GRACE


class ForwardingAuthorizer:
    """Forwards an ask to a serving session and adopts its answer."""

    __slots__ = (
        "_transport", "env", "forwarding", "grace", "host", "report", "state", "target",
        "timeout",
    )  # fmt: skip

    def __init__(
        self,
        *,
        state: str | None = None,
        target: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        grace: float | None = None,
        report: Callable[[str, dict[str, Any]], None] | None = None,
        env: Mapping[str, str] | None = None,
        transport: Transport | None = None,
        forwarding: object = None,
        host: str | None = None,
    ) -> None:
        """``target``: the serving session (default: ``CLEARANCE_PARENT_SESSION``, else found by
        the call's cwd); ``timeout`` and ``grace`` in seconds; ``report(event, fields)`` writes
        the review log; ``transport`` how requests travel (default: the local socket); ``host``
        what the requester runs in (a name of ``hosts.names.HOSTS``), shown to the serving human."""
        self.env = os.environ if env is None else env
        if state is None:
            from clearance.policy.state import state_root

            state = state_root(self.env)
        self.state = state
        self.target = target
        self.timeout = timeout
        self.grace = _grace(self.env) if grace is None else grace
        self.report = report or (lambda event, fields: None)
        self._transport = transport
        self.forwarding = forwarding
        self.host = host

    @property
    def transport(self) -> Transport:
        """The transport given, else the broker when one is configured (``CLEARANCE_BROKER``
        or ``forwarding.broker``), else the local socket."""
        if self._transport is None:
            if self.env.get("CLEARANCE_BROKER") or self.forwarding:
                from clearance.authority.forwarding.broker import (
                    BrokenBroker,
                    RedisTransport,
                    broker_config,
                )
                from clearance.policy.broker import BrokerSettingError

                try:
                    config = broker_config(self.forwarding, self.env)
                except BrokerSettingError as exc:  # fail closed, saying what to fix
                    self._transport = BrokenBroker(str(exc))
                    return self._transport
                if config is not None:
                    self._transport = RedisTransport(config, self.grace)
                    return self._transport
            from clearance.authority.forwarding.local_child import LocalTransport

            self._transport = LocalTransport(self.state, self.grace)
        return self._transport

    @classmethod
    def from_policy(
        cls,
        policy: Policy,
        *,
        state: str | None = None,
        report: Callable[[str, dict[str, Any]], None] | None = None,
        host: str | None = None,
    ) -> ForwardingAuthorizer:
        timeout = policy.setting("forwardingTimeoutMs", DEFAULT_TIMEOUT * 1000) / 1000
        return cls(state=state, timeout=float(timeout), report=report,
                   forwarding=policy.setting("forwarding"), host=host)  # fmt: skip

    # -- choosing the target -----------------------------------------------------------------

    def find_target(self, cwd: str, *, exclude: tuple[str, ...] = ()) -> str | None:
        """The session to forward to: the explicit one, else the parent named in the
        environment, else the live serving session serving ``cwd``."""
        target = self.target or parent_session(self.env)
        if target:
            return target
        scope = getattr(self.transport, "scope", None)  # the broker's configured session
        if isinstance(scope, str) and scope:
            return scope
        beacon = serving_for(self.transport.probe(), cwd, exclude=exclude)
        return beacon.session if beacon else None

    # -- the seam ----------------------------------------------------------------------------

    def authorize(self, ask: Ask) -> Verdict:
        from clearance.authority.terminal import unavailable

        call = ask.decision.call
        exclude = (call.session,) if call.session else ()
        target = self.find_target(call.cwd, exclude=exclude)
        if target is None:
            return unavailable(ask)
        if call.session and target == call.session:
            return unavailable(ask, f"Session '{target}' cannot forward an ask to itself.")
        return self.forward(self.request_for(ask, target))

    def request_for(self, ask: Ask, target: str) -> Request:
        """The request for ``ask``: every asking gate's facts and the grants "for this session"
        would record, with the requester's provenance."""
        from clearance.authority.ask import Requester
        from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce
        from clearance.decide.grant import Grant
        from clearance.decide.offer import offers

        decision = ask.decision
        call = decision.call
        asking = [g for g in decision.gates if g.action == "ask"]
        who = ask.requester or Requester(
            call.agent,
            call.session or f"pid-{os.getpid()}",
            os.path.abspath(call.cwd),
            call.kind,
            asking[0].surface if asking else None,
            asking[0].value if asking else None,
            self.host,
            call.agent_id,
        )
        requester = Requester(who.agent, who.session, who.cwd, who.tool, who.surface,
                              _cap_optional(who.value), who.host or self.host,
                              _cap_optional(who.agent_id), who.machine or _machine())  # fmt: skip
        # The match values travel whole (the serving session decides on them); what is only
        # shown is capped, so a long command is not copied into the request again and again.
        gates = tuple(
            GateFact(
                g.gate,
                g.surface,
                cap(g.value),
                tuple(g.values) or (g.value,),
                g.sentinel,
                _cap_optional(g.unit),
                cap(g.message),
            )
            for g in asking
        )
        firsts = [s[0] for _, s in offers(decision)]
        grants = tuple(dict.fromkeys(Grant(s.surface, s.pattern) for s in firsts
                                     if len(s.pattern) <= CAP))  # fmt: skip
        now = time.time()
        return Request(
            id=new_id(), nonce=new_nonce(), target=target, created=now,
            expires=now + self.timeout, requester=requester, reason=cap(decision.reason),
            gates=gates, grants=grants, ask_id=ask.request_id,
        )  # fmt: skip

    def forward(self, request: Request) -> Verdict:
        """Send ``request`` to its target and wait for the answer (or a reason why none will
        come)."""
        from clearance._json import encode_json_types
        from clearance.authority.forwarding.private import MAX_MESSAGE
        from clearance.authority.forwarding.transport import Refused, TimedOut, Unreachable

        target = request.target
        fields = _fields(request)
        size = len(encode_json_types(request.as_json()))  # ASCII: characters are bytes
        if size > MAX_MESSAGE:  # the serving session would not read it: say so now, not later
            why = f"{size} bytes, more than the {MAX_MESSAGE} a serving session reads"
            self.report(events.FILE_REJECTED, {**fields, "why": why})
            return _abandon(f"this call is too large to forward to session '{target}' (the "
                            f"request would be {why}); split it into smaller ones.")  # fmt: skip
        self.report(events.REQUEST_CREATED, fields)
        started = time.monotonic()
        until = started + max(request.expires - time.time(), 0.0)
        try:
            response = self.transport.exchange(request, until)
        except Unreachable as exc:
            if exc.why == "unsafe":
                self.report(events.FILE_REJECTED,
                            {**fields, "why": f"unsafe inbox: {exc.detail}"})  # fmt: skip
                return _abandon(f"Permission forwarding directories for session '{target}' "
                                f"could not be used ({exc.detail}).")  # fmt: skip
            self.report(events.NO_SERVING_SESSION,
                        {**fields, "liveness": exc.why})  # fmt: skip
            return _abandon(f"Session '{target}' is not serving forwarded permission requests "
                            f"({exc.detail or _LIVENESS[exc.why]}).")  # fmt: skip
        except Refused as exc:
            self.report(events.FILE_REJECTED, {**fields, "why": exc.reason})
            reason = exc.reason
            return _abandon(reason.removeprefix("No one could approve this: "))
        except TimedOut:
            waited = time.monotonic() - started
            self.report(events.RESPONSE_TIMED_OUT,
                        {**fields, "waitedMs": int(waited * 1000)})  # fmt: skip
            return _abandon(f"Session '{target}' did not answer within {waited:.0f}s.")
        return self._adopt(request, response, fields)

    def _adopt(self, request: Request, response: Response, fields: dict[str, Any]) -> Verdict:
        from clearance.authority.ask import Verdict

        self.report(events.RESPONSE_RECEIVED, {
            **fields, "responderSession": response.responder, "state": response.state,
            "decision": "allow" if response.approved else "deny",
            "resolution": response.resolution, "decidedBy": response.decided_by,
        })  # fmt: skip
        resolution = response.resolution or ("approved" if response.approved else "denied")
        if response.approved:
            grants = request.grants if response.state == "approved_for_session" else ()
            reason = response.reason or f"Approved by serving session '{response.responder}'."
            return Verdict("allow", reason, decided_by="forwarded", resolution=resolution,
                           grants=grants)  # fmt: skip
        reason = response.reason or f"Denied by serving session '{response.responder}'."
        return Verdict("deny", reason, decided_by="forwarded", resolution=resolution)


def forward_decision(
    engine: Engine,
    decision: Decision,
    request_id: str,
    *,
    report: Callable[[str, dict[str, Any]], None] | None = None,
    max_wait: float | None = None,
    host: str | None = None,
) -> Verdict | None:
    """Forward an asking ``decision`` for hosts that do not run the authorizer chain (a hook
    whose host has its own dialog): the verdict — with "this subagent only" grants already
    recorded in the call's session — or ``None`` when no session serves the call: none is named
    or found, or the named one (``CLEARANCE_PARENT_SESSION``) is not alive when asked (no
    request is written then, and the host can fall back to its own dialog). ``max_wait`` caps
    the wait (seconds) below the host's own deadline; ``host`` names the host in the request's
    provenance."""
    from clearance.authority.ask import Ask
    from clearance.authority.forwarding.transport import Unreachable

    call = decision.call
    forwarding = ForwardingAuthorizer.from_policy(engine.policy, state=engine.state, report=report,
                                                  host=host)  # fmt: skip
    if max_wait is not None:
        # The host kills its hook after a while and may then let the call run: give up first.
        forwarding.timeout = max(0.0, min(forwarding.timeout, max_wait))
    target = forwarding.find_target(call.cwd, exclude=(call.session,) if call.session else ())
    if target is None or target == call.session:
        return None
    try:
        forwarding.transport.probe(target)
        why = "alive"
    except Unreachable as exc:
        why = exc.why
    if why != "alive":
        if report is not None:
            report(events.NO_SERVING_SESSION, {
                "askId": request_id, "requesterSession": call.session,
                "requesterAgent": call.agent, "targetSession": target, "liveness": why,
                "written": False,
            })  # fmt: skip
        return None
    verdict = forwarding.forward(forwarding.request_for(Ask(decision, request_id), target))
    if verdict.action == "allow" and verdict.grants:
        store = engine.grants_for(call.session)
        if store is not None:
            store.add(verdict.grants)
    return verdict


_LIVENESS = {
    "absent": "nothing is listening on its socket",
    "dead_pid": "its process is gone",
    "stale": "its heartbeat went silent",
    "unsafe": "its socket could not be trusted",
}


def _contains(directory: str, cwd: str) -> bool:
    directory = directory.rstrip("/") or "/"
    return cwd == directory or cwd.startswith(directory if directory == "/" else directory + "/")


def serving_for(beacons: list[Beacon], cwd: str, *, exclude: tuple[str, ...] = ()) -> Beacon | None:
    """The live serving session whose served directory (as it says over the transport) holds
    ``cwd`` most closely: the deepest directory, the most recently started on a tie; not one of
    ``exclude``."""
    cwd = os.path.abspath(cwd)
    real = os.path.realpath(cwd)
    found = [b for b in beacons if b.session not in exclude
             and (_contains(b.directory, cwd) or _contains(b.directory, real))]  # fmt: skip
    if not found:
        return None
    return max(found, key=lambda b: (len(b.directory), b.started))


def _fields(request: Request) -> dict[str, Any]:
    who: Requester = request.requester
    first = request.gates[0] if request.gates else None
    return {
        "requestId": request.id,
        "askId": request.ask_id,
        "requesterSession": who.session,
        "requesterAgent": who.agent,
        "host": who.host,
        "requesterAgentId": who.agent_id,
        "targetSession": request.target,
        "tool": who.tool,
        "surface": first.surface if first else who.surface,
        "value": first.value if first else who.value,
        "cwd": who.cwd,
        "via": list(request.via),
    }


def _abandon(reason: str) -> Verdict:
    from clearance.authority.ask import Verdict

    return Verdict("deny", f"No one could approve this: {reason}", decided_by="unavailable",
                   resolution="confirmation_unavailable")  # fmt: skip


def _machine() -> str | None:
    """This machine's name, as a request carries it (``None`` when it is not a plain host name)."""
    from clearance.authority.forwarding.protocol import is_machine

    name = os.uname().nodename
    return name if is_machine(name) else None
