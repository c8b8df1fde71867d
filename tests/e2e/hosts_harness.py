"""The harness for end-to-end runs of the other real host CLIs (Codex, Gemini CLI, …).

``.ci/install-hosts`` puts each CLI under ``$CLEARANCE_E2E_CACHE`` (default
``~/.cache/clearance-e2e``). A :class:`HostProject` is a temporary user (HOME, clearance config
and state) with a project; each ``run_<host>`` runs the CLI headless against a scripted model
endpoint on 127.0.0.1 (``wire_server.py``), with every subprocess under a timeout.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from terminal import Terminal
from user_harness import CACHE, TemporaryUser, free_port
from user_harness import CLEARANCE as CLEARANCE  # re-exported for the tests
from wire_server import Script, WireServer

TIMEOUT = 150

BINARIES = {
    "codex": CACHE / "codex" / "node_modules" / ".bin" / "codex",
    # An earlier Codex, pinned too: the trust hash clearance records must hold in both.
    "codex-0.165": CACHE / "codex-0.165" / "node_modules" / ".bin" / "codex",
    "gemini": CACHE / "gemini" / "node_modules" / ".bin" / "gemini",
    "copilot": CACHE / "copilot" / "node_modules" / ".bin" / "copilot",
    "opencode": CACHE / "opencode" / "node_modules" / ".bin" / "opencode",
    "pi": CACHE / "pi" / "node_modules" / ".bin" / "pi",
}

# The policy every host's end-to-end tests run under.
POLICY = """{
  "permission": {
    "*": "ask",
    "read": "allow",
    "bash": {"*": "ask", "cat *": "allow", "touch *": "allow", "echo *": "allow",
             "rm *": {"action": "deny", "reason": "deleting files is not allowed here"}},
    "path": {"*.env": {"action": "deny", "reason": "secrets stay private"}}
  }
}"""


class Run:
    def __init__(self, proc: subprocess.CompletedProcess[str], server: WireServer) -> None:
        self.proc = proc
        self.server = server

    def describe(self) -> str:
        return (f"exit {self.proc.returncode}\nstdout: {self.proc.stdout[-3000:]}\n"
                f"stderr: {self.proc.stderr[-3000:]}")  # fmt: skip

    def sent(self) -> str:
        """Everything the CLI sent the model (tool results included)."""
        return self.server.everything_sent()


class HostProject(TemporaryUser):
    """A temporary user and project."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.extra_env: dict[str, str] = {}

    @property
    def env(self) -> dict[str, str]:
        keep = ("PATH", "LANG", "LC_ALL", "TMPDIR")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        env.update(
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(self.config_home),
            XDG_STATE_HOME=str(self.home / ".local" / "state"),
            XDG_DATA_HOME=str(self.home / ".local" / "share"),
            XDG_CACHE_HOME=str(self.home / ".cache"),
            CLEARANCE_HOME=str(self.state),
            CODEX_HOME=str(self.home / ".codex"),
            NO_COLOR="1",
            CI="1",
        )
        env.update(self.extra_env)
        return env

    def policy(self, text: str = POLICY) -> None:
        super().policy(text)

    def files(self) -> None:
        (self.project / "notes.txt").write_text("NOTES-CONTENT-7f3a\n")
        (self.project / "victim.txt").write_text("still here\n")
        (self.project / ".env").write_text("API_TOKEN=SECRET-VALUE-91c2\n")
        (self.project / "deploy.env").write_text("DEPLOY_TOKEN=SECRET-VALUE-91c2\n")

    def review_log(self) -> list[dict[str, Any]]:
        path = self.state / "logs" / "review.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines()]

    def serve(self, policy: dict[str, Any]) -> subprocess.Popen[bytes]:
        """``clearance serve`` for the project without a human, answering by ``policy``."""
        process = subprocess.Popen(
            [str(CLEARANCE), "serve", "--session", "parent-e2e", "--dir", str(self.project),
             "--no-human", "--policy", json.dumps(policy)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=self.env, cwd=str(self.project),
        )  # fmt: skip
        heartbeat = self.state / "forwarding" / "parent-e2e" / "serve.sock"  # listening
        deadline = time.monotonic() + 20
        while not heartbeat.exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        assert heartbeat.exists(), "clearance serve did not start"
        return process

    def listen(self) -> subprocess.Popen[bytes]:
        """``clearance serve --listen`` on a free loopback port, where the hosts' plugins find it
        (``CLEARANCE_SERVICE_URL``)."""
        port = free_port()
        process = self.serve_listening(port, "--session", "svc-e2e")
        self.extra_env["CLEARANCE_SERVICE_URL"] = f"http://127.0.0.1:{port}"
        return process

    def _run(self, argv: list[str], server: WireServer, env: dict[str, str]) -> Run:
        try:
            proc = subprocess.run(
                argv, cwd=self.project, env=env, capture_output=True, text=True,
                timeout=TIMEOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
            err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else exc.stderr or ""
            proc = subprocess.CompletedProcess(argv, -9, out, err + "\n(timed out)")
        return Run(proc, server)

    # --- Codex ------------------------------------------------------------------------------

    def codex_flags(self, server: WireServer) -> list[str]:
        """The scripted endpoint as Codex's model provider."""
        provider = (f'{{name="e2e", base_url="{server.url}/v1", wire_api="responses", '
                    'env_key="E2E_KEY"}')  # fmt: skip
        return ["-c", 'model="e2e-model"', "-c", 'model_provider="e2e"',
                "-c", f"model_providers.e2e={provider}"]  # fmt: skip

    def run_codex(
        self, prompt: str, scripts: list[Script], *flags: str, codex: str = "codex"
    ) -> Run:
        with WireServer(scripts) as server:
            argv = [str(BINARIES[codex]), "exec", "--skip-git-repo-check", "--ephemeral",
                    "-s", "danger-full-access", *self.codex_flags(server), *flags, prompt]  # fmt: skip
            return self._run(argv, server, {**self.env, "E2E_KEY": "x"})

    # --- Gemini CLI -------------------------------------------------------------------------

    def gemini_settings(self) -> None:
        """Gemini CLI's API-key auth (against the scripted endpoint) in the user settings."""
        path = self.home / ".gemini" / "settings.json"
        data = json.loads(path.read_text()) if path.exists() else {}
        data.setdefault("security", {})["auth"] = {"selectedType": "gemini-api-key"}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data))

    def gemini_env(self, server: WireServer) -> dict[str, str]:
        return {**self.env, "GEMINI_API_KEY": "x", "GOOGLE_GEMINI_BASE_URL": server.url,
                "GEMINI_CLI_TRUST_WORKSPACE": "true"}  # fmt: skip

    def run_gemini(self, prompt: str, scripts: list[Script]) -> Run:
        with WireServer(scripts) as server:
            argv = [str(BINARIES["gemini"]), "-p", prompt, "-m", "gemini-2.5-flash"]
            return self._run(argv, server, self.gemini_env(server))

    # --- GitHub Copilot CLI -----------------------------------------------------------------

    def copilot_env(self, server: WireServer) -> dict[str, str]:
        return {**self.env, "COPILOT_PROVIDER_BASE_URL": server.url + "/v1",
                "COPILOT_OFFLINE": "true", "COPILOT_MODEL": "gpt-4.1",
                "COPILOT_PROVIDER_API_KEY": "x"}  # fmt: skip

    def run_copilot(self, prompt: str, scripts: list[Script]) -> Run:
        with WireServer(scripts) as server:
            argv = [str(BINARIES["copilot"]), "-p", prompt, "--allow-all-tools",
                    "--disable-client-telemetry"]  # fmt: skip
            return self._run(argv, server, self.copilot_env(server))

    # --- interactive runs (a tmux pane) -----------------------------------------------------

    @contextlib.contextmanager
    def terminal(self, host: str, prompt: str, scripts: list[Script]) -> Iterator[Terminal]:
        """``host`` interactive, started with ``prompt`` (``-i``), in a tmux pane."""
        with WireServer(scripts) as server:
            if host == "codex":
                # Codex asks before a command leaves its read-only sandbox (PermissionRequest).
                env = {**self.env, "E2E_KEY": "x"}
                argv = [str(BINARIES["codex"]), "-a", "on-request", "-s", "read-only",
                        *self.codex_flags(server), prompt]  # fmt: skip
            elif host == "gemini":
                env = self.gemini_env(server)
                argv = [str(BINARIES["gemini"]), "-i", prompt, "-m", "gemini-2.5-flash"]
            else:
                # --allow-all-tools: Copilot CLI's own rules ask nothing, so a dialog is the hook's.
                env = self.copilot_env(server)
                argv = [str(BINARIES["copilot"]), "-i", prompt, "--allow-all-tools",
                        "--disable-client-telemetry"]  # fmt: skip
            env.pop("CI", None)  # a CI run draws no interactive screen
            terminal = Terminal(self.home.parent / "tmux.sock", argv, env, self.project)
            try:
                yield terminal
            finally:
                terminal.close()

    # --- OpenCode ---------------------------------------------------------------------------

    def run_opencode(
        self, prompt: str, scripts: list[Script], permission: dict[str, Any] | None = None
    ) -> Run:
        """``opencode run``; ``permission`` is OpenCode's own ``permission`` configuration."""
        with WireServer(scripts) as server:
            provider = {"npm": "@ai-sdk/openai-compatible", "name": "e2e",
                        "options": {"baseURL": server.url + "/v1", "apiKey": "x"},
                        "models": {"e2e-model": {"name": "e2e", "tool_call": True}}}  # fmt: skip
            config = {"model": "e2e/e2e-model", "autoupdate": False, "share": "disabled",
                      "provider": {"e2e": provider}}  # fmt: skip
            if permission is not None:
                config["permission"] = permission
            (self.project / "opencode.json").write_text(json.dumps(config))
            # OpenCode installs its provider package from npm on first use: a shared cache.
            # Nothing but loopback is reachable: no models.dev fetch, LSP or default plugins.
            env = {**self.env, "XDG_CACHE_HOME": str(CACHE / "opencode-cache"),
                   "OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
                   "OPENCODE_DISABLE_LSP_DOWNLOAD": "1", "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
                   "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_CLAUDE_CODE": "1",
                   "OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER": "1"}  # fmt: skip
            return self._run([str(BINARIES["opencode"]), "run", prompt], server, env)

    # --- pi ---------------------------------------------------------------------------------

    def pi_models(self, url: str) -> None:
        """pi's ``models.json``: the scripted endpoint as an ``openai-completions`` provider."""
        models = {"providers": {"e2e": {
            "baseUrl": url + "/v1", "api": "openai-completions", "apiKey": "x",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "e2e-model"}]}}}  # fmt: skip
        agent = self.home / ".pi" / "agent"
        agent.mkdir(parents=True, exist_ok=True)
        (agent / "models.json").write_text(json.dumps(models))

    def run_pi(self, prompt: str, scripts: list[Script]) -> Run:
        with WireServer(scripts) as server:
            self.pi_models(server.url)
            argv = [str(BINARIES["pi"]), "-p", prompt, "--provider", "e2e", "--model", "e2e-model"]
            return self._run(argv, server, {**self.env, "PI_SKIP_VERSION_CHECK": "1"})
