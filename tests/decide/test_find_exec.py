"""`find … -exec PROGRAM … {} +` on literal start points in the project: the commands find runs
on the entries it finds are units of their own (ADR 0043), next to the forms that stay asking.

Real filesystem: a git work tree holding `__pycache__` directories, clearance's own protected
files (`.claude/settings.json`), git's configuration, a `.env` and a link leading out."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell import analyze

# Allows every program the lines run; asks for the rest and for paths outside the project.
DEVELOPER = {
    "*": "allow",
    "bash": {
        "*": "ask",
        **{f"{p}{s}": "allow" for p in ("find", "rm", "cp", "cat") for s in ("", " *")},
    },
    "path": {"*.env": "ask"},
    "external_directory": "ask",
}


@pytest.fixture
def project(tmp_path: Path) -> tuple[str, Engine, Engine]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("k")
    root = tmp_path / "proj"
    for directory in ("src/pkg/__pycache__", "tests/__pycache__", ".claude", "lib", "out"):
        (root / directory).mkdir(parents=True)
    for name in ("src/pkg/__pycache__/m.pyc", "tests/__pycache__/t.pyc", "src/pkg/m.py"):
        (root / name).write_text("x")
    (root / ".claude" / "settings.json").write_text("{}")
    (root / "lib" / "app.env").write_text("S=1")
    os.symlink(home / ".ssh", root / "keys")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    env = {"HOME": str(home)}
    developer = Engine.load(cwd=str(root), policy=json.dumps({"permission": DEVELOPER}),
                            env=env, use_cache=False)  # fmt: skip
    builtin = Engine.load(cwd=str(root), env=env, use_cache=False)
    return str(root), developer, builtin


def _action(engine: Engine, line: str, cwd: str) -> str:
    return engine.check(ToolCall("bash", {"command": line}, cwd)).action


BENIGN = [
    'find {P} -name "__pycache__" -type d -exec rm -rf {{}} +',
    "find . -name __pycache__ -type d -exec rm -rf {{}} +",
    "find {P}/src -name __pycache__ -exec rm -rf {{}} \\;",
    "find src tests -name '*.pyc' -exec rm -f {{}} +",
    "find . -name '*.py' -exec cat {{}} +",
    "find -P . -maxdepth 3 -name __pycache__ -prune -exec rm -rf {{}} +",
    "find . -name nothing-here -exec rm -rf {{}} +",
]
# (attack, why it must not be allowed)
ATTACKS = [
    ("find / -exec rm -rf {{}} +", "a start point outside the project"),
    ("find ~ -name __pycache__ -exec rm -rf {{}} +", "the home"),
    ("find .. -name __pycache__ -exec rm -rf {{}} +", "the parent"),
    ("find keys -exec cat {{}} +", "a start point that is a link leading out"),
    ("find -L . -name id_rsa -exec cat {{}} +", "-L follows the link out"),
    ("find . -follow -name id_rsa -exec cat {{}} +", "-follow too"),
    ("find . -name __pycache__ -exec sh -c 'rm -rf \"$1\"' _ {{}} \\;", "a shell"),
    ("find . -name __pycache__ -exec rm -rf {{}}/x \\;", "{{}} in a larger word"),
    ("find . -name __pycache__ -execdir rm -rf {{}} +", "-execdir"),
    ("find . -name __pycache__ -ok rm -rf {{}} \\;", "-ok"),
    ("find . -name __pycache__ -exec chmod 777 {{}} +", "a program the policy does not allow"),
    ("find . -name __pycache__ -exec sudo rm -rf {{}} +", "a wrapper"),
    ("find . -name '*.py' -exec {{}} \\;", "runs each entry it finds"),
    ("find . -name '*.py' -exec bash {{}} \\;", "a shell runs each entry"),
    ("find . -exec rm -rf {{}} +", "every entry: .claude/settings.json, .git/config"),
    ("find . -name settings.json -exec rm -f {{}} +", "a protected file found"),
    ("find . -name '*.json' -exec cp {{}} .claude/ \\;", "writes .claude/settings.json"),
    ("find . -name '*.env' -exec cat {{}} +", "a path rule met by what it finds"),
    ("find . -name __pycache__ -o -name x -exec rm -rf {{}} +", "-o: every entry may pass"),
    ("find . -name __pycache__ -exec rm -rf {{}} + -exec rm x \\;", "a second -exec"),
    ("find . -name __pycache__ -files0-from f -exec rm -rf {{}} +", "start points from a file"),
    ("find . -name __pycache__ -delete -exec rm -rf {{}} +", "-delete"),
    ("find $D -name __pycache__ -exec rm -rf {{}} +", "a computed start point"),
    ("find src/* -name __pycache__ -exec rm -rf {{}} +", "a glob start point"),
    ("find . -name __pycache__ -exec rm -rf {{}} +; rm -rf /", "rm -rf / after it"),
    ("cat src/pkg/m.py; find . -name __pycache__ -exec rm -rf {{}} +", "not the line alone"),
]


@pytest.mark.parametrize("line", BENIGN)
def test_find_exec_on_what_it_finds_in_the_project_is_allowed(
    project: tuple[str, Engine, Engine], line: str
) -> None:
    root, developer, _ = project
    decision = developer.check(ToolCall("bash", {"command": line.format(P=root)}, root))
    assert decision.action == "allow", decision.reason


@pytest.mark.parametrize(("line", "why"), ATTACKS, ids=[a for a, _ in ATTACKS])
def test_find_exec_that_is_not_proven_safe_asks_or_denies(
    project: tuple[str, Engine, Engine], line: str, why: str
) -> None:
    root, developer, builtin = project
    line = line.format(P=root)
    assert _action(developer, line, root) != "allow", why
    assert _action(builtin, line, root) != "allow", why


def test_the_entries_are_what_find_hands_the_command(project: tuple[str, Engine, Engine]) -> None:
    root, _, _ = project
    line = "find . -name __pycache__ -type d -exec rm -rf {} +"
    units = analyze(line, cwd=root, home="/nonexistent").units
    assert [u.exemption for u in units][:1] == ["find-exec"]
    assert units[-1].text == "rm -rf ./src/pkg/__pycache__ ./tests/__pycache__"
    found = subprocess.run(["find", ".", "-name", "__pycache__", "-type", "d"], cwd=root,
                           capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    assert sorted(found) == ["./src/pkg/__pycache__", "./tests/__pycache__"]


def test_each_entry_of_a_semicolon_exec_is_a_command_of_its_own(
    project: tuple[str, Engine, Engine],
) -> None:
    root, _, _ = project
    units = analyze("find src -name '*.pyc' -exec rm {} \\;", cwd=root, home="/h").units
    assert [u.text for u in units[2:]] == ["rm src/pkg/__pycache__/m.pyc"]


# Under the built-in policy, a reading command on what find finds is read-only inspection: find
# only walks its start points. What the command writes, or reads that a rule guards, still asks.
BUILTIN = [
    ("find . -name '*.py' -exec grep -l x {} +", "allow"),
    ("find src -name '*.py' -exec wc -l {} +", "allow"),
    ("find . -name '*.py' -exec sed -i s/a/b/ {} +", "ask"),  # writes each entry
    ("find . -name '*.py' -exec rm {} +", "ask"),
    ("find lib -exec cat {} +", "ask"),  # lib/app.env
    ("find . -name '*.py' -exec grep -l x /etc/hosts {} +", "ask"),  # outside the project
]


@pytest.mark.parametrize(("line", "expected"), BUILTIN, ids=[b for b, _ in BUILTIN])
def test_find_exec_under_the_built_in_policy(
    project: tuple[str, Engine, Engine], line: str, expected: str
) -> None:
    root, _, builtin = project
    assert _action(builtin, line, root) == expected
