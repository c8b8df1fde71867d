"""Errors reach the user as sentences (what, where, how to fix): no errno, no exception names."""

from __future__ import annotations

import json

import pytest


def _clean(text: str) -> None:
    assert "Errno" not in text and "Error:" not in text and "Traceback" not in text, text


def test_a_settings_path_that_is_a_directory(world) -> None:  # type: ignore[no-untyped-def]
    (world.home / ".claude" / "settings.json").mkdir(parents=True)
    result = world.run("install", "claude-code")
    assert result.returncode == 1
    assert "settings.json: is a directory, not a file" in result.stderr
    _clean(result.stderr)


def test_a_log_file_that_is_a_directory(world, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = world.run("log", "--file", str(tmp_path))
    assert result.returncode == 1
    assert f"{tmp_path}: is a directory, not a file" in result.stderr
    _clean(result.stderr)


def test_batch_errors_are_sentences(world) -> None:  # type: ignore[no-untyped-def]
    result = world.run("check", "--batch", stdin='{bad\n{"tool": 3}\n')
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["line"] for line in lines] == [1, 2]
    _clean(result.stdout)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ('[{"permission": {}}]', "remove the [ ] around it"),
        ('"permission"', 'write it as {"permission": {…}}'),
        ('{"permission": {}} {"yolo": true}', "a config is one object"),
    ],
)
def test_a_config_that_is_not_one_object_gets_a_hint(world, text: str, hint: str) -> None:  # type: ignore[no-untyped-def]
    world.global_config(text)
    result = world.run("validate")
    assert result.returncode == 1
    assert hint in result.stdout


def test_sessions_show_and_clear_agree_on_an_unknown_id(world) -> None:  # type: ignore[no-untyped-def]
    shown, cleared = (
        world.run("sessions", "--show", "nope"),
        world.run("sessions", "--clear", "nope"),
    )
    assert shown.returncode == cleared.returncode == 1
    assert shown.stdout == cleared.stdout == "no grants for session nope\n"


@pytest.mark.parametrize("where", ["home", "/"])
def test_trusting_home_or_root_is_refused(world, where: str) -> None:  # type: ignore[no-untyped-def]
    target = str(world.home) if where == "home" else "/"
    result = world.run("trust", target)
    assert result.returncode == 1
    assert "refusing to trust" in result.stderr
    assert world.run("trust", "--list").stdout == ""
