"""Case-insensitive volumes (macOS by default, Windows drives, FAT): ``.GIT/hooks/pre-commit``
is ``.git/hooks/pre-commit`` there, so it meets the same protected and deny rules. The volume's
property is injected (:class:`FixedVolumes`) so this runs on Linux; on a case-sensitive volume
(the real probe, here) the same spellings are other files and follow the policy."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.volume import FixedVolumes, Volumes, probe

PERMISSIVE = {"permission": {"*": "allow", "bash": "allow", "external_directory": "allow"}}


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    proj = home / "proj"
    for d in (proj / ".git" / "hooks", proj / ".claude", proj / ".clearance", home / ".ssh"):
        d.mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("KEY\n")
    (proj / ".env").write_text("X=1\n")
    env = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "CLEARANCE_HOME": str(tmp_path / "state"),
    }
    return proj, env


def _check(
    proj: Path, env: dict[str, str], tool: str, value: object, volumes: Volumes | None, **kw: object
) -> tuple[str, str]:
    policy = kw.pop("policy", PERMISSIVE)
    engine = Engine.load(cwd=str(proj), policy=json.dumps(policy) if policy else None, env=env)
    engine.volumes = volumes
    found = engine.check(ToolCall(tool, value, str(proj), session="s1"))
    return found.action, found.reason


# (tool, input, decision where the volume folds case, sentinel or reason fragment)
FOLDED = [
    ("bash", {"command": "echo x > .GIT/hooks/pre-commit"}, "ask", "<runs-code-later>"),
    ("bash", {"command": "echo x >> .Git/Config"}, "ask", "<runs-code-later>"),
    ("write", {"file_path": ".GIT/HOOKS/post-checkout", "content": "x"}, "ask", "<runs-code-later>"),
    ("bash", {"command": "echo {} > .Claude/settings.json"}, "deny", "<protected-path>"),
    ("write", {"file_path": ".claude/Settings.Local.json", "content": "{}"}, "deny", "<protected-path>"),
    ("edit", {"file_path": ".ClearAnce/config.jsonc", "old_string": "a", "new_string": "b"},
     "deny", "<protected-path>"),
    ("bash", {"command": "echo x >> ~/.BASHRC"}, "ask", "<runs-code-later>"),
    ("bash", {"command": "echo x > .MCP.json"}, "ask", "<runs-code-later>"),
]  # fmt: skip
SECRETS = [
    ("bash", {"command": "cat ~/.SSH/id_rsa"}, "deny", "SSH keys stay private"),
    ("read", {"file_path": "~/.Ssh/ID_RSA"}, "deny", "SSH keys stay private"),
    ("bash", {"command": "cat .ENV"}, "ask", ".ENV"),
]


@pytest.mark.parametrize(("tool", "value", "action", "why"), FOLDED + SECRETS,
                         ids=[str(v)[:50] for _, v, _, _ in FOLDED + SECRETS])  # fmt: skip
def test_a_mixed_case_spelling_meets_the_same_rule_where_the_volume_folds_case(
    project: tuple[Path, dict[str, str]], tool: str, value: object, action: str, why: str
) -> None:
    proj, env = project
    policy = PERMISSIVE if (tool, value, action, why) in FOLDED else None  # secrets: built-in
    for volumes in (FixedVolumes(True), FixedVolumes(None)):  # folding, and not known: fold
        found, reason = _check(proj, env, tool, value, volumes, policy=policy)
        assert found == action, reason
        assert why in reason
    for yolo in (True,):
        engine = Engine.load(cwd=str(proj), policy=json.dumps(PERMISSIVE), env=env, yolo=yolo)
        engine.volumes = FixedVolumes(True)
        if (tool, value, action, why) in FOLDED:
            assert engine.check(ToolCall(tool, value, str(proj))).action == action


@pytest.mark.parametrize(("tool", "value", "action", "why"), FOLDED + SECRETS,
                         ids=[str(v)[:50] for _, v, _, _ in FOLDED + SECRETS])  # fmt: skip
def test_on_a_case_sensitive_volume_a_mixed_case_spelling_is_another_file(
    project: tuple[Path, dict[str, str]], tool: str, value: object, action: str, why: str
) -> None:
    """The benign twin: on ext4, `.GIT` is a directory of its own and follows the policy
    (``None`` volumes: the real probe of this machine's volume)."""
    proj, env = project
    assert probe(str(proj)) is False  # this machine's temporary directory is case-sensitive
    policy = PERMISSIVE if (tool, value, action, why) in FOLDED else None
    for volumes in (FixedVolumes(False), None):
        found, reason = _check(proj, env, tool, value, volumes, policy=policy)
        expected = "allow"
        if policy is None and "~" in str(value):
            expected = "ask"  # the built-in policy asks about a read outside the project
        assert found == expected, reason


def test_folding_never_loosens_and_leaves_plain_paths_alone(
    project: tuple[Path, dict[str, str]],
) -> None:
    proj, env = project
    policy = {"permission": {"*": "allow", "bash": "allow", "path": {"*.env": "ask",
              "*.env.example": "allow", "Secrets/*": "deny"}}}  # fmt: skip
    folding = FixedVolumes(True)
    assert (
        _check(proj, env, "read", {"file_path": "x.ENV.EXAMPLE"}, folding, policy=policy)[0]
        == "allow"
    )
    assert _check(proj, env, "read", {"file_path": "x.env"}, folding, policy=policy)[0] == "ask"
    # A pattern written with capitals meets a lower-case spelling where the volume folds.
    assert (
        _check(proj, env, "read", {"file_path": "secrets/a"}, folding, policy=policy)[0] == "deny"
    )
    assert _check(proj, env, "read", {"file_path": "secrets/a"}, FixedVolumes(False),
                  policy=policy)[0] == "allow"  # fmt: skip
    assert (
        _check(proj, env, "read", {"file_path": "src/Main.py"}, folding, policy=policy)[0]
        == "allow"
    )


def test_the_probe_reads_a_real_volume_and_remembers_per_directory(tmp_path: Path) -> None:
    (tmp_path / "Makefile").write_text("")
    volumes = Volumes()
    assert volumes.folds(str(tmp_path / "missing" / "deeper")) is False  # nearest existing dir
    assert volumes.folds(str(tmp_path)) is False
    # Two names that differ only in case, both present: a case-sensitive volume.
    (tmp_path / "makefile").write_text("")
    assert probe(str(tmp_path)) is False
    # A directory with no name to swap on its own answers through its parent (same device).
    empty = tmp_path / "empty"
    empty.mkdir()
    assert probe(str(empty)) is False
    assert volumes.folds("relative/path") is None


def test_the_probe_says_folding_where_a_swapped_name_is_the_same_file(tmp_path: Path) -> None:
    """What a folding volume looks like to the probe: the swapped spelling names the same
    inode (a hard link stands in for the volume's folding here)."""
    (tmp_path / "Name").write_text("")
    os.link(tmp_path / "Name", tmp_path / "nAME")
    assert probe(str(tmp_path)) is True


DENY_RM = {"permission": {"*": "allow", "bash": {"*": "allow", "rm *": "deny",
                                                 "git push *": "deny"}}}  # fmt: skip


@pytest.mark.parametrize("folds", [True, False])
def test_a_command_word_in_another_case_meets_the_rules_of_the_program_it_runs(
    project: tuple[Path, dict[str, str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    folds: bool,
) -> None:
    # A folding volume finds `Rm` as the file `rm`; a hard link stands in for it here, and a
    # file of its own for a case-sensitive volume, where `Rm` is another program.
    proj, env = project
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, other in (("rm", "Rm"), ("git", "gIT")):
        (bin_dir / name).write_text("#!/bin/sh\n")
        (bin_dir / name).chmod(0o755)
        if folds:
            os.link(bin_dir / name, bin_dir / other)
        else:
            (bin_dir / other).write_text("#!/bin/sh\n")
            (bin_dir / other).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    engine = Engine.load(cwd=str(proj), policy=json.dumps(DENY_RM), env=env, use_cache=False)
    for line in ("Rm -rf build", "gIT push --force", f"{bin_dir}/Rm -rf build"):
        action = engine.check(ToolCall("bash", {"command": line}, str(proj))).action
        assert action == ("deny" if folds else "allow"), line
    # a program not found runs nothing; a word in lower case is unchanged
    assert engine.check(ToolCall("bash", {"command": "Nosuch -rf x"}, str(proj))).action == "allow"
    assert engine.check(ToolCall("bash", {"command": "ls -la"}, str(proj))).action == "allow"
