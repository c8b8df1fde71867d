"""End to end with the real Codex CLI (``codex exec``): clearance's hooks decide, and the world
shows it. The model is a scripted Responses endpoint (``wire_server.py``); each test asserts on
files on disk and on what Codex sent the model back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hosts_harness import BINARIES, HostProject
from terminal import TMUX
from wire_server import Script, call, say

pytestmark = pytest.mark.skipif(
    not os.access(BINARIES["codex"], os.X_OK),
    reason=f"Codex is not installed at {BINARIES['codex']}; run .ci/install-hosts",
)


def shell(marker: str, command: str) -> list[Script]:
    return [Script(marker, [call("exec_command", {"cmd": command}), say("Done.")])]


@pytest.fixture
def codex(tmp_path: Path) -> HostProject:
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    out = project.clearance("install", "codex")
    assert "trusted in" in out.stdout
    return project


def test_a_denied_rm_leaves_the_file_and_the_model_gets_the_reason(codex: HostProject) -> None:
    run = codex.run_codex("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"))
    assert run.proc.returncode == 0, run.describe()
    assert (codex.project / "victim.txt").read_text() == "still here\n"
    assert "deleting files is not allowed here" in run.sent(), run.describe()


def test_an_allowed_command_runs(codex: HostProject) -> None:
    run = codex.run_codex("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert run.proc.returncode == 0, run.describe()
    assert (codex.project / "made.txt").exists(), run.describe()


def test_a_read_of_a_denied_path_is_blocked(codex: HostProject) -> None:
    run = codex.run_codex("E2E-MAIN show it", shell("E2E-MAIN", "cat .env"))
    assert run.proc.returncode == 0, run.describe()
    assert "SECRET-VALUE-91c2" not in run.sent()
    assert "secrets stay private" in run.sent(), run.describe()


def test_a_broken_install_still_blocks(codex: HostProject) -> None:
    # The interpreter behind `clearance` cannot start: the installed command turns that into
    # exit 2 with a reason, which Codex treats as a block (a plain failure would let it run).
    codex.extra_env["PYTHONHOME"] = "/nonexistent-python-home"
    run = codex.run_codex("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"))
    assert (codex.project / "victim.txt").read_text() == "still here\n", run.describe()
    assert "clearance hook could not run" in run.sent(), run.describe()


def test_a_headless_ask_is_forwarded_to_a_serving_session(codex: HostProject) -> None:
    serving = codex.serve({"permission": {"*": "ask", "bash": {"*": "ask", "mkdir *": "allow"}}})
    try:
        run = codex.run_codex("E2E-MAIN make a directory", shell("E2E-MAIN", "mkdir build"))
    finally:
        serving.terminate()
        serving.wait(timeout=10)
    assert (codex.project / "build").is_dir(), run.describe()
    events = [r["event"] for r in codex.review_log()]
    assert "forwarded_permission.request_created" in events
    approved = [r for r in codex.review_log() if r["event"] == "permission_request.approved"]
    assert approved and approved[-1]["tool"] == "bash", json.dumps(codex.review_log())[-2000:]


def test_sync_makes_codex_itself_refuse_a_denied_command_without_the_hook(
    codex: HostProject,
) -> None:
    codex.clearance("uninstall", "codex")
    out = codex.clearance("sync", "codex")
    assert "commands Codex itself refuses: rm" in out.stdout
    run = codex.run_codex("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"))
    assert (codex.project / "victim.txt").read_text() == "still here\n", run.describe()
    assert "deleting files is not allowed here" in run.sent(), run.describe()


def test_a_project_install_is_trusted_and_blocks(tmp_path: Path) -> None:
    # The project's .codex/hooks.json, its hash recorded in the user's config.toml; Codex reads
    # a project's .codex only in a trusted project (`--trust`).
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    assert "trusted in" in project.clearance("install", "codex", "--project").stdout
    run = project.run_codex("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"), "--trust")
    assert (project.project / "victim.txt").read_text() == "still here\n", run.describe()
    assert "deleting files is not allowed here" in run.sent(), run.describe()


@pytest.mark.skipif(
    not os.access(BINARIES["codex-0.165"], os.X_OK),
    reason=f"Codex 0.165.0 is not installed at {BINARIES['codex-0.165']}; run .ci/install-hosts",
)
@pytest.mark.parametrize("scope", ["--user", "--project"])
def test_the_recorded_trust_holds_in_an_earlier_codex(tmp_path: Path, scope: str) -> None:
    # Codex skips a hook whose recorded hash is not its own, silently: the reason reaching the
    # model shows the hook ran. (This Codex has no `exec --trust`; the project is trusted in
    # its configuration.)
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    assert "trusted in" in project.clearance("install", "codex", scope).stdout
    trusted = f'projects={{"{project.project}"={{trust_level="trusted"}}}}'
    script = shell("E2E-MAIN", "rm -rf victim.txt")
    run = project.run_codex("E2E-MAIN delete it", script, "-c", trusted, codex="codex-0.165")
    assert (project.project / "victim.txt").read_text() == "still here\n", run.describe()
    assert "deleting files is not allowed here" in run.sent(), run.describe()


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
def test_interactive_codex_s_approval_of_an_allowed_command_is_answered_by_clearance(
    codex: HostProject,
) -> None:
    # The model asks to run outside the read-only sandbox: Codex would show its approval dialog
    # ("Would you like to run the following command?"); its PermissionRequest hook gets
    # clearance's allow first, so the command runs without it.
    args = {"cmd": "touch made.txt", "sandbox_permissions": "require_escalated",
            "justification": "write a file"}  # fmt: skip
    scripts = [Script("E2E-MAIN", [call("exec_command", args), say("Done.")])]
    with codex.terminal("codex", "E2E-MAIN make it", scripts) as screen:
        screen.wait_until(lambda: (codex.project / "made.txt").exists(), "made.txt")
        assert "Would you like to run" not in screen.screen()
    allowed = [r for r in codex.review_log() if r["event"] == "permission_request.allowed"]
    assert allowed and allowed[-1]["value"] == "touch made.txt", codex.review_log()
