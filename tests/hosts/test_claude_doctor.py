"""``clearance doctor``: each check finds its problem and says how to fix it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from clearance.hosts.claude_code.doctor import (
    check_config,
    check_installation,
    check_state,
    check_trust,
    run_checks,
)
from clearance.hosts.claude_code.settings import hook_command, install, settings_path


@pytest.fixture
def proj(world: Any) -> Path:
    project: Path = world.project("proj")
    return project


def test_a_healthy_installation_passes_every_check(world: Any, proj: Path) -> None:
    world.global_config('{"permission": {"*": "ask", "read": "allow"}}')
    install(settings_path("project", str(proj)), command=hook_command())
    checks = run_checks(str(proj))
    assert [(c.name, c.ok) for c in checks] == [
        ("installation", True), ("overlap", True), ("config", True), ("trust", True),
        ("state", True), ("state writable", True), ("audit log", True), ("hidden tools", True),
        ("claude code rules", True), ("sandbox", True), ("fail-closed", True),
        ("round trip", True),
    ]  # fmt: skip
    assert "'allow'" in checks[-1].summary


def test_a_missing_hook_says_how_to_install_it(world: Any, proj: Path) -> None:
    check, _ = check_installation(str(proj), os.environ)
    assert not check.ok
    assert check.fix is not None and "clearance install claude-code" in check.fix


def test_a_hook_whose_program_is_gone_is_reported(world: Any, proj: Path) -> None:
    install(settings_path("local", str(proj)), command="/nowhere/clearance hook claude-code")
    check, _ = check_installation(str(proj), os.environ)
    assert not check.ok
    assert "/nowhere/clearance is missing" in check.summary


def test_a_broken_config_is_reported_with_its_location(world: Any, proj: Path) -> None:
    path = world.global_config('{"permission": {"bash": "alow"}}')
    check = check_config(str(proj), os.environ)
    assert not check.ok
    assert f"{path}:1:" in check.summary


def test_an_untrusted_project_config_is_reported(world: Any) -> None:
    project = world.project("cloned", config='{"permission": {"*": "allow"}}')
    check = check_trust(str(project), os.environ)
    assert not check.ok
    assert check.fix is not None and "clearance trust" in check.fix
    world.run("trust", str(project))
    assert check_trust(str(project), os.environ).ok


def test_loose_state_modes_are_reported(world: Any) -> None:
    leak = Path(world.state) / "logs"
    leak.mkdir(parents=True)
    os.chmod(world.state, 0o700)
    (leak / "review.jsonl").write_text("{}\n")
    os.chmod(leak / "review.jsonl", 0o644)
    check = check_state(os.environ)
    assert not check.ok
    assert "review.jsonl (0o644, want 0o600)" in check.summary
    assert "logs (0o755, want 0o700)" in check.summary


def test_the_doctor_command_exits_one_on_a_problem_and_zero_when_healthy(
    world: Any, proj: Path
) -> None:
    proc = world.run("doctor", cwd=proj)
    assert proc.returncode == 1
    assert "FAIL  installation" in proc.stdout
    assert world.run("install", "claude-code", "--local", cwd=proj).returncode == 0
    proc = world.run("doctor", cwd=proj)
    assert proc.returncode == 0, proc.stdout
    assert "ok    round trip" in proc.stdout


def test_a_forwarding_inbox_writable_by_others_is_to_be_removed_not_repaired(world: Any) -> None:
    inbox = Path(world.state) / "forwarding" / "P"
    (inbox / "requests").mkdir(parents=True)
    for path in (world.state, Path(world.state) / "forwarding", inbox / "requests"):
        os.chmod(path, 0o700)
    os.chmod(inbox, 0o777)
    check = check_state(os.environ)
    assert not check.ok and check.fix is not None
    assert "chmod" not in check.fix
    assert f"rm -rf {inbox}" in check.fix and "restart `clearance serve`" in check.fix


def test_the_doctor_says_whether_a_failing_hook_blocks(world: Any, proj: Path) -> None:
    from clearance.hosts.claude_code.doctor_blocking import check_fail_closed

    world.global_config('{"permission": {"*": "ask"}}')
    path = settings_path("project", str(proj))
    install(path, command=hook_command(), fail_closed=True)
    check = check_fail_closed(str(proj), world.env)
    assert check is not None and check.ok and "onFailure: block" in check.summary
    install(path, command=hook_command(), fail_closed=False)
    check = check_fail_closed(str(proj), {**world.env, "PATH": "/nonexistent"})
    assert check is not None and check.ok and "not found on PATH" in check.summary


def test_without_a_clearance_command_hook_the_fail_closed_check_is_left_out(
    world: Any, proj: Path
) -> None:
    from clearance.hosts.claude_code.doctor_blocking import check_fail_closed

    assert check_fail_closed(str(proj), world.env) is None


def test_the_probe_stays_out_of_the_review_log(world: Any, proj: Path) -> None:
    install(settings_path("project", str(proj)), command=hook_command())
    result = world.run("doctor", "--cwd", str(proj))
    assert "round trip: a sample Read answered" in result.stdout, result.stdout
    log = world.state / "logs" / "review.jsonl"
    assert not log.exists() or "clearance-doctor" not in log.read_text()


def test_a_state_dir_that_is_a_file_and_a_log_that_cannot_be_appended_fail(world: Any) -> None:
    (world.state / "logs" / "review.jsonl").mkdir(parents=True)
    result = world.run("doctor")
    assert "FAIL  audit log: " in result.stdout and "is not a regular file" in result.stdout
    import shutil

    shutil.rmtree(world.state)
    world.state.write_text("")
    result = world.run("doctor")
    assert "FAIL  state writable: " in result.stdout and "is not a directory" in result.stdout
    assert "Errno" not in result.stdout + result.stderr


def test_a_decision_whose_log_append_failed_says_so_on_stderr(world: Any, proj: Path) -> None:
    (world.state / "logs" / "review.jsonl").mkdir(parents=True)
    result = world.run("gate", "bash", "rm -rf /")
    assert result.returncode == 4
    assert "review log" in result.stderr and "missing from the review log" in result.stderr


def test_overlapping_installs_and_stale_hidden_tools_are_reported(world: Any, proj: Path) -> None:
    assert world.run("install", "claude-code", "--user").returncode == 0
    assert world.run("install", "claude-code", "--local", "--dir", str(proj)).returncode == 0
    result = world.run("doctor", "--cwd", str(proj))
    assert "FAIL  overlap: the hook is installed 2 times" in result.stdout
    assert "FAIL  hidden tools" not in result.stdout
    world.global_config('{"permission": {"*": "ask", "webfetch": "deny"}}')
    result = world.run("doctor", "--cwd", str(proj))
    assert "FAIL  hidden tools: the policy changed" in result.stdout, result.stdout
    assert "clearance sync claude-code" in result.stdout


def test_claude_code_rules_clearance_decides_differently_are_noted(world: Any, proj: Path) -> None:
    settings = proj / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"permissions": {"allow": ["Bash(npm test:*)", "Bash(git status:*)"]}}')
    result = world.run("doctor", "--cwd", str(proj))
    assert "npm test:*): Claude Code says allow, clearance ask" in result.stdout
    assert "git status" not in result.stdout.split("claude code rules")[1].split("\n")[0]
