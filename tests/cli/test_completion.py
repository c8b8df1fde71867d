"""``clearance completion bash|zsh|fish``: scripts generated from the command table that the
real shells accept and that complete commands and options."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from clearance.cli._commands import COMMANDS


def complete_in_bash(script: str, words: list[str]) -> list[str]:
    program = (
        f"{script}\nCOMP_WORDS=({' '.join(repr(w) for w in words)}); "
        f"COMP_CWORD={len(words) - 1}; _clearance; printf '%s\\n' \"${{COMPREPLY[@]}}\""
    )
    out = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_bash_completes_commands_options_and_words(world) -> None:  # type: ignore[no-untyped-def]
    result = world.run("completion", "bash")
    assert result.returncode == 0
    script = result.stdout
    assert complete_in_bash(script, ["clearance", "lo"]) == ["log"]
    assert set(complete_in_bash(script, ["clearance", ""])) >= {c.name for c in COMMANDS}
    assert complete_in_bash(script, ["clearance", "log", "--dec"]) == ["--decision"]
    assert complete_in_bash(script, ["clearance", "install", "cl"]) == ["claude-code"]
    assert complete_in_bash(script, ["clearance", "check", "--color", "ne"]) == ["never"]


@pytest.mark.parametrize(("shell", "check"), [("zsh", ["zsh", "-n"]), ("fish", ["fish", "-n"])])
def test_zsh_and_fish_scripts_parse(world, tmp_path, shell: str, check: list[str]) -> None:  # type: ignore[no-untyped-def]
    result = world.run("completion", shell)
    assert result.returncode == 0
    for command in COMMANDS:
        assert command.name in result.stdout
    if shutil.which(check[0]) is None:
        pytest.skip(f"{shell} is not installed")
    path = tmp_path / f"clearance.{shell}"
    path.write_text(result.stdout)
    out = subprocess.run([*check, str(path)], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr


def test_an_unknown_shell_is_a_usage_error_with_a_suggestion(world) -> None:  # type: ignore[no-untyped-def]
    result = world.run("completion", "bsh")
    assert result.returncode == 2
    assert "did you mean bash?" in result.stderr


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_completes_commands_and_options(world, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "clearance.fish"
    path.write_text(world.run("completion", "fish").stdout)
    for line, expected in (("clearance pol", "policy\t"), ("clearance log --dec", "--decision\t")):
        out = subprocess.run(["fish", "-c", f"source {path}; complete -C'{line}'"],
                             capture_output=True, text=True, timeout=30)  # fmt: skip
        assert expected in out.stdout, out.stdout + out.stderr
