"""Paths reached by shell patterns and directories meet the path rules (real filesystem)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

POLICY = {"*": "allow", "path": {"~/.ssh/*": "deny", "*.env": "deny"}}


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.ss?/id_*",
        "cat ~/.s*/id_rsa",
        "cat ~/{.ssh,x}/id_rsa",
        "cat .e?v",
        "cat .en*",
        "cat .{env,x}",
        "cp -r ~/.ssh /tmp/y",
        "tar czf /tmp/y.tgz ~/.ssh",
        "grep -r . ~/.ssh",
        "cat ~/.ssh/id_rsa",
    ],
)
def test_secrets_named_by_pattern_or_directory_are_denied(tmp_path: Path, command: str) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("k")
    project = home / "proj"
    project.mkdir()
    (project / ".env").write_text("S")
    (project / "README.md").write_text("r")
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                         env={"HOME": str(home)})  # fmt: skip
    assert engine.check(ToolCall("bash", {"command": command}, str(project))).action == "deny"
    assert engine.check(ToolCall("bash", {"command": "cat *.md"}, str(project))).action == "allow"


# What `cp`, `mv` and `ln` make is written: a file copied into a directory is written there
# under its own name, and a glob copied into one writes the names it matches on disk (the line
# being that command alone, nothing in it makes a file the glob matches first).
DEVELOPER = {
    "*": "allow",
    "bash": {"*": "ask", "cp": "allow", "cp *": "allow", "mv *": "allow", "ln *": "allow"},
    "path": {"*.env": "ask"},
    "external_directory": "ask",
}
MADE_NAMES = [
    # (attack, benign twin)
    ("cp src/*.json .claude/", "cp src/*.py lib/"),
    ("cp src/* .claude/", "cp src/*.py .claude/"),
    ("cp -t .claude src/*.json", "cp -t lib src/*.json"),
    ("cp src/s*.json .claude", "cp src/s*.json lib"),
    ("cp src/settings.json .claude/", "cp src/settings.json lib/"),
    ("cp src/settings.json .claude", "cp src/settings.json lib"),
    ("mv src/*.json .claude/", "mv src/*.py lib/"),
    ("ln -sr src/settings.json .claude/", "ln -sr src/settings.json lib/"),
    ("cd src && cp --parents settings.json ../.claude", "cp --parents src/settings.json .claude/"),
    ("cp --parents hooks/pre-commit .git/", "cp --parents hooks/pre-commit lib/"),
    ("cp src/*.py /tmp/x/", "cp src/*.py lib/"),
    ("cp src/*.py secrets.env/", "cp src/*.py lib/"),
    ("true; cp src/*.py lib/", "cp src/*.py lib/"),
    ("touch src/settings.json && cp src/*.json .claude/", "cp src/*.json lib/"),
    # A directory's tree copied into another lands beneath it: `src/settings.json` in .claude/.
    ("cp -r src/. .claude/", "cp -r src/. lib/"),
    ("cp -rT src .claude", "cp -rT src lib"),
    ("cp -a src/. .claude", "cp -a src/. lib"),
    ("cp --recursive hooks/.. .git", "cp --recursive src/. lib"),
    ("mkdir -p t && cp -r t/. .claude/", "cp -r src/. lib/"),
    # A backup is the replaced name with a suffix: `.claude/settings` becomes settings.json.
    ("cp -b -S .json src/a.py .claude/settings", "cp -b -S .bak src/a.py lib/settings"),
    ("mv --suffix=.json src/a.py .claude/settings", "mv --suffix=.bak src/a.py lib/settings"),
    ("SIMPLE_BACKUP_SUFFIX=.json cp -b src/a.py .claude/settings", "cp -b src/a.py lib/settings"),
]


@pytest.fixture
def made_project(tmp_path: Path) -> tuple[Engine, Engine, str]:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    for directory in ("src/services", "lib", ".claude", ".git", "hooks", "secrets.env"):
        (project / directory).mkdir(parents=True)
    for name in ("src/a.py", "src/b.py", "src/services/c.py", "hooks/pre-commit", "README.md"):
        (project / name).write_text("x")
    (project / "src" / "settings.json").write_text("{}")
    (project / ".claude" / "settings.json").write_text("{}")
    env = {"HOME": str(home)}
    developer = Engine.load(cwd=str(project), policy=json.dumps({"permission": DEVELOPER}),
                            env=env, use_cache=False)  # fmt: skip
    builtin = Engine.load(cwd=str(project), env=env, use_cache=False)
    return developer, builtin, str(project)


@pytest.mark.parametrize(("attack", "twin"), MADE_NAMES, ids=[a for a, _ in MADE_NAMES])
def test_names_copied_into_a_directory_are_judged_where_they_land(
    made_project: tuple[Engine, Engine, str], attack: str, twin: str
) -> None:
    developer, builtin, project = made_project
    check = developer.check
    assert check(ToolCall("bash", {"command": attack}, project)).action != "allow"
    assert builtin.check(ToolCall("bash", {"command": attack}, project)).action != "allow"
    decision = check(ToolCall("bash", {"command": twin}, project))
    assert decision.action == "allow", decision.reason


def test_a_glob_copied_into_the_project_by_its_absolute_path_is_allowed(
    made_project: tuple[Engine, Engine, str],
) -> None:
    developer, _, project = made_project
    line = f"cp {project}/src/services/*.py {project}/lib/"
    decision = developer.check(ToolCall("bash", {"command": line}, project))
    assert decision.action == "allow", decision.reason


@pytest.mark.parametrize(
    ("command", "action"),
    [
        # a loop variable's uses take the effect of their command, as the pattern typed does
        ("rm *.md", "deny"),
        ('for f in *.md; do rm "$f"; done', "deny"),
        ("for f in *.md; do rm $f; done", "deny"),
        ('for f in ./*.md; do rm -f "$f"; done', "deny"),
        ('for f in *.md; do cp README.md "$f"; done', "deny"),
        # benign twins: the same files read
        ("cat *.md", "allow"),
        ('for f in *.md; do cat "$f"; done', "allow"),
        ("for f in *.md; do head -n 30 $f; done", "allow"),
    ],
)
def test_a_loop_variable_writes_what_its_pattern_matches(
    tmp_path: Path, command: str, action: str
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "README.md").write_text("r")
    policy = {"*": "allow", "path_write": {"*.md": "deny"}}
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": policy}),
                         env={"HOME": str(tmp_path)})  # fmt: skip
    assert engine.check(ToolCall("bash", {"command": command}, str(project))).action == action


# A pattern handed to a command an option can make run code may expand to that option: beside a
# file named `-f.txt`, `sed -n p *.txt` reads its script from `.txt` (`1e CMD` runs CMD).
OPTION_GLOBS = [
    # (attack, benign twin)
    ("sed -n p *.txt", "sed -n p src/*.txt"),
    ("sed -i s/a/b/ *.txt", "sed -i s/a/b/ -- *.txt"),
    ("sort *.txt", "sort src/*.txt"),
    ("touch -- -f.md; sed -n p *.md", "sed -n p *.md"),
    ("cp *=.. a.txt", "cp src/*.txt a.txt"),
    ("mv *=.. a.txt", "mv -- *=.. a.txt"),
    ("git diff *", "git diff -- *"),
    ('for f in *.txt; do sed -n p "$f"; done', 'for f in src/*.txt; do sed -n p "$f"; done'),
    # a plain cd before the command makes no file: the pattern is read on disk, from there
    ("cd . && sed -n p *.txt", "cd src && sed -n p *.txt"),
    ("cd src && touch -- -f.txt && sed -n p *.txt", "cd src && sed -n p ./*.txt"),
    # a cd whose redirect makes the very name the pattern then matches
    ("cd src 2>'-f.txt' && sed -n p *.txt", "cd src 2>/dev/null && sed -n p *.txt"),
    ("cd . 2>x.json; cp *.json src/", "cd src; cp ./*.json ../"),
    # a shell whose literal script is read as typed commands makes no file of its own (Codex
    # sends every command as `zsh -lc '…'`), unless its redirect does
    ("zsh -lc 'sed -n p *.txt'", "zsh -lc 'cd src && sed -n p *.txt'"),
    ("bash -c 'cd src && touch -- -f.txt && sed -n p *.txt'", "bash -lc 'sed -n p src/*.txt'"),
    (
        "zsh -lc 'cd src; bash -c \"sed -n p *.txt\" 2>-f.txt'",
        "zsh -lc \"zsh -lc 'cd src && sed -n p *.txt'\"",
    ),
    (
        "zsh -lc 'sed -n p *.txt' > '-f.md' && sed -n p *.md",
        "zsh -lc 'sed -n p src/*.txt' > out.md",
    ),
    # the word bash passes is the match as the pattern spells it: `*/*` beside a directory
    # `-f.d` is `-f.d/x`, an option, though its last name is not
    ("sed -n p */*", "sed -n p src/*"),
    # a brace list's patterns, a pattern that starts with `-`, the program spelled another way
    ("sed -n p {*,}.txt", "sed -n p {a,src/b}.txt"),
    ("sed -n p {-,}*.txt", "sed -n p src/{b,c}.txt"),
    ("sed -n p -* a.txt", "sed -n p a.txt"),
    ("sort {*,}", "sort {a,src/b}.txt"),
    ("git diff {*,}", "git diff -- {*,}"),
    ("/usr/bin/sed -n p *.txt", "/usr/bin/sed -n p src/*.txt"),
]


@pytest.mark.parametrize(("attack", "twin"), OPTION_GLOBS, ids=[a for a, _ in OPTION_GLOBS])
def test_a_pattern_that_may_name_an_option_asks(tmp_path: Path, attack: str, twin: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    for name in (".txt", "a.txt", "-f.txt", "src/b.txt", "a.md", "--target-directory=.."):
        (project / name).write_text("1e touch pwned\n")
    (project / "-f.d").mkdir()
    (project / "-f.d" / "x").write_text("1e touch pwned\n")
    programs = ("sed", "sort", "cp", "mv", "git", "cd", "touch")
    policy = {"*": "allow", "bash": {"*": "ask", **{f"{p} *": "allow" for p in programs}}}
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": policy}),
                         env={"HOME": str(home)}, use_cache=False)  # fmt: skip
    decision = engine.check(ToolCall("bash", {"command": attack}, str(project)))
    assert decision.action == "ask" and "<code-running-option>" in decision.reason
    decision = engine.check(ToolCall("bash", {"command": twin}, str(project)))
    assert decision.action == "allow", decision.reason


def test_a_recursive_pattern_in_a_zsh_script_is_not_read_as_one_level(tmp_path: Path) -> None:
    """zsh reads `**/z` as any depth of directories: beside `-f.d/deep/z` it passes `-f.d/deep/z`
    (sed's `-f` then reads a script from `.d/deep/z`), a match one level of the disk does not
    show. Such a script is not taken as one command, and its pattern asks."""
    project = tmp_path / "proj"
    (project / "-f.d" / "deep").mkdir(parents=True)
    (project / "-f.d" / "deep" / "z").write_text("1e touch pwned\n")
    (project / "src").mkdir()
    (project / "src" / "z").write_text("z\n")
    policy = {"*": "allow", "bash": {"*": "ask", "sed *": "allow"}}
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": policy}),
                         env={"HOME": str(tmp_path)}, use_cache=False)  # fmt: skip
    decision = engine.check(ToolCall("bash", {"command": "zsh -lc 'sed -n p **/z'"}, str(project)))
    assert decision.action == "ask" and "<code-running-option>" in decision.reason
    twin = engine.check(ToolCall("bash", {"command": "zsh -lc 'sed -n p src/*'"}, str(project)))
    assert twin.action == "allow", twin.reason


def test_a_search_path_inside_the_project_is_seen_through_a_link_and_from_a_nested_repository(
    tmp_path: Path,
) -> None:
    """`PATH=<project>/bin` spelled through a link to the project, or set after a `cd` into a
    nested repository, still names a directory the agent fills."""
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    (project / "bin").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / "vendor" / "lib" / ".git").mkdir(parents=True)
    (tmp_path / "link").symlink_to(project)
    engine = Engine.load(cwd=str(project), env={"HOME": str(home)}, use_cache=False)
    for line in (f"PATH={tmp_path}/link/bin:$PATH && ls",
                 f"cd vendor/lib && PATH={project}/bin:$PATH && ls",
                 f"cd vendor/lib && PATH={project}/bin:$PATH ls"):  # fmt: skip
        decision = engine.check(ToolCall("bash", {"command": line}, str(project)))
        assert decision.action == "ask", (line, decision.reason)
    twin = engine.check(ToolCall("bash", {"command": "PATH=/usr/local/bin:$PATH && ls"},
                                 str(project)))  # fmt: skip
    assert twin.action == "allow", twin.reason
