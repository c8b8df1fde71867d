"""Path tokens: candidacy, effects, cd folding, HOME/PWD expansion (docs/shell-analysis.md, "Paths")."""

from __future__ import annotations

import pytest
from shell_path_table import PATH_CASES

from clearance.intent.shell import PathToken, analyze
from conftest import run


@pytest.mark.parametrize(("command", "tokens"), PATH_CASES, ids=[c[:60] for c, _ in PATH_CASES])
def test_the_analyzer_projects_exactly_the_expected_path_tokens(
    command: str, tokens: list[tuple[str, str | None, str]]
) -> None:
    assert [(p.raw, p.path, p.effect) for p in run(command).paths] == tokens


@pytest.mark.parametrize(
    ("command", "raw", "source"),
    [
        ("echo hi > out.txt", "out.txt", "syntax"),
        ("cat README.md", "README.md", "core"),
        ("sort -o ./out.txt ./data.txt", "./data.txt", "retracted"),
        ("find . -delete", ".", "retracted"),
        ("rm .env", ".env", "unproven"),
        ("cat data.txt > data.txt", "data.txt", "unproven"),
    ],
)
def test_each_token_says_what_proved_its_effect(command: str, raw: str, source: str) -> None:
    (token,) = [p for p in run(command).paths if p.raw == raw]
    assert token.source == source


def test_a_token_names_the_unit_it_belongs_to() -> None:
    paths = run("cat README.md && echo hi > /tmp/out").paths
    assert [(p.raw, p.command) for p in paths] == [
        ("README.md", "cat README.md"),
        ("/tmp/out", "echo hi"),
    ]


def test_the_same_path_reached_twice_with_agreeing_effects_keeps_the_effect() -> None:
    paths = run("cat ./data.txt; head data.txt").paths
    assert [(p.path, p.effect) for p in paths] == [("/work/proj/data.txt", "read")]


def test_an_unknown_cwd_leaves_relative_paths_unresolved() -> None:
    paths = run("cat ./a /etc/b", cwd=None).paths
    assert [(p.raw, p.path) for p in paths] == [("./a", None), ("/etc/b", "/etc/b")]


def test_a_relative_cwd_counts_as_unknown() -> None:
    assert run("cat ./a", cwd="rel/dir").paths[0].path is None


def test_bare_names_are_never_probed_when_the_base_is_unknown() -> None:
    probed: list[str] = []

    def exists(path: str) -> bool:
        probed.append(path)
        return True

    analyze('cd "$X"; cat notes', cwd="/w", home="/h", exists=exists)
    assert probed == []


def test_a_raising_exists_callback_means_the_entry_does_not_exist() -> None:
    def exists(path: str) -> bool:
        raise OSError("boom")

    analysis = analyze("cat notes ./x", cwd="/w", home="/h", exists=exists)
    assert [p.raw for p in analysis.paths] == ["./x"]


def test_the_default_exists_checks_the_real_filesystem(tmp_path: object) -> None:
    import os

    directory = str(tmp_path)
    os.mkdir(os.path.join(directory, "present"))
    analysis = analyze("ls present absent", cwd=directory, home="/h")
    assert [p.raw for p in analysis.paths] == ["present"]


def test_path_tokens_are_frozen_values() -> None:
    token = run("cat /etc/x").paths[0]
    assert token == PathToken("/etc/x", "/etc/x", "read", "core", "cat /etc/x")
    with pytest.raises(AttributeError):
        token.path = "/"


@pytest.mark.parametrize(
    ("command", "reassigned"),
    [
        ("HOME=/x; ls", True),
        ("export HOME=/x", True),
        ("for HOME in a; do :; done", True),
        ("read HOME", True),
        ("cat $HOME/x ${HOME}/y ~/z", False),
        ("echo ${HOME:-/root}", False),
        ("MYHOME=1 HOMEBREW=2 ls", False),
        ("ls /HOME/x", False),
    ],
)
def test_home_reassignment_is_detected_anywhere_in_the_program(
    command: str, reassigned: bool
) -> None:
    assert run(command).home_reassigned is reassigned
