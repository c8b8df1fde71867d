"""Relative globs and links a line makes: the path tokens that let the gate see what bash
reaches (docs/shell-analysis.md, "Globs" and "Links made in the line")."""

from __future__ import annotations

import pytest

from conftest import run


@pytest.mark.parametrize(
    ("command", "raw", "path"),
    [
        ("cat *", "*", "/work/proj/*"),
        ("cat l*k", "l*k", "/work/proj/l*k"),
        ("grep . l*", "l*", "/work/proj/l*"),
        ('cat "l"*', "l*", "/work/proj/l*"),
        ("cat [l]ink", "[l]ink", "/work/proj/[l]ink"),
        ("cat {l*k,x}", "l*k", "/work/proj/l*k"),
        ("cat .*", ".*", "/work/proj/.*"),
    ],
)
def test_an_unquoted_glob_is_a_path_token_whatever_its_shape(
    command: str, raw: str, path: str
) -> None:
    assert (raw, path) in [(p.raw, p.path) for p in run(command).paths]


@pytest.mark.parametrize("command", ["cat '*'", "cat 'l*k'", 'cat "l*k"', "cat l\\*k", "ls -*"])
def test_a_quoted_or_escaped_glob_character_is_literal(command: str) -> None:
    assert run(command).paths == ()


def test_a_glob_in_a_directory_not_known_is_an_unknown_path() -> None:
    paths = run('cd "$d" && cat l*').paths
    assert [(p.raw, p.path) for p in paths] == [("l*", None)]
