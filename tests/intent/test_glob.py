"""Shell patterns in paths, expanded as the shell would, on a real filesystem."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.intent.glob import expand_braces, expand_pattern, expand_pattern_bounded


@pytest.mark.parametrize(
    ("text", "expanded"),
    [
        ("a{b,c}d", ["abd", "acd"]),
        ("{x,y}/{1,2}", ["x/1", "x/2", "y/1", "y/2"]),
        ("a{b,{c,d}}e", ["abe", "ace", "ade"]),
        ("no-braces", ["no-braces"]),
        ("{single}", ["{single}"]),
        ("a{b,c", ["a{b,c"]),
    ],
)
def test_brace_expansion(text: str, expanded: list[str]) -> None:
    assert sorted(expand_braces(text)) == sorted(expanded)


@given(st.text(alphabet=st.sampled_from(list("ab{},/")), max_size=30))
def test_brace_expansion_is_bounded_and_never_raises(text: str) -> None:
    assert 1 <= len(expand_braces(text)) <= 64


def test_a_pattern_reaches_the_files_it_names(tmp_path: Path) -> None:
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_rsa").write_text("k")
    (tmp_path / ".env").write_text("s")
    assert expand_pattern(f"{tmp_path}/.ss?/id_*") == [f"{tmp_path}/.ssh/id_rsa"]
    assert expand_pattern(f"{tmp_path}/.e?v") == [f"{tmp_path}/.env"]
    assert f"{tmp_path}/.ssh/id_rsa" in expand_pattern(f"{tmp_path}/{{.ssh,x}}/id_rsa")
    assert expand_pattern(f"{tmp_path}/plain") == []


def test_a_bound_makes_the_expansion_incomplete(tmp_path: Path) -> None:
    from clearance.intent.glob import expand_pattern_bounded

    for i in range(300):
        (tmp_path / f"f{i}").write_text("")
    matches, complete = expand_pattern_bounded(f"{tmp_path}/f*")
    assert len(matches) == 256 and not complete
    assert expand_pattern_bounded(f"{tmp_path}/f1?")[1]


def test_a_dot_pattern_also_reaches_the_parent_as_older_bash_matches_it(tmp_path: Path) -> None:
    # bash before 5.2 (and macOS's 3.2) lets `.*` match `..`: `cat .*/.ssh/id_rsa` from a
    # project inside the home reaches the home's key.
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_rsa").write_text("k")
    (tmp_path / "proj").mkdir()
    for pattern in (".*", ".?", ".[.]"):
        matches, complete = expand_pattern_bounded(f"{tmp_path}/proj/{pattern}/.ssh/id_rsa")
        assert f"{tmp_path}/proj/../.ssh/id_rsa" in matches
        assert complete
    assert expand_pattern_bounded(f"{tmp_path}/proj/.e*/x")[0] == []


def test_a_bracket_expression_python_reads_otherwise_is_incomplete(tmp_path: Path) -> None:
    # bash reads `[^x]` as a negation and knows POSIX classes; Python's glob does neither, so
    # what it finds is not all that bash reaches.
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_rsa").write_text("k")
    for pattern in (".[^x]sh", ".[[:alpha:]]sh", ".s[[=s=]]h", ".s[[.s.]]h", ".[a[:alpha:]]sh"):
        assert not expand_pattern_bounded(f"{tmp_path}/{pattern}/id_rsa")[1], pattern
    # a class or collating symbol left open is plain members to both (a Next.js route directory)
    for pattern in (".[!x]sh", ".[r-t]sh", ".[.s]sh", ".[]s]sh", "[.]ssh", ".s[^", "[[...slug]]",
                    ".[[:alpha]sh", "[[=x]"):  # fmt: skip
        assert expand_pattern_bounded(f"{tmp_path}/{pattern}/id_rsa")[1], pattern
    assert expand_pattern_bounded(f"{tmp_path}/.[!x]sh/id_rsa")[0] == [f"{tmp_path}/.ssh/id_rsa"]
