"""End to end with the real Gemini CLI (``gemini -p``): clearance's BeforeTool hook decides.
The model is a scripted generateContent endpoint (``wire_server.py``, via
``GOOGLE_GEMINI_BASE_URL``); each test asserts on files on disk and on what Gemini CLI sent the
model back.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hosts_harness import BINARIES, HostProject
from terminal import TMUX
from wire_server import Script, call, say

pytestmark = pytest.mark.skipif(
    not os.access(BINARIES["gemini"], os.X_OK),
    reason=f"Gemini CLI is not installed at {BINARIES['gemini']}; run .ci/install-hosts",
)


def shell(marker: str, command: str) -> list[Script]:
    return [Script(marker, [call("run_shell_command", {"command": command}), say("Done.")])]


@pytest.fixture
def gemini(tmp_path: Path) -> HostProject:
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    project.clearance("install", "gemini")
    out = project.clearance("sync", "gemini")
    assert "cat, touch, echo" in out.stdout
    project.gemini_settings()
    return project


def test_a_denied_rm_leaves_the_file_and_the_model_gets_the_reason(gemini: HostProject) -> None:
    run = gemini.run_gemini("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"))
    assert run.proc.returncode == 0, run.describe()
    assert (gemini.project / "victim.txt").read_text() == "still here\n"
    assert "deleting files is not allowed here" in run.sent(), run.describe()


def test_an_allowed_command_runs(gemini: HostProject) -> None:
    run = gemini.run_gemini("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert run.proc.returncode == 0, run.describe()
    assert (gemini.project / "made.txt").exists(), run.describe()


def test_a_read_of_a_denied_path_is_blocked(gemini: HostProject) -> None:
    # (Gemini CLI refuses dotfiles like .env itself; deploy.env reaches the hook.)
    path = str(gemini.project / "deploy.env")
    scripts = [Script("E2E-MAIN", [call("read_file", {"file_path": path}), say("Done.")])]
    run = gemini.run_gemini("E2E-MAIN show it", scripts)
    assert run.proc.returncode == 0, run.describe()
    assert "SECRET-VALUE-91c2" not in run.sent()
    assert "secrets stay private" in run.sent(), run.describe()


def test_a_broken_install_still_blocks(gemini: HostProject) -> None:
    gemini.extra_env["PYTHONHOME"] = "/nonexistent-python-home"
    run = gemini.run_gemini("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert not (gemini.project / "made.txt").exists(), run.describe()
    assert "clearance hook could not run" in run.sent(), run.describe()


def let_mkdir_reach_the_hook(gemini: HostProject) -> None:
    """A Gemini CLI rule, as `sync` writes, so its own engine passes mkdir to the hook."""
    policies = gemini.home / ".gemini" / "policies" / "e2e.toml"
    policies.write_text('[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "mkdir"\n'
                        'decision = "allow"\npriority = 100\n')  # fmt: skip


def test_a_headless_ask_no_one_serves_is_denied_instead_of_hanging(gemini: HostProject) -> None:
    # Gemini CLI waits forever on an "ask" in prompt mode; the hook sees `gemini -p` and denies.
    let_mkdir_reach_the_hook(gemini)
    run = gemini.run_gemini("E2E-MAIN make a directory", shell("E2E-MAIN", "mkdir build"))
    assert run.proc.returncode == 0, run.describe()
    assert not (gemini.project / "build").exists()
    assert "no one can approve it here" in run.sent(), run.describe()


def test_a_headless_ask_is_forwarded_to_a_serving_session(gemini: HostProject) -> None:
    let_mkdir_reach_the_hook(gemini)
    serving = gemini.serve({"permission": {"*": "ask", "bash": {"*": "ask", "mkdir *": "allow"}}})
    try:
        run = gemini.run_gemini("E2E-MAIN make a directory", shell("E2E-MAIN", "mkdir build"))
    finally:
        serving.terminate()
        serving.wait(timeout=10)
    assert (gemini.project / "build").is_dir(), run.describe()
    events = [r["event"] for r in gemini.review_log()]
    assert "forwarded_permission.request_created" in events


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_an_ask_in_an_interactive_run_is_gemini_s_own_dialog(gemini: HostProject) -> None:
    # Gemini CLI's own engine passes mkdir (the rule below), so the dialog is the hook's ask.
    let_mkdir_reach_the_hook(gemini)
    scripts = shell("E2E-MAIN", "mkdir build")
    with gemini.terminal("gemini", "E2E-MAIN make a directory", scripts) as screen:
        screen.wait_for("Allow execution of")
        assert not (gemini.project / "build").exists()
        screen.press("Enter")  # 1. Allow once
        screen.wait_until(lambda: (gemini.project / "build").is_dir(), "the directory")
    shown = [r for r in gemini.review_log() if r["event"] == "permission_request.delegated"]
    assert shown and shown[-1]["resolution"] == "host_dialog", gemini.review_log()


def test_after_uninstall_gemini_no_longer_runs_what_the_synced_rules_let_through(
    gemini: HostProject,
) -> None:
    # `cat *` is allowed by clearance, so `sync` let `cat` past Gemini CLI's own checks; with
    # the hook gone, those rules would run `cat deploy.env` undecided.
    gemini.clearance("uninstall", "gemini")
    run = gemini.run_gemini("E2E-MAIN show it", shell("E2E-MAIN", "cat deploy.env"))
    assert "SECRET-VALUE-91c2" not in run.sent(), run.describe()
