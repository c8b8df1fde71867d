"""Every file ``clearance install`` writes a hook or plugin into is a protected path: an agent's
write there, by any tool, is denied through yolo and session grants; a file beside it is not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clearance.decide.engine import Engine
from clearance.decide.grant import Grant, GrantStore
from clearance.hosts.claude_code.settings import settings_path
from clearance.hosts.setup import HOSTS
from clearance.intent.call import ToolCall

PERMISSIVE = {"permission": {"*": "allow", "external_directory": "allow"}}


def _hook_files(home: Path, project: Path) -> list[str]:
    env = {"HOME": str(home)}
    found = [settings_path(s, str(project), env) for s in ("user", "project", "local")]
    for host in HOSTS:
        module: Any = __import__(f"clearance.hosts.{host}.install", fromlist=["hooks_path"])
        found += [module.hooks_path(s, str(project), env) for s in ("user", "project")]
    return found


def _engine(home: Path, project: Path, **kw: Any) -> Engine:
    env = {"HOME": str(home), "CLEARANCE_HOME": str(home / "state")}
    return Engine.load(cwd=str(project), policy=json.dumps(PERMISSIVE), env=env, **kw)


def test_every_installed_hook_file_is_denied_to_a_write(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "home" / "proj"
    project.mkdir(parents=True)
    grants = GrantStore()
    grants.add([Grant("write", "*"), Grant("path_write", "*")])
    for yolo in (None, True):
        engine = _engine(home, project, yolo=yolo)
        engine.grants = grants
        for path in _hook_files(home, project):
            for tool in ("write", "edit"):
                call = ToolCall(tool, {"file_path": path}, str(project), session="s")
                decision = engine.check(call)
                assert decision.action == "deny", (path, decision.reason)
                assert "<protected-path>" in decision.reason


@pytest.mark.parametrize(
    "name", [".github/workflows/ci.yml", ".cursor/rules/style.mdc", ".opencode/notes.md", "pi.md"]
)
def test_a_file_beside_a_hook_file_follows_the_policy(tmp_path: Path, name: str) -> None:
    home, project = tmp_path / "home", tmp_path / "home" / "proj"
    project.mkdir(parents=True)
    call = ToolCall("write", {"file_path": name}, str(project))
    assert _engine(home, project).check(call).action == "allow"
