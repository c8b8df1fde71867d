"""A real pseudo-terminal driving a real dialog in a child process (no mocks).

A uniquely named helper module rather than ``conftest``: test directories have no
``__init__.py``, so ``import conftest`` could find another directory's conftest.
"""

from __future__ import annotations

import codecs
import fcntl
import json
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CHILD = Path(__file__).with_name("dialog_child.py")
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[@-Z\\-_]")
KEYS = {
    "up": "\x1b[A",
    "down": "\x1b[B",
    "enter": "\r",
    "esc": "\x1b",
    "backspace": "\x7f",
    "ctrl-c": "\x03",
    "ctrl-d": "\x04",
    "ctrl-u": "\x15",
    "pgup": "\x1b[5~",
    "pgdn": "\x1b[6~",
}


def plain(output: str) -> str:
    """Terminal output without escape sequences."""
    return ANSI.sub("", output)


class Dialog:
    """One dialog running in a child process whose controlling terminal is a fresh pty."""

    def __init__(
        self,
        tmp_path: Path,
        prompt: dict[str, Any],
        columns: int,
        rows: int,
        engine: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        """``engine``: decide that call with the real engine and ask through the real terminal
        authorizer instead of showing ``prompt``."""
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.initial_modes = termios.tcgetattr(slave)
        spec = tmp_path / "spec.json"
        body = {"engine": engine} if engine is not None else {"prompt": prompt, "options": options}
        spec.write_text(json.dumps(body), encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, str(CHILD), str(spec), str(slave)],
            stdin=subprocess.PIPE,  # like a hook: stdin carries a payload, not the human
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            pass_fds=(slave,),
        )
        os.close(slave)
        self.output = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.mark = 0  # where the output since the last key starts
        self.closed = False

    def read(self, timeout: float) -> bool:
        """Collect output for up to ``timeout`` seconds; False when the pty is done."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: no slave side open (yet, or any more)
            time.sleep(0.01)
            return self.process.poll() is None
        self.output += self._decoder.decode(data)  # a character may straddle two reads
        return bool(data)

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        """Read until ``text`` shows in the output since the last key; that output, plain."""
        deadline = time.monotonic() + timeout
        while text not in plain(self.output[self.mark :]):
            left = deadline - time.monotonic()
            if left <= 0 or not self.read(min(left, 0.1)):
                raise AssertionError(f"{text!r} never shown; screen:\n{plain(self.output)}")
        return plain(self.output[self.mark :])

    def settle(self, quiet: float = 0.3) -> str:
        """Read until the output is quiet for ``quiet`` seconds; the new output, plain."""
        size = -1
        while size != len(self.output):
            size = len(self.output)
            if not self.read(quiet):
                break
        return plain(self.output[self.mark :])

    def press(self, *keys: str, pause: float = 0.15) -> None:
        """Write each key (a name from ``KEYS``, or literal text written at once), pausing
        between them so a lone Esc is not read as the start of a sequence."""
        for key in keys:
            self.mark = len(self.output)
            os.write(self.master, KEYS.get(key, key).encode())
            time.sleep(pause)
            self.read(0)

    def answer(self, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            if not self.closed and not self.read(0.05):
                break
            if self.closed:
                time.sleep(0.05)
        out, err = self.process.communicate(timeout=max(deadline - time.monotonic(), 1))
        if not self.closed:
            while self.read(0.05):
                pass
        assert out, f"child printed nothing; stderr:\n{err.decode()}"
        result: dict[str, Any] = json.loads(out)
        return result

    def running(self, after: float = 0.3) -> bool:
        time.sleep(after)
        return self.process.poll() is None

    def modes(self) -> list[Any]:
        return termios.tcgetattr(self.master)

    def hang_up(self) -> None:
        os.close(self.master)
        self.closed = True

    def signal(self, number: int) -> None:
        os.kill(self.process.pid, number)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if not self.closed:
            os.close(self.master)
            self.closed = True


BASIC = {
    "title": "Permission Required",
    "requester": "agent reviewer",
    "tool": "bash",
    "value": "git status --short",
    "rule": 'bash "git *" (global ~/.config/clearance/config.jsonc:4)',
    "reasons": ["bash: git status --short matched an ask rule"],
    "suggestions": [["bash", "git status *", 'Yes, allow bash "git status *" for this session']],
}
