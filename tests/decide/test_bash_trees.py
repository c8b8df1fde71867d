"""Whole trees written at once meet the protected paths beneath them (ADR 0045): a directory
removed, moved away or replaced, a tree copied, synced, linked or extracted into a directory.

Each attack is run in real bash in a scratch copy of the project, to show that it does change
a protected file, and its benign twin that it changes none; then both are checked."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

POLICY = {
    "*": "allow",
    "bash": {"*": "ask", "echo *": "allow", "rm": "allow", "rm *": "allow", "mv *": "allow", "cp *": "allow",
             "rsync *": "allow", "tar *": "allow", "ln *": "allow", "unzip *": "allow",
             "7z *": "allow", "cpio *": "allow"},
    "external_directory": "ask",
}  # fmt: skip
PROTECTED = (".claude/settings.json", ".git/hooks/pre-commit", ".clearance/policy.jsonc")
# What an attack changes: every entry beneath these, and the hosts' settings files.
WATCHED = (".git/hooks", ".clearance")
SETTINGS = (".claude/settings.json", ".gemini/settings.json")

# (attack, the action it gets under POLICY, benign twin)
TREES = [
    ("rm -rf .claude", "deny", "rm -rf build node_modules .next"),
    ("rm -r -- .claude/", "deny", "rm -r -- build/"),
    ("rm --recursive .clearance", "deny", "rm --recursive build"),
    ("rm --r .claude", "deny", "rm --r build"),  # getopt takes any unique prefix
    ("rm --re -f .claude", "deny", "rm --re -f build"),
    ("rm -rf .git/hooks", "ask", "rm -rf build"),
    ("rm -rf .git", "ask", "rm -rf node_modules"),
    ("mv .claude old", "deny", "mv build build.old"),
    ("mv .clearance gone", "deny", "mv build build.old"),
    ("mv .git/hooks old", "ask", "mv build build.old"),
    ("rm -rf .claude && mv evil .claude", "deny", "rm -rf build && mv src build"),
    ("cp -r evil/. .claude/", "deny", "cp -r src dist"),
    ("cp -r evil/.claude .", "deny", "cp -r src dist"),
    ("cp -a hooks/. .git/hooks/", "ask", "cp notes.md .claude/"),
    ("cp -rT evil .clearance", "deny", "cp -rT src dist"),
    ("rsync -a evil/ .claude/", "deny", "rsync -a src/ out/"),
    ("rsync -a --delete src/ .claude/", "deny", "rsync -a --delete src/ out/"),
    ("rsync -a hooks/ .git/hooks/", "ask", "rsync -a src/ out/"),
    ("ln -sfn evil .gemini", "deny", "ln -sfn src current"),
    ("tar -xf evil.tar -C .claude", "deny", "tar -xf vendor.tar -C vendor/"),
    ("tar xf root.tar", "deny", "tar xf vendor.tar"),
    ("tar -xzf hooks.tgz -C .git/hooks", "ask", "tar -xzf vendor.tgz -C vendor"),
    ("unzip -o evil.zip -d .claude", "deny", "unzip -o vendor.zip -d vendor"),
    ("unzip -o root.zip", "deny", "unzip -l root.zip"),
]


def _project(root: Path) -> Path:
    project = root / "proj"
    for directory in ("src", "build/x", "node_modules/p", ".next", ".claude", ".git/hooks",
                      ".clearance", "evil/.claude", "vendor", "hooks"):  # fmt: skip
        (project / directory).mkdir(parents=True)
    for name in (*PROTECTED, "src/a.py", "build/x/o", "notes.md"):
        (project / name).write_text("mine")
    (project / "evil" / "settings.json").write_text("theirs")
    (project / "evil" / "pre-commit").write_text("theirs")
    (project / "hooks" / "pre-commit").write_text("theirs")
    (project / "evil" / ".claude" / "settings.json").write_text("theirs")
    archives = {"evil": ("settings.json",), "root": (".claude/settings.json",),
                "hooks": ("pre-commit",), "vendor": ("lib/a.py",)}  # fmt: skip
    for stem, members in archives.items():
        for suffix, mode in ((".tar", "w"), (".tgz", "w:gz")):
            with tarfile.open(project / f"{stem}{suffix}", mode) as archive:  # type: ignore[call-overload]
                for member in members:
                    archive.add(project / "evil" / "pre-commit", arcname=member)
        with zipfile.ZipFile(project / f"{stem}.zip", "w") as archive:
            for member in members:
                archive.write(project / "evil" / "pre-commit", member)
    return project


def _state(project: Path) -> list[tuple[str, str]]:
    """Every entry beneath the watched directories (through links), and the settings files,
    with their content."""
    out = []
    for name in SETTINGS:
        path = project / name
        out.append((name, hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""))
    for name in WATCHED:
        for top, _, files in os.walk(project / name, followlinks=True):
            out.append((top, "dir"))
            for file in files:
                data = Path(top, file).read_bytes()
                out.append((f"{top}/{file}", hashlib.sha256(data).hexdigest()))
    return sorted(out)


@pytest.fixture(scope="module")
def tree_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, Engine, Path]:
    root = tmp_path_factory.mktemp("trees")
    home = root / "home"
    home.mkdir()
    project = _project(root)
    env = {"HOME": str(home)}
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}), env=env,
                         use_cache=False)  # fmt: skip
    builtin = Engine.load(cwd=str(project), env=env, use_cache=False)
    return engine, builtin, project


def _changes(project: Path, line: str, scratch: Path) -> bool:
    """Whether ``line``, run by bash in a copy of ``project``, changes a protected file."""
    copy = scratch / "run"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(project, copy, symlinks=True)
    before = _state(copy)
    subprocess.run(["bash", "-c", line], cwd=copy, capture_output=True, timeout=30, check=False)
    return _state(copy) != before


@pytest.mark.parametrize(("attack", "action", "twin"), TREES, ids=[a for a, _, _ in TREES])
def test_a_tree_written_at_once_meets_the_protected_files_beneath_it(
    tree_project: tuple[Engine, Engine, Path], tmp_path: Path, attack: str, action: str, twin: str
) -> None:
    engine, builtin, project = tree_project
    if shutil.which("rsync") is not None or "rsync" not in attack:
        assert _changes(project, attack, tmp_path), "the attack changes no protected file"
        assert not _changes(project, twin, tmp_path), "the twin changes a protected file"
    decision = engine.check(ToolCall("bash", {"command": attack}, str(project)))
    assert decision.action == action, decision.reason
    assert builtin.check(ToolCall("bash", {"command": attack}, str(project))).action != "allow"
    decision = engine.check(ToolCall("bash", {"command": twin}, str(project)))
    assert decision.action == "allow", decision.reason


# Names clearance cannot know ask, with a sentinel neither yolo nor a grant lifts.
UNLISTED = [
    "tar -xf vendor.tar -C vendor -C .claude",
    "tar -xf vendor.tar --strip-components=1",
    "tar -xf - < vendor.tar",
    "cp vendor.tar x.tar && tar -xf x.tar",
    "echo x > src/y && cp -r src/. vendor/",
    "echo x > new.tar; tar -xf new.tar",
    "7z x a.7z",
    "cpio -idm < a.cpio",
]


@pytest.mark.parametrize("line", UNLISTED)
def test_names_not_known_ask_with_a_named_sentinel(
    tree_project: tuple[Engine, Engine, Path], line: str
) -> None:
    engine, _, project = tree_project
    decision = engine.check(ToolCall("bash", {"command": line}, str(project)))
    assert decision.action == "ask", decision.reason
    assert "<unlisted-written-names>" in decision.reason


def test_an_archive_holding_a_link_is_not_listed(tree_project: tuple[Engine, Engine, Path],
                                                tmp_path: Path) -> None:  # fmt: skip
    engine, _, project = tree_project
    archive = tmp_path / "link.tar"
    with tarfile.open(archive, "w") as out:
        info = tarfile.TarInfo("up")
        info.type = tarfile.SYMTYPE
        info.linkname = ".claude"
        out.addfile(info)
    line = f"tar -xf {archive}"
    decision = engine.check(ToolCall("bash", {"command": line}, str(project)))
    assert decision.action == "ask"
    assert "<unlisted-written-names>" in decision.reason


def test_a_link_removed_takes_only_the_names_beneath_its_own_path(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "shared").mkdir()
    (project / "shared" / "settings.json").write_text("{}")
    (project / ".claude").symlink_to("shared")  # the host reads .claude/settings.json here
    (project / "src" / "pkg" / ".claude").mkdir(parents=True)
    (project / "src" / "pkg" / ".claude" / "settings.json").write_text("{}")
    (project / "current").symlink_to("src")  # a link whose target holds one deeper down
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                         env={"HOME": str(home)}, use_cache=False)  # fmt: skip
    for line, action in (("rm -rf .claude", "deny"), ("mv .claude old", "deny"),
                         ("rm -rf current", "allow"), ("rm -rf current/", "deny")):  # fmt: skip
        decision = engine.check(ToolCall("bash", {"command": line}, str(project)))
        assert decision.action == action, (line, decision.reason)


def test_removing_a_tree_that_holds_a_file_that_runs_code_later_asks(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    packages = project / ".venv" / "lib" / "python3.12" / "site-packages"
    packages.mkdir(parents=True)
    (packages / "x.pth").write_text("import os")
    (project / ".next" / "cache").mkdir(parents=True)
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                         env={"HOME": str(home)}, use_cache=False)  # fmt: skip
    decision = engine.check(ToolCall("bash", {"command": "rm -rf .venv"}, str(project)))
    assert decision.action == "ask"
    assert "<runs-code-later>" in decision.reason
    decision = engine.check(ToolCall("bash", {"command": "rm -rf .next"}, str(project)))
    assert decision.action == "allow", decision.reason
