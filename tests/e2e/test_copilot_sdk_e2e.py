"""End to end with the GitHub Copilot SDK for Python driving the real Copilot CLI: clearance's
``on_pre_tool_use`` hook (``clearance.hosts.copilot_sdk``) decides every tool call. The model is
the scripted Chat Completions endpoint, as a BYOK provider in offline mode (no login).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from hosts_harness import BINARIES, HostProject
from wire_server import Script, WireServer, call, say

copilot = pytest.importorskip("copilot")

pytestmark = pytest.mark.skipif(
    not os.access(BINARIES["copilot"], os.X_OK),
    reason=f"Copilot CLI is not installed at {BINARIES['copilot']}; run .ci/install-hosts",
)


def run_session(project: HostProject, command: str) -> WireServer:
    from clearance.hosts import copilot_sdk

    script = [Script("E2E-MAIN", [call("bash", {"command": command, "description": "x"}),
                                  say("Done.")])]  # fmt: skip

    async def main(server: WireServer) -> None:
        env = {**project.env, "COPILOT_CLI_PATH": str(BINARIES["copilot"]),
               "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": server.url + "/v1",
               "COPILOT_PROVIDER_API_KEY": "x", "COPILOT_MODEL": "gpt-4.1"}  # fmt: skip
        client = copilot.CopilotClient(env=env, working_directory=str(project.project))
        await client.start()
        try:
            session = await client.create_session(
                on_permission_request=lambda request, invocation: {"kind": "approved"},
                hooks={"on_pre_tool_use": copilot_sdk.pre_tool_use(env=project.env)},
                working_directory=str(project.project),
                model="gpt-4.1",
                provider={"type": "openai", "base_url": server.url + "/v1", "api_key": "x"},
            )
            await asyncio.wait_for(session.send_and_wait("E2E-MAIN do it"), 120)
        finally:
            await asyncio.wait_for(client.stop(), 30)

    with WireServer(script) as server:
        asyncio.run(asyncio.wait_for(main(server), 150))
    return server


@pytest.fixture
def project(tmp_path: Path) -> HostProject:
    project = HostProject(tmp_path)
    project.policy()
    project.files()
    return project


def test_the_sdk_hook_denies_a_denied_rm_and_the_model_gets_the_reason(
    project: HostProject,
) -> None:
    server = run_session(project, "rm -rf victim.txt")
    assert (project.project / "victim.txt").read_text() == "still here\n"
    assert "deleting files is not allowed here" in server.everything_sent()


def test_the_sdk_hook_lets_an_allowed_command_run(project: HostProject) -> None:
    run_session(project, "touch made.txt")
    assert (project.project / "made.txt").exists()
