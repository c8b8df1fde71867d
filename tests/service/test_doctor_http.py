"""``clearance doctor`` with the HTTP hook installed: onFailure, the token, the live service."""

from __future__ import annotations

import json

from servicekit import POLICY, Running


def install_http(world, project, port: int) -> None:  # type: ignore[no-untyped-def]
    claude = world.root / "claude"
    claude.write_text("#!/bin/sh\necho '2.1.332 (Claude Code)'\n")
    claude.chmod(0o755)
    result = world.run("install", "claude-code", "--local", "--http", "--claude", str(claude),
                       "--url", f"http://127.0.0.1:{port}/hooks/claude-code", cwd=project)  # fmt: skip
    assert result.returncode == 0, result.stderr


def lines(output: str, name: str) -> list[str]:
    return [line for line in output.splitlines() if f"  {name}:" in line]


def test_doctor_checks_the_http_hook_token_and_service(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config(POLICY)
    project = world.project()
    running = Running(world.env, project)
    try:
        install_http(world, project, running.port)
        out = world.run("doctor", "--cwd", str(project), cwd=project).stdout
        assert lines(out, "installation")[0].startswith("ok"), out
        assert lines(out, "http token")[0].startswith("ok"), out
        [service] = lines(out, "http service")
        assert service.startswith("ok") and "answered 'allow'" in service, out
    finally:
        running.stop()
    out = world.run("doctor", "--cwd", str(project), cwd=project).stdout
    [service] = lines(out, "http service")
    assert service.startswith("FAIL") and "every call is blocked" in service
    settings = project / ".claude" / "settings.local.json"
    data = json.loads(settings.read_text())
    data["env"]["CLEARANCE_HOOK_TOKEN"] = "0" * 64
    for groups in data["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                del hook["onFailure"]
    settings.write_text(json.dumps(data))
    out = world.run("doctor", "--cwd", str(project), cwd=project).stdout
    assert lines(out, "http token")[0].startswith("FAIL")
    assert "onFailure" in lines(out, "http hook")[0]
