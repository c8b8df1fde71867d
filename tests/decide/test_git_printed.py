"""The files git prints from its store meet the policy's read rules (ADR 0056).

A real repository under the built-in policy: a ``.env`` committed once and then removed (it is
in the history only), a tracked ``deploy/.env`` changed in the work tree, and ordinary source.
Each attack is run in real bash, to show that it prints the secret, and its benign twin that it
does not; then both are decided: the attack asks, the twin is allowed."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from scratch_runs import decide

from clearance.decide.engine import Engine
from clearance.intent.sentinel import UNLISTED_PRINTED
from clearance.intent.shell.git_printed import Plan, floor, plan
from clearance.policy.defaults import BUILTIN_POLICY

SECRET = "SECRET_VALUE_1234"

# (attack, benign twin): the attack prints SECRET and asks; the twin prints no secret and is
# allowed. `{blob}` is the object of the committed .env.
ATTACKS = [
    ("git log -p", "git log --stat"),
    ("git log -p --all", "git log --oneline --all"),
    ("git log -p -3", "git log -p -1"),
    ("git log -p | head -100", "git log --oneline | head"),
    ("git log --patch -- .env", "git log --patch -- src"),
    ("git log -U1 --no-color", "git log --no-color -n 2"),
    ("git log -p --follow -- .env", "git log -p --follow -- src/a.py"),
    ("git show HEAD~2", "git show HEAD"),
    ("git show HEAD~1", "git show --stat HEAD~1"),
    ("git --no-pager show HEAD~2 --format=%H", "git --no-pager show -s HEAD~2"),
    ("git diff HEAD~2 HEAD", "git diff HEAD~1 HEAD"),
    ("git diff HEAD~2..HEAD", "git diff --name-only HEAD~2..HEAD"),
    ("git diff", "git diff -- src"),
    ("git diff HEAD", "git diff --stat HEAD"),
    ("git reflog -p", "git reflog"),
    ("git cat-file -p {blob}", "git cat-file -p HEAD"),
    ("git cat-file blob {blob}", "git cat-file -t {blob}"),
    ("git show {blob}", "git show HEAD"),
    ("git cat-file --batch-all-objects --batch", "git cat-file --batch-all-objects --batch-check"),
    # a blob, or a tag of one, is printed whole whatever the patch options say
    ("git show -s {blob}", "git show -s HEAD"),
    ("git show --stat blobtag", "git show --stat HEAD"),
    ("git show -s --format=%B blobtag", "git show -s --format=%B HEAD"),
    # options that take a value only when it is attached: the next word is a revision
    ("git show --pretty HEAD~2", "git show --pretty HEAD"),
    ("git log -U HEAD~2", "git log -U HEAD~1..HEAD"),
    # --check prints the lines with whitespace errors
    ("git log --check", "git log --stat"),
    ("git diff --stat --check", "git diff --stat"),
    ("git log -p --full-diff -- src/a.py", "git log -p -1 --full-diff -- src/a.py"),
    # a ref's object printed by a format
    ("git tag -l --format='%(*raw)'", "git tag -l --format='%(refname)'"),
    # a revision with a colon inside braces is no file of a tree
    ("git show 'HEAD^{/first|:}'", "git show 'HEAD^{/third|:}'"),
    ("git show 'HEAD@{2099-01-01 0:0}~2'", "git show 'HEAD@{2099-01-01 0:0}'"),
    # git grep in a revision's tree
    ("git grep TOKEN HEAD~2", "git grep TOKEN -- src"),
    ("git grep -h '' HEAD~2", "git grep -h '' src"),
    ("git grep -h TOKEN HEAD~2", "git grep -h TOKEN -- src"),
    ("git grep -iesecret_value HEAD~2", "git grep -iesecret_value -- src"),
    # a stash of deploy/.env's change (asked under the built-in policy: see DEVELOPER)
]
# Lines the built-in policy asks about anyway: decided under a policy that allows git.
DEVELOPER_ATTACKS = [
    ("git stash show -p stash@{0}", "git stash show -p stash@{1}"),
    ("git stash list -p", "git stash list"),
    ("git whatchanged -p", "git whatchanged -1"),
]
# Lines whose printed files cannot be listed ahead: they ask with the floor.
UNLISTED = [
    "git log -p -L 1,2:src/a.py",
    "echo HEAD~2 | git log -p --stdin",
    "git cat-file --batch < names.txt",
    "git log -p -1 | git stash -a",
    "git log -p -1 && git add -A",
    "git diff --submodule=diff",
    "git show --tags",
    "git show -s --all",
    "git log --notes=sec",
    "git log -1 --format=%N",
    "git grep --recurse-submodules x HEAD",
    "git cat-file --batch-comm <<< 'contents HEAD~2:.env'",
    # a remerge diff prints a conflict's other side, which -m does not list
    "git log -1 --first-parent --remerge-diff",
    "git show --diff-merges=r HEAD",
    # copy detection prints an unchanged source's lines, which the listing does not name
    "git show -C -C",
    # git grep searches a blob given by its id
    "git grep -h -e '' {blob}",
    "git log -p -1 --find-copies-harder",
    "git diff --find-copies HEAD~1",
    # an earlier git command of the line may make the object a path names another one
    "git replace -f HEAD:src/a.py HEAD~2:.env; git cat-file -p HEAD:src/a.py",
]


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("git-printed")
    project = root / "proj"
    (project / "src").mkdir(parents=True)
    (project / "deploy").mkdir()
    (root / "home").mkdir()
    _git(project, "init", "-q", "-b", "main")
    _git(project, "config", "user.email", "a@example.com")
    _git(project, "config", "user.name", "a")
    (project / ".env").write_text(f"TOKEN={SECRET} \n")  # a trailing blank: --check shows it
    (project / "deploy" / ".env").write_text("REGION=eu\n")
    (project / "src" / "a.py").write_text("a = 1\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "first")
    _git(project, "rm", "-q", ".env")
    (project / "src" / "b.py").write_text("b = 1\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "no secret in the tree")
    (project / "src" / "a.py").write_text("a = 2\n")
    _git(project, "commit", "-qam", "third")
    (project / "src" / "a.py").write_text("a = 4\n")
    _git(project, "stash", "-q")  # stash@{1}: source only
    (project / "deploy" / ".env").write_text(f"REGION=eu\nSTASHED={SECRET} \n")
    _git(project, "stash", "-q")  # stash@{0}: the secret
    (project / "deploy" / ".env").write_text(f"REGION=eu\nTOKEN={SECRET} \n")  # not committed
    (project / "src" / "a.py").write_text("a = 3\n")
    (project / "names.txt").write_text("HEAD~2:.env\n")
    _git(
        project,
        "tag",
        "-a",
        "blobtag",
        "-m",
        "a blob",
        _git(project, "rev-parse", "HEAD~2:.env").strip(),
    )
    return project


@pytest.fixture(scope="module")
def engine(repository: Path) -> Engine:
    home = repository.parent / "home"
    env = {"HOME": str(home), "CLEARANCE_HOME": str(repository.parent / "state")}
    return Engine.load(cwd=str(repository), env=env)  # the built-in policy


def _line(repository: Path, line: str) -> str:
    return line.replace("{blob}", _git(repository, "rev-parse", "HEAD~2:.env").strip())


def _prints_secret(repository: Path, line: str) -> bool:
    env = dict(os.environ, HOME=str(repository.parent / "home"), GIT_PAGER="cat")
    done = subprocess.run(["bash", "-c", line], cwd=repository, capture_output=True,
                          timeout=30, check=False, env=env)  # fmt: skip
    return SECRET.encode() in done.stdout


@pytest.mark.parametrize(("attack", "twin"), ATTACKS, ids=[a for a, _ in ATTACKS])
def test_a_secret_git_prints_asks_and_its_twin_is_allowed(
    repository: Path, engine: Engine, attack: str, twin: str
) -> None:
    attack, twin = _line(repository, attack), _line(repository, twin)
    assert _prints_secret(repository, attack), f"{attack!r} prints no secret"
    assert not _prints_secret(repository, twin), f"{twin!r} prints the secret"
    found, _, reason = decide(engine, repository, attack)
    assert found == "ask", reason
    found, _, reason = decide(engine, repository, twin)
    assert found == "allow", reason


@pytest.fixture(scope="module")
def developer(repository: Path) -> Engine:
    """The built-in policy's path rules, and every git command allowed."""
    path = json.loads(BUILTIN_POLICY)["permission"]["path"]
    policy = {"permission": {"*": "allow", "bash": {"*": "ask", "git *": "allow"}, "path": path}}
    env = {"HOME": str(repository.parent / "home"), "CLEARANCE_HOME": str(repository.parent / "s")}
    return Engine.load(cwd=str(repository), policy=json.dumps(policy), env=env)


@pytest.mark.parametrize(
    ("attack", "twin"), DEVELOPER_ATTACKS, ids=[a for a, _ in DEVELOPER_ATTACKS]
)
def test_under_a_policy_that_allows_git_a_secret_printed_asks(
    repository: Path, developer: Engine, attack: str, twin: str
) -> None:
    assert _prints_secret(repository, attack), f"{attack!r} prints no secret"
    assert not _prints_secret(repository, twin), f"{twin!r} prints the secret"
    found, _, reason = decide(developer, repository, attack)
    assert found == "ask", reason
    found, _, reason = decide(developer, repository, twin)
    assert found == "allow", reason


@pytest.mark.parametrize("line", UNLISTED)
def test_what_cannot_be_listed_asks_with_the_floor(
    repository: Path, engine: Engine, line: str
) -> None:
    found, _, reason = decide(engine, repository, _line(repository, line))
    assert found == "ask" and UNLISTED_PRINTED in reason, reason


@pytest.mark.parametrize(
    "line",
    [
        # a pickaxe search answers what the files hold, a character at a time
        "git log --all --format=%h -G 'SECRET_VALUE_123[4]' -- '*.env'",
        "git diff --quiet -S SECRET_VALUE_1234",
        "git log --numstat --format=%h -I '^TOKEN=SECRET_VALUE_123'",
        "git diff --quiet -I '^TOKEN=SECRET'",
    ],
)
def test_a_search_of_the_files_content_reads_them(
    repository: Path, engine: Engine, line: str
) -> None:
    found, _, reason = decide(engine, repository, line)
    assert found == "ask" and (".env" in reason or UNLISTED_PRINTED in reason), reason


@pytest.mark.parametrize(
    "line",
    [
        # a pathspec variable set earlier in the line changes what the listing's paths match
        "export GIT_ICASE_PATHSPECS=1; git log -p -- .ENV",
        "GIT_ICASE_PATHSPECS=1 git log -p -- .ENV",
    ],
)
def test_what_git_matches_otherwise_asks(repository: Path, engine: Engine, line: str) -> None:
    assert _prints_secret(repository, line), line
    found, _, reason = decide(engine, repository, line)
    assert found == "ask", reason


def test_outside_a_repository_git_diff_reads_the_two_paths(tmp_path: Path) -> None:
    """With no repository, ``git diff a b`` compares the two files as diff(1) does."""
    (tmp_path / "home").mkdir()
    project = tmp_path / "proj"
    project.mkdir()
    (project / "x.env").write_text(f"TOKEN={SECRET}\n")
    (project / "a.txt").write_text("a\n")
    (project / "b.txt").write_text("b\n")
    env = {"HOME": str(tmp_path / "home"), "CLEARANCE_HOME": str(tmp_path / "state")}
    engine = Engine.load(cwd=str(project), env=env)
    assert _prints_secret(project, "git diff x.env a.txt")
    found, _, reason = decide(engine, project, "git diff x.env a.txt")
    assert found == "ask" and "x.env" in reason, reason
    found, _, reason = decide(engine, project, "git diff a.txt b.txt")
    assert found == "allow", reason


def test_notes_and_replaced_objects_ask(tmp_path: Path) -> None:
    """A note is any blob (`git notes add -C <blob>`), and a replace ref prints another object
    under a file's name: where the repository has them, what git prints asks."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    project.mkdir()
    _git(project, "init", "-q", "-b", "main")
    _git(project, "config", "user.email", "a@example.com")
    _git(project, "config", "user.name", "a")
    (project / "README").write_text("hello\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "first")
    secret = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=project, check=True,
                            input=f"TOKEN={SECRET}\n", capture_output=True, text=True)  # fmt: skip
    blob = secret.stdout.strip()
    env = {"HOME": str(home), "CLEARANCE_HOME": str(tmp_path / "state")}
    plain = ["git log -1", "git show HEAD:README", "git cat-file -p HEAD:README", "git show -s"]
    for line in plain:
        assert not _prints_secret(project, line), line
        found, _, reason = decide(Engine.load(cwd=str(project), env=env), project, line)
        assert found == "allow", (line, reason)
    _git(project, "config", "notes.displayRef", "refs/heads/*")  # notes kept anywhere
    found, _, reason = decide(Engine.load(cwd=str(project), env=env), project, "git log -1")
    assert found == "ask" and UNLISTED_PRINTED in reason, reason
    _git(project, "config", "--unset", "notes.displayRef")
    _git(project, "config", "diff.submodule", "diff")  # a submodule's own patch, unlisted
    found, _, reason = decide(Engine.load(cwd=str(project), env=env), project, "git show HEAD")
    assert found == "ask" and UNLISTED_PRINTED in reason, reason
    _git(project, "config", "diff.submodule", "log")
    found, _, reason = decide(Engine.load(cwd=str(project), env=env), project, "git show HEAD")
    assert found == "allow", reason
    _git(project, "config", "--unset", "diff.submodule")
    _git(project, "config", "diff.renames", "copies")  # copies found: their sources print
    found, _, reason = decide(Engine.load(cwd=str(project), env=env), project, "git show HEAD")
    assert found == "ask" and UNLISTED_PRINTED in reason, reason
    _git(project, "config", "--unset", "diff.renames")
    _git(project, "notes", "add", "-C", blob, "HEAD")
    engine = Engine.load(cwd=str(project), env=env)
    for line in ("git log -1", "git show -s", "git log"):
        assert _prints_secret(project, line), line
        found, _, reason = decide(engine, project, line)
        assert found == "ask" and UNLISTED_PRINTED in reason, (line, reason)
    found, _, reason = decide(engine, project, "git log -1 --no-notes")
    assert found == "allow", reason
    readme = _git(project, "rev-parse", "HEAD:README").strip()
    _git(project, "replace", "-f", readme, blob)
    for line in ("git show HEAD:README", "git cat-file -p HEAD:README"):
        assert _prints_secret(project, line), line
        found, _, reason = decide(engine, project, line)
        assert found == "ask" and UNLISTED_PRINTED in reason, (line, reason)


def test_abbreviated_options_are_read_as_git_reads_them() -> None:
    """parse-options takes any unique prefix of a long option."""
    cached = plan(("grep", "--cach", "x"))
    assert isinstance(cached, Plan) and cached.argv[:1] == ("ls-files",)
    assert plan(("grep", "--recurse", "x", "HEAD")) == floor("reads the submodules' trees")
    assert isinstance(plan(("cat-file", "--batch-co")), tuple)
    assert isinstance(plan(("cat-file", "--batch")), tuple)
    assert plan(("cat-file", "--batch-ch")) is None
    assert plan(("cat-file", "--batch-all-objects", "--batch-check")) is None
    grep = plan(("grep", "-h", "-iA", "3", "x", "HEAD~2"))
    assert isinstance(grep, Plan) and grep.trees == ("HEAD~2",)
