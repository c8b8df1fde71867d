"""The terminal authorizer: the last word on an ask.

The local human when there is a terminal (the dialog on ``/dev/tty``); otherwise a fallback (a
serving session over forwarding, when one is configured); otherwise nobody — the call is denied
with ``confirmation_unavailable`` and a message that says no one could approve it and how to
allow it. Its answers are never ``defer``.
"""

from __future__ import annotations

from clearance.authority.ask import Verdict
from clearance.decide.grant import Grant

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from clearance.authority.ask import Ask
    from clearance.authority.authorizer import Authorizer
    from clearance.authority.prompt import Answer, Prompt
    from clearance.decide.decision import GateResult
    from clearance.decide.suggestion import Suggestion

__all__ = ["TerminalAuthorizer", "build_prompt", "unavailable", "verdict_from_answer"]

_DIRECTIONS = ("_read", "_write")


def _offers(ask: Ask) -> list[tuple[GateResult, tuple[Suggestion, ...]]]:
    from clearance.decide.offer import offers

    return offers(ask.decision)


def _single_direction(ask: Ask) -> bool:
    """Every asking gate is a path gate proving one and the same direction (docs/approvals.md, "The
    dialog")."""
    surfaces = ask.surfaces
    if not surfaces or not all(s.startswith(("path_", "external_directory_")) for s in surfaces):
        return False
    ends = {s.rsplit("_", 1)[1] for s in surfaces}
    return len(ends) == 1


def build_prompt(ask: Ask) -> Prompt:
    from clearance.authority.prompt import Prompt
    from clearance.decide.gates._message import describe_rule
    from clearance.decide.suggestion import both_directions_label

    decision = ask.decision
    asking = [g for g in decision.gates if g.action == "ask"]
    first = asking[0] if asking else None
    offers = _offers(ask)
    suggestions = tuple(s[0] for _, s in offers)
    both = None
    if _single_direction(ask) and suggestions:
        both = both_directions_label([(s.surface, s.pattern) for s in suggestions])
    requester = ask.requester
    title = "Permission Required (Subagent)" if requester else "Permission Required"
    who = requester.describe() if requester else (
        f"agent {decision.call.agent}" if decision.call.agent else None
    )  # fmt: skip
    value = first.value if first else decision.reason
    if first is not None and first.unit and first.unit != first.value:
        value = first.unit
    command = decision.call.field("command", "cmd") if decision.call.kind == "bash" else None
    if isinstance(command, str) and command.strip():
        value = command.strip()  # the whole line: nothing of it is hidden from the human
    units = tuple(dict.fromkeys(g.unit or g.value for g in asking))
    grants = tuple(dict.fromkeys(_shown(Grant(s.surface, s.pattern)) for s in suggestions))
    both_grants: tuple[str, ...] = ()
    if both is not None:
        both_grants = tuple(dict.fromkeys(_shown(g) for s in suggestions for g in _both(s)))
    return Prompt(
        title,
        who,
        decision.call.tool,
        value,
        describe_rule(first.rule) if first and first.rule else (first.sentinel if first else None),
        tuple(g.message for g in asking),
        suggestions,
        both,
        units,
        grants,
        both_grants,
    )


def _shown(grant: Grant) -> str:
    """A grant as the human sees it, and as ``granted_line`` reports it."""
    return f'{grant.surface} "{grant.pattern}"'


def granted_line(verdict: Verdict, session: str | None) -> str | None:
    """What the terminal says after a "for this session" answer: what was granted, for which
    session and for how long."""
    if not verdict.grants:
        return None
    what = ", ".join(_shown(g) for g in verdict.grants)
    if not session:
        return f"clearance: allowed {what} for this call only (the host gave no session id)"
    from clearance.decide.grant import SESSION_TTL

    hours = SESSION_TTL // 3600
    return (
        f"clearance: allowed {what} for session {session}, until the session has been unused "
        f"for {hours} hours (`clearance grants --clear {session}` ends it sooner)"
    )


def _both(grant: Suggestion) -> list[Grant]:
    surface = grant.surface
    for end in _DIRECTIONS:
        if surface.endswith(end):
            family = surface[: -len(end)]
            return [Grant(family + e, grant.pattern) for e in _DIRECTIONS]
    return [Grant(surface, grant.pattern)]


def verdict_from_answer(answer: Answer, ask: Ask) -> Verdict:
    if answer.choice in ("once", "always"):  # "always" wrote its rule already, if offered
        return Verdict("allow", decided_by="user", resolution="user_approved")
    if answer.choice in ("session", "session_both"):
        firsts = [s[0] for _, s in _offers(ask)]
        if answer.choice == "session":
            grants = [Grant(s.surface, s.pattern) for s in firsts]
        else:
            grants = [g for s in firsts for g in _both(s)]
        return Verdict("allow", decided_by="user", resolution="user_approved_for_session",
                       grants=tuple(dict.fromkeys(grants)))  # fmt: skip
    if answer.choice == "deny_reason" and answer.reason:
        return Verdict("deny", f"The user denied this: {answer.reason}", decided_by="user",
                       resolution="user_denied_with_reason")  # fmt: skip
    why = {
        "timeout": "nobody answered the permission dialog in time",
        "interrupted": "the permission dialog was interrupted",
        "eof": "the terminal went away",
        "escape": "the user dismissed the permission dialog",
    }.get(answer.reason or "", "the user denied this")
    return Verdict("deny", f"Denied: {why}.", decided_by="user", resolution="user_denied")


def _tell(tty_path: str, line: str) -> None:
    """One line on the terminal the human answered at (never fails the answer)."""
    from clearance.authority._screen import visible

    try:
        with open(tty_path, "w", encoding="utf-8", errors="replace") as tty:
            tty.write(visible(line) + "\n")
    except OSError:
        pass


def unavailable(ask: Ask, why: str = "") -> Verdict:
    decision = ask.decision
    offers = _offers(ask)
    hint = ""
    if offers:
        s = offers[0][1][0]
        hint = (
            f' To allow it, add "{s.pattern}": "allow" under "{s.surface}" in your clearance '
            "config, or run `clearance serve` in a terminal so this agent can ask you there."
        )
    reason = (
        f"No one could approve this: {decision.reason}. "
        + (why or "There is no terminal to ask on and no serving session.")
        + hint
    )
    return Verdict("deny", reason, decided_by="unavailable", resolution="confirmation_unavailable")


class TerminalAuthorizer:
    """The local human if there is a terminal, else ``fallback``, else nobody (deny)."""

    __slots__ = ("before_prompt", "double_press", "fallback", "timeout", "tty_path")

    def __init__(
        self,
        *,
        tty_path: str = "/dev/tty",
        double_press: bool = False,
        timeout: float | None = None,
        fallback: Authorizer | None = None,
        before_prompt: Callable[[Ask, Prompt], None] | None = None,
    ) -> None:
        self.tty_path = tty_path
        self.double_press = double_press
        self.timeout = timeout
        self.fallback = fallback
        self.before_prompt = before_prompt

    def authorize(self, ask: Ask) -> Verdict:
        from clearance.authority.dialog import NoTerminal, ask_on_terminal, terminal_available

        if self.tty_path and terminal_available(self.tty_path):
            prompt = build_prompt(ask)
            if self.before_prompt is not None:
                self.before_prompt(ask, prompt)
            try:
                answer = ask_on_terminal(
                    prompt, tty_path=self.tty_path, double_press=self.double_press,
                    timeout=self.timeout,
                )  # fmt: skip
            except NoTerminal:
                pass
            else:
                verdict = verdict_from_answer(answer, ask)
                line = granted_line(verdict, ask.decision.call.session)
                if line is not None:
                    _tell(self.tty_path, line)
                return verdict
        if self.fallback is not None:
            verdict = self.fallback.authorize(ask)
            if verdict.action != "defer":
                return verdict
        return unavailable(ask)
