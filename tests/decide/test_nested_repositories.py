"""Repositories inside the project that are not the project's own (ADR 0040), through the
engine with real directories: git run where it would use one asks, and so does a write that
makes one (a ``config`` beside a ``HEAD``, a ``.git`` file) — those through yolo and grants."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from test_run_later_files import _check

from clearance.decide.grant import Grant, GrantStore
from clearance.intent.sentinel import NESTED_REPOSITORY, RUNS_LATER

if TYPE_CHECKING:
    from conftest import World


def _layout(where: Path) -> None:
    (where / "objects").mkdir(parents=True)
    (where / "refs").mkdir()
    (where / "HEAD").write_text("ref: refs/heads/main\n")


@pytest.fixture
def project(world: World) -> tuple[Path, dict[str, str]]:
    proj = world.home / "proj"
    _layout(proj / ".git")
    (proj / ".git" / "config").write_text("[core]\n")
    (proj / "src").mkdir()
    _layout(proj / "fixtures" / "bare")  # a HEAD, no config yet
    (proj / "stash").mkdir()
    (proj / "stash" / "config").write_text("[core]\n")  # a config, no HEAD yet
    _layout(proj / ".git" / "modules" / "mod")
    (proj / "mod").mkdir()
    (proj / "mod" / ".git").write_text("gitdir: ../.git/modules/mod\n")
    return proj, world.env


MAKES = [
    "fixtures/bare/config",  # beside a HEAD on disk
    "fixtures/bare/commondir",
    "stash/HEAD",  # beside a config on disk
    "src/.git",  # a gitfile: it names the directory git uses there
]


@pytest.mark.parametrize("target", MAKES)
def test_a_write_that_makes_a_repository_asks_through_yolo_and_grants(
    project: tuple[Path, dict[str, str]], target: str
) -> None:
    proj, env = project
    store = GrantStore()
    store.add([Grant("bash", "*"), Grant("path_write", "*"), Grant("write", "*")])
    attacks: list[tuple[str, object]] = [
        ("bash", {"command": f"echo 'gitdir: ../stash' > {target}"}),
        ("write", {"file_path": target, "content": "x"}),
        ("edit", {"file_path": target, "old_string": "a", "new_string": "b"}),
    ]
    for tool, value in attacks:
        for kw in ({}, {"yolo": True}, {"grants": store}):
            action, reason = _check(proj, env, tool, value, **kw)
            assert action == "ask", (tool, value, kw, reason)
            assert RUNS_LATER in reason


def test_one_line_that_writes_both_files_asks(project: tuple[Path, dict[str, str]]) -> None:
    proj, env = project
    line = "mkdir -p n && echo 'ref: refs/heads/main' > n/HEAD && echo '[core]' > n/config"
    action, reason = _check(proj, env, "bash", {"command": line})
    assert action == "ask" and RUNS_LATER in reason, reason


BENIGN: list[tuple[str, object]] = [
    ("write", {"file_path": "src/config", "content": "x"}),
    ("write", {"file_path": "src/HEAD", "content": "x"}),
    ("write", {"file_path": "src/commondir", "content": "x"}),
    ("write", {"file_path": ".gitignore", "content": "x"}),
    ("bash", {"command": "mkdir -p config && echo x > config/app.yml"}),
    ("bash", {"command": "cat fixtures/bare/HEAD stash/config"}),
    ("bash", {"command": "cp -r .git /tmp/backup"}),
    ("bash", {"command": "git status && git -C src log && git -C mod log"}),
    ("bash", {"command": "cd mod && git status"}),
]


@pytest.mark.parametrize(("tool", "value"), BENIGN, ids=[str(v)[:60] for _, v in BENIGN])
def test_look_alikes_the_projects_own_and_its_submodule_follow_the_policy(
    project: tuple[Path, dict[str, str]], tool: str, value: object
) -> None:
    proj, env = project
    action, reason = _check(proj, env, tool, value)
    assert action == "allow", reason


def test_git_where_a_planted_repository_is_found_asks(
    project: tuple[Path, dict[str, str]],
) -> None:
    proj, env = project
    (proj / "fixtures" / "bare" / "config").write_text("[diff]\n\texternal = ./x.sh\n")
    for line in (
        "git -C fixtures/bare diff HEAD~1 HEAD",
        "cd fixtures/bare && git log -p",
        "cd src && git -C ../fixtures/bare/refs diff",
    ):
        action, reason = _check(proj, env, "bash", {"command": line})
        assert action == "ask" and NESTED_REPOSITORY in reason, reason
        assert "fixtures/bare" in reason


def test_git_bare_uses_the_directory_it_runs_in_as_its_repository(
    project: tuple[Path, dict[str, str]],
) -> None:
    """``git --bare`` sets the repository to the working directory, so a ``HEAD``, ``objects``,
    ``refs`` and ``config`` (a textconv driver) at the project's top run their program on
    ``git --bare log -p``; a ``--git-dir`` given after ``--bare`` wins."""
    proj, env = project
    _layout(proj)
    (proj / "config").write_text('[diff "x"]\n\ttextconv = ./x.sh\n')
    for line in ("git --bare log -p", "git --no-pager --bare show", "git -C src/.. --bare log"):
        action, reason = _check(proj, env, "bash", {"command": line})
        assert action == "ask" and NESTED_REPOSITORY in reason, (line, reason)
    for line in ("git --no-pager log -p", "git --bare --git-dir=.git log -p"):
        action, reason = _check(proj, env, "bash", {"command": line})
        assert action == "allow", (line, reason)
