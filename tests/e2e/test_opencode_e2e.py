"""End to end with the real OpenCode (``opencode run``) and clearance's shipped plugin: the
plugin asks ``clearance hook opencode`` about every tool call and throws to block. The model is
a scripted Chat Completions endpoint behind an ``@ai-sdk/openai-compatible`` provider.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hosts_harness import BINARIES, CLEARANCE, POLICY, HostProject
from wire_server import Script, call, say

pytestmark = pytest.mark.skipif(
    not os.access(BINARIES["opencode"], os.X_OK),
    reason=f"OpenCode is not installed at {BINARIES['opencode']}; run .ci/install-hosts",
)


def shell(marker: str, command: str) -> list[Script]:
    args = {"command": command, "description": "run it"}
    return [Script(marker, [call("bash", args), say("Done.")])]


@pytest.fixture
def opencode(tmp_path: Path) -> HostProject:
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    project.clearance("install", "opencode")
    return project


def test_a_denied_rm_leaves_the_file_and_the_model_gets_the_reason(opencode: HostProject) -> None:
    run = opencode.run_opencode("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"))
    assert (opencode.project / "victim.txt").read_text() == "still here\n", run.describe()
    assert "deleting files is not allowed here" in run.sent(), run.describe()


def test_an_allowed_command_runs(opencode: HostProject) -> None:
    run = opencode.run_opencode("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert (opencode.project / "made.txt").exists(), run.describe()


def test_a_read_of_a_denied_path_is_blocked(opencode: HostProject) -> None:
    path = str(opencode.project / ".env")
    scripts = [Script("E2E-MAIN", [call("read", {"filePath": path}), say("Done.")])]
    run = opencode.run_opencode("E2E-MAIN show it", scripts)
    assert "SECRET-VALUE-91c2" not in run.sent()
    assert "secrets stay private" in run.sent(), run.describe()


def test_a_broken_install_still_blocks(opencode: HostProject) -> None:
    # The plugin's clearance executable is gone: the plugin cannot reach clearance and blocks.
    plugin = opencode.config_home / "opencode" / "plugins" / "clearance.js"
    plugin.write_text(plugin.read_text().replace(str(CLEARANCE), "/nonexistent/clearance"))
    run = opencode.run_opencode("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert not (opencode.project / "made.txt").exists(), run.describe()
    assert "[clearance]" in run.sent(), run.describe()


def test_a_headless_ask_is_forwarded_to_a_serving_session(opencode: HostProject) -> None:
    serving = opencode.serve({"permission": {"*": "ask", "bash": {"*": "ask", "mkdir *": "allow"}}})
    try:
        run = opencode.run_opencode("E2E-MAIN make a directory", shell("E2E-MAIN", "mkdir build"))
    finally:
        serving.terminate()
        serving.wait(timeout=10)
    assert (opencode.project / "build").is_dir(), run.describe()
    events = [r["event"] for r in opencode.review_log()]
    assert "forwarded_permission.request_created" in events


def test_a_subagent_is_held_to_its_own_policy(opencode: HostProject) -> None:
    # The main agent may touch files; OpenCode's "general" subagent, in its child session, may
    # not. The task tool starts the subagent; its own model requests carry only its prompt.
    policy = json.loads(POLICY)
    policy["permission"]["task"] = "allow"
    policy["agents"] = {"general": {"permission": {"bash": {"touch *": {
        "action": "deny", "reason": "the general subagent may not create files"}}}}}  # fmt: skip
    opencode.policy(json.dumps(policy))
    task = {"description": "make it", "prompt": "E2E-SUB make it", "subagent_type": "general"}
    scripts = [
        Script("E2E-MAIN", [call("task", task), say("Done.")]),
        Script("E2E-SUB", [call("bash", {"command": "touch made.txt"}), say("Sub done.")]),
    ]
    run = opencode.run_opencode("E2E-MAIN delegate it", scripts)
    assert not (opencode.project / "made.txt").exists(), run.describe()
    assert "the general subagent may not create files" in run.sent(), run.describe()
    decided = [r for r in opencode.review_log() if r.get("agent") == "general"]
    assert decided, run.describe()


def test_the_plugin_asks_the_running_service_first(opencode: HostProject) -> None:
    # The plugin's clearance executable is gone: only the service can let the call run.
    plugin = opencode.config_home / "opencode" / "plugins" / "clearance.js"
    plugin.write_text(plugin.read_text().replace(str(CLEARANCE), "/nonexistent/clearance"))
    service = opencode.listen()
    try:
        made = opencode.run_opencode("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
        removed = opencode.run_opencode("E2E-MAIN delete it", shell("E2E-MAIN", "rm victim.txt"))
    finally:
        service.terminate()
        service.wait(timeout=10)
    assert (opencode.project / "made.txt").exists(), made.describe()
    assert (opencode.project / "victim.txt").exists(), removed.describe()
    assert "deleting files is not allowed here" in removed.sent(), removed.describe()


def test_opencode_s_own_ask_about_an_allowed_call_is_answered_through_its_reply_api(
    opencode: HostProject,
) -> None:
    # OpenCode's own rules ask about every bash call, and `opencode run` rejects an ask nobody
    # answers: the plugin answers it "once" for the call clearance allowed.
    run = opencode.run_opencode(
        "E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"), permission={"bash": "ask"}
    )
    # (`opencode run` still prints that it auto-rejects: its reject comes after the plugin's
    # answer and finds the ask gone.)
    assert (opencode.project / "made.txt").exists(), run.describe()


def test_without_the_plugin_s_answer_opencode_run_rejects_its_own_ask(
    opencode: HostProject,
) -> None:
    # The control for the test above: the same run without clearance's plugin.
    opencode.clearance("uninstall", "opencode")
    run = opencode.run_opencode(
        "E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"), permission={"bash": "ask"}
    )
    assert not (opencode.project / "made.txt").exists(), run.describe()
    assert "auto-rejecting" in run.proc.stdout + run.proc.stderr, run.describe()


def test_opencode_s_own_ask_is_rejected_when_clearance_did_not_allow_the_call(
    opencode: HostProject,
) -> None:
    # clearance asks about mkdir and no serving session takes it: the call is blocked before
    # OpenCode asks, and nothing answers an ask for it.
    run = opencode.run_opencode(
        "E2E-MAIN make it", shell("E2E-MAIN", "mkdir build"), permission={"bash": "ask"}
    )
    assert not (opencode.project / "build").exists(), run.describe()
    assert "[clearance]" in run.sent(), run.describe()
