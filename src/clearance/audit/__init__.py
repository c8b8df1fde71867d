"""clearance.audit: the review log, redaction, and the event bus with its consumers.

This ``__init__`` is the layer's contract (the sorted ``__all__``), but it imports nothing until
a name is used: the hook imports ``clearance.audit.log`` on every tool call, and each module
costs a few hundred microseconds there, so a package import must not pull in the bus, the
notifiers and the reader. Every module is light in any case: ``json``, ``subprocess``,
``urllib``, ``threading`` and ``datetime`` are imported inside the functions that need them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.audit.bus import Consumer, EventBus
    from clearance.audit.command_redaction import redact_command
    from clearance.audit.event import EVENT_KINDS, Event
    from clearance.audit.log import DEFAULT_FIELD_MAX_WIDTH, ReviewLog, default_log_path
    from clearance.audit.notify import (
        CommandConsumer,
        NotifyConfigError,
        WebhookConsumer,
        consumers_from_config,
    )
    from clearance.audit.reader import LogFilter, follow, format_line, parse_time, read_log
    from clearance.audit.redaction import ELLIPSIS, REDACTED, cap, redact, redact_fields
    from clearance.audit.request_id import new_request_id
    from clearance.audit.review_event import decision_of
    from clearance.audit.sensitive_name import is_sensitive_name

__all__ = [
    "DEFAULT_FIELD_MAX_WIDTH",
    "ELLIPSIS",
    "EVENT_KINDS",
    "REDACTED",
    "CommandConsumer",
    "Consumer",
    "Event",
    "EventBus",
    "LogFilter",
    "NotifyConfigError",
    "ReviewLog",
    "WebhookConsumer",
    "cap",
    "consumers_from_config",
    "decision_of",
    "default_log_path",
    "follow",
    "format_line",
    "is_sensitive_name",
    "new_request_id",
    "parse_time",
    "read_log",
    "redact",
    "redact_command",
    "redact_fields",
]

_HOMES = {
    "CommandConsumer": "notify",
    "Consumer": "bus",
    "DEFAULT_FIELD_MAX_WIDTH": "log",
    "ELLIPSIS": "redaction",
    "EVENT_KINDS": "event",
    "Event": "event",
    "EventBus": "bus",
    "LogFilter": "reader",
    "NotifyConfigError": "notify",
    "REDACTED": "redaction",
    "ReviewLog": "log",
    "WebhookConsumer": "notify",
    "cap": "redaction",
    "consumers_from_config": "notify",
    "decision_of": "review_event",
    "default_log_path": "log",
    "follow": "reader",
    "format_line": "reader",
    "is_sensitive_name": "sensitive_name",
    "new_request_id": "request_id",
    "parse_time": "reader",
    "read_log": "reader",
    "redact": "redaction",
    "redact_command": "command_redaction",
    "redact_fields": "redaction",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'clearance.audit' has no attribute {name!r}")
    value = getattr(__import__(f"clearance.audit.{home}", fromlist=(name,)), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
