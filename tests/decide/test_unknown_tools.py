"""A tool clearance does not know (another host's file or patch tool, under a name no table
maps): a path or a patch envelope among its arguments meets the path and protected-path gates,
as an MCP tool's does; a tool without one is decided by its rule alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

POLICY = {"permission": {"*": "allow", "path": {"*.env": "deny"}}}
PATCH = "*** Begin Patch\n*** Add File: notes.md\n+x\n*** Add File: {}\n+x\n*** End Patch\n"


def _check(tmp_path: Path, tool: str, value: object) -> tuple[str, str]:
    project = tmp_path / "home" / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    env = {"HOME": str(tmp_path / "home"), "CLEARANCE_HOME": str(tmp_path / "state")}
    engine = Engine.load(cwd=str(project), policy=json.dumps(POLICY), env=env)
    found = engine.check(ToolCall(tool, value, str(project)))
    return found.action, found.reason


@pytest.mark.parametrize(
    ("tool", "value", "expected"),
    [
        ("str_replace_based_edit_tool", {"path": ".claude/settings.json"}, "deny"),
        ("apply_patch", {"input": PATCH.format(".codex/hooks.json")}, "deny"),
        ("edit_files", {"changes": [{"filePath": "prod.env"}]}, "deny"),
        # an MCP server's own spelling of a path argument (case, `_`, `-` aside)
        ("mcp__fs__write", {"arguments": {"filepath": ".claude/settings.json"}}, "deny"),
        ("mcp__fs__write", {"arguments": {"Output-Path": "prod.env"}}, "deny"),
        ("mcp__fs__write", {"arguments": {"file_name": ".codex/hooks.json"}}, "deny"),
    ],
)
def test_a_path_among_an_unknown_tools_arguments_meets_the_gates(
    tmp_path: Path, tool: str, value: object, expected: str
) -> None:
    action, reason = _check(tmp_path, tool, value)
    assert action == expected, reason


@pytest.mark.parametrize(
    ("tool", "value"),
    [
        ("ExitPlanMode", {"plan": "edit src/a.py, then .env.example"}),
        ("TodoWrite", {"todos": [{"content": "fix .env loading", "status": "pending"}]}),
        ("apply_patch", {"input": PATCH.format("src/b.py")}),
        ("mcp__search__query", {"arguments": {"query": "why does prod.env not load"}}),
    ],
)
def test_benign_twins_keep_their_decision(tmp_path: Path, tool: str, value: object) -> None:
    action, reason = _check(tmp_path, tool, value)
    assert action == "allow", reason


def test_a_call_naming_more_paths_than_clearance_checks_is_denied(tmp_path: Path) -> None:
    # found by an adversarial review: a call naming a million paths outlasted the host's hook
    # timeout, which lets the call through; past the cap it is denied, not checked
    from clearance.intent.tool_paths import MAX_PATHS

    many = [f"src/f{i}.py" for i in range(MAX_PATHS + 1)]
    action, reason = _check(tmp_path, "mcp__fs__read_many", {"paths": many})
    assert action == "deny" and "split it" in reason, reason
    patch = "\n".join(f"*** Add File: f{i}\n+x" for i in range(MAX_PATHS + 1))
    assert (
        _check(tmp_path, "apply_patch", {"input": f"*** Begin Patch\n{patch}\n*** End Patch"})[0]
        == "deny"
    )
    # the benign twin: as many as the cap are checked as usual
    assert _check(tmp_path, "mcp__fs__read_many", {"paths": many[:MAX_PATHS]})[0] == "allow"
