"""Path resolution shortcuts agree with the plain answers: the process's own working directory,
and directory-ness read from the resolving descriptor."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.intent.path import canonical_cwd, canonicalize, path_fact


@pytest.fixture
def links(tmp_path: Path) -> Path:
    root = tmp_path / "t"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "f").write_text("x")
    (root / "l").symlink_to(root / "a")
    (root / "rel").symlink_to(Path("a/b"))
    (root / "fl").symlink_to(root / "a" / "f")
    (root / "dang").symlink_to(root / "nowhere" / "x")
    (root / "loop1").symlink_to(root / "loop2")
    (root / "loop2").symlink_to(root / "loop1")
    return root


def test_the_canonical_cwd_agrees_with_canonicalize(
    links: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(links / "l")
    here = os.getcwd()
    assert here == str(links / "a")  # the kernel names the directory, not the link
    for cwd in (here, here + "/", str(links / "l"), str(links / "a" / "b"), str(links / "gone")):
        assert canonical_cwd(cwd) == canonicalize(cwd), cwd


def test_a_cwd_spelled_through_a_link_is_resolved_even_when_it_is_the_process_cwd(
    links: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(links / "l")
    assert canonical_cwd(str(links / "l")) == str(links / "a")


@given(
    st.lists(
        st.sampled_from(["a", "b", "f", "fl", "l", "rel", "dang", "loop1", "new", ".", ".."]),
        max_size=5,
    ),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_directory_ness_is_that_of_the_canonical_form(
    tmp_path_factory: pytest.TempPathFactory, names: list[str], trailing: bool
) -> None:
    root = _tree(tmp_path_factory)
    raw = "/".join(names) + ("/" if trailing else "") or "."
    fact = path_fact(raw, cwd=str(root), home="/h", direction="read")
    assert fact.canonical is not None
    assert fact.is_dir == (raw.endswith("/") or os.path.isdir(fact.canonical)), raw


_TREES: dict[str, Path] = {}


def _tree(factory: pytest.TempPathFactory) -> Path:
    root = _TREES.get("t")
    if root is None:
        root = factory.mktemp("resolve")
        (root / "a" / "b").mkdir(parents=True)
        (root / "a" / "f").write_text("x")
        (root / "l").symlink_to(root / "a")
        (root / "rel").symlink_to(Path("a/b"))
        (root / "fl").symlink_to(root / "a" / "f")
        (root / "dang").symlink_to(root / "nowhere" / "x")
        (root / "loop1").symlink_to(root / "loop2")
        (root / "loop2").symlink_to(root / "loop1")
        _TREES["t"] = root
    return root
