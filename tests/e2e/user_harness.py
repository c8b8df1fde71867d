"""What every end-to-end harness shares: where the host CLIs are cached, the ``clearance``
under test, and a temporary user (HOME, clearance config and state) with a project."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

__all__ = ["CACHE", "CLEARANCE", "TemporaryUser", "free_port"]

CACHE = Path(os.environ.get("CLEARANCE_E2E_CACHE") or Path.home() / ".cache" / "clearance-e2e")
CLEARANCE = Path(sys.executable).parent / "clearance"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class TemporaryUser:
    """``home`` with a git ``project`` in it, clearance's ``config_home`` and ``state``; a
    subclass says the environment (``env``) its host runs in."""

    def __init__(self, root: Path) -> None:
        # A short root keeps socket paths short (and Codex refuses helper binaries under /tmp).
        self.home = root / "home"
        self.project = self.home / "proj"
        self.config_home = root / "config"
        self.state = root / "state"
        (self.project / ".git").mkdir(parents=True)
        self.config_home.mkdir()

    @property
    def env(self) -> dict[str, str]:
        raise NotImplementedError

    def policy(self, text: str) -> None:
        path = self.config_home / "clearance" / "config.jsonc"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def clearance(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``clearance ARGS`` as this user, in the project; it must succeed."""
        proc = subprocess.run(
            [str(CLEARANCE), *args], cwd=self.project, env=self.env,
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def serve_listening(self, port: int, *args: str) -> subprocess.Popen[bytes]:
        """``clearance serve --listen`` for the project on ``port``, once it answers."""
        process = subprocess.Popen(
            [str(CLEARANCE), "serve", "--listen", f"127.0.0.1:{port}", "--dir",
             str(self.project), *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=self.env, cwd=str(self.project),
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
                return process
            except OSError:
                time.sleep(0.1)
        process.kill()
        process.wait()
        raise AssertionError("clearance serve --listen did not start")
