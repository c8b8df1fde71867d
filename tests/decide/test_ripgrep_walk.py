"""What ``rg`` reads is what ripgrep reads (ADR 0057): by default no hidden entry and no link
beneath the directory it searches, and, given no path in a pipeline, the pipe instead of the
working directory.

Two real projects under the built-in policy. In the first, every secret is hidden or behind a
link: a ``.env`` at the top, ``src/.secret.env``, a file named ``-uu`` (an option a glob hands
to rg), and ``src/key``, a link to the home's SSH key. In the second, a visible ``config/app.env``
(what a pipe's ``rg`` must not be taken to search when it searches the working directory). Each
attack is run in real bash with the real ``rg``, to show that it prints the secret, and its
benign twin that it does not; then both are decided: the attack is not allowed, the twin is."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from scratch_runs import decide

from clearance.decide.engine import Engine
from clearance.intent.shell import analyze, parser, ripgrep
from clearance.intent.shell.source import Source
from clearance.intent.shell.statement import Scope
from clearance.intent.shell.walk import Walk
from clearance.intent.shell.word import Word

SECRET = "s3cret_TOKEN_77"

HIDDEN = [
    ("rg --hidden s3cret", "rg s3cret"),
    ("rg -. s3cret", "rg -n s3cret ."),
    ("rg -uu s3cret", "rg -w s3cret src"),
    ("rg -u -u s3cret", "rg --no-ignore s3cret"),
    ("rg -nuu s3cret", "rg -nS s3cret"),
    ("rg -g '.env' s3cret", "rg -e s3cret"),
    ("rg -g '*' s3cret", "rg -i -n S3CRET"),
    ("rg --glob=.env s3cret", "rg --max-count=3 s3cret"),
    ("rg --iglob '*.ENV' s3cret", "rg --max-count 3 s3cret"),
    ("rg --type-add 'e:*.env' -t e s3cret", "rg -A2 -B 1 s3cret"),
    ("rg --ignore-file ign s3cret", "rg -l s3cret"),
    ("rg -L s3cret src", "rg s3cret src"),
    ("rg --follow s3cret", "rg --no-follow s3cret"),
    ("opt=--hidden; rg $opt s3cret", "opt=-n; echo $opt; rg -n s3cret src"),
    ("rg s3cret *", "rg s3cret src/*.py"),  # `*` hands rg the file named -uu
    ("cd src && rg -uu s3cret", "cd src && rg s3cret"),
    ("timeout 5 rg --hidden s3cret", "timeout 5 rg s3cret"),
    # a value rg 13 does not take when it looks like an option
    ("rg --engine -uu s3cret", "rg --engine auto s3cret"),
]
# Lines that print no secret and are allowed: rg follows no link beneath, whatever it is told
# about hidden entries (unless -L), and `rg --files src` lists src.
ALLOWED = ["rg --files src", "rg -n s3cret src", "rg --files"]
VISIBLE = [
    ("rg s3cret", "ls | rg s3cret"),
    ("ls | rg s3cret < /dev/null", "ls | rg s3cret 2>/dev/null"),
    ("ls | rg s3cret 0</dev/null", "ls |& rg s3cret"),
    ("ls | rg s3cret 0>/dev/null", "cat notes.txt | rg -n s3cret"),
    ("ls | { rg s3cret; } < /dev/null", "ls | rg -e s3cret"),
    ("echo s3cret | rg -f -", "echo x | rg -i S3CRET"),
    ("true | xargs rg s3cret", "ls | rg -l s3cret"),
    ("ls | rg s3cret config", "ls | rg s3cret notes.txt"),
    # a brace list may expand to options only (or to -r)
    ("grep -r s3cret {-i,-n}", "grep -rn s3cret src"),
    ("grep s3cret {-r,}", "grep s3cret notes.txt"),
    ("git grep {-n,-i} --untracked s3cret", "git grep -n -i --untracked s3cret -- src"),
    # argmatch takes a prefix of grep's -d action
    ("grep -d rec s3cret", "grep -d skip s3cret notes.txt"),
    # `a | b | c && d` (the grammar nests the list in the pipeline; bash does not)
    ("ls | rg s3cret | head && rg s3cret", "ls | rg s3cret | head && cat notes.txt"),
]
# An option's value is no path: given none, the working directory is searched (grep and git
# grep too).
VALUES = [
    ("grep -r -f pats.txt", "grep -r -f pats.txt src"),
    ("grep -rf pats.txt", "grep -rf pats.txt notes.txt"),
    ("rg -f pats.txt", "rg -f pats.txt src"),
    ("grep -r --exclude-from=notes.txt s3cret", "grep -r --exclude-from=notes.txt s3cret src"),
    ("grep -r --exclude-from notes.txt s3cret", "grep -r --exclude notes.txt s3cret src"),
    ("rg --ignore-file notes.txt s3cret", "rg --ignore-file notes.txt s3cret src"),
    ("git grep -f pats.txt", "git grep -f pats.txt -- src"),
    ("git grep --max-depth 3 s3cret", "git grep --max-depth 3 s3cret -- src"),
    # git grep's grouping words and its pathspecs that git matches as patterns
    ("git grep --untracked \\( -e s3cret \\)", "git grep --untracked \\( -e s3cret \\) -- src"),
    ("git grep s3cret -- '*'", "git grep s3cret -- src"),
    ("cd src && git grep s3cret -- ':/'", "cd src && git grep s3cret"),
    # a named descriptor the grammar reads as an argument (`{x}>&2` is bash's redirect)
    ("grep -r s3cret {x}>&2", "grep -r s3cret src {x}>&2"),
    ("git grep s3cret {x}>&2", "git grep s3cret -- src {x}>&2"),
    ("grep -r s3cret {x}<<<hi", "grep -r s3cret src {x}<<<hi"),
    ("git grep s3cret 0<<<hi", "git grep s3cret -- src 0<<<hi"),
    # a tree given as REV:dir
    ("git grep s3cret HEAD:config", "git grep s3cret HEAD:src"),
    ("git grep s3cret HEAD:", "git grep s3cret HEAD:src"),
]


def _git(project: Path, *args: str) -> None:
    git = ["git", "-c", "user.name=a", "-c", "user.email=a@example.com"]
    subprocess.run([*git, *args], cwd=project, check=True, capture_output=True)


def _run(project: Path, line: str, env: dict[str, str] | None = None) -> bytes:
    environ = dict(os.environ, HOME=str(project.parent / "home"), **(env or {}))
    environ.pop("RIPGREP_CONFIG_PATH", None) if env is None else None
    done = subprocess.run(["bash", "-c", line], cwd=project, capture_output=True, timeout=30,
                          check=False, env=environ)  # fmt: skip
    return done.stdout


def _prints_secret(project: Path, line: str, env: dict[str, str] | None = None) -> bool:
    if shutil.which("rg") is None:
        pytest.skip("ripgrep is not installed (.ci/run installs it)")
    return SECRET.encode() in _run(project, line, env)


def _project(root: Path) -> Path:
    project = root / "proj"
    (project / "src").mkdir(parents=True)
    (root / "home" / ".ssh").mkdir(parents=True)
    (root / "home" / ".ssh" / "id_rsa").write_text(f"KEY {SECRET}\n")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "notes.txt").write_text("nothing here\n")
    (project / "src" / "main.py").write_text("print('hello')\n")
    (project / "ign").write_text("!.env\n")
    return project


@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = _project(tmp_path_factory.mktemp("rg-hidden"))
    (project / ".env").write_text(f"TOKEN={SECRET}\n")
    (project / "src" / ".secret.env").write_text(f"TOKEN={SECRET}\n")
    (project / "-uu").write_text("an option, once a glob expands\n")
    (project / "src" / "key").symlink_to(project.parent / "home" / ".ssh" / "id_rsa")
    return project


@pytest.fixture(scope="module")
def visible(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = _project(tmp_path_factory.mktemp("rg-visible"))
    (project / "config").mkdir()
    (project / "config" / "app.env").write_text(f"TOKEN={SECRET}\n")
    (project / "pats.txt").write_text("s3cret\n")
    _git(project, "add", "-A")  # what git grep searches
    _git(project, "commit", "-qm", "x")
    return project


def _engine(project: Path) -> Engine:
    home = project.parent / "home"
    env = {"HOME": str(home), "CLEARANCE_HOME": str(project.parent / "state"),
           "XDG_CONFIG_HOME": str(home / ".config")}  # fmt: skip
    return Engine.load(cwd=str(project), env=env)  # the built-in policy


def _attack_and_twin(project: Path, attack: str, twin: str) -> None:
    assert _prints_secret(project, attack), f"{attack!r} prints no secret"
    assert not _prints_secret(project, twin), f"{twin!r} prints the secret"
    engine = _engine(project)
    found, _, reason = decide(engine, project, attack)
    assert found != "allow", reason
    found, _, reason = decide(engine, project, twin)
    assert found == "allow", reason


@pytest.mark.parametrize(("attack", "twin"), HIDDEN, ids=[a for a, _ in HIDDEN])
def test_rg_told_to_read_hidden_entries_asks_and_its_default_walk_is_allowed(
    hidden: Path, attack: str, twin: str
) -> None:
    _attack_and_twin(hidden, attack, twin)


@pytest.mark.parametrize("line", ALLOWED)
def test_rg_follows_no_link_beneath_and_lists_what_it_is_given(hidden: Path, line: str) -> None:
    assert not _prints_secret(hidden, line)
    found, _, reason = decide(_engine(hidden), hidden, line)
    assert found == "allow", reason


def test_a_negation_in_an_ignore_file_walks_hidden_entries_but_follows_no_link(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    (project / "src" / "key").symlink_to(project.parent / "home" / ".ssh" / "id_rsa")
    (project / ".gitignore").write_text("build/\n!build/.gitkeep\n")
    assert not _prints_secret(project, "rg s3cret")
    assert decide(_engine(project), project, "rg s3cret")[0] == "allow"
    (project / "src" / ".env").write_text(f"TOKEN={SECRET}\n")
    assert decide(_engine(project), project, "rg s3cret")[0] == "ask"


def test_a_linked_worktree_reads_the_exclude_file_of_its_repository(tmp_path: Path) -> None:
    main = _project(tmp_path)
    _git(main, "add", "-A")
    _git(main, "commit", "-qm", "x")
    worktree = tmp_path / "wt"
    _git(main, "worktree", "add", "-q", str(worktree))
    (worktree / ".env").write_text(f"TOKEN={SECRET}\n")
    assert decide(_engine(worktree), worktree, "rg s3cret")[0] == "allow"
    (main / ".git" / "info").mkdir(exist_ok=True)
    (main / ".git" / "info" / "exclude").write_text("!.env\n")
    assert _prints_secret(worktree, "rg s3cret")
    found, _, reason = decide(_engine(worktree), worktree, "rg s3cret")
    assert found == "ask" and ".env" in reason, reason


@pytest.mark.parametrize(("attack", "twin"), VISIBLE, ids=[a for a, _ in VISIBLE])
def test_rg_in_a_pipe_searches_the_pipe_unless_its_input_is_replaced(
    visible: Path, attack: str, twin: str
) -> None:
    _attack_and_twin(visible, attack, twin)


@pytest.mark.parametrize(("attack", "twin"), VALUES, ids=[a for a, _ in VALUES])
def test_an_option_value_is_no_path_to_search(visible: Path, attack: str, twin: str) -> None:
    _attack_and_twin(visible, attack, twin)


@pytest.mark.parametrize(
    "place",
    [".ignore", ".rgignore", ".gitignore", ".git/info/exclude", "src/.ignore", "../.ignore"],
)
def test_an_ignore_file_that_whitelists_a_hidden_entry_makes_rg_walk_them(
    tmp_path: Path, place: str
) -> None:
    project = _project(tmp_path)
    (project / ".env").write_text(f"TOKEN={SECRET}\n")
    (project / "src" / ".env").write_text(f"TOKEN={SECRET}\n")
    assert not _prints_secret(project, "rg s3cret")
    assert decide(_engine(project), project, "rg s3cret")[0] == "allow"
    (project / place).parent.mkdir(parents=True, exist_ok=True)
    (project / place).write_text("!.env\n")
    assert _prints_secret(project, "rg s3cret")
    found, _, reason = decide(_engine(project), project, "rg s3cret")
    assert found == "ask" and ".env" in reason, reason


@pytest.mark.parametrize(
    "where",
    ["excludes", "excludes with a space", "excludes with a blank after",
     "excludes after a vertical tab", "xdg-ignore"],
)  # fmt: skip
def test_git_global_excludes_that_whitelist_make_rg_walk_hidden_entries(
    tmp_path: Path, where: str
) -> None:
    project = _project(tmp_path)
    home = project.parent / "home"
    (project / ".env").write_text(f"TOKEN={SECRET}\n")
    assert decide(_engine(project), project, "rg s3cret")[0] == "allow"
    if where.startswith("excludes"):  # core.excludesFile, as ripgrep reads it
        name = "my ignore" if "space" in where else "global-ignore"
        (home / name).write_text("!.env\n")
        blank = " " if "after" in where else ""  # ripgrep keeps it: git does not
        if blank:
            (home / f"{name} ").write_text("!.env\n")
            (home / name).write_text("")
        lead = "\v" if "vertical" in where else "\t"  # ripgrep's blanks are \s
        (home / ".gitconfig").write_text(f"[core]\n{lead}excludesFile = ~/{name}{blank}\n")
    else:
        (home / ".config" / "git").mkdir(parents=True)
        (home / ".config" / "git" / "ignore").write_text("!.env\n")
    env = {"XDG_CONFIG_HOME": str(home / ".config")}
    assert _prints_secret(project, "rg s3cret", env)
    found, _, reason = decide(_engine(project), project, "rg s3cret")
    assert found == "ask" and ".env" in reason, reason


@pytest.mark.parametrize("gitdir", ["evil", "{root}/gd "])
def test_a_gitfile_is_read_as_ripgrep_reads_it(tmp_path: Path, gitdir: str) -> None:
    """ripgrep takes a gitfile's path as it is (blanks kept), a relative one from its own
    working directory, and reads ``info/exclude`` beneath it."""
    project = _project(tmp_path)
    (project / "sub").mkdir()
    (project / "sub" / ".env").write_text(f"TOKEN={SECRET}\n")
    named = gitdir.replace("{root}", str(project))
    place = project / named if not named.startswith("/") else Path(named)
    (place / "info").mkdir(parents=True)
    (place / "commondir").write_text(".")
    (project / "sub" / ".git").write_text(f"gitdir: {named}")
    unknown = not named.startswith("/")  # read from rg's working directory: asks
    assert decide(_engine(project), project, "rg s3cret sub")[0] == ("ask" if unknown else "allow")
    (place / "info" / "exclude").write_text("!.env\n")
    assert _prints_secret(project, "rg s3cret sub")
    found, _, reason = decide(_engine(project), project, "rg s3cret sub")
    assert found == "ask" and ".env" in reason, reason


def test_grep_r_follows_no_link_beneath_and_grep_capital_r_does(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    (project / "src" / "key").symlink_to(project.parent / "home" / ".ssh" / "id_rsa")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "x")
    for line in ("grep -rn s3cret src", "rgrep s3cret .", "rg s3cret -g '*'"):
        assert not _prints_secret(project, line), line
        assert decide(_engine(project), project, line)[0] != "deny", line
    for line in ("grep -Rn s3cret src", "grep -r --deref s3cret src", "rg -L s3cret"):
        assert _prints_secret(project, line), line
        assert decide(_engine(project), project, line)[0] == "deny", line
    # a link to a directory outside: what lies beneath it is read by a walk that follows links
    (project / "keys").symlink_to(project.parent / "home" / ".ssh")
    for line in ("grep -R s3cret .", "rg -L s3cret", "git grep s3cret -- keys/"):
        assert decide(_engine(project), project, line)[0] == "deny", line
    assert _prints_secret(project, "grep -R s3cret .")
    assert not _prints_secret(project, "grep -r s3cret .")
    assert decide(_engine(project), project, "grep -r s3cret .")[0] == "allow"


def test_git_grep_opens_a_tracked_path_through_a_directory_that_is_now_a_link(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    (project / "keys").mkdir()
    (project / "keys" / "id_rsa").write_text("placeholder\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "x")
    (project / "keys" / "id_rsa").unlink()
    (project / "keys").rmdir()
    (project / "keys").symlink_to(project.parent / "home" / ".ssh")
    assert _prints_secret(project, "git grep s3cret")
    assert decide(_engine(project), project, "git grep s3cret")[0] == "deny"


def test_a_file_named_like_an_option_makes_grep_of_a_glob_recursive(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "src" / "key").symlink_to(project.parent / "home" / ".ssh" / "id_rsa")
    (project / "-R").write_text("\n")
    assert _prints_secret(project, "grep s3cret *")
    assert decide(_engine(project), project, "grep s3cret *")[0] == "deny"


def test_a_repository_setting_that_widens_git_grep_asks(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    _git(lib, "init", "-q")
    (lib / ".env").write_text(f"TOKEN={SECRET}\n")
    _git(lib, "add", "-A")
    _git(lib, "commit", "-qm", "x")
    project = _project(tmp_path)
    _git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib")
    _git(project, "commit", "-qm", "x")
    assert decide(_engine(project), project, "git grep s3cret HEAD")[0] == "allow"
    _git(project, "config", "submodule.recurse", "true")
    assert _prints_secret(project, "git grep s3cret HEAD")
    found, _, reason = decide(_engine(project), project, "git grep s3cret HEAD")
    assert found == "ask" and "submodule.recurse" in reason, reason
    # a work tree elsewhere (core.worktree): git grep searches it, not the working directory
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "notes.txt").write_text(f"{SECRET}\n")
    _git(project, "config", "--unset", "submodule.recurse")
    _git(project, "config", "core.worktree", str(elsewhere))
    _git(project, "--work-tree", str(elsewhere), "add", "notes.txt")
    assert _prints_secret(project, "git grep s3cret")
    found, _, reason = decide(_engine(project), project, "git grep s3cret")
    assert found == "ask" and "core.worktree" in reason, reason


def test_git_grep_reads_the_stored_files_of_entries_it_does_not_read_from_disk(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    (project / "config").mkdir()
    (project / "config" / "app.env").write_text(f"TOKEN={SECRET}\n")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "x")
    (project / "config" / "app.env").unlink()
    assert not _prints_secret(project, "git grep s3cret")
    assert decide(_engine(project), project, "git grep s3cret")[0] == "allow"
    for flag in ("--assume-unchanged",):  # (skip-worktree entries are listed too, unread by 2.39)
        subprocess.run(["git", "checkout", "-q", "--", "config"], cwd=project, check=True)
        subprocess.run(["git", "update-index", flag, "config/app.env"], cwd=project, check=True)
        (project / "config" / "app.env").unlink()
        assert _prints_secret(project, "git grep s3cret"), flag
        found, _, reason = decide(_engine(project), project, "git grep s3cret")
        assert found == "ask" and "app.env" in reason, reason
        subprocess.run(["git", "update-index", flag.replace("--", "--no-"), "config/app.env"],
                       cwd=project, check=True)  # fmt: skip


def test_a_ripgrep_configuration_in_the_environment_walks_everything(
    hidden: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = hidden.parent / "rgrc"
    config.write_text("--hidden\n")
    assert _prints_secret(hidden, "rg s3cret", {"RIPGREP_CONFIG_PATH": str(config)})
    monkeypatch.setenv("RIPGREP_CONFIG_PATH", str(config))
    found, _, reason = decide(_engine(hidden), hidden, "rg s3cret")
    assert found != "allow", reason


@pytest.mark.parametrize(
    ("line", "default", "paths"),
    [
        ("rg x", True, 0),
        ("rg -e x", True, 0),
        ("rg -e x src", True, 1),
        ("rg -nA3 x a b", True, 2),
        ("rg --max-count 3 x -- -a", True, 1),
        ("rg -- x", True, 0),
        ("rg -ex a", True, 1),
        ("rg --hidden x", False, None),
        ("rg -nL x", False, None),
        ("rg -f pats", False, None),
        ("rg --glob=*.py x", False, None),
        ("rg $o x", False, None),
        ("rg x *", False, None),
        ("rg x {-uu,src}", False, None),
        ("rg --max-count", False, None),
        ("grep -r x", False, None),
    ],
)
def test_the_walk_of_an_rg_command_is_read_by_a_positive_model(
    line: str, default: bool, paths: int | None
) -> None:
    found = ripgrep.walk(_words(line))
    assert (found.default, found.paths if found.default else None) == (default, paths)


def _words(line: str) -> list[Word]:
    """The words of the one simple command ``line``, as the analysis walks them."""
    src = Source(line)
    walk = Walk(src, True, True)
    walk.run(parser.parse(src.parsed), "", Scope(None))
    return list(walk.statements[0].words)


def test_a_pipe_element_is_fed_only_when_it_is_one_command() -> None:
    # `ls | rg x` reads the pipe: no token for the working directory at all.
    assert not analyze("ls | rg x", cwd="/p", home="/h").paths
    for line in ("rg x", "ls | rg x < f", "ls | (rg x)", "ls | rg x 0>&2", "ls | xargs rg x"):
        tokens = analyze(line, cwd="/p", home="/h").paths
        assert any(t.deep for t in tokens), line


def test_a_link_that_uses_the_walks_budget_up_cuts_it_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link's target is charged to the budget by its length: a last link that spends it is a
    walk cut short (it asks), never a link that leads nowhere."""
    from clearance.decide.gates import beneath

    monkeypatch.setattr(beneath, "CAP", 100)
    project = tmp_path / "proj"  # (no .git: the budget is what the links spend)
    (project / "src").mkdir(parents=True)
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    (tmp_path / "home" / ".ssh" / "id_rsa").write_text(f"KEY {SECRET}\n")
    slashes = "/" * 240  # 30 entries of the budget each; the kernel reads them as one
    (project / "f").write_text("hi\n")
    for i in range(3):
        (project / f"d{i}").symlink_to(f"{slashes}{str(project / 'f').lstrip('/')}")
    (project / "src" / "keys").symlink_to(f"{slashes}{str(project.parent / 'home' / '.ssh')[1:]}")
    assert _prints_secret(project, "grep -R s3cret .")
    assert decide(_engine(project), project, "grep -R s3cret .")[0] != "allow"
