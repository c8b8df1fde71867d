"""End to end with the real pi (``pi -p``) and clearance's shipped extension: the extension
asks ``clearance hook pi`` about every tool call and returns ``{block: true, reason}`` to block.
The model is a scripted Chat Completions endpoint (``openai-completions`` in pi's models.json).
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from hosts_harness import BINARIES, CLEARANCE, POLICY, TIMEOUT, HostProject
from wire_server import Script, WireServer, call, say

pytestmark = pytest.mark.skipif(
    not os.access(BINARIES["pi"], os.X_OK),
    reason=f"pi is not installed at {BINARIES['pi']}; run .ci/install-hosts",
)


def shell(marker: str, command: str) -> list[Script]:
    args = {"command": command}
    return [Script(marker, [call("bash", args), say("Done.")])]


@pytest.fixture
def pi(tmp_path: Path) -> HostProject:
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    project.clearance("install", "pi")
    return project


def test_a_denied_rm_leaves_the_file_and_the_model_gets_the_reason(pi: HostProject) -> None:
    run = pi.run_pi("E2E-MAIN delete it", shell("E2E-MAIN", "rm -rf victim.txt"))
    assert (pi.project / "victim.txt").read_text() == "still here\n", run.describe()
    assert "deleting files is not allowed here" in run.sent(), run.describe()


def test_an_allowed_command_runs(pi: HostProject) -> None:
    run = pi.run_pi("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert (pi.project / "made.txt").exists(), run.describe()


def test_a_read_of_a_denied_path_is_blocked(pi: HostProject) -> None:
    path = str(pi.project / ".env")
    scripts = [Script("E2E-MAIN", [call("read", {"path": path}), say("Done.")])]
    run = pi.run_pi("E2E-MAIN show it", scripts)
    assert "SECRET-VALUE-91c2" not in run.sent()
    assert "secrets stay private" in run.sent(), run.describe()


def test_a_broken_install_still_blocks(pi: HostProject) -> None:
    # The extension's clearance executable is gone: it cannot reach clearance, so it blocks.
    plugin = pi.home / ".pi" / "agent" / "extensions" / "clearance.ts"
    plugin.write_text(plugin.read_text().replace(str(CLEARANCE), "/nonexistent/clearance"))
    run = pi.run_pi("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert not (pi.project / "made.txt").exists(), run.describe()
    assert "[clearance]" in run.sent(), run.describe()


def test_a_headless_ask_is_forwarded_to_a_serving_session(pi: HostProject) -> None:
    serving = pi.serve({"permission": {"*": "ask", "bash": {"*": "ask", "mkdir *": "allow"}}})
    try:
        run = pi.run_pi("E2E-MAIN make a directory", shell("E2E-MAIN", "mkdir build"))
    finally:
        serving.terminate()
        serving.wait(timeout=10)
    assert (pi.project / "build").is_dir(), run.describe()
    events = [r["event"] for r in pi.review_log()]
    assert "forwarded_permission.request_created" in events


def _rpc_select(pi: HostProject, scripts: list[Script], wanted: str) -> list[dict[str, Any]]:
    """Run pi in RPC mode, where it has a UI: the extension's ctx.ui.select travels as
    ``extension_ui_request``; answer each with the first option containing ``wanted``."""
    with WireServer(scripts) as server:
        pi.pi_models(server.url)
        process = subprocess.Popen(
            [str(BINARIES["pi"]), "--mode", "rpc", "--provider", "e2e", "--model", "e2e-model"],
            cwd=pi.project, env={**pi.env, "PI_SKIP_VERSION_CHECK": "1"}, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        assert process.stdin is not None and process.stdout is not None
        asked: list[dict[str, Any]] = []
        watchdog = threading.Timer(TIMEOUT, process.kill)  # a silent hang ends too
        watchdog.start()
        try:
            process.stdin.write(json.dumps({"type": "prompt", "message": "E2E-MAIN mk"}) + "\n")
            process.stdin.flush()
            for line in process.stdout:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if event.get("type") == "extension_ui_request" and event.get("method") == "select":
                    asked.append(event)
                    options = [str(o) for o in event["options"]]
                    pick = next(o for o in options if wanted in o)
                    reply = {"type": "extension_ui_response", "id": event["id"], "value": pick}
                    process.stdin.write(json.dumps(reply) + "\n")
                    process.stdin.flush()
                if event.get("type") == "agent_end":
                    break
        finally:
            watchdog.cancel()
            process.kill()
            process.wait(timeout=10)
    return asked


def test_an_ask_is_shown_in_pis_dialog_and_a_session_answer_is_recorded(pi: HostProject) -> None:
    # The client picks clearance's "for this session" option, and the grant is recorded.
    asked = _rpc_select(pi, shell("E2E-MAIN", "mkdir build"), "for this session")
    assert asked, "pi showed no dialog"
    assert "Yes" in asked[0]["options"] and "No" in asked[0]["options"]
    assert (pi.project / "build").is_dir()
    approved = [r for r in pi.review_log() if r["event"] == "permission_request.approved"]
    assert approved and approved[-1]["resolution"] == "user_approved_for_session"
    assert approved[-1].get("grants")


def _without_process(pi: HostProject) -> None:
    """Point the extension's clearance executable nowhere: only the service can decide."""
    plugin = pi.home / ".pi" / "agent" / "extensions" / "clearance.ts"
    plugin.write_text(plugin.read_text().replace(str(CLEARANCE), "/nonexistent/clearance"))


def test_the_extension_asks_the_running_service_first(pi: HostProject) -> None:
    _without_process(pi)
    service = pi.listen()
    try:
        made = pi.run_pi("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
        removed = pi.run_pi("E2E-MAIN delete it", shell("E2E-MAIN", "rm victim.txt"))
    finally:
        service.terminate()
        service.wait(timeout=10)
    assert (pi.project / "made.txt").exists(), made.describe()
    assert (pi.project / "victim.txt").exists(), removed.describe()
    assert "deleting files is not allowed here" in removed.sent(), removed.describe()


def test_an_ask_through_the_service_is_shown_in_pis_dialog(pi: HostProject) -> None:
    # The service decides and answers the dialog's choice too: the process is never run. Asks
    # go to pi's dialog ("native"), not to the service's console, which serves this project.
    policy = json.loads(POLICY)
    policy["hosts"] = {"pi": {"ask": "native"}}
    pi.policy(json.dumps(policy))
    _without_process(pi)
    service = pi.listen()
    try:
        asked = _rpc_select(pi, shell("E2E-MAIN", "mkdir build"), "Yes")
        refused = _rpc_select(pi, shell("E2E-MAIN", "mkdir other"), "No")
    finally:
        service.terminate()
        service.wait(timeout=10)
    assert len(asked) == 1 and len(refused) == 1
    assert (pi.project / "build").is_dir()
    assert not (pi.project / "other").exists()
    events = [r["event"] for r in pi.review_log()]
    assert "permission_request.approved" in events and "permission_request.denied" in events


def test_with_neither_the_service_nor_the_process_the_call_is_blocked(pi: HostProject) -> None:
    # A service ran once (its token is on disk) but is gone, and the executable is missing.
    _without_process(pi)
    service = pi.listen()
    service.terminate()
    service.wait(timeout=10)
    run = pi.run_pi("E2E-MAIN make it", shell("E2E-MAIN", "touch made.txt"))
    assert not (pi.project / "made.txt").exists(), run.describe()
    assert "[clearance]" in run.sent(), run.describe()
