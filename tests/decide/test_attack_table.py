"""The attack table (``attack_table.py``) through the real engine, under the built-in policy and
under a deny-list policy, in a home with real files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from attack_table import CLASSES, DENYLIST

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

ROWS = [(name, *row) for name, rows in CLASSES.items() for row in rows]


class _Home:
    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.project = self.home / "proj"
        (self.home / ".ssh").mkdir(parents=True)
        (self.home / ".ssh" / "id_rsa").write_text("not a real key\n")
        (self.home / ".bashrc").write_text("# shell start-up\n")
        (self.project / ".git").mkdir(parents=True)
        (self.project / "src").mkdir()
        (self.project / "src" / "a.py").write_text("print(1)\n")
        (self.project / "README.md").write_text("# readme\n")
        (self.project / ".env").write_text("SECRET=1\n")
        # Names an unquoted loop variable would split or glob again (`.env`, everything).
        (self.project / "split").mkdir()
        for name in ("x .env y.md", "*", "k.env"):
            (self.project / "split" / name).write_text("notes\n")
        # jq programs written earlier: one imports the home's docker logins, one reads the env
        (self.project / "prog.jq").write_text('import "../.docker/config" as $c; $c\n')
        (self.project / "env.jq").write_text("env | keys\n")
        (self.project / "ok.jq").write_text(".name | ascii_downcase\n")
        (self.project / "link").symlink_to(self.home / ".ssh" / "id_rsa")  # planted earlier
        (self.project / "sd").symlink_to(self.home / ".ssh")  # a planted link to a directory
        (self.project / ".git" / "hooks").mkdir()
        (self.project / ".git" / "hooks" / "pre-commit").write_text("#!/bin/sh\n")
        # Repositories planted by ordinary writes, and a real submodule's (ADR 0040).
        for layout in ("fixtures/bare", "stash", ".git/modules/mod"):
            _repository(self.project / layout)
        (self.project / "vend" / "deeper").mkdir(parents=True)
        (self.project / "vend" / ".git").write_text("gitdir: ../stash\n")
        (self.project / "mod").mkdir()
        (self.project / "mod" / ".git").write_text("gitdir: ../.git/modules/mod\n")
        self.env = {
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(root / "config"),
            "CLEARANCE_HOME": str(root / "state"),
        }
        self.engines: dict[str, Engine] = {}

    def engine(self, policy: str) -> Engine:
        if policy not in self.engines:
            inline = json.dumps(DENYLIST) if policy == "denylist" else None
            self.engines[policy] = Engine.load(cwd=str(self.project), policy=inline, env=self.env)
        return self.engines[policy]


def _repository(where: Path) -> None:
    """A git directory's layout, as ordinary writes make it (git's own test: HEAD, objects/,
    refs/), with a configuration naming a program."""
    (where / "objects").mkdir(parents=True)
    (where / "refs" / "heads").mkdir(parents=True)
    (where / "HEAD").write_text("ref: refs/heads/main\n")
    (where / "config").write_text("[diff]\n\texternal = ./x.sh\n")


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> _Home:
    return _Home(tmp_path_factory.mktemp("attacks"))


def _decide(home: _Home, policy: str, line: str) -> tuple[str, str]:
    old = os.getcwd()
    os.chdir(home.project)
    try:
        found = home.engine(policy).check(ToolCall("bash", {"command": line}, str(home.project)))
    finally:
        os.chdir(old)
    return found.action, found.reason


def _holds(expected: str, action: str) -> bool:
    return action != "allow" if expected == "stop" else action == expected


@pytest.mark.parametrize(
    ("cls", "line", "builtin", "denylist"), ROWS, ids=[f"{r[0]}:{r[1][:50]}" for r in ROWS]
)
def test_an_attack_table_line_gets_its_decision_under_both_policies(
    home: _Home, cls: str, line: str, builtin: str, denylist: str
) -> None:
    for policy, expected in (("builtin", builtin), ("denylist", denylist)):
        action, reason = _decide(home, policy, line)
        assert _holds(expected, action), f"{policy}: {action}: {reason}"


def test_the_table_has_attacks_and_benign_twins_for_every_class() -> None:
    names = set(CLASSES)
    for name in names:
        if not name.endswith("-benign"):
            assert f"{name}-benign" in names
            assert all(b != "allow" or d != "allow" for _, b, d in CLASSES[name])
