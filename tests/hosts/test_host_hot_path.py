"""Every host's hook stays as light as Claude Code's: answering a call imports nothing heavy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
HEAVY = {"typing", "json", "dataclasses", "argparse", "pathlib", "importlib.resources",
         "subprocess", "re", "enum"}  # fmt: skip
SCRIPT = """
import sys, io
before = set(sys.modules)
sys.stdin = io.TextIOWrapper(io.BytesIO({raw!r}))
sys.stdout = io.StringIO()
from clearance.cli import main
main(["hook", {host!r}])
out = sys.stdout.getvalue()
sys.stdout = sys.__stdout__
print(",".join(sorted(set(sys.modules) - before)))
print(out.strip())
"""

PAYLOADS = {
    "codex": '{"session_id": "s", "cwd": "CWD", "hook_event_name": "PreToolUse", '
    '"tool_name": "Bash", "tool_input": {"command": "ls"}}',
    "gemini": '{"session_id": "s", "cwd": "CWD", "hook_event_name": "BeforeTool", '
    '"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}',
    "qwen": '{"session_id": "s", "cwd": "CWD", "hook_event_name": "PreToolUse", '
    '"tool_name": "run_shell_command", "tool_input": {"command": "ls"}}',
    "copilot": '{"sessionId": "s", "cwd": "CWD", "toolName": "bash", "toolArgs": {"command": "ls"}}',
    "cursor": '{"hook_event_name": "beforeShellExecution", "command": "ls", "cwd": "CWD"}',
    "opencode": '{"tool": "bash", "args": {"command": "ls"}, "cwd": "CWD"}',
    "pi": '{"tool": "bash", "args": {"command": "ls"}, "cwd": "CWD", "ui": true}',
}


@pytest.mark.parametrize("host", sorted(PAYLOADS))
def test_a_hook_answer_imports_nothing_heavy(world: Any, host: str) -> None:
    world.global_config('{"permission": {"*": "ask", "bash": {"ls": "allow"}}}')
    raw = PAYLOADS[host].replace("CWD", str(world.project())).encode()
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(raw=raw, host=host)],
        capture_output=True, text=True, timeout=60,
        env={**world.env, "PYTHONPATH": str(SRC)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    loaded_line, _, answer = result.stdout.partition("\n")
    loaded = set(loaded_line.split(","))
    assert not (loaded & HEAVY), sorted(loaded & HEAVY)
    assert "deny" not in answer, answer  # it really decided (an allow, or silence for Codex)
