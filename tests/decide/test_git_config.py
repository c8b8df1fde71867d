"""`git config` of a key git runs later asks through yolo and grants; other keys and reads
follow the policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.decide.gates.protected import git_config_key
from clearance.intent.call import ToolCall

CODE = [
    ('git config core.pager "sh -c id"', "core.pager"),
    ("git config --global alias.st '!rm -rf x'", "alias.st"),
    ("git config --local core.hooksPath /tmp/h", "core.hooksPath"),
    ("git -C repo config core.sshCommand 'ssh -o ProxyCommand=x'", "core.sshCommand"),
    ("git config diff.x.textconv cat", "diff.x.textconv"),
    ("git config filter.lfs.smudge x", "filter.lfs.smudge"),
    ("git config credential.helper store", "credential.helper"),
    ("git config includeIf.gitdir:~/.path ~/evil", "includeIf.gitdir:~/.path"),
    ("git config diff.external x", "diff.external"),
    ("git config --add core.fsmonitor x", "core.fsmonitor"),
    ("git config set core.editor vim", "core.editor"),
    ("git config --unset core.hooksPath", "core.hooksPath"),
    ("git config --unset core.hooksPath /dev/null", "core.hooksPath"),
    ("git config core.hooksPath /dev/null/../../tmp/h", "core.hooksPath"),
    ("git config core.hooksPath /dev/null x", "core.hooksPath"),
    ("git config -e", "(the whole configuration, in an editor)"),
]
BENIGN = [
    "git config user.name 'A B'",
    "git config --global user.email a@b.c",
    "git config --get core.pager",
    "git config core.pager",
    "git config -l",
    "git config --list --show-origin",
    "git config get user.name",
    "git log --format=%H",
    # hooks pointed at a path that is no directory: git finds none
    "git config core.hooksPath /dev/null",
    "git config --local core.hooksPath /dev/null",
]


@pytest.mark.parametrize(("line", "key"), CODE)
def test_a_code_running_key_is_found(line: str, key: str) -> None:
    assert git_config_key(line) == key


@pytest.mark.parametrize("line", BENIGN)
def test_other_keys_and_reads_are_not(line: str) -> None:
    assert git_config_key(line) is None


def test_setting_a_code_running_key_asks_through_yolo(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "CLEARANCE_HOME": str(tmp_path / "s")}  # fmt: skip
    policy = json.dumps({"permission": {"*": "allow", "bash": "allow"}})
    engine = Engine.load(cwd=str(tmp_path), policy=policy, yolo=True, env=env)
    found = engine.check(ToolCall("bash", {"command": CODE[0][0]}, str(tmp_path)))
    assert found.action == "ask" and "<runs-code-later>" in found.reason
    found = engine.check(ToolCall("bash", {"command": BENIGN[0]}, str(tmp_path)))
    assert found.action == "allow", found.reason


# Keys that only the `-c` hazard's table named before the two tables became one
# (`intent/shell/hazards/git.git_key_runs_code`): `git config` of them now asks too.
ONE_TABLE = [
    "core.gitProxy", "sendemail.sendmailCmd", "uploadpack.packObjectsHook", "url.x.insteadOf",
    "hook.pre-commit.command", "remote.origin.uploadpack", "filter.x.process", "init.templateDir",
    "protocol.ext.allow", "man.viewer", "mergetool.x.cmd", "gpg.ssh.program",
]  # fmt: skip
# Inert keys: in the core section, but known to change only how git shows or stores text.
INERT = ["core.quotePath", "core.autocrlf", "core.abbrev", "user.name", "color.ui"]


@pytest.mark.parametrize("key", ONE_TABLE)
def test_the_protected_floor_and_the_c_hazard_read_one_table(key: str, tmp_path: Path) -> None:
    assert git_config_key(f"git config {key} x") == key
    from clearance.intent.shell import analyze

    unit = analyze(f"git -c {key}=x status", cwd=str(tmp_path), home=str(tmp_path)).units[0]
    assert unit.floor is not None
    assert unit.floor[1] == f"passes -c {key.lower()}, which makes git run a command"


@pytest.mark.parametrize("key", INERT)
def test_an_inert_key_is_not_a_code_running_one_in_either(key: str) -> None:
    from clearance.intent.shell.hazards.git import git_key_runs_code

    assert git_config_key(f"git config {key} x") is None
    assert not git_key_runs_code(key.lower())


# `core.hooksPath=/dev/null` turns hooks off: git looks for `/dev/null/pre-commit` and finds
# nothing there. Its twins point hooks at a directory, or clear the setting (git's own hooks run).
HOOKS_OFF = [
    ("git -c core.hooksPath=/tmp/h commit -m x", "git -c core.hooksPath=/dev/null commit -m x"),
    ("git -c core.hooksPath=/dev/null/.. commit -m x", "git -c core.hooksPath=/dev/null log"),
    ("git config core.hooksPath .husky", "git config core.hooksPath /dev/null"),
    ("git config --unset core.hooksPath", "git config --global core.hooksPath /dev/null"),
]


@pytest.mark.parametrize(("attack", "twin"), HOOKS_OFF)
def test_hooks_pointed_at_dev_null_run_nothing(tmp_path: Path, attack: str, twin: str) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "CLEARANCE_HOME": str(tmp_path / "s")}  # fmt: skip
    policy = json.dumps({"permission": {"*": "allow", "bash": {"*": "ask", "git *": "allow"}}})
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    engine = Engine.load(cwd=str(tmp_path), policy=policy, env=env, use_cache=False)
    found = engine.check(ToolCall("bash", {"command": attack}, str(tmp_path)))
    assert found.action == "ask", attack
    found = engine.check(ToolCall("bash", {"command": twin}, str(tmp_path)))
    assert found.action == "allow", found.reason
