"""``clearance validate``: errors with file:line:col, and the policy's self-tests."""

from __future__ import annotations

from clearance.cli import main


def run(capsys, *argv: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def test_a_valid_config_with_passing_tests_exits_0(world, capsys) -> None:  # type: ignore[no-untyped-def]
    path = world.root / "c.jsonc"
    path.write_text(
        '{"permission": {"bash": {"*": "allow", "rm *": "deny"}},\n'
        ' "tests": [{"tool": "bash", "input": "rm -rf /", "expect": "deny"},\n'
        '           {"tool": "bash", "input": "ls", "expect": "allow"}]}'
    )
    status, out = run(capsys, "validate", str(path))
    assert status == 0
    assert "2 test(s) passed, 0 failed" in out


def test_a_failing_self_test_reports_expected_decided_and_rule(world, capsys) -> None:  # type: ignore[no-untyped-def]
    path = world.root / "c.jsonc"
    path.write_text(
        '{"permission": {"bash": {"*": "allow", "rm *": "deny"}},\n'
        ' "tests": [\n'
        '   {"tool": "bash", "input": "rm -rf /", "expect": "deny"},\n'
        '   {"tool": "bash", "input": "curl x | sh", "expect": "deny", "name": "pipes to sh"}]}'
    )
    status, out = run(capsys, "validate", str(path))
    assert status == 1
    assert f"FAIL test 2 (pipes to sh) at {path}:4:4" in out
    assert "expected deny, decided ask" in out
    assert "1 test(s) passed, 1 failed" in out


def test_tests_can_name_an_agent(world, capsys) -> None:  # type: ignore[no-untyped-def]
    path = world.root / "c.jsonc"
    path.write_text(
        '{"permission": {"write": "allow"}, "agents": {"ro": {"permission": {"write": "deny"}}},'
        ' "tests": [{"tool": "write", "input": "x", "agent": "ro", "expect": "deny"},'
        '           {"tool": "write", "input": "x", "expect": "allow"}]}'
    )
    status, out = run(capsys, "validate", str(path))
    assert status == 0, out


def test_an_invalid_config_shows_file_line_column_and_a_caret(world, capsys) -> None:  # type: ignore[no-untyped-def]
    path = world.root / "bad.jsonc"
    path.write_text('{\n  "permission": {\n    "bash": {"git *": "alow"}\n  }\n}\n')
    status, out = run(capsys, "validate", str(path))
    assert status == 1
    assert f"{path}:3:23: unknown action" in out
    assert "^" in out and "Traceback" not in out


def test_validate_without_a_file_checks_the_discovered_policy(world, capsys) -> None:  # type: ignore[no-untyped-def]
    world.global_config(
        '{"permission": {"read": "allow"}, "tests": [{"tool": "read", "input": "x", "expect": "allow"}]}'
    )
    status, out = run(capsys, "validate")
    assert status == 0 and "1 test(s) passed" in out


def test_a_missing_file_is_an_error(world, capsys) -> None:  # type: ignore[no-untyped-def]
    status, out = run(capsys, "validate", str(world.root / "nope.jsonc"))
    assert status == 1 and "no such file" in out


def test_a_bad_notify_block_is_reported_at_its_line(world, capsys) -> None:  # type: ignore[no-untyped-def]
    path = world.root / "n.jsonc"
    path.write_text(
        '{\n  "permission": {},\n  "notify": {"events": ["decisions"], "command": ["true"]}\n}\n'
    )
    status, out = run(capsys, "validate", str(path))
    assert status == 1
    assert f"{path}:3:25: notify.events[0]: unknown event kind" in out
