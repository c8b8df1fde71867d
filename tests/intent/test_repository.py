"""Which repository git uses from a directory of the project, read from real directories, and
checked against what real git discovers there (ADR 0040)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.intent.path import canonicalize
from clearance.intent.repository import foreign_repository
from clearance.intent.sentinel import NESTED_REPOSITORY
from clearance.intent.shell import analyze

GIT = shutil.which("git")


def _layout(where: Path, *, config: bool = True) -> None:
    """A git directory as ordinary writes make it: HEAD, objects/, refs/ (and a config)."""
    (where / "objects").mkdir(parents=True)
    (where / "refs" / "heads").mkdir(parents=True)
    (where / "HEAD").write_text("ref: refs/heads/main\n")
    if config:
        (where / "config").write_text("[core]\n\tfsmonitor = ./x.sh\n")


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """A home, and a project in it with its own `.git`, a bare layout, a `.git` file naming a
    planted directory, a real submodule's and a linked worktree's `.git` files."""
    home = tmp_path / "home"
    proj = home / "proj"
    _layout(proj / ".git")
    (proj / "src").mkdir()
    _layout(proj / "fixtures" / "bare")
    _layout(proj / "stash")
    (proj / "vend" / "deeper").mkdir(parents=True)
    (proj / "vend" / ".git").write_text("gitdir: ../stash\n")
    _layout(proj / ".git" / "modules" / "mod", config=False)
    (proj / "mod").mkdir()
    (proj / "mod" / ".git").write_text("gitdir: ../.git/modules/mod\n")
    worktree = proj / ".git" / "worktrees" / "wt"
    worktree.mkdir(parents=True)
    (worktree / "HEAD").write_text("ref: refs/heads/wt\n")
    (worktree / "commondir").write_text("../..\n")
    (proj / "wt").mkdir()
    (proj / "wt" / ".git").write_text(f"gitdir: {worktree}\n")
    return home, proj


def _foreign(proj: Path, home: Path, start: str, git_dir: str | None = None) -> str | None:
    root = canonicalize(str(proj))
    named = None if git_dir is None else os.path.join(proj, git_dir)
    found = foreign_repository(os.path.join(proj, start), root, str(home), named)
    return None if found is None else os.path.relpath(found, root)


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        (".", None),
        ("src", None),
        (".git", None),
        (".git/refs/heads", None),
        ("mod", None),  # a submodule: its git directory is in the project's
        (".git/modules/mod", None),
        ("wt", None),  # a linked worktree: its configuration is the project's
        ("fixtures/bare", "fixtures/bare"),
        ("fixtures/bare/refs/heads", "fixtures/bare"),
        ("fixtures/bare/objects", "fixtures/bare"),
        ("fixtures", None),
        ("vend", "vend/.git"),
        ("vend/deeper", "vend/.git"),
        ("stash", "stash"),
        ("missing/dir", None),
    ],
)
def test_the_repository_git_finds_from_a_directory(
    world: tuple[Path, Path], start: str, expected: str | None
) -> None:
    home, proj = world
    assert _foreign(proj, home, start) == expected


def test_a_start_outside_the_project_is_not_looked_at(world: tuple[Path, Path]) -> None:
    home, proj = world
    assert _foreign(proj, home, "..") is None


def test_other_shapes_of_a_git_directory(world: tuple[Path, Path]) -> None:
    home, proj = world
    # HEAD with a commondir naming where objects/ and refs/ are
    (proj / "t3").mkdir()
    (proj / "t3" / "HEAD").write_text("ref: refs/heads/main\n")
    (proj / "t3" / "commondir").write_text("../stash\n")
    assert _foreign(proj, home, "t3") == "t3"
    # a nested `.git` directory; an empty one is looked at too (git would pass it by)
    _layout(proj / "sub" / ".git")
    assert _foreign(proj, home, "sub") == "sub/.git"
    # a worktree directory planted in the project's own `.git`: without a commondir it is a
    # repository of its own, with one naming elsewhere it uses elsewhere's configuration
    evil = proj / ".git" / "worktrees" / "evil"
    _layout(evil)
    (proj / "w2").mkdir()
    (proj / "w2" / ".git").write_text("gitdir: ../.git/worktrees/evil\n")
    assert _foreign(proj, home, "w2") == "w2/.git"
    (evil / "commondir").write_text("../../../stash\n")
    assert _foreign(proj, home, "w2") == "w2/.git"
    assert _foreign(proj, home, ".git/worktrees/evil") == ".git/worktrees/evil"
    # a link into a planted repository: git runs where the link leads
    (proj / "link").symlink_to(proj / "fixtures" / "bare" / "refs")
    assert _foreign(proj, home, "link") == "fixtures/bare"
    # a `.git` file that is no gitfile: git refuses it, clearance asks
    (proj / "odd").mkdir()
    (proj / "odd" / ".git").write_text("hello\n")
    assert _foreign(proj, home, "odd") == "odd/.git"


def test_a_given_git_directory(world: tuple[Path, Path]) -> None:
    home, proj = world
    assert _foreign(proj, home, ".", ".git") is None
    assert _foreign(proj, home, ".", ".git/modules/mod") is None
    assert _foreign(proj, home, ".", "vend/.git") == "vend/.git"
    assert _foreign(proj, home, ".", "fixtures/bare") == "fixtures/bare"
    assert _foreign(proj, home, ".", "nowhere") is None  # git refuses to run


def test_a_project_top_made_by_a_planted_gitfile_is_not_the_projects_own(
    world: tuple[Path, Path],
) -> None:
    """A host that keeps the directory an earlier command moved to (`cd vend`) finds the
    project's top at `vend`; its `.git` file names a directory clearance does not protect."""
    home, proj = world
    vend = proj / "vend"
    root = canonicalize(str(vend))
    assert foreign_repository(str(vend), root, str(home)) == root + "/.git"
    # a submodule opened as the project, and a linked worktree inside the checkout, are fine
    for name in ("mod", "wt"):
        top = canonicalize(str(proj / name))
        assert foreign_repository(top, top, str(home)) is None


def test_a_worktree_of_a_bare_repository_is_its_own_project(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _layout(home / "repo.git")
    gitdir = home / "repo.git" / "worktrees" / "wt"
    gitdir.mkdir(parents=True)
    (gitdir / "HEAD").write_text("ref: refs/heads/wt\n")
    (gitdir / "commondir").write_text("../..\n")
    (home / "wt" / "src").mkdir(parents=True)
    (home / "wt" / ".git").write_text(f"gitdir: {gitdir}\n")
    top = canonicalize(str(home / "wt"))
    assert foreign_repository(top + "/src", top, str(home)) is None


@pytest.mark.skipif(GIT is None, reason="git is not installed")
@pytest.mark.parametrize(
    ("start", "found"),
    [
        ("src", ".git"),
        ("fixtures/bare/refs/heads", "fixtures/bare"),
        ("vend/deeper", "stash"),
        ("mod", ".git/modules/mod"),
        ("wt", ".git/worktrees/wt"),
    ],
)
def test_git_itself_finds_these_repositories(
    world: tuple[Path, Path], start: str, found: str
) -> None:
    """The layouts above are what real git discovers (with the default safe.bareRepository)."""
    home, proj = world
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "GIT_CONFIG_NOSYSTEM": "1"}
    out = subprocess.run(
        [GIT or "git", "-C", str(proj / start), "rev-parse", "--absolute-git-dir"],
        capture_output=True, text=True, env=env, timeout=30, check=True,
    )  # fmt: skip
    assert out.stdout.strip() == canonicalize(str(proj / found))


def _floor(line: str, proj: Path, home: Path) -> str | None:
    floors = [u.floor[0] for u in analyze(line, cwd=str(proj), home=str(home)).units if u.floor]
    return floors[0] if floors else None


@pytest.mark.parametrize(
    ("line", "asks"),
    [
        ("git status", False),
        ("git -C src log", False),
        ("cd src && git log", False),
        ("cd mod && git status", False),
        ("git -C '' status", False),
        ("git -C fixtures/bare log", True),
        ("git -C fixtures -C bare log", True),
        ("git -C src -C ../vend status", True),
        ("git -C /nowhere -C " + "PROJ/fixtures/bare log", True),
        ("cd fixtures/bare && git log -p", True),
        ("cd vend/deeper && git status", True),
        ("git --git-dir=fixtures/bare log", True),
        ("git -C ~/proj/fixtures/bare log", True),
        ("env git -C fixtures/bare log", True),
        # the line makes the layout before git runs
        ("mkdir -p nb/refs nb/objects; echo ref > nb/HEAD; git -C nb log", True),
        ("mv x nb && git -C nb log", True),
        ("mkdir -p s/.git/refs && git -C s status", True),
        ("echo x > README.md && mkdir -p src/config && git status", False),
    ],
)
def test_a_git_unit_carries_the_floor(world: tuple[Path, Path], line: str, asks: bool) -> None:
    home, proj = world
    line = line.replace("PROJ", str(proj))
    assert (_floor(line, proj, home) == NESTED_REPOSITORY) is asks


def test_git_in_an_unknown_directory_uses_a_repository_not_known(
    world: tuple[Path, Path],
) -> None:
    home, proj = world
    # `x=../other; cd "$x"; git log -p`: any repository, and the programs its config names
    assert _floor('cd "$D" && git status', proj, home) == NESTED_REPOSITORY
    assert _floor('x=..; cd "$x"; git log -p', proj, home) == NESTED_REPOSITORY
    assert _floor("cd - && git --git-dir=sub/.git log", proj, home) == NESTED_REPOSITORY
    # a directory named from anywhere makes it known again
    assert _floor(f'cd "$D" && git -C {proj} status', proj, home) is None
    assert _floor("git -C fixtures/bare log", proj, home) == NESTED_REPOSITORY
    units = analyze("git -C fixtures/bare log", cwd=None, home=str(home)).units
    assert all(u.floor is None for u in units)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(gitfile=st.binary(max_size=64), commondir=st.binary(max_size=64))
def test_any_gitfile_or_commondir_is_read_without_raising_and_never_trusted_blindly(
    tmp_path: Path, gitfile: bytes, commondir: bytes
) -> None:
    """Whatever a planted `.git` file and `commondir` hold, the answer is a repository to ask
    about, or the project's own only when they lead there."""
    proj = tmp_path / "p"
    if not (proj / ".git").exists():
        _layout(proj / ".git")
    sub = proj / "sub"
    shutil.rmtree(sub, ignore_errors=True)
    sub.mkdir()
    (sub / ".git").write_bytes(gitfile)
    (proj / ".git" / "commondir").unlink(missing_ok=True)
    root = canonicalize(str(proj))
    assert foreign_repository(str(sub), root, str(tmp_path)) == root + "/sub/.git" or (
        gitfile.startswith(b"gitdir:") and b"\0" not in gitfile
    )
    target = tmp_path / "t"
    shutil.rmtree(target, ignore_errors=True)
    _layout(target)
    (target / "commondir").write_bytes(commondir)
    (sub / ".git").write_text(f"gitdir: {target}\n")
    found = foreign_repository(str(sub), root, str(tmp_path))
    assert found in (None, root + "/sub/.git")
    if found is None:  # trusted only when the commondir leads to the project's own
        named = os.path.join(target, commondir.decode().strip())
        assert canonicalize(named) == canonicalize(str(proj / ".git"))
