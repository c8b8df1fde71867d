"""Path facts on a real filesystem: aliases, symlinks, traversal, the outside boundary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clearance.intent.path import canonicalize, path_fact


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "proj" / "src" / "nested").mkdir(parents=True)
    (root / "proj" / "src" / "foo.ts").write_text("x")
    (root / "secrets").mkdir()
    (root / "secrets" / "id_rsa").write_text("key")
    (root / "proj" / "key").symlink_to(root / "secrets" / "id_rsa")
    (root / "proj" / "loop").symlink_to(root / "proj" / "loop2")
    (root / "proj" / "loop2").symlink_to(root / "proj" / "loop")
    (root / "proj" / "dangling").symlink_to(root / "secrets" / "missing.txt")
    (root / "proj" / "dirlink").symlink_to(root / "secrets")
    (root / "proj" / "file.d").mkdir()  # a directory named like a file
    return root


def fact(raw: str, cwd: Path, home: str = "/home/u", direction: str = "read"):  # type: ignore[no-untyped-def]
    return path_fact(raw, cwd=str(cwd), home=home, direction=direction)  # type: ignore[arg-type]


def test_a_relative_path_has_its_spelling_and_absolute_form(tree: Path) -> None:
    f = fact("src/foo.ts", tree / "proj")
    assert f.path == str(tree / "proj" / "src" / "foo.ts")
    assert f.aliases[:2] == (f.path, "src/foo.ts")
    assert not f.external


def test_a_symlink_adds_its_target_and_is_judged_by_it(tree: Path) -> None:
    f = fact("key", tree / "proj")
    assert str(tree / "secrets" / "id_rsa") in f.aliases
    assert f.canonical == str(tree / "secrets" / "id_rsa")
    assert f.external


def test_a_symlinked_directory_resolves_the_missing_tail_too(tree: Path) -> None:
    f = fact("dirlink/new.txt", tree / "proj", direction="write")
    assert f.canonical == str(tree / "secrets" / "new.txt")
    assert f.external


def test_a_symlink_loop_does_not_crash(tree: Path) -> None:
    f = fact("loop/x", tree / "proj")
    assert f.path == str(tree / "proj" / "loop" / "x")
    assert f.canonical is not None


def test_a_dangling_link_resolves_to_where_a_write_would_land(tree: Path) -> None:
    f = fact("dangling", tree / "proj", direction="write")
    assert f.canonical == str(tree / "secrets" / "missing.txt")
    assert f.external


def test_dot_dot_traversal_out_of_the_project_is_outside(tree: Path) -> None:
    f = fact("../secrets/id_rsa", tree / "proj")
    assert f.path == str(tree / "secrets" / "id_rsa")
    assert f.external


def test_dot_dot_that_stays_inside_is_inside(tree: Path) -> None:
    f = fact("src/nested/../foo.ts", tree / "proj")
    assert f.path == str(tree / "proj" / "src" / "foo.ts") and not f.external


def test_relative_paths_resolve_against_a_nested_cwd(tree: Path) -> None:
    f = fact("../foo.ts", tree / "proj" / "src" / "nested")
    assert f.path == str(tree / "proj" / "src" / "foo.ts")
    # Outside the nested working directory, even though inside the project.
    assert f.external


def test_a_directory_named_like_a_file_is_a_directory(tree: Path) -> None:
    assert fact("file.d", tree / "proj").is_dir
    assert not fact("src/foo.ts", tree / "proj").is_dir


def test_home_paths_expand(tree: Path) -> None:
    f = fact("~/notes.md", tree / "proj", home="/home/u")
    assert f.path == "/home/u/notes.md" and "~/notes.md" in f.aliases and f.external


@pytest.mark.parametrize("device", ["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"])
def test_standard_devices_are_never_outside(tree: Path, device: str) -> None:
    assert not fact(device, tree / "proj", direction="write").external


def test_an_unknown_base_keeps_only_the_spelling_and_counts_as_outside() -> None:
    f = path_fact("src/x", cwd=None, home="/h", direction="both")
    assert f.aliases == ("src/x",) and f.path is None and f.external


def test_an_unreadable_directory_does_not_crash(tree: Path) -> None:
    locked = tree / "locked"
    locked.mkdir()
    os.chmod(locked, 0)
    try:
        assert canonicalize(str(locked / "a" / "b")).endswith("/locked/a/b")
    finally:
        os.chmod(locked, 0o700)


def test_the_cwd_itself_is_inside(tree: Path) -> None:
    assert not fact(".", tree / "proj").external
    assert not fact(str(tree / "proj"), tree / "proj").external


def test_canonical_forms_agree_with_realpath_on_a_tree_of_links(tmp_path: Path) -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    root = tmp_path / "t"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "f").write_text("x")
    links = {
        "l": root / "a",
        "rel": Path("a/b"),
        "dang": root / "nowhere" / "x",
        "loop1": root / "loop2",
        "loop2": root / "loop1",
        "up": Path(".."),
    }
    for name, target in links.items():
        (root / name).symlink_to(target)
    (root / "a" / "back").symlink_to(root)
    parts = st.sampled_from(
        ["a", "b", "f", "l", "rel", "dang", "loop1", "up", "back", "new", ".", ".."]
    )

    @given(st.lists(parts, max_size=6), st.booleans())
    @settings(max_examples=400, deadline=None)
    def agree(names: list[str], trailing: bool) -> None:
        path = str(root) + "/" + "/".join(names) + ("/" if trailing else "")
        assert canonicalize(path) == os.path.realpath(path), path

    agree()
