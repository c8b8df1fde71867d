"""The names of review-log events and the closed vocabularies of their fields.

The writers live elsewhere (the gatekeeper in ``hosts``, forwarding in ``authority``, the
service); this module is the one list they and ``docs/audit-log.md`` agree on, but for the names
written by layers that cannot import ``audit``: forwarding's (``forwarded_permission.*``, in
``clearance._forwarded_events``) and ``GRANTS_REJECTED`` (``decide/grant.py``). Fields common
to request events: ``requestId``, ``tool``, ``agent``, ``session``, ``surface``, ``value``,
``rule`` (``{"surface", "pattern", "origin"}`` or null), ``resolution``, ``decidedBy``.
"""

from __future__ import annotations

# The events of forwarding, written by ``authority/forwarding``, are named in a module beneath both.
from clearance._forwarded_events import FORWARDED_PREFIX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    DecidedBy = Literal[
        "rule", "user", "session_approval", "yolo", "authorizer", "unavailable", "gate_error"
    ]

__all__ = [
    "ALLOWED",
    "APPROVED",
    "AUTO_APPROVED",
    "BLOCKED",
    "DECIDED_BY",
    "DELEGATED",
    "DENIED",
    "FORWARDED_PREFIX",
    "GATE_ERROR",
    "NOTIFY_ERROR",
    "REQUEST_EVENTS",
    "RESOLUTIONS",
    "SESSION_APPROVED",
    "WAITING",
    "decision_of",
]

WAITING = "permission_request.waiting"
APPROVED = "permission_request.approved"
DENIED = "permission_request.denied"
BLOCKED = "permission_request.blocked"
SESSION_APPROVED = "permission_request.session_approved"
AUTO_APPROVED = "permission_request.auto_approved"
ALLOWED = "permission_request.allowed"  # the policy allowed the call outright
DELEGATED = "permission_request.delegated"  # a host's own dialog takes the ask to its user
GATE_ERROR = "gate_error"
NOTIFY_ERROR = "notify.error"

REQUEST_EVENTS = (WAITING, APPROVED, DENIED, BLOCKED, SESSION_APPROVED, AUTO_APPROVED)
RESOLUTIONS = (
    "policy_allow",
    "policy_denied",
    "session_approved",
    "auto_approved",
    "user_approved",
    "user_approved_for_session",
    "user_denied",
    "user_denied_with_reason",
    "authorizer_allowed",
    "authorizer_denied",
    "confirmation_unavailable",
    "gate_error",
    "host_dialog",
)
DECIDED_BY = ("rule", "user", "session_approval", "yolo", "authorizer", "unavailable", "gate_error")

_DECISION_BY_SUFFIX = {
    "waiting": "ask",
    "prompted": "ask",
    "approved": "allow",
    "session_approved": "allow",
    "auto_approved": "allow",
    "denied": "deny",
    "blocked": "deny",
    "auto_denied": "deny",
}


def decision_of(record: dict[str, object]) -> str | None:
    """``allow``, ``ask`` or ``deny`` for a log record, or ``None`` when it records no decision.

    An explicit ``decision`` field wins; else the event name says it (``…approved`` → allow,
    ``…denied``/``…blocked``/``gate_error`` → deny, ``…waiting``/``…prompted`` → ask).
    """
    explicit = record.get("decision")
    if explicit in ("allow", "ask", "deny"):
        return str(explicit)
    event = record.get("event")
    if not isinstance(event, str):
        return None
    if event == GATE_ERROR:
        return "deny"
    if event.startswith("permission_request.") or event.startswith(FORWARDED_PREFIX):
        return _DECISION_BY_SUFFIX.get(event.rpartition(".")[2])
    return None
