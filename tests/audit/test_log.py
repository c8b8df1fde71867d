from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from clearance.audit.log import ReviewLog, default_log_path, iso_timestamp


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_default_log_lives_under_logs_in_the_state_root() -> None:
    assert default_log_path("/state") == "/state/logs/review.jsonl"


def test_a_line_starts_with_timestamp_and_event_then_the_fields_in_order(tmp_path: Path) -> None:
    path = tmp_path / "review.jsonl"
    assert ReviewLog(str(path)).write("gate_error", {"tool": "bash", "n": 1, "ok": True}) is None
    raw = path.read_text()
    assert raw.endswith("\n") and raw.count("\n") == 1
    record = json.loads(raw)
    assert list(record) == ["timestamp", "event", "tool", "n", "ok"]
    assert record["event"] == "gate_error"
    assert record["tool"] == "bash" and record["n"] == 1 and record["ok"] is True


def test_the_timestamp_is_utc_iso_8601_with_milliseconds() -> None:
    assert iso_timestamp(0) == "1970-01-01T00:00:00.000Z"
    assert iso_timestamp(1738314902.1239) == "2025-01-31T09:15:02.123Z"


def test_a_field_cannot_overwrite_the_timestamp_or_the_event(tmp_path: Path) -> None:
    path = tmp_path / "review.jsonl"
    ReviewLog(str(path)).write("gate_error", {"event": "forged", "timestamp": "1999", "x": 1})
    (record,) = lines(path)
    assert record["event"] == "gate_error" and record["timestamp"] != "1999" and record["x"] == 1


def test_a_line_is_the_same_json_the_standard_library_would_write(tmp_path: Path) -> None:
    fields = {
        "text": 'quote " backslash \\ newline \n tab \t nul \x00 é 中 😀',
        "numbers": [0, -1, 10**30, 1.5, -0.0, 1e-300],
        "nested": {"a": [None, False, {"b": ()}]},
    }
    line = ReviewLog(str(tmp_path / "x.jsonl")).render("e", fields)
    assert line.isascii()
    assert json.dumps(json.loads(line), separators=(",", ":")).encode() + b"\n" == line


def test_values_json_cannot_spell_are_written_as_strings(tmp_path: Path) -> None:
    path = tmp_path / "review.jsonl"
    ReviewLog(str(path)).write("e", {"nan": float("nan"), "inf": float("inf"), "path": Path("/x")})
    (record,) = lines(path)
    assert record["nan"] == "NaN" and record["inf"] == "Infinity" and record["path"] == "/x"


def test_every_string_is_capped_with_an_ellipsis(tmp_path: Path) -> None:
    path = tmp_path / "review.jsonl"
    log = ReviewLog(str(path), field_max_width=5)
    log.write("e", {"short": "abcde", "long": "abcdefgh", "deep": {"list": ["123456", 7]}})
    (record,) = lines(path)
    assert record["short"] == "abcde"
    assert record["long"] == "abcde\u2026"
    assert record["deep"] == {"list": ["12345\u2026", 7]}


def test_capping_happens_before_redaction_so_a_masked_command_is_masked_whole(
    tmp_path: Path,
) -> None:
    path = tmp_path / "review.jsonl"
    ReviewLog(str(path), field_max_width=12).write("e", {"command": "API_KEY=sk-1234567 curl x"})
    (record,) = lines(path)
    assert record["command"] == "API_KEY=[redacted]"


def test_sensitive_fields_are_redacted_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "review.jsonl"
    ReviewLog(str(path)).write("e", {"tool": "webfetch", "headers": {"Authorization": "Bearer x"}})
    assert "Bearer" not in path.read_text()
    assert lines(path)[0]["headers"] == {"Authorization": "[redacted]"}


def test_the_directory_is_created_0700_and_the_file_0600(tmp_path: Path) -> None:
    path = tmp_path / "state" / "logs" / "review.jsonl"
    assert ReviewLog(str(path)).write("e", {}) is None
    assert mode(tmp_path / "state") == 0o700
    assert mode(tmp_path / "state" / "logs") == 0o700
    assert mode(path) == 0o600


def test_a_log_file_found_with_a_looser_mode_is_tightened_on_the_first_write(
    tmp_path: Path,
) -> None:
    path = tmp_path / "review.jsonl"
    path.write_text("")
    path.chmod(0o644)
    assert ReviewLog(str(path)).write("e", {}) is None
    assert mode(path) == 0o600


def test_a_symlink_at_the_log_path_is_refused_with_a_warning_and_not_followed(
    tmp_path: Path,
) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("precious\n")
    target.chmod(0o644)
    link = tmp_path / "review.jsonl"
    link.symlink_to(target)
    warning = ReviewLog(str(link)).write("e", {"x": 1})
    assert warning is not None and "symlink" in warning
    assert target.read_text() == "precious\n"
    assert mode(target) == 0o644


def test_a_dangling_symlink_does_not_create_its_target(tmp_path: Path) -> None:
    link = tmp_path / "review.jsonl"
    link.symlink_to(tmp_path / "created-through-link")
    assert ReviewLog(str(link)).write("e", {}) is not None
    assert not (tmp_path / "created-through-link").exists()


def test_a_fifo_at_the_log_path_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "review.jsonl"
    os.mkfifo(fifo)
    warning = ReviewLog(str(fifo)).write("e", {})
    assert warning is not None


def test_a_failure_is_returned_as_a_warning_never_raised(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    warning = ReviewLog(str(blocker / "logs" / "review.jsonl")).write("e", {"x": 1})
    assert warning is not None and "review log" in warning


def test_an_object_that_cannot_be_printed_does_not_make_write_raise(tmp_path: Path) -> None:
    class Hostile:
        def __str__(self) -> str:
            raise RuntimeError("no")

    path = tmp_path / "review.jsonl"
    assert ReviewLog(str(path)).write("e", {"x": Hostile()}) is None
    assert lines(path)[0]["x"] == "<unprintable Hostile>"


def test_a_cycle_in_the_fields_is_cut_instead_of_recursing_forever(tmp_path: Path) -> None:
    loop: list[object] = []
    loop.append(loop)
    path = tmp_path / "review.jsonl"
    assert ReviewLog(str(path)).write("e", {"loop": loop}) is None
    assert "[too deep]" in path.read_text()


def test_a_field_max_width_below_one_is_rejected() -> None:
    with pytest.raises(ValueError, match="field_max_width"):
        ReviewLog("/x", field_max_width=0)


WRITER = textwrap.dedent(
    """
    import sys
    from clearance.audit.log import ReviewLog

    def pad(i):
        return 4100 + i % 4000 if i % 25 == 0 else i % 300

    path, proc = sys.argv[1], int(sys.argv[2])
    log = ReviewLog(path, field_max_width=10_000)
    for i in range(5000):
        # Mostly short lines, every 25th longer than a pipe buffer (4 KB) up to ~8 KB.
        warning = log.write("concurrency", {"proc": proc, "i": i, "pad": "x" * pad(i)})
        if warning:
            sys.exit(warning)
    """
)


def test_sixteen_processes_appending_five_thousand_lines_each_never_interleave(
    tmp_path: Path,
) -> None:
    path = tmp_path / "logs" / "review.jsonl"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    processes = [
        subprocess.Popen([sys.executable, str(script), str(path), str(proc)]) for proc in range(16)
    ]
    assert [process.wait(timeout=300) for process in processes] == [0] * 16
    raw = path.read_bytes().split(b"\n")
    assert raw.pop() == b""
    assert len(raw) == 80_000
    seen: dict[int, list[int]] = {proc: [] for proc in range(16)}
    for line in raw:
        record = json.loads(line)
        i = record["i"]
        assert record["pad"] == "x" * (4100 + i % 4000 if i % 25 == 0 else i % 300)
        seen[record["proc"]].append(record["i"])
    assert all(numbers == list(range(5000)) for numbers in seen.values())
