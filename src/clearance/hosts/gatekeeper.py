"""The gatekeeper: the whole path of one call, for any host (the generic Python API).

``decide(call)`` runs the engine; a deny is logged as ``blocked`` and refused without a prompt;
an ask left after session grants and yolo (both applied by the engine, ``decide/lift.py``) goes
to the authorizer chain and the last word; "for this session" answers are recorded as
grants. Every resolution is written to the review log and emitted as a ``decision`` event;
``ui_prompt`` is emitted exactly when a human is about to be asked. Any exception between the
call and the verdict denies the call and writes ``gate_error`` (fail closed).
"""

from __future__ import annotations

from clearance._frozen import Frozen
from clearance.audit import review_event as names
from clearance.audit.event_kind import DECISION, UI_PROMPT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from clearance.audit.bus import EventBus
    from clearance.audit.log import ReviewLog
    from clearance.authority.ask import Ask, Verdict
    from clearance.authority.authorizer import Authorizer
    from clearance.authority.prompt import Prompt
    from clearance.decide.decision import Decision
    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall
    from clearance.policy.policy import Policy

__all__ = ["Gatekeeper", "Outcome", "reporting"]

_set = object.__setattr__


class Outcome(Frozen):
    """The final answer for a call: ``allow``, ``deny`` or (a host's own dialog takes it)
    ``ask``, and how it was reached: what the hosts answer and ``clearance authorize`` prints.
    The engine's :class:`~clearance.decide.decision.Decision` is not part of it: the caller that
    needs it (a hook offering grants) holds it already."""

    __slots__ = ("action", "decided_by", "reason", "request_id", "resolution")
    action: str
    reason: str
    resolution: str
    decided_by: str
    request_id: str

    def __init__(
        self, action: str, reason: str, resolution: str, decided_by: str, request_id: str
    ) -> None:
        for name, value in (("action", action), ("reason", reason), ("resolution", resolution),
                            ("decided_by", decided_by), ("request_id", request_id)):  # fmt: skip
            _set(self, name, value)


def _scrub(decision: Decision | None, text: str) -> str:
    """``text`` with every shell command it quotes redacted (``API_KEY=…``, ``Authorization:``
    headers): the log redacts command fields itself, but reasons quote commands verbatim."""
    if decision is None or not text:
        return text
    command = decision.call.field("command")
    spans = {g.value for g in decision.gates if g.surface == "bash"}
    spans |= {u.text for u in decision.units}
    if isinstance(command, str):
        spans.add(command)
    for span in sorted(spans, key=len, reverse=True):
        if span and span in text:
            from clearance.audit.command_redaction import redact_command

            masked = redact_command(span)
            if masked != span:
                text = text.replace(span, masked)
    return text


def reporting(policy: Policy, state: str) -> tuple[ReviewLog | None, EventBus]:
    """The review log (unless ``"reviewLog": false``) and the event bus with the consumers
    ``notify`` configures; a bad ``notify`` block is logged and leaves the bus empty."""
    from clearance.audit.bus import EventBus
    from clearance.audit.log import ReviewLog, default_log_path

    log = None
    if policy.setting("reviewLog", True):
        width = policy.setting("reviewLogFieldMaxWidth", 1000)
        log = ReviewLog(default_log_path(state), field_max_width=width)
    consumers = []
    notify = policy.setting("notify")
    if notify:
        from clearance.audit.notify import NotifyConfigError, consumers_from_config

        try:
            consumers = consumers_from_config(notify)
        except NotifyConfigError as exc:
            if log is not None:
                log.write(names.NOTIFY_ERROR, {"message": f"notify is not used: {exc}"})
    return log, EventBus(consumers, log=log)


class Gatekeeper:
    """Decides calls end to end: policy, grants, yolo, authorizers, log and events."""

    __slots__ = ("authorizer", "bus", "engine", "host", "log")

    def __init__(
        self,
        engine: Engine,
        *,
        authorizer: Authorizer | None = None,
        log: ReviewLog | None = None,
        bus: EventBus | None = None,
        tty_path: str = "/dev/tty",
        last_word: Authorizer | None = None,
        host: str | None = "python",
    ) -> None:
        """``host`` names the host in a forwarded ask's provenance (``hosts.names.HOSTS``;
        ``python`` for a program calling this API).
        ``authorizer`` answers asks (default: the configured chain, then ``last_word`` — by
        default the human on ``tty_path``, else a serving session, else nobody); ``log`` and
        ``bus`` receive every resolution. A host with its own dialog passes a ``last_word`` that
        may answer ``defer``: the outcome is then ``ask``, for the host to put to its user."""
        self.engine = engine
        self.log = log
        self.bus = bus
        self.host = host
        self.authorizer = authorizer or self._default_authorizer(
            tty_path=tty_path, last_word=last_word
        )

    @classmethod
    def from_config(
        cls,
        engine: Engine,
        *,
        authorizer: Authorizer | None = None,
        tty_path: str = "/dev/tty",
        last_word: Authorizer | None = None,
        env: Mapping[str, str] | None = None,
        host: str | None = "python",
    ) -> Gatekeeper:
        """A gatekeeper with the review log, notifications and chain the policy configures."""
        from clearance.policy.state import state_root

        log, bus = reporting(engine.policy, engine.state or state_root(env))
        return cls(engine, authorizer=authorizer, log=log, bus=bus, tty_path=tty_path,
                   last_word=last_word, host=host)  # fmt: skip

    def _default_authorizer(self, *, tty_path: str, last_word: Authorizer | None) -> Authorizer:
        from clearance.authority.authorizer import Chain

        policy = self.engine.policy
        names = policy.setting("authorizerChain", []) or []
        if last_word is not None:
            return Chain(names, last_word, report=self.write)
        from clearance.authority.forwarding.child import ForwardingAuthorizer
        from clearance.authority.terminal import TerminalAuthorizer

        # No human here: forward to a serving session (docs/forwarding.md), else nobody can approve.
        forwarding = ForwardingAuthorizer.from_policy(
            policy, state=self.engine.state, report=self.write, host=self.host
        )
        local = TerminalAuthorizer(
            tty_path=tty_path,
            double_press=bool(policy.setting("doublePressToConfirm", False)),
            before_prompt=self._prompting,
            fallback=forwarding,
        )
        return Chain(names, local, report=self.write)

    # -- reporting ---------------------------------------------------------------------------

    def write(self, event: str, fields: dict[str, Any]) -> None:
        """One review-log line (no-op without a log; ``ReviewLog.record``)."""
        if self.log is not None:
            self.log.record(event, fields)

    def _report_rejected(self, call: ToolCall) -> None:
        """A session-grant file that failed its seal was ignored: say so in the review log."""
        rejected = self.engine.rejected_grants()
        if not rejected:
            return
        from clearance.decide.grant import GRANTS_REJECTED, rejected_fields

        for session, path, why in rejected:
            fields = {**rejected_fields(session, path, why), "tool": call.kind,
                      "agent": call.agent, "cwd": call.cwd}  # fmt: skip
            self.write(GRANTS_REJECTED, fields)

    def _fields(self, call: ToolCall, decision: Decision | None, request_id: str) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "requestId": request_id,
            "tool": call.kind,
            "agent": call.agent,
            "session": call.session,
            "cwd": call.cwd,
        }
        if decision is not None:
            deciding = decision.deciding or (decision.gates[0] if decision.gates else None)
            fields["surface"] = deciding.surface if deciding else None
            fields["value"] = deciding.value if deciding else None
            fields["rule"] = None if decision.rule is None else decision.rule.as_json()
        return fields

    def _emit(self, kind: str, payload: dict[str, Any]) -> None:
        if self.bus is None or not self.bus.consumers:
            return
        from clearance.audit.event import Event

        self.bus.emit(Event(kind, payload))  # type: ignore[arg-type]

    def _prompting(self, ask: Ask, prompt: Prompt) -> None:
        payload = self._fields(ask.decision.call, ask.decision, ask.request_id)
        payload["message"] = ask.decision.reason
        payload["forwarding"] = ask.requester.as_json() if ask.requester else None
        self._emit(UI_PROMPT, payload)

    def _finish(
        self,
        event: str,
        call: ToolCall,
        decision: Decision | None,
        request_id: str,
        action: str,
        reason: str,
        resolution: str,
        decided_by: str,
        extra: dict[str, Any] | None = None,
    ) -> Outcome:
        fields = self._fields(call, decision, request_id)
        fields.update(
            decision=action,
            reason=_scrub(decision, reason),
            resolution=resolution,
            decidedBy=decided_by,
        )
        if extra:
            fields.update(extra)
        self.write(event, fields)
        self._emit(DECISION, dict(fields))
        return Outcome(action, reason, resolution, decided_by, request_id)

    # -- deciding ----------------------------------------------------------------------------

    def decide(self, call: ToolCall) -> Outcome:
        from clearance.audit.request_id import new_request_id

        request_id = new_request_id()
        decision = None
        try:
            decision = self.engine.check(call)
            return self.resolve(call, decision, request_id)
        except Exception as exc:  # fail closed (ADR 0002)
            from clearance._fault import describe

            reason = f"Denied: clearance failed while deciding ({describe(exc)})"
            return self._finish(names.GATE_ERROR, call, decision, request_id, "deny", reason,
                                "gate_error", "gate_error")  # fmt: skip

    def resolve(self, call: ToolCall, decision: Decision, request_id: str | None = None) -> Outcome:
        """Everything after the engine (which applied grants and yolo): authorizers, log,
        events."""
        if request_id is None:
            from clearance.audit.request_id import new_request_id

            request_id = new_request_id()
        try:
            self._report_rejected(call)
            return self._resolve(call, decision, request_id)
        except Exception as exc:  # fail closed (ADR 0002)
            from clearance._fault import describe

            reason = f"Denied: clearance failed while deciding ({describe(exc)})"
            return self._finish(names.GATE_ERROR, call, decision, request_id, "deny", reason,
                                "gate_error", "gate_error")  # fmt: skip

    def _resolve(self, call: ToolCall, decision: Decision, request_id: str) -> Outcome:
        finish = self._finish
        from clearance.intent.sentinel import GATE_ERROR

        if decision.gates and decision.gates[0].gate == GATE_ERROR:
            return finish(names.GATE_ERROR, call, decision, request_id, "deny", decision.reason,
                          "gate_error", "gate_error")  # fmt: skip
        if decision.action == "deny":
            return finish(names.BLOCKED, call, decision, request_id, "deny",
                          decision.reason, "policy_denied", "rule")  # fmt: skip
        if decision.action == "allow":
            granted = [
                g for g in decision.gates if g.rule is not None and g.rule.origin == "session"
            ]
            if granted:
                rule = granted[0].rule
                assert rule is not None
                return finish(names.SESSION_APPROVED, call, decision, request_id,
                              "allow", decision.reason, "session_approved", "session_approval",
                              {"sessionApprovalPattern": rule.pattern})  # fmt: skip
            if any(g.rule is not None and g.rule.origin == "yolo" for g in decision.gates):
                return finish(names.AUTO_APPROVED, call, decision, request_id,
                              "allow", decision.reason, "auto_approved", "yolo")  # fmt: skip
            return finish(names.ALLOWED, call, decision, request_id, "allow",
                          decision.reason, "policy_allow", "rule")  # fmt: skip
        # An ask: what grants and yolo could lift, the engine lifted (``decide/lift.py``).
        from clearance.authority.ask import Ask

        ask = Ask(decision, request_id)
        self.write(names.WAITING,
                    {**self._fields(call, decision, request_id), "decision": "ask",
                     "reason": _scrub(decision, decision.reason)})  # fmt: skip
        verdict = self.authorizer.authorize(ask)
        return self._apply(call, decision, request_id, verdict)

    def _apply(
        self, call: ToolCall, decision: Decision, request_id: str, verdict: Verdict
    ) -> Outcome:
        if verdict.action == "defer":  # the host's own dialog will ask its user
            return self._finish(names.DELEGATED, call, decision, request_id,
                                "ask", decision.reason, "host_dialog", "host")  # fmt: skip
        if verdict.action == "allow":
            extra: dict[str, Any] = {}
            store = self.engine.grants_for(call.session) if verdict.grants else None
            # A call with no session id has no session to hold the grant: the answer covers
            # this call only. An engine may serve many sessions (the service caches engines
            # per project), so a store made on it here would reach every one of them.
            if store is not None:
                store.add(verdict.grants)
                extra["grants"] = [
                    {"surface": g.surface, "pattern": g.pattern} for g in verdict.grants
                ]
            reason = verdict.reason or "Approved."
            return self._finish(names.APPROVED, call, decision, request_id,
                                "allow", reason, verdict.resolution, verdict.decided_by,
                                extra)  # fmt: skip
        reason = verdict.reason or "Denied."
        return self._finish(names.DENIED, call, decision, request_id, "deny",
                            reason, verdict.resolution, verdict.decided_by)  # fmt: skip
