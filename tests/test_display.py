"""The one escaping function for human-facing output, and the printers that use it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from clearance._display import escape

# Bytes that must never reach a terminal from agent text: ESC, C1 (as UTF-8), bidi controls.
HOSTILE = "\x1b]52;c;SGVsbG8=\x07\x1b[2J\x9b31m\u202eevil\u2066\u200f\u061c\x7f\u2028"
FORBIDDEN = (
    [b"\x1b", b"\x07", b"\x7f"]
    + [chr(c).encode() for c in range(0x80, 0xA0)]
    + [
        chr(c).encode()
        for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x61C, 0x2028)
    ]
)


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        char = text[i]
        if char != "\\" or i + 1 == len(text):
            out.append(char)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "\\":
            out.append("\\")
            i += 2
        elif nxt in "nrt":
            out.append({"n": "\n", "r": "\r", "t": "\t"}[nxt])
            i += 2
        elif nxt in "xuU":
            size = {"x": 2, "u": 4, "U": 8}[nxt]
            out.append(chr(int(text[i + 2 : i + 2 + size], 16)))
            i += 2 + size
        else:
            out.append(char)
            i += 1
    return "".join(out)


def assert_clean(data: bytes) -> None:
    for byte in FORBIDDEN:
        assert byte not in data, f"{byte!r} reached the terminal"


def test_controls_c1_and_bidi_are_shown_as_escapes() -> None:
    assert escape("a\x1b[2Jb\x07\u202ec\x9b\n\t") == "a\\x1b[2Jb\\x07\\u202ec\\x9b\\n\\t"
    assert escape("\u2066\u2069\u200e\u200f\u061c\x7f\U000e0001") == (
        "\\u2066\\u2069\\u200e\\u200f\\u061c\\x7f\\U000e0001"
    )


def test_plain_text_and_readable_backslashes_are_kept() -> None:
    assert escape("git status — ünïcode 日本") == "git status — ünïcode 日本"
    assert escape(r"grep 'a\.b' \$HOME") == r"grep 'a\.b' \$HOME"
    assert escape("printf 'a\\nb' \\") == "printf 'a\\\\nb' \\"
    assert escape("\\\x1b") == "\\\\\\x1b"


@given(st.text())
def test_escaping_is_reversible_and_printable(text: str) -> None:
    shown = escape(text)
    assert shown == "" or shown.isprintable()
    assert _unescape(shown) == text


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "clearance", *args], capture_output=True, env=env, timeout=60
    )


def test_check_explain_and_log_print_agent_text_escaped(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_STATE_HOME": str(tmp_path / "state")}
    env["CLEARANCE_HOME"] = str(tmp_path / "state" / "clearance")
    command = f"echo '{HOSTILE}' > /etc/x"
    for verb in ("check", "explain"):
        result = _cli(verb, "--cwd", str(tmp_path), "bash", command, env=env)
        assert_clean(result.stdout + result.stderr)
        assert b"\\x1b]52;c;" in result.stdout or verb == "check"
    result = _cli("explain", "--cwd", str(tmp_path), "read", f"/tmp/{HOSTILE}", env=env)
    assert_clean(result.stdout + result.stderr)
    assert b"\\u202eevil" in result.stdout
    result = _cli("check", "--json", "--cwd", str(tmp_path), "bash", command, env=env)
    assert_clean(result.stdout)  # JSON output is ASCII: \\u001b, \\u202e
    log = tmp_path / "review.jsonl"
    log.write_text(
        '{"timestamp":"2026-01-01T00:00:00.000Z","event":"permission.denied","tool":"bash\\u001b[2J",'
        f'"command":{_json_string(command)},"reason":"no\\u202e","rule":"x\\u009b"}}\n',
        encoding="utf-8",
    )
    result = _cli("log", "--file", str(log), env=env)
    assert result.returncode == 0, result.stderr
    assert_clean(result.stdout + result.stderr)
    assert b"\\x1b]52;c;" in result.stdout and b"bash\\x1b[2J" in result.stdout
    result = _cli("log", "--json", "--file", str(log), env=env)
    assert_clean(result.stdout)


def _json_string(text: str) -> str:
    from clearance._json import encode_string

    return encode_string(text)


def test_usage_errors_are_escaped(tmp_path: Path) -> None:
    result = _cli("check", f"--bogus{HOSTILE}", env={**os.environ, "HOME": str(tmp_path)})
    assert result.returncode == 2
    assert_clean(result.stderr)


def test_sessions_escape_session_ids(tmp_path: Path) -> None:
    result = _cli(
        "sessions",
        "--clear",
        f"s{HOSTILE}",
        env={**os.environ, "HOME": str(tmp_path), "CLEARANCE_HOME": str(tmp_path / "state")},
    )
    assert_clean(result.stdout + result.stderr)
    assert b"s\\x1b]52" in result.stdout
