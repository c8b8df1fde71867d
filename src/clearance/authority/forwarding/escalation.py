"""Asking the serving session's human about one forwarded ask, on the ask's worker thread.

:func:`escalate` runs the serving session's configured authorizer chain, then its last word,
:class:`Escalation`: the human on the terminal dialog, titled "Permission Required (Subagent)"
and naming the requester, raced against the web console when there is one (the first answer
wins and the other prompt closes, :mod:`~clearance.authority.forwarding.remote`); with no human,
one hop up (:mod:`~clearance.authority.forwarding.relay`); else nobody, which denies. The answer's
scope ("this subagent only", "the whole session", "always") is applied by
:mod:`~clearance.authority.forwarding.reach`. What the :class:`~.server.Server` keeps — which
requests wait, which were answered, the review log — stays there; this module only asks.
"""

from __future__ import annotations

import time

from clearance.authority.ask import Ask, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.authority.forwarding.protocol import Request
    from clearance.authority.forwarding.remote import Ticket
    from clearance.authority.forwarding.resolution import Resolution
    from clearance.authority.forwarding.server import Server
    from clearance.authority.prompt import Answer, Prompt

__all__ = ["NO_HUMAN", "Escalation", "escalate", "forwarded_ask"]

NO_HUMAN = "there is no human at the serving session"


def escalate(server: Server, request: Request, resolution: Resolution) -> Verdict:
    """The verdict on an ask of the serving policy: the configured chain, then
    :class:`Escalation`; a failure denies (``gate_error``)."""
    from clearance.authority.authorizer import Chain

    try:
        ask = forwarded_ask(request, resolution)
        names = server.engine.policy.setting("authorizerChain", []) or []
        chain = Chain(names, Escalation(server, request, resolution), report=server.write)
        verdict: Verdict = chain.authorize(ask)
    except Exception as exc:  # fail closed
        from clearance._fault import describe

        verdict = Verdict("deny", f"Denied: the serving session failed while asking "
                          f"({describe(exc)})", decided_by="gate_error",
                          resolution="gate_error")  # fmt: skip
    return verdict


def forwarded_ask(request: Request, resolution: Resolution) -> Ask:
    """The ask shown to the serving human: the requester's facts, as the serving policy sees
    them, and the requester's provenance as data."""
    from clearance.decide.decision import Decision
    from clearance.intent.call import ToolCall

    who = request.requester
    call = ToolCall(who.tool or "tool", {}, who.cwd or "/", who.agent, who.session, who.agent_id)
    gates = resolution.gates
    decision = Decision("ask", resolution.reason or request.reason, resolution.rule, gates, call)
    return Ask(decision, request.ask_id or request.id, who)


class Escalation:
    """The serving session's terminal authorizer for one forwarded ask: its human, else one
    hop up (relay), else nobody."""

    __slots__ = ("request", "resolution", "server")

    def __init__(self, server: Server, request: Request, resolution: Resolution) -> None:
        self.server = server
        self.request = request
        self.resolution = resolution

    def authorize(self, ask: Ask) -> Verdict:
        from clearance.authority.dialog import terminal_available

        server = self.server
        tty = server.tty_path
        if tty is not None and terminal_available(tty):
            return self._ask_human(ask, tty)
        if server.remote is not None:
            return self._ask_human(ask, None)
        if server.relay:
            from clearance.authority.forwarding.relay import relay_up

            return relay_up(server, self.request)
        return Verdict("deny", f"No one could approve this: {NO_HUMAN} '{server.session}' "
                       "(it runs without a terminal).", decided_by="unavailable",
                       resolution="confirmation_unavailable")  # fmt: skip

    def _ask_human(self, ask: Ask, tty_path: str | None) -> Verdict:
        """Ask the human on ``tty_path`` and, when the server has one, the remote human too:
        the first answer wins and the other prompt closes."""
        from clearance.authority.forwarding.reach import forwarded_prompt, reach_verdict

        server, request = self.server, self.request
        prompt = forwarded_prompt(ask, request)
        if server.always is not None and request.grants:
            first = request.grants[0]
            label = f'Yes, always: {first.surface} "{first.pattern}" (written to your config)'
            prompt = prompt.replace(always_label=label)
        payload = {**server.fields(request), "agent": request.requester.agent,
                   "session": request.requester.session, "message": ask.decision.reason,
                   "forwarding": server.forwarding_fields(request)}  # fmt: skip
        ticket = None
        if server.remote is not None:
            ticket = server.remote.open(request, ask, prompt, self.resolution)
            payload["link"] = ticket.link  # where the console shows it (notifications)
            if not server.show(request.id, ticket):  # abandoned before the ticket was known
                ticket.withdraw("its requester is gone")
        server.publish("ui_prompt", payload)
        try:
            answer = self._first_answer(prompt, tty_path, ticket)
        finally:
            if ticket is not None:
                ticket.close("answered")
                server.hide(request.id)
        if ticket is not None and ticket.withdrawn:
            server.withdrawn(request, ticket.withdrawn)
            return Verdict("deny", "No one could approve this: the request was abandoned.",
                           decided_by="unavailable", resolution="abandoned")  # fmt: skip
        if not server.waiting(request):
            # Nobody waits for this answer any more (the requester died, or serving stopped):
            # record nothing — no grant for the whole session nobody needed.
            return Verdict("deny", "No one could approve this: the request was abandoned.",
                           decided_by="unavailable", resolution="abandoned")  # fmt: skip
        return reach_verdict(answer, ask, request, server)

    def _first_answer(self, prompt: Prompt, tty_path: str | None, ticket: Ticket | None) -> Answer:
        from clearance.authority.dialog import ask_on_terminal
        from clearance.authority.prompt import Answer

        server, request = self.server, self.request
        timeout = max(request.expires - time.time(), 0.0)
        if tty_path is None:
            deadline = time.monotonic() + timeout
            while ticket is not None and server.waiting(request):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                found = ticket.wait(min(left, 1.0))
                if found is not None:
                    return found
                if ticket.closed:  # withdrawn
                    break
            return Answer("deny", "timeout")
        with server.dialog_lock:  # one terminal dialog at a time; the console shows them all
            if ticket is not None and ticket.answer is not None:
                return ticket.answer  # answered on the console while another dialog was open
            server.dialog_open = True
            server.observe("dialog_open", request, "")
            try:
                answer = ask_on_terminal(
                    prompt, tty_path=tty_path,
                    double_press=bool(server.engine.policy.setting("doublePressToConfirm", False)),
                    timeout=max(request.expires - time.time(), 0.0),
                    cancel=None if ticket is None else ticket.decided,
                )  # fmt: skip
            finally:
                server.dialog_open = False
                server.observe("dialog_closed", request, "")
        if ticket is None or ticket.claim(answer, "terminal"):
            return answer
        if ticket.answer is not None:
            server.observe("notice", request, f"answered first on {ticket.by}")
            return ticket.answer
        return answer
