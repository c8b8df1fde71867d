"""install, uninstall and sync of Claude Code's settings files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clearance.decide.engine import Engine
from clearance.hosts.claude_code import settings
from clearance.hosts.claude_code.hiding import hidden_tools
from clearance.hosts.claude_code.settings import (
    hook_command,
    install,
    installed_commands,
    is_our_command,
    settings_path,
    sync,
    uninstall,
)

SRC = Path(__file__).resolve().parents[2] / "src"
CMD = "/opt/clearance/bin/clearance hook claude-code"

USER_FILE = """{
  // the user's own settings
  "model": "opus",
  "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(./secrets/**)"]},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "notify.sh"}]}],
  },
}
"""


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.fixture
def file(world: Any) -> Path:
    path = Path(world.home) / "proj" / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(USER_FILE)
    return path


@pytest.mark.parametrize(
    ("scope", "suffix"),
    [
        ("user", "home/.claude/settings.json"),
        ("project", "dir/.claude/settings.json"),
        ("local", "dir/.claude/settings.local.json"),
    ],
)
def test_each_scope_names_claude_codes_own_file(scope: str, suffix: str) -> None:
    path = settings_path(scope, "/x/dir", {"HOME": "/x/home"})
    assert path == "/x/" + suffix


def test_install_keeps_every_other_setting_and_hook(file: Path) -> None:
    change = install(str(file), command=CMD, hide=[])
    data = read(file)
    assert data["model"] == "opus"
    assert data["permissions"] == {"allow": ["Bash(npm test)"], "deny": ["Read(./secrets/**)"]}
    assert data["hooks"]["Stop"] == [{"hooks": [{"type": "command", "command": "notify.sh"}]}]
    pre = data["hooks"]["PreToolUse"]
    assert pre[0]["hooks"][0]["command"] == "audit.sh"
    assert pre[1] == {
        "matcher": "*",
        "hooks": [{"type": "command", "command": CMD, "timeout": 600}],
    }
    assert data["hooks"]["PermissionRequest"][0]["hooks"][0]["command"] == CMD
    assert change.backup is not None
    assert not Path(str(file) + ".bak").exists()  # nothing beside the settings for git to show
    assert Path(change.backup).read_text() == USER_FILE
    assert "backups" in change.backup


def test_installing_twice_leaves_one_entry_and_touches_nothing(file: Path) -> None:
    install(str(file), command=CMD)
    first = file.read_bytes()
    change = install(str(file), command=CMD)
    assert not change.changed
    assert file.read_bytes() == first
    assert installed_commands(read(file)) == {"PreToolUse": [CMD], "PermissionRequest": [CMD]}


def test_installing_from_a_new_location_replaces_the_old_command(file: Path) -> None:
    install(str(file), command=CMD)
    install(str(file), command="/new/venv/bin/clearance hook claude-code")
    assert installed_commands(read(file))["PreToolUse"] == [
        "/new/venv/bin/clearance hook claude-code"
    ]


def test_uninstall_removes_only_our_hook(file: Path) -> None:
    install(str(file), command=CMD)
    uninstall(str(file))
    data = read(file)
    assert installed_commands(data) == {}
    assert data["hooks"]["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    ]
    assert "PermissionRequest" not in data["hooks"]
    assert data["model"] == "opus"


def test_install_creates_a_missing_file_and_its_directory(world: Any) -> None:
    path = Path(world.home) / "fresh" / ".claude" / "settings.local.json"
    change = install(str(path), command=CMD)
    assert change.changed and change.backup is None
    assert installed_commands(read(path))["PermissionRequest"] == [CMD]


def test_a_settings_file_that_does_not_parse_is_left_alone(file: Path) -> None:
    file.write_text('{"model": ')
    with pytest.raises(settings.SettingsError, match=r"settings\.json:1"):
        install(str(file), command=CMD)
    assert file.read_text() == '{"model": '


@pytest.mark.parametrize(
    ("command", "ours"),
    [
        (CMD, True),
        ("'/path with space/clearance' hook claude-code", True),
        ("/venv/bin/python -m clearance hook claude-code", True),
        ("clearance hook claude-code", True),
        ("audit.sh", False),
        ("other hook claude-code", False),
        ("clearance check bash ls", False),
        ("'unbalanced", False),
    ],
)
def test_our_hook_is_recognised_by_its_command(command: str, ours: bool) -> None:
    assert is_our_command(command) is ours


def test_the_hook_command_quotes_the_executable_path() -> None:
    assert hook_command(["/a b/clearance"]) == "'/a b/clearance' hook claude-code || exit 2"


def test_a_hook_process_that_dies_still_blocks_the_call(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess

    crasher = tmp_path / "clearance"
    crasher.write_text("#!/bin/sh\nkill -SEGV $$\n")
    crasher.chmod(0o755)
    command = hook_command([str(crasher)])
    assert is_our_command(command)
    done = subprocess.run(["sh", "-c", command], input=b"{}", capture_output=True, timeout=10)
    assert done.returncode == 2  # Claude Code blocks on 2; any other failure would let it through
    missing = hook_command([str(tmp_path / "gone" / "clearance")])
    assert subprocess.run(["sh", "-c", missing], capture_output=True, timeout=10).returncode == 2


def test_the_default_hook_command_is_an_absolute_path() -> None:
    assert os.path.isabs(hook_command().split()[0].strip("'"))


@pytest.mark.parametrize(
    ("permission", "hidden"),
    [
        ({"*": "ask"}, []),
        ({"*": "ask", "webfetch": "deny"}, ["WebFetch"]),
        ({"*": "ask", "WebFetch": "deny"}, ["WebFetch"]),
        ({"*": "ask", "bash": {"*": "deny", "git *": "ask"}}, []),
        ({"*": "ask", "bash": {"git *": "ask", "*": "deny"}}, ["Bash"]),
        ({"*": "ask", "edit": "deny"}, ["Edit", "MultiEdit", "NotebookEdit"]),
        ({"*": "ask", "read": {"*": "deny", "~/notes/*": "allow"}}, []),
        ({"*": "ask", "task": "deny", "skill": "deny"}, ["Agent", "Skill"]),
    ],
)
def test_tools_the_policy_denies_outright_are_hidden(
    world: Any, permission: dict[str, Any], hidden: list[str]
) -> None:
    policy = Engine.load(cwd=str(world.home), policy=json.dumps({"permission": permission})).policy
    assert hidden_tools(policy) == hidden


def test_hidden_tools_are_added_once_and_removed_only_if_we_added_them(file: Path) -> None:
    install(str(file), command=CMD, hide=["WebFetch", "Read(./secrets/**)"])
    deny = read(file)["permissions"]["deny"]
    assert deny == ["Read(./secrets/**)", "WebFetch"]
    uninstall(str(file))
    assert read(file)["permissions"]["deny"] == ["Read(./secrets/**)"]


def test_sync_refreshes_the_hidden_tools_after_a_policy_change(file: Path) -> None:
    install(str(file), command=CMD, hide=["WebFetch", "Bash"])
    change = sync(str(file), ["Bash", "WebSearch"])
    assert change.unhidden == ["WebFetch"] and change.hidden == ["WebSearch"]
    assert read(file)["permissions"]["deny"] == ["Read(./secrets/**)", "Bash", "WebSearch"]
    assert installed_commands(read(file))["PreToolUse"] == [CMD]


def test_the_install_command_writes_the_project_file_and_reports_it(world: Any) -> None:
    world.global_config('{"permission": {"*": "ask", "webfetch": "deny"}}')
    proj = world.project("p")
    proc = run_with_path(world, ON_PATH, "install", "claude-code", "--project", cwd=proj)
    assert proc.returncode == 0, proc.stderr
    assert "hidden from the model (denied outright): WebFetch" in proc.stdout
    data = read(proj / ".claude" / "settings.json")
    assert data["permissions"]["deny"][0] == "WebFetch"
    assert "Read(~/.ssh/**)" in data["permissions"]["deny"]  # the projected denies
    assert "~/.ssh/**" in data["sandbox"]["filesystem"]["denyRead"]
    [command] = installed_commands(data)["PreToolUse"]
    assert "hook claude-code" in command
    proc = world.run("uninstall", "claude-code", "--project", cwd=proj)
    assert proc.returncode == 0, proc.stderr
    assert read(proj / ".claude" / "settings.json") == {}


@pytest.mark.parametrize(
    "argv",
    [
        ["install"],
        ["install", "no-such-host"],
        ["install", "claude-code", "--user", "--project"],
        ["sync", "claude-code", "--global"],
    ],
)
def test_install_usage_errors_exit_two(world: Any, argv: list[str]) -> None:
    assert world.run(*argv).returncode == 2


def test_the_path_denies_and_protected_paths_are_projected_into_claude_codes_own_rules(
    world: Any, file: Path
) -> None:
    from clearance.hosts.claude_code.hiding import projected_denies

    data = settings.read_settings(str(file))[0]
    data["sandbox"] = {"enabled": True, "filesystem": {"denyRead": ["~/private/**"]}}
    file.write_text(json.dumps(data))
    engine = Engine.load(cwd=str(file.parent.parent))
    entries, reads, writes = projected_denies(engine.policy, engine.protected())
    assert "Read(~/.ssh/**)" in entries and "Edit(~/.claude/settings.json)" in entries
    assert "Edit(**/.claude/settings.local.json)" in entries
    sync(str(file), entries, sandbox={"denyRead": reads, "denyWrite": writes})
    after = read(file)
    assert "Read(./secrets/**)" in after["permissions"]["deny"]  # the user's own stays
    assert "Read(~/.ssh/**)" in after["permissions"]["deny"]
    filesystem = after["sandbox"]["filesystem"]
    assert filesystem["denyRead"][0] == "~/private/**" and "~/.ssh/**" in filesystem["denyRead"]
    assert "**/.clearance/**" in filesystem["denyWrite"]
    assert after["sandbox"]["enabled"] is True
    uninstall(str(file))
    final = read(file)
    assert final["permissions"]["deny"] == ["Read(./secrets/**)"]
    assert final["sandbox"]["filesystem"] == {"denyRead": ["~/private/**"]}


BIN = Path(sys.executable).parent  # where the venv's `clearance` script is
ON_PATH = f"{BIN}{os.pathsep}/usr/bin{os.pathsep}/bin"
OFF_PATH = f"/usr/bin{os.pathsep}/bin"
PAYLOAD = json.dumps({
    "session_id": "s", "transcript_path": "/dev/null", "cwd": "/tmp", "permission_mode": "default",
    "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git status"},
    "tool_use_id": "t",
})  # fmt: skip


def run_with_path(world: Any, path: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clearance", *args], capture_output=True, text=True, timeout=60,
        env={**world.env, "PYTHONPATH": str(SRC), "PATH": path}, cwd=cwd,
    )  # fmt: skip


def test_the_project_hook_runs_clearance_from_path_and_blocks_with_a_hint_without_it(
    world: Any,
) -> None:
    proj = world.project("p")
    assert (
        run_with_path(world, ON_PATH, "install", "claude-code", "--project", cwd=proj).returncode
        == 0
    )
    text = (proj / ".claude" / "settings.json").read_text()
    assert str(BIN) not in text and sys.executable not in text  # nothing of this machine
    [command] = installed_commands(read(proj / ".claude" / "settings.json"))["PreToolUse"]
    # a teammate with clearance on PATH: the hook answers
    env = {**world.env, "PATH": ON_PATH}
    here = subprocess.run(["sh", "-c", command], input=PAYLOAD, capture_output=True, text=True,
                          env=env, timeout=60)  # fmt: skip
    assert here.returncode == 0, here.stderr
    assert json.loads(here.stdout)["hookSpecificOutput"]["permissionDecision"] == "allow"
    # a teammate without it: exit 2 (Claude Code blocks the call) and stderr says how to install
    env["PATH"] = OFF_PATH
    gone = subprocess.run(["sh", "-c", command], input=PAYLOAD, capture_output=True, text=True,
                          env=env, timeout=60)  # fmt: skip
    assert gone.returncode == 2
    assert "clearance is not on PATH here" in gone.stderr and "pipx install" in gone.stderr
    # uninstall and a reinstall recognise the portable command as ours
    assert (
        run_with_path(world, ON_PATH, "install", "claude-code", "--project", cwd=proj).returncode
        == 0
    )
    assert len(installed_commands(read(proj / ".claude" / "settings.json"))["PreToolUse"]) == 1


def test_a_project_install_without_clearance_on_path_is_refused_with_local_recommended(
    world: Any,
) -> None:
    proj = world.project("p")
    proc = run_with_path(world, OFF_PATH, "install", "claude-code", "--project", cwd=proj)
    assert proc.returncode == 1
    assert "`clearance` is not on PATH here" in proc.stderr and "--local" in proc.stderr
    assert not (proj / ".claude" / "settings.json").exists()
    local = run_with_path(world, OFF_PATH, "install", "claude-code", "--local", cwd=proj)
    assert local.returncode == 0, local.stderr


def test_sync_says_updated_or_in_sync_truthfully_and_leaves_no_bak(world: Any) -> None:
    proj = world.project("p")
    assert world.run("install", "claude-code", "--local", cwd=proj).returncode == 0
    proc = world.run("sync", "claude-code", "--local", cwd=proj)
    assert proc.stdout.endswith("in sync with the policy, nothing to change\n"), proc.stdout
    world.global_config('{"permission": {"*": "ask", "webfetch": "deny"}}')
    proc = world.run("sync", "claude-code", "--local", cwd=proj)
    assert "updated: the hidden tools now match the policy" in proc.stdout
    assert "WebFetch" in proc.stdout
    assert world.run("sync", "claude-code", "--local", cwd=proj).stdout.endswith(
        "nothing to change\n"
    )
    assert not list((proj / ".claude").glob("*.bak"))
