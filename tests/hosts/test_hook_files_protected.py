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


def test_a_host_home_moved_by_its_variable_is_protected_where_it_moved(tmp_path: Path) -> None:
    """``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``, ``COPILOT_HOME`` and ``XDG_CONFIG_HOME`` move where
    ``clearance install`` writes the user's hook: the hook there is protected too."""
    from clearance.hosts.command_hook import load_engine

    home, project = tmp_path / "home", tmp_path / "home" / "proj"
    project.mkdir(parents=True)
    moved = tmp_path / "elsewhere"
    env = {
        "HOME": str(home), "CLEARANCE_HOME": str(tmp_path / "state"),
        "CLAUDE_CONFIG_DIR": str(moved / "claude"), "CODEX_HOME": str(moved / "codex"),
        "COPILOT_HOME": str(moved / "copilot"), "XDG_CONFIG_HOME": str(moved / "config"),
    }  # fmt: skip
    (tmp_path / "home" / ".config" / "clearance").mkdir(parents=True)
    paths = [settings_path("user", str(project), env)]
    for host in ("codex", "copilot", "opencode"):
        module: Any = __import__(f"clearance.hosts.{host}.install", fromlist=["hooks_path"])
        paths.append(module.hooks_path("user", str(project), env))
    assert all(p.startswith(str(moved)) for p in paths)
    engine = load_engine(str(project), None, {**env, "CLEARANCE_POLICY": ""})
    engine.policy = Engine.load(cwd=str(project), policy=json.dumps(PERMISSIVE), env=env).policy
    for path in paths:
        decision = engine.check(ToolCall("write", {"file_path": path}, str(project)))
        assert decision.action == "deny", (path, decision.reason)
    # the benign twin: a file beside them in the moved directory follows the policy
    beside = ToolCall("write", {"file_path": str(moved / "codex" / "notes.md")}, str(project))
    assert engine.check(beside).action == "allow"
