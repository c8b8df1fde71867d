"""The review log: one JSON object per line in ``$state/logs/review.jsonl``.

A line is ``{"timestamp": "2025-01-31T09:15:02.123Z", "event": <name>, **fields}`` — fields
capped and redacted (:mod:`clearance.audit.redaction`), then encoded without ``json``
(:mod:`clearance._json`), because the hook writing it is a fresh process per tool call.

Guarantees (docs/audit-log.md, "Where it is"):

* one ``os.write`` per line on an ``O_APPEND`` descriptor, so concurrent writers on a local file
  system never interleave (a short write is reported, never retried: a retry could interleave);
* the directory is created 0700, the file 0600, and a file found looser is tightened;
* the log path is never followed when it is a symlink (``O_NOFOLLOW``), and anything but a regular
  file there (a FIFO, a device) is refused without blocking (``O_NONBLOCK``);
* :meth:`ReviewLog.write` never raises: a failure comes back as a warning string.

It does not own what the events mean (:mod:`clearance.audit.review_event`) or reading the log back
(:mod:`clearance.audit.reader`).
"""

from __future__ import annotations

import os
import time

from clearance._frozen import Frozen
from clearance._json import encode_json_types, encode_string
from clearance.audit.redaction import redact_fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DEFAULT_FIELD_MAX_WIDTH", "ReviewLog", "default_log_path", "iso_timestamp"]

DEFAULT_FIELD_MAX_WIDTH = 1000
_FIXED = frozenset({"timestamp", "event"})
_FLAGS = (
    os.O_WRONLY
    | os.O_APPEND
    | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NONBLOCK", 0)
)
_S_IFMT = 0o170000
_S_IFREG = 0o100000
_set = object.__setattr__


def iso_timestamp(now: float | None = None) -> str:
    """``2025-01-31T09:15:02.123Z`` for ``now`` (seconds since the epoch; default: the clock)."""
    millis = int((time.time() if now is None else now) * 1000)
    seconds, millis = divmod(millis, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


def default_log_path(state_root: str) -> str:
    """``<state_root>/logs/review.jsonl``."""
    return os.path.join(state_root, "logs", "review.jsonl")


class ReviewLog(Frozen):
    """Appends review events to the JSONL file at ``path``."""

    __slots__ = ("field_max_width", "path")
    path: str
    field_max_width: int

    def __init__(self, path: str, *, field_max_width: int = DEFAULT_FIELD_MAX_WIDTH) -> None:
        if field_max_width < 1:
            raise ValueError(f"field_max_width must be at least 1, got {field_max_width}")
        _set(self, "path", path)
        _set(self, "field_max_width", field_max_width)

    def render(self, event: str, fields: Mapping[str, object] | None = None) -> bytes:
        """The line :meth:`write` would append (``\\n`` included), with the clock read now."""
        head = f'{{"timestamp":"{iso_timestamp()}","event":{encode_string(event)}'
        if not fields:
            return (head + "}\n").encode("ascii")
        body = redact_fields(
            {key: value for key, value in fields.items() if key not in _FIXED},
            max_width=self.field_max_width,
        )
        if not body:
            return (head + "}\n").encode("ascii")
        return (head + "," + encode_json_types(body)[1:] + "\n").encode("ascii")

    def write(self, event: str, fields: Mapping[str, object] | None = None) -> str | None:
        """Append one event; return ``None``, or a warning saying why nothing was written."""
        try:
            line = self.render(event, fields)
        except Exception as exc:
            return f"clearance: review log: could not encode event {event!r}: {exc}"
        return self.append(line)

    def record(self, event: str, fields: Mapping[str, object] | None = None) -> None:
        """:meth:`write`, and a line that cannot be appended is said on stderr, so a decision
        never goes unrecorded in silence."""
        problem = self.write(event, fields)
        if problem is not None:
            import sys

            sys.stderr.write(
                f"{problem}; this {event} is missing from the review log "
                "(`clearance doctor` checks the log)\n"
            )

    def append(self, line: bytes) -> str | None:
        """Append an already rendered line with one ``write``; a warning on failure."""
        try:
            fd = self._open()
        except OSError as exc:
            if _is_symlink(self.path):
                return f"clearance: review log: {self.path} is a symlink; refusing to follow it"
            return f"clearance: review log: cannot open {self.path}: {exc.strerror or exc}"
        try:
            st = os.fstat(fd)
            if st.st_mode & _S_IFMT != _S_IFREG:
                return f"clearance: review log: {self.path} is not a regular file; not writing"
            if st.st_mode & 0o077:
                os.fchmod(fd, 0o600)
            written = os.write(fd, line)
        except OSError as exc:
            return f"clearance: review log: cannot write {self.path}: {exc.strerror or exc}"
        finally:
            os.close(fd)
        if written != len(line):
            return (
                f"clearance: review log: short write to {self.path} ({written}/{len(line)} bytes)"
            )
        return None

    def _open(self) -> int:
        try:
            return os.open(self.path, _FLAGS, 0o600)
        except FileNotFoundError:
            _make_private_dirs(os.path.dirname(self.path))
            return os.open(self.path, _FLAGS, 0o600)


def _is_symlink(path: str) -> bool:
    try:
        return os.lstat(path).st_mode & _S_IFMT == 0o120000
    except OSError:
        return False


def _make_private_dirs(path: str) -> None:
    """Create ``path`` and any missing parents, each with mode 0700."""
    if not path:
        return
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        return
    except FileNotFoundError:
        _make_private_dirs(os.path.dirname(path))
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            return
