"""The child side: an agent with no human forwards its ask to a serving session and waits.

:class:`ForwardingAuthorizer` is the terminal authorizer's fallback (DESIGN §5): it answers
``allow`` or ``deny``, never ``defer``. Its target is the session named by
``CLEARANCE_PARENT_SESSION``, else the live serving session whose served directory holds the
call's cwd. It writes the request atomically into the target's inbox, then waits for the response
(inotify, else polling), checking the target's heartbeat on every tick:

* a response echoing the request's id and nonce → adopt it (an approval "for this subagent only"
  hands the request's grants to the caller to record in the child's own session);
* a response that does not echo the nonce, or is not ours → ignored and logged, still waiting;
* the target not serving (no heartbeat, its pid gone, heartbeat silent for a few seconds) for
  :data:`GRACE` seconds → deny "Session '<id>' is not serving forwarded permission requests";
* no answer within the timeout (``forwardingTimeoutMs``, default 10 minutes) → deny.

Every abandonment says why nobody approved (notes §11.5). It does not own: resolving the request
(the server), or recording grants (the gatekeeper records ``Verdict.grants``).
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from clearance.authority.ask import Ask, Requester, Verdict
    from clearance.authority.forwarding.protocol import Request, Response
    from clearance.decide.decision import Decision
    from clearance.decide.engine import Engine
    from clearance.policy.policy import Policy

__all__ = ["DEFAULT_TIMEOUT", "GRACE", "ForwardingAuthorizer", "forward_decision", "parent_session"]

DEFAULT_TIMEOUT = 600.0
GRACE = 2.0
_TICK = 0.25
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

    __slots__ = ("env", "grace", "report", "state", "target", "timeout")

    def __init__(
        self,
        *,
        state: str | None = None,
        target: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        grace: float | None = None,
        report: Callable[[str, dict[str, Any]], None] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        """``target``: the serving session (default: ``CLEARANCE_PARENT_SESSION``, else found by
        the call's cwd); ``timeout`` and ``grace`` in seconds; ``report(event, fields)`` writes
        the review log."""
        self.env = os.environ if env is None else env
        if state is None:
            from clearance.policy.state import state_root

            state = state_root(self.env)
        self.state = state
        self.target = target
        self.timeout = timeout
        self.grace = _grace(self.env) if grace is None else grace
        self.report = report or (lambda event, fields: None)

    @classmethod
    def from_policy(
        cls,
        policy: Policy,
        *,
        state: str | None = None,
        report: Callable[[str, dict[str, Any]], None] | None = None,
    ) -> ForwardingAuthorizer:
        timeout = policy.setting("forwardingTimeoutMs", DEFAULT_TIMEOUT * 1000) / 1000
        return cls(state=state, timeout=float(timeout), report=report)

    # -- choosing the target -----------------------------------------------------------------

    def find_target(self, cwd: str, *, exclude: tuple[str, ...] = ()) -> str | None:
        """The session to forward to: the explicit one, else the parent named in the
        environment, else the live serving session serving ``cwd``."""
        target = self.target or parent_session(self.env)
        if target:
            return target
        from clearance.authority.forwarding.heartbeat import serving_for

        beat = serving_for(self.state, cwd, exclude=exclude)
        return beat.session if beat else None

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
        )
        requester = Requester(who.agent, who.session, who.cwd, who.tool, who.surface,
                              _cap_optional(who.value))  # fmt: skip
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
        """Write ``request`` into its target's inbox and wait for the answer (or a reason why
        none will come)."""
        from clearance._json import dumps
        from clearance.authority.forwarding.inbox import MAX_FILE, Inbox, write_private_json
        from clearance.authority.forwarding.wake import Waker

        target = request.target
        inbox = Inbox(self.state, target)
        fields = _fields(request)
        size = len(dumps(request.as_json()).encode("utf-8"))
        if size > MAX_FILE:  # the serving session would not read it: say so now, not at timeout
            why = f"{size} bytes, more than the {MAX_FILE} a serving session reads"
            self.report("forwarded_permission.file_rejected", {**fields, "why": why})
            return _abandon(f"this call is too large to forward to session '{target}' (the "
                            f"request would be {why}); split it into smaller ones.")  # fmt: skip
        try:
            inbox.prepare()
        except OSError as exc:
            return _abandon(f"Permission forwarding directories for session '{target}' could "
                            f"not be prepared ({exc}).")  # fmt: skip
        waker = Waker(inbox.responses)
        try:
            try:
                write_private_json(inbox.request_path(request.id), request.as_json())
            except FileNotFoundError:  # the serving session tidied its inbox away: once more
                inbox.prepare()
                write_private_json(inbox.request_path(request.id), request.as_json())
        except OSError as exc:
            waker.close()
            return _abandon(f"The forwarded permission request could not be written ({exc}).")
        self.report("forwarded_permission.request_created", {**fields, "wake": waker.mode})
        try:
            return self._wait(request, inbox, waker, fields)
        finally:
            waker.close()
            inbox.withdraw(request.id)

    def _wait(self, request: Request, inbox: Any, waker: Any, fields: dict[str, Any]) -> Verdict:
        from clearance.authority.forwarding.heartbeat import liveness, read_heartbeat

        target = request.target
        started = time.monotonic()
        deadline = started + max(request.expires - time.time(), 0.0)
        last_seen = started  # when the target was last judged alive
        next_check = started
        path = inbox.response_path(request.id)
        while True:
            response = self._read(path, request, fields)
            if response is not None:
                return self._adopt(request, response, fields)
            now = time.monotonic()
            if now >= next_check:
                why = liveness(read_heartbeat(self.state, target))
                if why == "alive":
                    last_seen = now
                elif now - last_seen >= self.grace:
                    self.report("forwarded_permission.no_serving_session",
                                {**fields, "liveness": why})  # fmt: skip
                    return _abandon(
                        f"Session '{target}' is not serving forwarded permission requests "
                        f"({_LIVENESS[why]})."
                    )
                next_check = now + _TICK
            if now >= deadline:
                waited = now - started
                self.report("forwarded_permission.response_timed_out",
                            {**fields, "waitedMs": int(waited * 1000)})  # fmt: skip
                return _abandon(f"Session '{target}' did not answer within {waited:.0f}s.")
            waker.wait(min(_TICK, deadline - now, max(next_check - now, 0.0)))

    def _read(self, path: str, request: Request, fields: dict[str, Any]) -> Response | None:
        from clearance.authority.forwarding.inbox import read_private_json
        from clearance.authority.forwarding.protocol import ProtocolError, Response

        try:
            data = read_private_json(path)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            self._reject(path, fields, str(exc))
            return None
        try:
            response = Response.from_json(data)
        except ProtocolError as exc:
            self._reject(path, fields, f"not a valid response: {exc}")
            return None
        if response.id != request.id or response.nonce != request.nonce:
            self._reject(path, fields, "the response does not echo this request's nonce")
            return None
        return response

    def _reject(self, path: str, fields: dict[str, Any], why: str) -> None:
        self.report("forwarded_permission.file_rejected", {**fields, "path": path, "why": why})
        try:
            os.unlink(path)
        except OSError:
            pass

    def _adopt(self, request: Request, response: Response, fields: dict[str, Any]) -> Verdict:
        from clearance.authority.ask import Verdict

        self.report("forwarded_permission.response_received", {
            **fields, "responderSession": response.responder, "state": response.state,
            "decision": "allow" if response.approved else "deny",
            "resolution": response.resolution, "decidedBy": response.decided_by,
        })  # fmt: skip
        resolution = response.resolution or ("approved" if response.approved else "denied")
        source = f"session {response.responder} ({response.decided_by})"
        if response.approved:
            grants = request.grants if response.state == "approved_for_session" else ()
            reason = response.reason or f"Approved by serving session '{response.responder}'."
            return Verdict("allow", reason, decided_by="forwarded", resolution=resolution,
                           grants=grants, source=source)  # fmt: skip
        reason = response.reason or f"Denied by serving session '{response.responder}'."
        return Verdict("deny", reason, decided_by="forwarded", resolution=resolution,
                       source=source)  # fmt: skip


def forward_decision(
    engine: Engine,
    decision: Decision,
    request_id: str,
    *,
    report: Callable[[str, dict[str, Any]], None] | None = None,
    max_wait: float | None = None,
) -> Verdict | None:
    """Forward an asking ``decision`` for hosts that do not run the authorizer chain (a hook
    whose host has its own dialog): the verdict — with "this subagent only" grants already
    recorded in the call's session — or ``None`` when no session serves the call: none is named
    or found, or the named one (``CLEARANCE_PARENT_SESSION``) is not alive when asked (no
    request is written then, and the host can fall back to its own dialog). ``max_wait`` caps
    the wait (seconds) below the host's own deadline."""
    from clearance.authority.ask import Ask
    from clearance.authority.forwarding.heartbeat import liveness, read_heartbeat

    call = decision.call
    forwarding = ForwardingAuthorizer.from_policy(engine.policy, state=engine.state, report=report)
    if max_wait is not None:
        # The host kills its hook after a while and may then let the call run: give up first.
        forwarding.timeout = max(0.0, min(forwarding.timeout, max_wait))
    target = forwarding.find_target(call.cwd, exclude=(call.session,) if call.session else ())
    if target is None or target == call.session:
        return None
    why = liveness(read_heartbeat(forwarding.state, target))
    if why != "alive":
        if report is not None:
            report("forwarded_permission.no_serving_session", {
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
    "absent": "no serving session has published a heartbeat for it",
    "dead_pid": "its process is gone",
    "stale": "its heartbeat went silent",
    "alive": "alive",
}


def _fields(request: Request) -> dict[str, Any]:
    who: Requester = request.requester
    first = request.gates[0] if request.gates else None
    return {
        "requestId": request.id,
        "askId": request.ask_id,
        "requesterSession": who.session,
        "requesterAgent": who.agent,
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
