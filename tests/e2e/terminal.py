"""A host CLI in its interactive mode, in a tmux pane: the tests read its screen and press keys
as a user at its dialog would. Each run is on a private tmux server (a socket in the test's
directory) and every wait has a deadline; the server is killed when the run ends.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["TMUX", "Terminal"]

TMUX = shutil.which("tmux")
DEADLINE = 150


class Terminal:
    def __init__(self, socket: Path, argv: list[str], env: Mapping[str, str], cwd: Path) -> None:
        assert TMUX is not None
        self.base = [TMUX, "-S", str(socket)]
        # The host's environment exactly (env -i), not the tmux server's.
        assigned = " ".join(shlex.quote(f"{k}={v}") for k, v in env.items())
        command = (f"cd {shlex.quote(str(cwd))} && exec env -i TERM=xterm-256color {assigned} "
                   + " ".join(shlex.quote(a) for a in argv))  # fmt: skip
        self._tmux("new-session", "-d", "-s", "host", "-x", "160", "-y", "50", command)
        self.pid = int(self._tmux("display-message", "-p", "-t", "host", "#{pane_pid}"))
        self.last = ""

    def _tmux(self, *args: str) -> str:
        proc = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=20)
        return proc.stdout

    def screen(self) -> str:
        self.last = self._tmux("capture-pane", "-p", "-t", "host") or self.last
        return self.last

    def press(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "host", *keys)

    def wait_for(self, text: str, on_the_way: Mapping[str, str] | None = None) -> str:
        """The screen once it shows ``text``; a screen showing a key of ``on_the_way`` first
        (a dialog before the one awaited, such as a folder trust prompt) gets that key's keys
        pressed."""
        return self.wait_until(lambda: text in self.screen(), text, on_the_way)

    def wait_until(self, done: Callable[[], bool], what: str,
                   on_the_way: Mapping[str, str] | None = None) -> str:  # fmt: skip
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            if done():
                return self.last
            for shown, keys in (on_the_way or {}).items():
                if shown in self.last:
                    self.press(keys)
                    while shown in self.screen() and time.monotonic() < deadline:
                        time.sleep(0.2)  # gone before anything else is pressed
            time.sleep(0.5)
        raise AssertionError(f"waited {DEADLINE} s for {what}; the screen:\n{self.screen()}")

    def close(self) -> None:
        """End the host and everything it started (its process group), then the tmux server."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        self._tmux("kill-server")
