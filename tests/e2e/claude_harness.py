"""The harness for end-to-end runs of the real Claude Code (imported by conftest and tests).

``.ci/install-claude-code`` puts the client under ``$CLEARANCE_E2E_CACHE`` (default
``~/.cache/clearance-e2e``). A :class:`ClaudeProject` is a temporary user (HOME, clearance
config and state) with a project; :meth:`ClaudeProject.run` runs ``claude -p`` against a scripted
model endpoint on 127.0.0.1 with non-essential traffic off: no API key, no network beyond
loopback.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from model_server import Conversation, ModelServer
from user_harness import CACHE, TemporaryUser
from user_harness import CLEARANCE as CLEARANCE  # re-exported for the tests

CLAUDE = CACHE / "claude-code" / "node_modules" / ".bin" / "claude"
TIMEOUT = 180


class Run:
    """One ``claude -p`` run: its JSON result, and what the model endpoint received."""

    def __init__(self, proc: subprocess.CompletedProcess[str], server: ModelServer) -> None:
        self.proc = proc
        self.server = server
        try:
            self.result: Any = json.loads(proc.stdout)
        except ValueError:
            self.result = None

    def describe(self) -> str:
        return f"exit {self.proc.returncode}\nstdout: {self.proc.stdout[-2000:]}\nstderr: {self.proc.stderr[-2000:]}"


class ClaudeProject(TemporaryUser):
    """A temporary user and project, with clearance installed for Claude Code."""

    def __init__(self, root: Path, claude: Path) -> None:
        super().__init__(root)
        self.claude = claude

    @property
    def env(self) -> dict[str, str]:
        keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        # the project's hook runs `clearance` from PATH, as on a teammate's machine
        env["PATH"] = str(CLEARANCE.parent) + os.pathsep + env.get("PATH", "")
        env.update(
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(self.config_home),
            XDG_STATE_HOME=str(self.home / ".local" / "state"),
            CLEARANCE_HOME=str(self.state),
            ANTHROPIC_API_KEY="test",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_ERROR_REPORTING="1",
            DISABLE_AUTOUPDATER="1",
            DISABLE_BUG_COMMAND="1",
            DISABLE_COST_WARNINGS="1",
        )
        return env

    def install(self) -> None:
        self.clearance("install", "claude-code", "--project")

    def run(self, prompt: str, conversations: list[Conversation], *flags: str) -> Run:
        with ModelServer(conversations) as server:
            env = {**self.env, "ANTHROPIC_BASE_URL": server.url}
            proc = subprocess.run(
                [str(self.claude), "-p", prompt, "--output-format", "json", *flags],
                cwd=self.project, env=env, capture_output=True, text=True,
                timeout=TIMEOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        return Run(proc, server)
