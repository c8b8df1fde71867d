"""End to end with the real Claude Code and its HTTP hook: ``clearance serve --listen`` decides.

``clearance install claude-code --http`` writes an ``http`` hook with ``"onFailure": "block"``
and the token in the settings' ``env``; the tests run ``claude -p`` against the scripted model
and a real ``clearance serve`` on 127.0.0.1, and assert on the files on disk.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from claude_harness import CLEARANCE, ClaudeProject
from model_server import Conversation, text, tool_use
from user_harness import free_port

from clearance.service.wiring import LOGIN_IN_FILE

pytest.importorskip("uvicorn")

POLICY = """{
  "permission": {
    "*": "ask",
    "read": "allow",
    "bash": {"*": "ask", "cat *": "allow", "touch *": "allow",
             "rm *": {"action": "deny", "reason": "deleting files is not allowed here"}}
  }
}"""


def one_call(marker: str, tool: str, tool_input: dict[str, object]) -> list[Conversation]:
    return [Conversation(marker, [[text("On it."), tool_use(tool, tool_input)], [text("Done.")]])]


@pytest.fixture
def project(claude: ClaudeProject) -> Iterator[tuple[ClaudeProject, int]]:
    claude.policy(POLICY)
    port = free_port()
    url = f"http://127.0.0.1:{port}/hooks/claude-code"
    claude.clearance("install", "claude-code", "--local", "--http", "--url", url,
                     "--claude", str(claude.claude))  # fmt: skip
    (claude.project / "notes.txt").write_text("NOTES-CONTENT-7f3a\n")
    (claude.project / "victim.txt").write_text("still here\n")
    yield claude, port


@pytest.fixture
def service(project: tuple[ClaudeProject, int]) -> Iterator[subprocess.Popen[bytes]]:
    claude, port = project
    process = claude.serve_listening(port)
    yield process
    process.terminate()
    process.wait(timeout=10)


def test_install_writes_an_http_hook_that_blocks_on_failure(
    project: tuple[ClaudeProject, int],
) -> None:
    claude, port = project
    data = json.loads((claude.project / ".claude" / "settings.local.json").read_text())
    [group] = data["hooks"]["PreToolUse"]
    [hook] = group["hooks"]
    assert hook["type"] == "http" and hook["onFailure"] == "block"
    assert hook["url"] == f"http://127.0.0.1:{port}/hooks/claude-code"
    assert hook["allowedEnvVars"] == ["CLEARANCE_HOOK_TOKEN"]
    assert (
        data["env"]["CLEARANCE_HOOK_TOKEN"]
        == (claude.state / "service" / "hook-token").read_text().strip()
    )


def test_the_http_hook_allows_a_cat_and_denies_an_rm(
    project: tuple[ClaudeProject, int], service: subprocess.Popen[bytes]
) -> None:
    claude, _ = project
    run = claude.run(
        "E2E-MAIN read it",
        one_call("E2E-MAIN", "Bash", {"command": "cat notes.txt", "description": "cat"}),
    )
    assert run.proc.returncode == 0, run.describe()
    [result] = run.server.result_for("Bash")
    assert "NOTES-CONTENT-7f3a" in result["text"], run.describe()
    run = claude.run(
        "E2E-MAIN delete it",
        one_call("E2E-MAIN", "Bash", {"command": "rm victim.txt", "description": "rm"}),
        "--allowedTools", "Bash",
    )  # fmt: skip
    assert (claude.project / "victim.txt").read_text() == "still here\n", run.describe()
    [result] = run.server.result_for("Bash")
    assert "deleting files is not allowed here" in result["text"]


def test_with_the_service_down_the_call_is_blocked_not_run(
    project: tuple[ClaudeProject, int],
) -> None:
    # Claude Code's own rules allow Bash outright here; only onFailure: block stops the rm.
    claude, _ = project
    run = claude.run(
        "E2E-MAIN delete it",
        one_call("E2E-MAIN", "Bash", {"command": "rm victim.txt", "description": "rm"}),
        "--allowedTools", "Bash",
    )  # fmt: skip
    assert (claude.project / "victim.txt").read_text() == "still here\n", run.describe()


def test_a_wrong_token_blocks_the_call(
    project: tuple[ClaudeProject, int], service: subprocess.Popen[bytes]
) -> None:
    claude, _ = project
    settings = claude.project / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text())
    data["env"]["CLEARANCE_HOOK_TOKEN"] = "0" * 64
    settings.write_text(json.dumps(data))
    run = claude.run(
        "E2E-MAIN make it",
        one_call("E2E-MAIN", "Bash", {"command": "touch made.txt", "description": "touch"}),
        "--allowedTools", "Bash",
    )  # fmt: skip
    assert not (claude.project / "made.txt").exists(), run.describe()


def test_install_refuses_http_for_a_claude_code_without_on_failure(
    claude: ClaudeProject,
) -> None:
    old = claude.home / "old-claude"
    old.write_text("#!/bin/sh\necho '2.0.5 (Claude Code)'\n")
    old.chmod(0o755)
    proc = subprocess.run(
        [str(CLEARANCE), "install", "claude-code", "--local", "--http", "--claude", str(old)],
        cwd=claude.project, env=claude.env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode != 0
    assert "older than 2.1.332" in proc.stderr and "onFailure" in proc.stderr
    assert not (claude.project / ".claude" / "settings.local.json").exists()


def test_without_on_failure_the_same_outage_would_let_it_run(
    project: tuple[ClaudeProject, int],
) -> None:
    # The control for the outage test: the same hook without "onFailure": "block" fails open.
    claude, _ = project
    settings = claude.project / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text())
    for groups in data["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                del hook["onFailure"]
    settings.write_text(json.dumps(data))
    claude.run(
        "E2E-MAIN delete it",
        one_call("E2E-MAIN", "Bash", {"command": "rm victim.txt", "description": "rm"}),
        "--allowedTools", "Bash",
    )  # fmt: skip
    assert not (claude.project / "victim.txt").exists()


def test_an_ask_is_answered_on_the_console_while_claude_code_waits(
    project: tuple[ClaudeProject, int],
) -> None:
    import re
    import threading

    claude, port = project
    process = subprocess.Popen(
        [str(CLEARANCE), "serve", "--listen", f"127.0.0.1:{port}", "--dir", str(claude.project)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env=claude.env, cwd=str(claude.project), text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        # Not a terminal: the banner names the file that holds the login URL.
        named = next(line for line in process.stdout if line.startswith(LOGIN_IN_FILE))
        login = Path(named[len(LOGIN_IN_FILE) :].strip()).read_text().strip()
        threading.Thread(target=process.stdout.read, daemon=True).start()
        runs = []
        worker = threading.Thread(target=lambda: runs.append(claude.run(
            "E2E-MAIN make a directory",
            one_call("E2E-MAIN", "Bash", {"command": "mkdir build", "description": "mkdir"}),
        )))  # fmt: skip
        worker.start()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        opener.open(login, timeout=30).read()
        deadline = time.monotonic() + 120
        ask = None
        while ask is None and time.monotonic() < deadline:
            page = opener.open(f"http://127.0.0.1:{port}/", timeout=30).read().decode()
            found = re.search(r'<article class=ask id="ask-([^"]+)"', page)
            ask = found.group(1) if found else None
            time.sleep(0.2)
        assert ask is not None, "the ask never reached the console"
        assert "mkdir build" in page
        csrf = re.search(r'<meta name="csrf" content="([0-9a-f]+)">', page)
        assert csrf is not None
        body = urllib.parse.urlencode({"action": "once", "csrf": csrf.group(1)}).encode()
        opener.open(f"http://127.0.0.1:{port}/asks/{ask}", body, timeout=30).read()
        worker.join(timeout=180)
        [run] = runs
        assert run.proc.returncode == 0, run.describe()
        assert (claude.project / "build").is_dir(), run.describe()
    finally:
        process.terminate()
        process.wait(timeout=10)
