"""Grant scopes of a forwarded ask: "this subagent only" or "the whole session"
(docs/forwarding.md, "Grant scopes").

The serving human sees the requester's own suggested patterns twice: ``s`` approves them for
**this subagent only** — the answer is ``approved_for_session`` and the requester records the
grants in its own session — and ``b`` for **the whole session** — the serving session records
them in its own grants (``forwarded_permission.session_recorded``) and answers plain
``approved``, so the requester's next identical call is forwarded again and approved by them.
"""

from __future__ import annotations

from clearance import _forwarded_events as events
from clearance.authority.ask import Verdict
from clearance.decide.suggestion import Suggestion

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.authority.ask import Ask
    from clearance.authority.forwarding.protocol import Request
    from clearance.authority.forwarding.server import Server
    from clearance.authority.prompt import Answer, Prompt

__all__ = ["forwarded_prompt", "reach_verdict"]


def _what(request: Request) -> str:
    items = [f'{g.surface} "{g.pattern}"' for g in request.grants]
    return items[0] if len(items) == 1 else f"{len(items)} patterns ({'; '.join(items)})"


def forwarded_prompt(ask: Ask, request: Request) -> Prompt:
    """The dialog for a forwarded ask: titled "Permission Required (Subagent)", naming the
    requester, with the two grant scopes in place of "for this session"."""
    from clearance.authority.terminal import build_prompt

    prompt: Prompt = build_prompt(ask)
    reasons = prompt.reasons
    if request.via:
        reasons = (*reasons, "Relayed by session " + " → ".join(request.via))
    if not request.grants:
        return prompt.replace(suggestions=(), both_label=None, reasons=reasons)  # type: ignore[no-any-return]
    first = request.grants[0]
    what = _what(request)
    only = Suggestion(first.surface, first.pattern, f"Yes, for this subagent only: {what}")
    whole = f"Yes, for the whole session: {what}"
    return prompt.replace(suggestions=(only,), both_label=whole, reasons=reasons)  # type: ignore[no-any-return]


def reach_verdict(answer: Answer, ask: Ask, request: Request, server: Server) -> Verdict:
    from clearance.authority.terminal import verdict_from_answer

    if answer.choice == "session":
        return Verdict("allow", "Approved for this subagent by the serving session's user.",
                       decided_by="user", resolution="user_approved_for_session",
                       grants=request.grants)  # fmt: skip
    if answer.choice == "session_both":
        try:
            server.session_grants().add(request.grants)
        except OSError as exc:  # fail closed: a scope that cannot be recorded approves nothing
            from clearance._fault import what

            reason = (f"Denied: the approval for the whole serving session could not be "
                      f"recorded ({what(exc)}); ask again.")  # fmt: skip
            return Verdict("deny", reason, decided_by="gate_error", resolution="gate_error")
        server.write(events.SESSION_RECORDED, {
            **server.fields(request),
            "grants": [{"surface": g.surface, "pattern": g.pattern} for g in request.grants],
        })  # fmt: skip
        reason = "Approved for the whole serving session by its user."
        return Verdict("allow", reason, decided_by="user",
                       resolution="user_approved_for_serving_session")  # fmt: skip
    if answer.choice == "always" and request.grants and server.always is not None:
        first = request.grants[0]
        try:
            where = server.always(first.surface, first.pattern)
        except (OSError, ValueError) as exc:
            where = f"not written: {exc}"
        server.write(events.ALWAYS_RECORDED, {
            **server.fields(request), "rule": {"surface": first.surface, "pattern": first.pattern},
            "where": where,
        })  # fmt: skip
        reason = f"Approved by the user of serving session '{server.session}'."
        return Verdict("allow", reason, decided_by="user", resolution="user_approved")
    if answer.choice in ("once", "always"):
        reason = f"Approved once by the user of serving session '{server.session}'."
        return Verdict("allow", reason, decided_by="user", resolution="user_approved")
    verdict: Verdict = verdict_from_answer(answer, ask)
    return verdict
