"""What every end-to-end harness shares: where the host CLIs are cached, the ``clearance``
under test, and a temporary user (HOME, clearance config and state) with a project."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["CACHE", "CLEARANCE", "TemporaryUser"]

CACHE = Path(os.environ.get("CLEARANCE_E2E_CACHE") or Path.home() / ".cache" / "clearance-e2e")
CLEARANCE = Path(sys.executable).parent / "clearance"


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
