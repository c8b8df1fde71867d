"""End to end with the real GitHub Copilot CLI (``copilot -p``), with no login: a BYOK provider
(``COPILOT_PROVIDER_BASE_URL``, Chat Completions) in offline mode. clearance's ``preToolUse``
hook decides; each test asserts on files on disk and on what Copilot CLI sent the model back.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hosts_harness import BINARIES, HostProject
from terminal import TMUX
from wire_server import Script, call, say

pytestmark = pytest.mark.skipif(
    not os.access(BINARIES["copilot"], os.X_OK),
    reason=f"Copilot CLI is not installed at {BINARIES['copilot']}; run .ci/install-hosts",
)


def shell(marker: str, command: str) -> list[Script]:
    args = {"command": command, "description": "run it"}
    return [Script(marker, [call("bash", args), say("Done.")])]


@pytest.fixture
def copilot(tmp_path: Path) -> HostProject:
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    project.clearance("install", "copilot")
    project.extra_env["COPILOT_HOME"] = str(project.home / ".copilot")
    return project


def test_a_denied_rm_leaves_the_file_and_the_model_gets_the_reason(copilot: HostProject) -> None:
    run = copilot.run_copilot("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"))
    assert run.proc.returncode == 0, run.describe()
    assert (copilot.project / "victim.txt").read_text() == "still here\n"
    assert "deleting files is not allowed here" in run.sent(), run.describe()


def test_an_allowed_command_runs(copilot: HostProject) -> None:
    run = copilot.run_copilot("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert run.proc.returncode == 0, run.describe()
    assert (copilot.project / "made.txt").exists(), run.describe()


def test_a_read_of_a_denied_path_is_blocked(copilot: HostProject) -> None:
    path = str(copilot.project / ".env")
    scripts = [Script("E2E-MAIN", [call("view", {"path": path}), say("Done.")])]
    run = copilot.run_copilot("E2E-MAIN show it", scripts)
    assert run.proc.returncode == 0, run.describe()
    assert "SECRET-VALUE-91c2" not in run.sent()
    assert "secrets stay private" in run.sent(), run.describe()


def test_a_broken_install_still_blocks(copilot: HostProject) -> None:
    copilot.extra_env["PYTHONHOME"] = "/nonexistent-python-home"
    run = copilot.run_copilot("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert not (copilot.project / "made.txt").exists(), run.describe()


def test_a_headless_ask_is_forwarded_to_a_serving_session(copilot: HostProject) -> None:
    copilot.extra_env["CLEARANCE_HEADLESS"] = "1"
    serving = copilot.serve({"permission": {"*": "ask", "bash": {"*": "ask", "mkdir *": "allow"}}})
    try:
        run = copilot.run_copilot("E2E-MAIN make a directory", shell("E2E-MAIN", "mkdir build"))
    finally:
        serving.terminate()
        serving.wait(timeout=10)
    assert (copilot.project / "build").is_dir(), run.describe()
    events = [r["event"] for r in copilot.review_log()]
    assert "forwarded_permission.request_created" in events


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_an_ask_in_an_interactive_run_is_copilot_s_own_dialog(copilot: HostProject) -> None:
    # With --allow-all-tools Copilot CLI's own rules ask nothing: the dialog is the hook's ask.
    scripts = shell("E2E-MAIN", "mkdir build")
    with copilot.terminal("copilot", "E2E-MAIN make a directory", scripts) as screen:
        trust = {"remember this folder": "Enter"}  # Copilot CLI's folder trust prompt first
        shown = screen.wait_for("Do you want to allow this tool call", trust)
        assert "[clearance] Needs approval" in shown, shown
        assert not (copilot.project / "build").exists()
        screen.press("Enter")  # 1. Yes
        screen.wait_until(lambda: (copilot.project / "build").is_dir(), "the directory")
    asked = [r for r in copilot.review_log() if r["event"] == "permission_request.delegated"]
    assert asked and asked[-1]["resolution"] == "host_dialog", copilot.review_log()
