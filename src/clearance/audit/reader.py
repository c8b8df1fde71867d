"""Reading the review log back, for ``clearance log``: filter, follow, render one line.

Reading is tolerant: a line that is not a JSON object (garbage, or a last line cut short by a
crash) is skipped, never an error. ``json`` and ``datetime`` are imported only when reading, so
importing this module stays cheap for the package's ``__init__``.
"""

from __future__ import annotations

import os
import time

from clearance._frozen import Frozen
from clearance.audit.review_event import decision_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Iterable, Iterator
    from datetime import datetime
    from typing import Any, BinaryIO

    Time = str | datetime | None

__all__ = ["LogFilter", "follow", "format_line", "parse_time", "read_log", "record_stamp"]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_set = object.__setattr__


def parse_time(text: str, *, now: float | None = None) -> datetime:
    """An aware UTC datetime from ISO-8601 (naive = local time) or a span ago (``15m``, ``2h``)."""
    from datetime import UTC, datetime, timedelta

    spelled = text.strip()
    unit = _UNITS.get(spelled[-1:])
    if unit is not None:
        try:
            amount = float(spelled[:-1])
        except ValueError:
            amount = -1.0
        if amount >= 0:
            moment = time.time() if now is None else now
            return datetime.fromtimestamp(moment, UTC) - timedelta(seconds=amount * unit)
    try:
        parsed = datetime.fromisoformat(spelled)
    except ValueError:
        raise ValueError(
            f"invalid time {text!r}: expected ISO-8601 such as 2025-01-31T09:00 (local time "
            "unless it ends in Z or an offset) or a span ago such as 30s, 15m, 2h, 1d, 1w"
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.astimezone()
    return parsed.astimezone(UTC)


class LogFilter(Frozen):
    """Which records to keep; every given criterion must hold (``None`` = any)."""

    __slots__ = ("decision", "events", "session", "since", "tool", "until")
    events: tuple[str, ...] | None
    tool: str | None
    decision: str | None
    session: str | None
    since: str | None
    until: str | None

    def __init__(
        self,
        *,
        events: Iterable[str] | None = None,
        tool: str | None = None,
        decision: str | None = None,
        session: str | None = None,
        since: Time = None,
        until: Time = None,
    ) -> None:
        _set(self, "events", None if events is None else tuple(events))
        _set(self, "tool", tool)
        _set(self, "decision", decision)
        _set(self, "session", session)
        _set(self, "since", _stamp(since))
        _set(self, "until", _stamp(until))

    def matches(self, record: dict[str, Any]) -> bool:
        if self.events is not None and not _event_matches(record.get("event"), self.events):
            return False
        if self.tool is not None and record.get("tool") != self.tool:
            return False
        if self.session is not None and record.get("session") != self.session:
            return False
        if self.decision is not None and self.decision not in (
            decision_of(record),
            record.get("resolution"),
        ):
            return False
        if self.since is None and self.until is None:
            return True
        stamp = record_stamp(record.get("timestamp"))
        if stamp is None:
            return False
        return (self.since is None or stamp >= self.since) and (
            self.until is None or stamp <= self.until
        )


def read_log(
    path: str,
    *,
    events: Iterable[str] | None = None,
    tool: str | None = None,
    decision: str | None = None,
    session: str | None = None,
    since: Time = None,
    until: Time = None,
) -> Iterator[dict[str, Any]]:
    """The records of the log at ``path`` that pass the filter, oldest first (none if absent)."""
    keep = LogFilter(
        events=events, tool=tool, decision=decision, session=session, since=since, until=until
    )
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below, after the check
    except FileNotFoundError:
        return
    with handle:
        for raw in handle:
            record = _parse(raw)
            if record is not None and keep.matches(record):
                yield record


def follow(
    path: str,
    *,
    events: Iterable[str] | None = None,
    tool: str | None = None,
    decision: str | None = None,
    session: str | None = None,
    since: Time = None,
    until: Time = None,
    from_start: bool = False,
    poll_interval: float = 0.1,
    stop: Callable[[], bool] | None = None,
) -> Generator[dict[str, Any], None, None]:
    """Records appended to ``path`` from now on (all of them with ``from_start``), as they come.

    Polls every ``poll_interval`` seconds; waits for a missing file; starts over when the file is
    replaced or truncated; holds a partial last line until its newline arrives. Runs until
    ``stop()`` is true (checked every poll) or the consumer stops iterating.
    """
    keep = LogFilter(
        events=events, tool=tool, decision=decision, session=session, since=since, until=until
    )
    handle: BinaryIO | None = None
    pending = b""
    try:
        while stop is None or not stop():
            if handle is None:
                handle = _open_existing(path)
                pending = b""
                if handle is not None and not from_start:
                    handle.seek(0, os.SEEK_END)
                from_start = True  # a file that appears later is read whole
            chunk = handle.read(65536) if handle is not None else b""
            if chunk:
                lines = (pending + chunk).split(b"\n")
                pending = lines.pop()
                for raw in lines:
                    record = _parse(raw)
                    if record is not None and keep.matches(record):
                        yield record
                continue
            if handle is not None and _replaced(path, handle):
                handle.close()
                handle = None
                continue
            time.sleep(poll_interval)
    finally:
        if handle is not None:
            handle.close()


def format_line(record: dict[str, Any]) -> str:
    """One human line: time, event, tool, value, decision, rule (and who decided).

    Every field is escaped (:func:`clearance._display.escape`): a log line holds agent text.
    """
    from clearance._display import escape

    parts = [escape(str(record.get("timestamp", "?"))), escape(str(record.get("event", "?")))]
    tool = record.get("tool")
    if tool:
        parts.append(escape(str(tool)))
    value = next((record[k] for k in ("value", "command", "path") if record.get(k)), None)
    if value is not None:
        parts.append(_quote(str(value), 80))
    decision = decision_of(record)
    if decision:
        parts.append(escape(decision))
    session = record.get("session")
    if session:
        parts.append(f"session {escape(str(session))}")
    rule = record.get("rule")
    if isinstance(rule, dict) and rule.get("surface") is not None:
        origin = f" ({escape(str(rule['origin']))})" if rule.get("origin") else ""
        pattern = _quote(str(rule.get("pattern", "")), 60)
        parts.append(f"rule {escape(str(rule['surface']))} {pattern}{origin}")
    elif isinstance(rule, str) and rule:
        parts.append(f"rule {escape(rule)}")
    decided_by = record.get("decidedBy")
    if isinstance(decided_by, dict):
        decided_by = decided_by.get("kind")
    if decided_by:
        parts.append(f"by {escape(str(decided_by))}")
    reason = record.get("denialReason") or record.get("reason") or record.get("error")
    if reason:
        parts.append(f"— {_quote(str(reason), 80)}")
    return "  ".join(parts)


def _parse(raw: bytes) -> dict[str, Any] | None:
    import json

    try:
        record = json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _open_existing(path: str) -> BinaryIO | None:
    try:
        return open(path, "rb")
    except FileNotFoundError:
        return None


def _replaced(path: str, handle: BinaryIO) -> bool:
    try:
        current = os.stat(path)
    except FileNotFoundError:
        return True
    mine = os.fstat(handle.fileno())
    return (current.st_ino, current.st_dev) != (mine.st_ino, mine.st_dev) or (
        current.st_size < handle.tell()
    )


def _event_matches(event: object, wanted: tuple[str, ...]) -> bool:
    if not isinstance(event, str):
        return False
    from fnmatch import fnmatchcase

    for pattern in wanted:
        if event == pattern or fnmatchcase(event, pattern):
            return True
        if "." not in pattern and "*" not in pattern and event.startswith(pattern + "."):
            return True
    return False


def _stamp(moment: Time) -> str | None:
    """The log's own spelling of a moment, so records compare as strings."""
    if moment is None:
        return None
    if isinstance(moment, str):
        moment = parse_time(moment)
    elif moment.tzinfo is None:
        moment = moment.astimezone()
    from datetime import UTC

    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def record_stamp(value: object) -> str | None:
    """A record's ``timestamp`` as a sortable UTC stamp, or ``None`` when it is not one."""
    if not isinstance(value, str):
        return None
    if len(value) == 24 and value.endswith("Z") and value[10] == "T":
        return value
    try:
        return _stamp(value)
    except ValueError:
        return None


def _quote(text: str, width: int) -> str:
    from clearance._display import escape

    flat = escape(text)
    if len(flat) > width:
        flat = flat[: width - 1] + "…"
    return f'"{flat}"'
