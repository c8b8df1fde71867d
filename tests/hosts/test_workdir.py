"""A shell tool's working-directory argument (OpenCode's ``workdir``, Gemini CLI's ``dir_path``)
moves where the command's relative paths resolve, not the project: the boundary and the
configuration stay the session's, so a directory the agent chose (``/``) does not make outside
paths inside."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clearance.decide.engine import Engine
from clearance.hosts.gemini.hook import GeminiAdapter
from clearance.hosts.opencode.hook import OpenCodeAdapter


def _opencode(cwd: Path, command: str, workdir: str) -> Any:
    payload = {"tool": "bash", "cwd": str(cwd), "sessionID": "s", "ui": False,
               "args": {"command": command, "workdir": workdir}}  # fmt: skip
    return OpenCodeAdapter().read(payload, {}).call


def _gemini(cwd: Path, command: str, workdir: str) -> Any:
    payload = {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
               "cwd": str(cwd), "session_id": "s",
               "tool_input": {"command": command, "dir_path": workdir}}  # fmt: skip
    return GeminiAdapter().read(payload, {"CLEARANCE_HEADLESS": "0"}).call


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "home" / "proj"
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "src" / "a.py").write_text("x")
    return root


def _decide(project: Path, call: Any) -> str:
    env = {"HOME": str(project.parent), "CLEARANCE_HOME": str(project.parent / "state")}
    policy = json.dumps({"permission": {"bash": {"*": "allow"}, "path": {"*.py": "ask"}}})
    action: str = Engine.load(cwd=str(project), policy=policy, env=env).check(call).action
    return action


@pytest.mark.parametrize("read", [_opencode, _gemini])
def test_a_workdir_outside_the_project_does_not_make_it_inside(project: Path, read: Any) -> None:
    for workdir in ("/", "/etc"):
        assert _decide(project, read(project, "cat /etc/hostname", workdir)) == "ask"


@pytest.mark.parametrize("read", [_opencode, _gemini])
def test_relative_paths_still_resolve_in_the_workdir(project: Path, read: Any) -> None:
    call = read(project, "cat a.py", "src")  # src/a.py, which the policy asks about
    assert _decide(project, call) == "ask"
    assert _decide(project, read(project, "ls", "src")) == "allow"  # the benign twin
    assert _decide(project, read(project, "cat /etc/hostname", str(project))) == "ask"
