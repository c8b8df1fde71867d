"""The review-log events of permission forwarding (``forwarded_permission.*``), named once.

``authority/forwarding`` writes them and ``audit`` (``review_event.decision_of``) and the
``clearance log`` filters read them; ``authority`` and ``audit`` sit side by side in the layers
(docs/architecture.md §1), so the names live here, beneath both (ADR 0034). What each event
means and carries is in docs/audit-log.md.
"""

from __future__ import annotations

__all__ = [
    "ABANDONED",
    "ALWAYS_RECORDED",
    "APPROVED",
    "AUTO_APPROVED",
    "AUTO_DENIED",
    "DENIED",
    "FILE_REJECTED",
    "FORWARDED_PREFIX",
    "NO_SERVING_SESSION",
    "POLICY_NOT_RELOADED",
    "PROMPTED",
    "REQUEST_CREATED",
    "RESPONSE_RECEIVED",
    "RESPONSE_TIMED_OUT",
    "SERVING_STARTED",
    "SERVING_STOPPED",
    "SESSION_RECORDED",
]

FORWARDED_PREFIX = "forwarded_permission."

# The requester's side (``child``).
REQUEST_CREATED = FORWARDED_PREFIX + "request_created"
RESPONSE_RECEIVED = FORWARDED_PREFIX + "response_received"
RESPONSE_TIMED_OUT = FORWARDED_PREFIX + "response_timed_out"
NO_SERVING_SESSION = FORWARDED_PREFIX + "no_serving_session"
# Either side: a request, a peer or a directory refused.
FILE_REJECTED = FORWARDED_PREFIX + "file_rejected"
# The serving side (``server``, ``reach``, the broker's inbound).
SERVING_STARTED = FORWARDED_PREFIX + "serving_started"
SERVING_STOPPED = FORWARDED_PREFIX + "serving_stopped"
PROMPTED = FORWARDED_PREFIX + "prompted"
ABANDONED = FORWARDED_PREFIX + "abandoned"
APPROVED = FORWARDED_PREFIX + "approved"
DENIED = FORWARDED_PREFIX + "denied"
AUTO_APPROVED = FORWARDED_PREFIX + "auto_approved"
AUTO_DENIED = FORWARDED_PREFIX + "auto_denied"
SESSION_RECORDED = FORWARDED_PREFIX + "session_recorded"
ALWAYS_RECORDED = FORWARDED_PREFIX + "always_recorded"
POLICY_NOT_RELOADED = FORWARDED_PREFIX + "policy_not_reloaded"
