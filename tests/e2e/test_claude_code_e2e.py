"""End to end with the real Claude Code: our hook decides, and the world shows it.

The model is a scripted endpoint (``model_server.py``); each test asserts on files on disk and
on what the model endpoint received back as tool results. Forwarding an ask to a serving
session (``clearance serve``) is exercised with a real serving process.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator

import pytest
from claude_harness import CLEARANCE, ClaudeProject
from model_server import Conversation, text, tool_use

from clearance.hosts.claude_code.settings import PORTABLE_PREFIX

POLICY = """{
  "permission": {
    "*": "ask",
    "read": "allow",
    "task": "allow",
    "bash": {"*": "ask", "cat *": "allow", "touch *": "allow",
             "rm *": {"action": "deny", "reason": "deleting files is not allowed here"}},
    "path": {"*.env": {"action": "deny", "reason": "secrets stay private"}}
  }
}"""


def one_call(marker: str, tool: str, tool_input: dict[str, object]) -> list[Conversation]:
    return [Conversation(marker, [[text("On it."), tool_use(tool, tool_input)], [text("Done.")]])]


@pytest.fixture
def project(claude: ClaudeProject) -> ClaudeProject:
    claude.policy(POLICY)
    claude.install()
    (claude.project / "notes.txt").write_text("NOTES-CONTENT-7f3a\n")
    (claude.project / "victim.txt").write_text("still here\n")
    (claude.project / ".env").write_text("API_TOKEN=SECRET-VALUE-91c2\n")
    return claude


def test_a_denied_rm_does_not_delete_its_file(project: ClaudeProject) -> None:
    run = project.run(
        "E2E-MAIN delete it",
        one_call("E2E-MAIN", "Bash", {"command": "rm victim.txt", "description": "rm"}),
    )
    assert run.proc.returncode == 0, run.describe()
    assert (project.project / "victim.txt").read_text() == "still here\n"
    [result] = run.server.result_for("Bash")
    assert result["is_error"] is True
    assert "[clearance]" in result["text"]
    assert "deleting files is not allowed here" in result["text"]


def test_an_allowed_cat_runs_and_its_output_reaches_the_model(project: ClaudeProject) -> None:
    run = project.run(
        "E2E-MAIN read it",
        one_call("E2E-MAIN", "Bash", {"command": "cat notes.txt", "description": "cat"}),
    )
    assert run.proc.returncode == 0, run.describe()
    [result] = run.server.result_for("Bash")
    assert not result.get("is_error")
    assert "NOTES-CONTENT-7f3a" in result["text"]


def test_an_allow_from_the_hook_runs_what_claude_code_would_not_run_headless(
    project: ClaudeProject,
) -> None:
    # In a -p run Claude Code refuses a write command no rule of its own allows; our allow
    # is what lets it through, so this shows the hook is the deciding layer.
    run = project.run(
        "E2E-MAIN make it",
        one_call("E2E-MAIN", "Bash", {"command": "touch made.txt", "description": "touch"}),
    )
    assert run.proc.returncode == 0, run.describe()
    assert (project.project / "made.txt").exists(), run.server.tool_results()


def test_a_denied_read_of_env_never_shows_its_content_to_the_model(project: ClaudeProject) -> None:
    path = str(project.project / ".env")
    run = project.run("E2E-MAIN read env", one_call("E2E-MAIN", "Read", {"file_path": path}))
    assert run.proc.returncode == 0, run.describe()
    [result] = run.server.result_for("Read")
    assert result["is_error"] is True
    # `clearance install` projects the policy's path denies into Claude Code's own rules, so
    # Claude Code refuses the read itself, before the hook is even asked (defence in depth).
    assert "denied by your permission settings" in result["text"]
    assert "SECRET-VALUE-91c2" not in run.server.everything_sent()


def test_an_ask_in_a_headless_run_is_denied_with_a_reason(project: ClaudeProject) -> None:
    run = project.run(
        "E2E-MAIN build",
        one_call("E2E-MAIN", "Bash", {"command": "mkdir build", "description": "mkdir"}),
    )
    assert run.proc.returncode == 0, run.describe()
    assert not (project.project / "build").exists()
    [result] = run.server.result_for("Bash")
    assert result["is_error"] is True
    assert "no one can approve" in result["text"]


AGENT = """---
name: reviewer
description: Reviews code. Use for reviews.
permission:
  bash: deny
---
You review code.
"""


def test_a_subagent_is_held_to_its_own_agent_policy(project: ClaudeProject) -> None:
    (project.project / ".claude" / "agents").mkdir(parents=True)
    (project.project / ".claude" / "agents" / "reviewer.md").write_text(AGENT)
    project.clearance("trust", str(project.project))
    conversations = [
        Conversation("E2E-SUB", [[tool_use("Bash", {"command": "cat notes.txt", "description": "cat"})], [text("Reviewed.")]]),
        Conversation("E2E-MAIN", [
            [tool_use("Bash", {"command": "cat notes.txt", "description": "cat"})],
            [tool_use("Agent", {"description": "review", "prompt": "E2E-SUB review notes", "subagent_type": "reviewer", "run_in_background": False})],
            [text("Done.")],
        ]),
    ]  # fmt: skip
    run = project.run("E2E-MAIN review", conversations)
    assert run.proc.returncode == 0, run.describe()
    [main_cat] = run.server.result_for("Bash", "E2E-MAIN")
    assert "NOTES-CONTENT-7f3a" in main_cat["text"]
    [sub_cat] = run.server.result_for("Bash", "E2E-SUB")
    assert sub_cat["is_error"] is True, sub_cat
    assert "[clearance]" in sub_cat["text"]
    assert "NOTES-CONTENT-7f3a" not in sub_cat["text"]


def crash_the_hook(project: ClaudeProject, *, keep_fail_closed: bool = True) -> None:
    """Point the installed hook at a "clearance" that dies of a segmentation fault."""
    settings = project.project / ".claude" / "settings.json"
    crasher = project.home / "crashing-clearance"
    crasher.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crasher.chmod(0o755)
    data = json.loads(settings.read_text())
    for groups in data["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                command = hook["command"]
                if command.startswith(PORTABLE_PREFIX):  # the project's PATH-based command
                    command = command.replace("then clearance hook", f"then {crasher} hook", 1)
                else:
                    exe = command.split(" hook claude-code")[0]
                    command = command.replace(exe, str(crasher), 1)
                if not keep_fail_closed:
                    command = command.replace(" || exit 2", "", 1)
                hook["command"] = command
    settings.write_text(json.dumps(data))


def test_a_crashing_hook_blocks_the_call_instead_of_letting_it_through(
    project: ClaudeProject,
) -> None:
    # Claude Code lets a call through when its hook fails with any status but 2, and here its own
    # rules allow Bash outright. The installed command turns any death of the hook process into 2.
    crash_the_hook(project)
    run = project.run(
        "E2E-MAIN delete it",
        one_call("E2E-MAIN", "Bash", {"command": "rm victim.txt", "description": "rm"}),
        "--allowedTools",
        "Bash",
    )
    assert (project.project / "victim.txt").read_text() == "still here\n", run.describe()


def test_without_the_fail_closed_suffix_a_crashing_hook_would_let_it_through(
    project: ClaudeProject,
) -> None:
    # The control for the test above: the same crash, without "|| exit 2", deletes the file.
    crash_the_hook(project, keep_fail_closed=False)
    project.run(
        "E2E-MAIN delete it",
        one_call("E2E-MAIN", "Bash", {"command": "rm victim.txt", "description": "rm"}),
        "--allowedTools",
        "Bash",
    )
    assert not (project.project / "victim.txt").exists()


@pytest.fixture
def serving(project: ClaudeProject) -> Iterator[subprocess.Popen[bytes]]:
    """``clearance serve`` for the project, without a human, whose own policy allows mkdir."""
    policy = json.dumps({"permission": {"*": "ask", "bash": {"*": "ask", "mkdir *": "allow"}}})
    process = subprocess.Popen(
        [str(CLEARANCE), "serve", "--session", "parent-e2e", "--dir", str(project.project),
         "--no-human", "--policy", policy],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=project.env, cwd=str(project.project),
    )  # fmt: skip
    listening = project.state / "forwarding" / "parent-e2e" / "serve.sock"
    deadline = time.monotonic() + 20
    while not listening.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert listening.exists(), "clearance serve did not start"
    yield process
    process.terminate()
    process.wait(timeout=10)


def test_a_headless_ask_is_forwarded_to_a_serving_session_that_answers(
    project: ClaudeProject, serving: subprocess.Popen[bytes]
) -> None:
    run = project.run(
        "E2E-MAIN make a directory",
        one_call("E2E-MAIN", "Bash", {"command": "mkdir build", "description": "mkdir"}),
    )
    assert run.proc.returncode == 0, run.describe()
    assert (project.project / "build").is_dir(), run.describe()
    log = [
        json.loads(line)
        for line in (project.state / "logs" / "review.jsonl").read_text().splitlines()
    ]
    events = [record["event"] for record in log]
    assert "forwarded_permission.request_created" in events
    assert "forwarded_permission.auto_approved" in events
    approved = [r for r in log if r["event"] == "permission_request.approved"]
    assert approved and approved[-1]["tool"] == "bash"
