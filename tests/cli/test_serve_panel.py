"""The serving terminal's live panel, on a real pty: the header keeps the export line after
every redraw, and Recent lists what was answered, not a stale "waiting" line."""

from __future__ import annotations

import fcntl
import json
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

SRC = Path(__file__).resolve().parents[2] / "src"
POLICY = {"permission": {"bash": {"*": "ask", "make *": "allow"}}}


def _read_until(master: int, wanted: bytes, process: subprocess.Popen[bytes]) -> bytes:
    screen = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and wanted not in screen:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                screen += os.read(master, 65536)
            except OSError:
                break
        elif process.poll() is not None:
            break
    return screen


def test_the_panel_keeps_the_export_line_and_lists_answers_in_recent(world: Any) -> None:
    project = world.project("proj")
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))
    env = {**world.env, "PYTHONPATH": str(SRC)}
    serve = subprocess.Popen(
        [sys.executable, "-m", "clearance", "serve", "--session", "P", "--dir", str(project),
         "--policy", json.dumps(POLICY), "--tty", os.ttyname(slave)],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE, env=env, cwd=str(project),
        start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    try:
        first = _read_until(master, b"Ctrl-C stops serving", serve)
        assert b"\x1b[2J" in first, first  # the live panel drew
        child = subprocess.run(
            [sys.executable, "-m", "clearance", "gate", "--json", "--session", "C1", "--policy",
             json.dumps({"permission": {"*": "ask"}}), "bash", "make build"],
            capture_output=True, text=True, timeout=60, cwd=str(project), stdin=subprocess.DEVNULL,
            env={**env, "CLEARANCE_PARENT_SESSION": "P"}, start_new_session=True,
        )  # fmt: skip
        assert json.loads(child.stdout)["decision"] == "allow", child.stdout + child.stderr
        screen = _read_until(master, b"make build", serve)
        last = screen.rsplit(b"\x1b[2J", 1)[-1].decode(errors="replace")
        assert "export CLEARANCE_PARENT_SESSION=P" in last, last
        recent = last.split("Recent:", 1)[1]
        assert "make build" in recent and "waiting for you" not in recent, last
        assert f" on {os.uname().nodename} · C1 · " in recent, last  # the asking machine
        assert "Pending (0):" in last, last
    finally:
        serve.terminate()
        serve.wait(timeout=15)
        os.close(master)
