"""Capping and redaction: what of a log line's fields may reach the disk (or a webhook).

:func:`redact` returns a copy of a value made only of JSON types, where

* every string (keys included) is capped to ``max_width`` characters plus ``…`` (U+2026) — first,
  so a masked value is masked whole;
* a key whose name is sensitive (:func:`~clearance.audit.sensitive_name.is_sensitive_name`) has
  its non-null value replaced by ``"[redacted]"``, and nothing under it is visited;
* a command-bearing string — under ``command``, ``executed`` or ``executedUnit`` anywhere, or under
  ``value`` in an object whose ``surface`` or ``tool`` is ``bash`` — goes through
  :func:`~clearance.audit.command_redaction.redact_command` (a list of strings there is taken as
  an argument vector: :func:`~clearance.audit.command_redaction.redact_argv`);
* anything else is converted: :class:`~clearance._frozen.Frozen` values to objects of their
  fields, sets to lists, bytes and other objects to strings; nesting deeper than 32 levels is cut.
"""

from __future__ import annotations

from _collections_abc import Mapping

from clearance._frozen import Frozen
from clearance.audit.sensitive_name import REDACTED, is_sensitive_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["COMMAND_KEYS", "ELLIPSIS", "REDACTED", "cap", "redact", "redact_fields"]

ELLIPSIS = "\u2026"
COMMAND_KEYS = frozenset({"command", "executed", "executedUnit"})
_MAX_DEPTH = 32
_TOO_DEEP = "[too deep]"


def cap(text: str, width: int | None) -> str:
    """``text`` cut to ``width`` characters plus ``…`` when longer; ``None`` means no cap."""
    if width is None or len(text) <= width:
        return text
    return text[:width] + ELLIPSIS


def redact(value: object, *, max_width: int | None = None) -> object:
    """A capped, redacted copy of ``value`` made of JSON types only."""
    return _value(value, max_width, False, 0)


def redact_fields(
    fields: Mapping[str, object], *, max_width: int | None = None
) -> dict[str, object]:
    """:func:`redact` for the top-level mapping of a log line or event payload."""
    return _mapping(fields, max_width, 0)


def _value(value: object, width: int | None, command: bool, depth: int) -> object:
    if isinstance(value, str):
        text = cap(value, width)
        if not command:
            return text
        # loaded only for a command: a line without one (a Read's) never needs the scanner
        from clearance.audit.command_redaction import redact_command

        return redact_command(text)
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if depth >= _MAX_DEPTH:
        return _TOO_DEEP
    if isinstance(value, Mapping):
        return _mapping(value, width, depth + 1)
    if isinstance(value, (list, tuple)):
        if command and all(isinstance(item, str) for item in value):
            from clearance.audit.command_redaction import redact_argv

            return redact_argv([cap(str(item), width) for item in value])
        return [_value(item, width, command, depth + 1) for item in value]
    if isinstance(value, Frozen):
        return _mapping({name: getattr(value, name) for name in value._fields}, width, depth + 1)
    if isinstance(value, (set, frozenset)):
        return [_value(item, width, command, depth + 1) for item in value]
    if isinstance(value, (bytes, bytearray)):
        return _value(bytes(value).decode("utf-8", "backslashreplace"), width, command, depth)
    try:
        text = str(value)
    except Exception:
        text = f"<unprintable {type(value).__name__}>"
    return _value(text, width, command, depth)


def _mapping(mapping: Mapping[Any, object], width: int | None, depth: int) -> dict[str, object]:
    bash = mapping.get("surface") == "bash" or mapping.get("tool") == "bash"
    out: dict[str, object] = {}
    for key, value in mapping.items():
        name = cap(key if isinstance(key, str) else str(key), width)
        if value is not None and is_sensitive_name(name):
            out[name] = REDACTED
        else:
            command = name in COMMAND_KEYS or (bash and name == "value")
            out[name] = _value(value, width, command, depth)
    return out
