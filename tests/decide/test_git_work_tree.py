"""What git writes into the work tree from its own store meets the protected paths (ADR 0051).

A real repository: ``.claude/settings.json`` committed, a branch ``evil`` that changes it, a
branch ``feature`` that changes only ``src/``, two stashes (the newest holds the agent's
settings), an ignored ``.claude/settings.local.json`` and a patch file for each. Each attack is
run in real bash in a scratch copy of the repository, to show that it does change a protected
file, and its benign twin that it changes none; then both are decided."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from scratch_runs import changes, decide

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.sentinel import CODE_RUNNING, UNLISTED_NAMES

POLICY = {"permission": {"*": "ask", "bash": {"*": "ask", "git *": "allow"}}}

# (attack, its action, benign twin): the twin is allowed
ATTACKS = [
    ("git checkout evil", "deny", "git checkout feature"),
    ("git checkout -q evil", "deny", "git checkout -b topic feature"),
    ("git switch evil", "deny", "git switch feature"),
    ("git switch --detach evil", "deny", "git switch --detach feature"),
    ("git checkout evil -- .", "deny", "git checkout evil -- src"),
    ("git checkout evil .claude", "deny", "git checkout evil src/a.py"),
    ("git restore --source evil .claude", "deny", "git restore --source evil src"),
    ("git restore -s evil -- .", "deny", "git restore -s feature -- ."),
    ("git reset --hard evil", "deny", "git reset --hard feature"),
    ("git reset --keep evil", "deny", "git reset --keep feature"),
    ("git merge evil", "deny", "git merge feature"),
    ("git merge --squash evil", "deny", "git merge --squash feature"),
    ("git cherry-pick evil", "deny", "git cherry-pick feature"),
    ("git rebase evil", "deny", "git rebase feature"),
    ("git stash pop", "deny", "git stash apply stash@{1}"),
    ("git stash apply 0", "deny", "git stash apply 1"),
    ("git clean -fdX", "deny", "git clean -fd"),
    ("git clean -fdx", "deny", "git clean -fd src"),
    ("git apply evil.patch", "deny", "git apply ok.patch"),
    ("git -C src checkout evil", "deny", "git -C src checkout feature"),
    ("git --git-dir=.git --work-tree=. checkout evil", "deny", "git --no-pager checkout feature"),
    ("git rm -rq .claude", "deny", "git rm -q src/a.py"),
    ("git checkout -f evil", "deny", "git checkout -f feature"),
    # a tag and a branch of one name: checkout takes the branch, rev-parse the tag
    ("git checkout sneaky", "deny", "git checkout feature"),
    ("git restore -s sneaky .", "deny", "git restore -s feature ."),
    ("git checkout --conflict merge evil", "deny", "git checkout --conflict merge feature"),
    (
        "git --icase-pathspecs checkout evil -- .CLAUDE",
        "deny",
        "git --icase-pathspecs checkout evil -- SRC",
    ),
    ("git mv -f settings.json .claude", "deny", "git mv src/a.py src/b.py"),
    # a file removed on one side and a change on the other: git's rename detection carries
    # the change onto .claude/settings.json (`renamer` changes foo.json, which held the
    # settings' content where it was made); the merge is done in the store to see it
    ("git cherry-pick renamer", "deny", "git cherry-pick feature"),
    ("git mv .claude gone", "deny", "git mv src lib"),
    # with no repository, git apply patches as patch does
    ("git --git-dir=nowhere apply evil.patch", "deny", "git --git-dir=nowhere apply ok.patch"),
]
# Lines whose names cannot be listed ahead: they ask, and no session grant or yolo lifts it.
UNLISTED = [
    "git pull . evil",
    "git fetch . evil:tmp && git checkout tmp",
    "git stash -u",
    "git am evil.mbox",
    "git submodule update --init",
    "GIT_INDEX_FILE=x git checkout -- .",
    "git rebase --continue",
    "git checkout $BRANCH",
    "git read-tree -mu HEAD evil",
    "git cherry-pick -X subtree=.claude feature",
    "git clean -fX -e settings.local.json",
    "git merge-recursive HEAD -- HEAD evil",
    # commands git does not build in: internal helpers, aliases, git-* programs
    "git checkout--worker",
    "git bisect--helper start evil main",
    "git add--interactive --patch=checkout evil -- .",
    "git lfs pull",
    # a revision by a commit-message search or a tree path (a suffix added to it would search
    # or look up something else)
    "git checkout :/evil",
    "git checkout :/evil .",
    "git checkout evil: .",
    "git cherry-pick :/evil",
    "git merge-resolve HEAD -- HEAD evil",
    "git clean -f -e '!settings.local.json'",
    # what runs at once may move the branch between the listing and the checkout
    "git checkout feature | cat",
    "git checkout feature & git branch -f feature evil",
]
# Lines that write nothing of the work tree, or nothing but what they name.
QUIET = [
    "git status",
    "git checkout -b topic",
    "git switch -c topic",
    "git reset HEAD~1",
    "git reset --soft HEAD~1",
    "git restore --staged src/a.py",
    "git stash list",
    "git clean -n -fdx",
    "git apply --check evil.patch",
    "git checkout --help",
]


# git options and subcommands that run a program they are given: a code-running floor
RUNS = [
    "git push --exec='touch x; git-receive-pack' . main:zz",
    "git push --exe=x . main",
    "git archive --remote=. --exec='touch x' HEAD",
    "git send-pack --exec=x . main",
    "git fetch-pack --exec=x . main",
    "git merge-index ./x.sh -a",
    "git hook run pre-commit",
]


def _changes(project: Path, tmp_path: Path, line: str) -> bool:
    # a copy's files are newer than its index
    return changes(
        project, tmp_path, line, lambda copy: _git(copy, "update-index", "-q", "--refresh")
    )


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


def _engine(cwd: Path, scratch: Path) -> Engine:
    """An engine for ``cwd`` under POLICY, its home and state in ``scratch``."""
    env = {"HOME": str(scratch), "CLEARANCE_HOME": str(scratch / "state")}
    return Engine.load(cwd=str(cwd), policy=json.dumps(POLICY), env=env)


def _new_repository(project: Path) -> None:
    _git(project, "init", "-q", "-b", "main")
    _git(project, "config", "user.email", "a@example.com")
    _git(project, "config", "user.name", "a")


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("git-work-tree")
    project = root / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / "src").mkdir()
    _new_repository(project)
    (project / ".claude" / "settings.json").write_text('{"mine": true}\n')
    (project / "src" / "a.py").write_text("a = 1\n")
    (project / "settings.json").write_text('{"moved": true}\n')
    (project / ".gitignore").write_text(".claude/settings.local.json\n*.patch\n*.mbox\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    _git(project, "checkout", "-qb", "evil")
    (project / ".claude" / "settings.json").write_text('{"disableAllHooks": true}\n')
    _git(project, "commit", "-qam", "evil")
    _git(project, "checkout", "-q", "main")
    _git(project, "checkout", "-qb", "feature")
    (project / "src" / "a.py").write_text("a = 2\n")
    _git(project, "commit", "-qam", "feature")
    _git(project, "checkout", "-q", "main")
    (project / "src" / "a.py").write_text("a = 3\n")
    _git(project, "stash", "-q")  # an ordinary edit: stash@{1} once the next one is made
    (project / ".claude" / "settings.json").write_text('{"disableAllHooks": true}\n')
    _git(project, "stash", "-q")  # stash@{0}: the agent's settings
    (project / ".claude" / "settings.local.json").write_text('{"mine": true}\n')
    (project / "src" / "scratch.txt").write_text("scratch\n")
    patch = _git(project, "diff", "main", "evil")
    (project / "evil.patch").write_text(patch)
    (project / "evil.mbox").write_text(patch)
    (project / "ok.patch").write_text(_git(project, "diff", "main", "feature"))
    _git(project, "tag", "sneaky", "main")
    _git(project, "branch", "sneaky", "evil")
    settings = _git(project, "rev-parse", "main:.claude/settings.json").strip()
    evil = _git(project, "rev-parse", "evil:.claude/settings.json").strip()
    before = _mktree(project, f"100644 blob {settings}\tfoo.json\n")
    after = _mktree(project, f"100644 blob {evil}\tfoo.json\n")
    parent = _git(project, "commit-tree", before, "-m", "p").strip()
    _git(
        project,
        "tag",
        "renamer",
        _git(project, "commit-tree", after, "-p", parent, "-m", "c").strip(),
    )
    return project


def _mktree(cwd: Path, entries: str) -> str:
    done = subprocess.run(["git", "mktree"], cwd=cwd, input=entries, capture_output=True,
                          text=True, check=True)  # fmt: skip
    return done.stdout.strip()


@pytest.fixture(scope="module")
def engine(repository: Path) -> Engine:
    home = repository.parent / "home"
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "CLEARANCE_HOME": str(repository.parent / "state")}
    return Engine.load(cwd=str(repository), policy=json.dumps(POLICY), env=env)


@pytest.mark.parametrize(("attack", "action", "twin"), ATTACKS, ids=[a for a, _, _ in ATTACKS])
def test_an_attack_is_stopped_and_its_twin_is_allowed(
    repository: Path, engine: Engine, tmp_path: Path, attack: str, action: str, twin: str
) -> None:
    assert _changes(repository, tmp_path, attack), f"{attack!r} changes no settings"
    assert not _changes(repository, tmp_path, twin), f"{twin!r} changes the settings"
    found, _, reason = decide(engine, repository, attack)
    assert found == action, reason
    found, _, reason = decide(engine, repository, twin)
    assert found == "allow", reason


@pytest.mark.parametrize("line", UNLISTED)
def test_what_cannot_be_listed_asks_with_the_floor(
    repository: Path, engine: Engine, line: str
) -> None:
    found, sentinel, reason = decide(engine, repository, line)
    assert (found, sentinel) == ("ask", UNLISTED_NAMES), reason


@pytest.mark.parametrize("line", QUIET)
def test_what_writes_no_file_of_the_work_tree_follows_the_policy(
    repository: Path, engine: Engine, line: str
) -> None:
    found, _, reason = decide(engine, repository, line)
    assert found == "allow", reason


def test_outside_a_repository_git_writes_nothing(tmp_path: Path) -> None:
    engine = _engine(tmp_path, tmp_path)
    found = engine.check(ToolCall("bash", {"command": "git checkout evil"}, str(tmp_path)))
    assert found.action == "allow", found.reason


def test_the_listing_never_runs_a_program_the_agent_could_plant(
    repository: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``git`` in the project on PATH, and an fsmonitor hook in the repository's
    configuration: neither runs while the line is decided."""
    marker = tmp_path / "ran"
    planted = repository / "bin"
    planted.mkdir(exist_ok=True)
    script = planted / "git"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    hook = tmp_path / "fsmonitor"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    _git(repository, "config", "core.fsmonitor", str(hook))
    real = shutil.which("git")
    assert real is not None
    try:
        monkeypatch.setenv("PATH", f"{planted}{os.pathsep}{os.environ['PATH']}")
        engine = _engine(repository, tmp_path)
        lines = ("git checkout evil", "git checkout evil -- .", "git stash pop",
                 "git -C src --git-dir=../.git --work-tree=.. checkout evil")  # fmt: skip
        for line in lines:
            found = engine.check(ToolCall("bash", {"command": line}, str(repository)))
            assert found.action == "deny", (line, found.reason)
    finally:
        subprocess.run([real, "config", "--unset", "core.fsmonitor"], cwd=repository, check=True)
        shutil.rmtree(planted)
    assert not marker.exists()


def test_a_thread_that_must_not_wait_on_git_asks_instead(repository: Path, engine: Engine) -> None:
    """The service's event loop decides without running git (ADR 0049): a writing git command
    asks there, and is listed on a worker thread."""
    from clearance.intent.shell.git_landings import not_here

    with not_here():
        assert decide(engine, repository, "git checkout feature")[:2] == ("ask", UNLISTED_NAMES)
        assert decide(engine, repository, "git pull . evil")[:2] == ("ask", UNLISTED_NAMES)
        assert decide(engine, repository, "git status")[0] == "allow"
    assert decide(engine, repository, "git checkout feature")[0] == "allow"


def test_an_index_entry_git_diff_passes_over_is_listed(repository: Path, tmp_path: Path) -> None:
    """The agent's settings put in the index and marked assume-unchanged (or skip-worktree):
    ``git diff`` does not show them, ``git checkout -- .`` writes them."""
    for flag in ("--assume-unchanged", "--skip-worktree"):
        project = tmp_path / flag.strip("-")
        shutil.copytree(repository, project, symlinks=True)
        evil = _git(project, "rev-parse", "evil:.claude/settings.json").strip()
        _git(project, "update-index", "--cacheinfo", f"100644,{evil},.claude/settings.json")
        _git(project, "update-index", flag, ".claude/settings.json")
        assert _git(project, "diff", "--name-only") == ""
        engine = _engine(project, tmp_path)
        line = "git checkout --ignore-skip-worktree-bits -- ."
        assert decide(engine, project, line)[0] == "deny"
        if flag == "--assume-unchanged":
            assert decide(engine, project, "git checkout -- .")[0] == "deny"
            assert _changes(project, tmp_path, "git checkout -- .")


@pytest.mark.parametrize("line", RUNS)
def test_a_program_git_is_given_to_run_is_floored(
    repository: Path, engine: Engine, line: str
) -> None:
    found, sentinel, reason = decide(engine, repository, line)
    assert (found, sentinel) == ("ask", CODE_RUNNING), reason


def test_a_merge_onto_an_index_that_differs_from_head_is_not_listed(
    repository: Path, tmp_path: Path
) -> None:
    """git merges a stash, and `cherry-pick -n`, onto the index: a file taken out of the index
    only is a rename's source there, which HEAD does not show."""
    project = tmp_path / "index"
    shutil.copytree(repository, project, symlinks=True)
    engine = _engine(project, tmp_path)
    for line in ("git stash apply stash@{1}", "git cherry-pick -n feature"):
        assert decide(engine, project, line)[0] == "allow", line
    _git(project, "rm", "-q", "--cached", "src/a.py")
    for line in ("git stash apply stash@{1}", "git cherry-pick -n feature", "git revert -n HEAD"):
        found = decide(engine, project, line)
        assert found[:2] == ("ask", UNLISTED_NAMES), (line, found[2])


def test_merges_in_a_history_with_removed_files_are_listed(tmp_path: Path) -> None:
    """Both sides removed a file since they parted: git's own merge, done in the store, says
    what a merge, a cherry-pick and a rebase write, so ordinary ones follow the policy."""
    project = tmp_path / "history"
    (project / "src").mkdir(parents=True)
    (project / ".claude").mkdir()
    _new_repository(project)
    (project / ".claude" / "settings.json").write_text('{"mine": true}\n')
    for name in ("f1", "f2", "f3"):
        (project / "src" / f"{name}.py").write_text(f"{name} = 1\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    _git(project, "checkout", "-qb", "feature")
    _git(project, "rm", "-q", "src/f2.py")
    (project / "src" / "f1.py").write_text("f1 = 2\n")
    _git(project, "commit", "-qam", "feature")
    _git(project, "checkout", "-q", "main")
    _git(project, "rm", "-q", "src/f3.py")
    _git(project, "commit", "-qm", "main")
    engine = _engine(project, tmp_path)
    for line in ("git merge feature", "git merge --no-ff feature", "git cherry-pick feature"):
        assert decide(engine, project, line)[0] == "allow", line
    _git(project, "checkout", "-q", "feature")
    assert decide(engine, project, "git rebase main")[0] == "allow"


def test_a_staged_change_stashed_is_taken_out_of_the_work_tree_too(
    repository: Path, tmp_path: Path
) -> None:
    """``git stash --staged`` reverse-applies the staged change to the work tree: with the
    agent's settings committed and the human's staged over them, it writes the agent's."""
    project = tmp_path / "staged"
    shutil.copytree(repository, project, symlinks=True)
    evil = _git(project, "rev-parse", "evil:.claude/settings.json").strip()
    good = _git(project, "rev-parse", "main:.claude/settings.json").strip()
    _git(project, "update-index", "--cacheinfo", f"100644,{evil},.claude/settings.json")
    _git(project, "commit", "-qm", "wip")
    _git(project, "update-index", "--cacheinfo", f"100644,{good},.claude/settings.json")
    engine = _engine(project, tmp_path)
    assert _changes(project, tmp_path, "git stash --staged")
    assert decide(engine, project, "git stash --staged")[0] == "deny"


def test_a_directory_replaced_by_a_file_a_link_or_removed_as_a_repository(
    tmp_path: Path,
) -> None:
    """An ignored ``.claude/`` (only ``settings.local.json``): a commit holding a file
    ``.claude`` replaces the whole directory, one holding a link ``.claude`` leads its names
    elsewhere, and ``git clean`` names a nested repository as one directory it removes."""
    project = tmp_path / "ignored"
    (project / ".claude").mkdir(parents=True)
    _new_repository(project)
    (project / ".gitignore").write_text(".claude/\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    (project / ".claude" / "settings.local.json").write_text('{"mine": true}\n')
    blob = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=project, input="x\n",
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    ignore = _git(project, "rev-parse", "HEAD:.gitignore").strip()
    for name, mode in (("file", "100644"), ("link", "120000")):
        tree = _mktree(project, f"100644 blob {ignore}\t.gitignore\n{mode} blob {blob}\t.claude\n")
        commit = _git(project, "commit-tree", tree, "-p", "HEAD", "-m", name).strip()
        _git(project, "branch", name, commit)
    engine = _engine(project, tmp_path)
    assert decide(engine, project, "git checkout file")[0] == "deny"
    assert decide(engine, project, "git checkout link")[:2] == ("ask", UNLISTED_NAMES)
    assert decide(engine, project, "git clean -ffdx")[0] == "deny"
    _git(project / ".claude", "init", "-q")
    assert decide(engine, project, "git clean -ffdx")[0] == "deny"


def test_where_sparse_checkout_patterns_decide_nothing_is_listed(
    repository: Path, tmp_path: Path
) -> None:
    project = tmp_path / "sparse"
    shutil.copytree(repository, project, symlinks=True)
    engine = _engine(project, tmp_path)
    assert decide(engine, project, "git checkout feature")[0] == "allow"
    (project / ".git" / "info").mkdir(exist_ok=True)
    (project / ".git" / "info" / "sparse-checkout").write_text("/*\n!/.claude/\n")
    found = decide(engine, project, "git checkout feature")
    assert found[:2] == ("ask", UNLISTED_NAMES), found[2]


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("git format-patch -o .claude/agents -1", "deny"),  # a subagent made in a new directory
        ("git format-patch --output-directory=.claude/commands -1", "deny"),
        ("git format-patch -o patches -1", "allow"),
        ("git --version", "allow"),
    ],
)
def test_the_files_format_patch_makes_lie_in_its_directory(
    repository: Path, engine: Engine, line: str, action: str
) -> None:
    found, _, reason = decide(engine, repository, line)
    assert found == action, reason
