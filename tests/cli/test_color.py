"""Colour on a terminal (a real pty): decisions and ok/FAIL coloured; NO_COLOR, --color and pipes
turn it off."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
ESC = "\x1b["


def on_pty(world, *args: str, env: dict[str, str] | None = None) -> str:  # type: ignore[no-untyped-def]
    """Run the real command with a pty as stdout and stderr; return what it wrote."""
    main, child = pty.openpty()
    full = {k: v for k, v in world.env.items() if k != "NO_COLOR"}
    full.update(PYTHONPATH=str(SRC), TERM="xterm", **(env or {}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "clearance", *args],
        stdin=subprocess.DEVNULL, stdout=child, stderr=child, env=full, cwd=world.home,
    )  # fmt: skip
    os.close(child)
    chunks = []
    while True:
        try:
            data = os.read(main, 65536)
        except OSError:  # EIO: the child closed its side
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(main)
    return b"".join(chunks).decode()


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["check", "bash", "git status"], "\x1b[32mallow"),
        (["check", "bash", "git push --force"], "\x1b[33mask"),
        (["check", "bash", "rm -rf /"], "\x1b[31mdeny"),
        (["doctor"], "\x1b[1;31mFAIL"),
        (["doctor"], "\x1b[32mok"),
        (["validate"], "\x1b[32m"),
    ],
)
def test_a_terminal_gets_colour(world, argv: list[str], code: str) -> None:  # type: ignore[no-untyped-def]
    assert code in on_pty(world, *argv)


def test_no_color_and_color_never_turn_it_off_on_a_terminal(world) -> None:  # type: ignore[no-untyped-def]
    assert ESC not in on_pty(world, "check", "bash", "rm -rf /", env={"NO_COLOR": "1"})
    assert ESC not in on_pty(world, "check", "--color=never", "bash", "rm -rf /")
    assert ESC not in on_pty(world, "doctor", env={"NO_COLOR": "1"})


def test_a_pipe_gets_no_colour_unless_forced(world) -> None:  # type: ignore[no-untyped-def]
    assert ESC not in world.run("check", "bash", "rm -rf /").stdout
    assert ESC not in world.run("doctor").stdout
    assert "\x1b[31mdeny" in world.run("check", "--color", "always", "bash", "rm -rf /").stdout


def test_log_lines_colour_their_decision_on_a_terminal(world) -> None:  # type: ignore[no-untyped-def]
    assert world.run("gate", "bash", "rm -rf /").returncode == 4  # one blocked call in the log
    shown = on_pty(world, "log")
    assert "\x1b[31mdeny\x1b[0m" in shown
    assert ESC not in on_pty(world, "log", env={"NO_COLOR": "1"})
