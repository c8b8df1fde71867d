"""Every command's ``--help``, ``-h``, ``-V``, typos with "did you mean", validated values.

The help of every command is compared with a golden file under ``tests/cli/golden/``; after a
deliberate change, regenerate them with ``CLEARANCE_UPDATE_GOLDEN=1 pytest tests/cli/test_help.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clearance.cli._commands import COMMANDS

GOLDEN = Path(__file__).parent / "golden"
NAMES = [c.name for c in COMMANDS]
UPDATE = bool(os.environ.get("CLEARANCE_UPDATE_GOLDEN"))  # read before the fixture clears it


@pytest.mark.parametrize("name", NAMES)
def test_every_command_has_help_matching_its_golden_file(world, name: str) -> None:  # type: ignore[no-untyped-def]
    result = world.run(name, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    text = result.stdout
    assert "examples:" in text and "options:" in text
    golden = GOLDEN / f"{name}.txt"
    if UPDATE:
        golden.write_text(text)
    assert text == golden.read_text(), f"clearance {name} --help changed; see {golden}"


def test_the_top_level_help_lists_every_command(world) -> None:  # type: ignore[no-untyped-def]
    for flag in ("-h", "--help", "help"):
        result = world.run(flag)
        assert result.returncode == 0
        for name in NAMES:
            assert f"\n  {name} " in result.stdout
    golden = GOLDEN / "clearance.txt"
    text = world.run("--help").stdout
    version = __import__("clearance").__version__
    text = text.replace(version, "VERSION")
    if UPDATE:
        golden.write_text(text)
    assert text == golden.read_text()


def test_help_for_a_command_also_works_as_help_command_and_dash_h(world) -> None:  # type: ignore[no-untyped-def]
    long = world.run("log", "--help").stdout
    assert world.run("log", "-h").stdout == long
    assert world.run("help", "log").stdout == long


def test_version_flags(world) -> None:  # type: ignore[no-untyped-def]
    for flag in ("-V", "--version"):
        result = world.run(flag)
        assert result.returncode == 0
        assert result.stdout.startswith("clearance ")


def test_no_arguments_prints_the_help_and_exits_2(world) -> None:  # type: ignore[no-untyped-def]
    result = world.run()
    assert result.returncode == 2
    assert "commands:" in result.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chek"], "unknown command 'chek'; did you mean check?"),
        (["log", "--decisoin", "deny"], "unknown option '--decisoin'; did you mean --decision?"),
        (["check", "--jsn", "bash", "ls"], "unknown option '--jsn'; did you mean --json?"),
        (["gate", "--ttty=/dev/null", "bash", "ls"], "did you mean --tty?"),
        (["--verison"], "did you mean --version?"),
        (["doctor", "--cdw", "."], "did you mean --cwd?"),
    ],
)
def test_a_typo_is_one_line_with_a_suggestion(world, argv: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = world.run(*argv)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["check", "--cwd", "/nonexistent-dir", "bash", "ls"],
            "--cwd '/nonexistent-dir': does not exist",
        ),
        (["validate", "--cwd", "/etc/hostname"], "is not a directory"),
        (["gate", "--tty", "/dev/null", "bash", "ls"], "'/dev/null' is not a terminal"),
        (["gate", "--tty", "/nonexistent-tty", "bash", "ls"], "cannot open it"),
        (["serve", "--tty", "/dev/null"], "is not a terminal"),
        (["log", "--decision", "alow"], "did you mean allow?"),
        (["log", "--event", "permision_request"], "did you mean permission_request?"),
        (
            ["check", "--color", "sometimes", "bash", "ls"],
            "'sometimes' is not one of auto, always, never",
        ),
        (["check", "bash", "git", "status"], "unexpected argument 'status'"),
        (["install", "claude-code", "--dir", "/nonexistent-dir"], "does not exist"),
    ],
)
def test_bad_values_are_refused_with_a_sentence(world, argv: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = world.run(*argv)
    assert result.returncode == 2, result.stdout + result.stderr
    assert message in result.stderr
    assert "Errno" not in result.stderr and "Error:" not in result.stderr


def test_known_words_and_globs_pass_the_log_filters(world) -> None:  # type: ignore[no-untyped-def]
    for argv in (
        ["--decision", "deny"],
        ["--decision", "user_denied"],
        ["--event", "permission_request.*"],
        ["--event", "forwarded_permission,gate_error"],
        ["--event", "forwarded_permission.abandoned"],
    ):
        result = world.run("log", *argv)
        assert result.returncode == 0, result.stderr


def test_exit_statuses_stay_as_documented(world) -> None:  # type: ignore[no-untyped-def]
    assert world.run("check", "bash", "git status").returncode == 0
    assert world.run("check", "bash", "git push --force").returncode == 3
    assert world.run("check", "bash", "rm -rf /").returncode == 4
    assert world.run("check").returncode == 2
    world.global_config("{ nope")
    assert world.run("check", "bash", "ls").returncode == 1


def test_an_option_after_the_positionals_and_an_equals_value_work(world, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = world.run("check", "bash", "git status", f"--cwd={tmp_path}", "--json")
    assert result.returncode == 0, result.stderr
    assert '"decision": "allow"' in result.stdout
    result = world.run("validate", f"--cwd={tmp_path}", "--no-tests")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(("old", "new"), [("gate", "authorize"), ("sessions", "grants")])
def test_a_renamed_command_still_answers_to_its_former_name(world, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert world.run(old, "--help").stdout == world.run(new, "--help").stdout
    assert world.run(old).returncode == world.run(new).returncode
