from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from clearance.audit.log import ReviewLog
from clearance.audit.reader import follow, format_line, parse_time, read_log

RECORDS: list[dict[str, Any]] = [
    {
        "timestamp": "2025-01-31T09:00:00.000Z",
        "event": "permission_request.waiting",
        "requestId": "r1",
        "tool": "bash",
        "session": "s1",
        "value": "git push",
    },
    {
        "timestamp": "2025-01-31T09:00:05.000Z",
        "event": "permission_request.approved",
        "requestId": "r1",
        "tool": "bash",
        "session": "s1",
        "value": "git push",
        "resolution": "approved",
        "decidedBy": "user",
    },
    {
        "timestamp": "2025-01-31T10:00:00.000Z",
        "event": "permission_request.blocked",
        "requestId": "r2",
        "tool": "read",
        "session": "s2",
        "value": "/x/.env",
        "resolution": "policy_denied",
        "decidedBy": "rule",
        "rule": {"surface": "path", "pattern": "*.env", "origin": "global"},
    },
    {
        "timestamp": "2025-01-31T11:00:00.000Z",
        "event": "gate_error",
        "tool": "edit",
        "session": "s1",
        "error": "boom",
    },
    {
        "timestamp": "2025-01-31T12:00:00.000Z",
        "event": "forwarded_permission.auto_approved",
        "requestId": "r3",
        "tool": "bash",
        "session": "s3",
        "value": "ls",
    },
]


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "review.jsonl"
    body = "".join(json.dumps(r) + "\n" for r in RECORDS[:2])
    body += "this is not json\n[1, 2]\n\n"
    body += "".join(json.dumps(r) + "\n" for r in RECORDS[2:])
    body += '{"timestamp": "2025-01-31T13:00:00.000Z", "event": "perm'  # cut short by a crash
    path.write_text(body)
    return path


def ids(records: object) -> list[tuple[object, object]]:
    return [(r["event"], r.get("requestId")) for r in records]  # type: ignore[attr-defined]


def test_reading_skips_garbage_and_a_truncated_last_line(log: Path) -> None:
    assert list(read_log(str(log))) == RECORDS


def test_a_missing_log_reads_as_empty(tmp_path: Path) -> None:
    assert list(read_log(str(tmp_path / "nope.jsonl"))) == []


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"events": ["gate_error"]}, [3]),
        ({"events": ["permission_request.*"]}, [0, 1, 2]),
        ({"events": ["forwarded_permission"]}, [4]),
        ({"events": ["gate_error", "permission_request.blocked"]}, [2, 3]),
        ({"tool": "bash"}, [0, 1, 4]),
        ({"session": "s1"}, [0, 1, 3]),
        ({"decision": "allow"}, [1, 4]),
        ({"decision": "deny"}, [2, 3]),
        ({"decision": "ask"}, [0]),
        ({"decision": "policy_denied"}, [2]),
        ({"since": "2025-01-31T10:00:00Z"}, [2, 3, 4]),
        ({"until": "2025-01-31T10:00:00Z"}, [0, 1, 2]),
        ({"since": datetime(2025, 1, 31, 9, 30, tzinfo=UTC), "until": "2025-01-31T11:30Z"}, [2, 3]),
        ({"tool": "bash", "session": "s1", "decision": "allow"}, [1]),
    ],
)
def test_filters_keep_only_matching_records(
    log: Path, filters: dict[str, object], expected: list[int]
) -> None:
    assert list(read_log(str(log), **filters)) == [RECORDS[i] for i in expected]  # type: ignore[arg-type]


def test_a_time_can_be_iso_or_a_span_ago() -> None:
    now = datetime(2025, 1, 31, 12, tzinfo=UTC).timestamp()
    assert parse_time("2h", now=now) == datetime(2025, 1, 31, 10, tzinfo=UTC)
    assert parse_time("90s", now=now) == datetime(2025, 1, 31, 11, 58, 30, tzinfo=UTC)
    assert parse_time("2025-01-31T09:15:00+01:00") == datetime(2025, 1, 31, 8, 15, tzinfo=UTC)
    assert parse_time("2025-01-31").tzinfo is not None


def test_an_unreadable_time_says_what_is_accepted() -> None:
    with pytest.raises(ValueError, match=r"ISO-8601 .* 15m"):
        parse_time("yesterday")


def test_a_record_renders_as_one_human_line() -> None:
    assert format_line(RECORDS[2]) == (
        '2025-01-31T10:00:00.000Z  permission_request.blocked  read  "/x/.env"  deny'
        '  session s2  rule path "*.env" (global)  by rule'
    )
    assert format_line({"timestamp": "t", "event": "gate_error", "error": "a\nb"}) == (
        't  gate_error  deny  — "a\\nb"'
    )
    assert format_line({}) == "?  ?"


class Polls:
    """``stop`` for :func:`follow`, which calls it once per poll: counts the polls, so a writer
    can wait until the follower has looked at the file again (no sleeping on a guess)."""

    def __init__(self, seconds: float = 10) -> None:
        self.deadline = time.monotonic() + seconds  # a fail-safe, not a timing assertion
        self.count = 0
        self.changed = threading.Condition()

    def __call__(self) -> bool:
        with self.changed:
            self.count += 1
            self.changed.notify_all()
        return time.monotonic() > self.deadline

    def two_more(self) -> None:
        """Return once a poll started after this call has finished: the follower has read
        everything written before it."""
        with self.changed:
            target = self.count + 2
            assert self.changed.wait_for(lambda: self.count >= target, timeout=10)


def test_following_yields_lines_appended_later_and_not_the_old_ones(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "review.jsonl"
    writer = ReviewLog(str(path))
    writer.write("old", {})
    polls = Polls()
    stream = follow(str(path), events=["new.*"], poll_interval=0.02, stop=polls)

    def append_later() -> None:
        polls.two_more()  # the follower has opened the file at its end
        writer.write("new.one", {"n": 1})
        writer.write("skipped", {})
        with open(path, "ab") as handle:  # a line arriving in two pieces
            handle.write(b'{"timestamp": "t", "event": "new.t')
            handle.flush()
            polls.two_more()  # the follower has read the first piece
            handle.write(b'wo", "n": 2}\n')

    thread = threading.Thread(target=append_later)
    thread.start()
    got = [next(stream)["n"], next(stream)["n"]]
    stream.close()
    thread.join()
    assert got == [1, 2]


def test_following_waits_for_a_missing_file_and_starts_over_after_truncation(
    tmp_path: Path,
) -> None:
    path = tmp_path / "review.jsonl"
    polls = Polls()
    stream = follow(str(path), poll_interval=0.02, stop=polls)
    read_both = threading.Event()

    def write_later() -> None:
        polls.two_more()  # the follower has found no file
        path.write_text('{"event": "a"}\n{"event": "b"}\n')
        assert read_both.wait(timeout=10)
        path.write_text('{"event": "c"}\n')  # truncated and rewritten, shorter

    thread = threading.Thread(target=write_later)
    thread.start()
    got = [next(stream)["event"], next(stream)["event"]]
    read_both.set()
    got.append(next(stream)["event"])
    stream.close()
    thread.join()
    assert got == ["a", "b", "c"]


def test_following_stops_when_told_to(tmp_path: Path) -> None:
    started = time.monotonic()
    assert (
        list(
            follow(
                str(tmp_path / "x"),
                poll_interval=0.01,
                stop=lambda: time.monotonic() - started > 0.2,
            )
        )
        == []
    )
