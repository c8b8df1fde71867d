"""The hook's hot path stays light: a decision imports no heavy standard-library module.

Start-up is the product's latency (docs/decisions/0009-own-launcher.md); each of these costs milliseconds per tool call.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
HEAVY = {
    "typing",
    "json",
    "dataclasses",
    "argparse",
    "pathlib",
    "importlib.resources",
    "subprocess",
    # the broker's client and keys load only when a broker is configured (forwarding.broker)
    "redis",
    "cryptography",
}
SCRIPT = """
import sys, io, contextlib
before = set(sys.modules)
from clearance.cli import main
sys.stdout = io.StringIO()
main({argv!r})
sys.stdout = sys.__stdout__
print(",".join(sorted(set(sys.modules) - before)))
if {argv!r}[1] == "bash" and "$" in {argv!r}[2]:
    assert "tree_sitter._binding" in sys.modules  # the real parser ran
"""


@pytest.mark.parametrize(
    ("argv", "also_forbidden"),
    [
        (["check", "read", "notes.md"], {"re", "tree_sitter", "enum"}),
        (["check", "--json", "mcp", "github:search"], {"re", "tree_sitter"}),
        (["check", "bash", 'git status && rm -rf "$BUILD"'], {"re", "enum"}),
        # a literal line is read without the parser: tree-sitter is not even loaded
        (["check", "bash", "git status && rm -rf build"], {"re", "enum", "tree_sitter._binding"}),
    ],
)
def test_a_check_imports_nothing_heavy(world, argv: list[str], also_forbidden: set[str]) -> None:  # type: ignore[no-untyped-def]
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(argv=argv)],
        capture_output=True, text=True, timeout=60,
        env={**world.env, "PYTHONPATH": str(SRC)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    loaded = set(result.stdout.strip().split(","))
    assert not (loaded & (HEAVY | also_forbidden)), sorted(loaded & (HEAVY | also_forbidden))


# The command as installed: the ``clearance`` script beside this interpreter, which is what a
# host's hook runs. Its own imports count, so they are measured through it, not through -c.
LAUNCHER = Path(sys.executable).parent / "clearance"


def _imported(stderr: str) -> set[str]:
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


# What the installed hook never loads, besides HEAVY: the command table and its parser (``hook
# HOST`` goes straight to the host's module), and what only some calls need.
HOOK_FORBIDDEN = {"re", "enum", "shlex", "clearance.cli._commands", "clearance.cli._args"}


@pytest.mark.skipif(not LAUNCHER.exists(), reason="clearance is not installed beside this python")
@pytest.mark.parametrize(
    ("tool", "tool_input", "expected", "also_forbidden"),
    [
        ("Bash", {"command": "git status --short"}, "allow", set()),
        ("Bash", {"command": "git push --force"}, "ask", set()),
        # no command anywhere in a Read's log line: the command scanner and the event type of
        # a bus without consumers stay unloaded
        ("Read", {"file_path": "notes.md"}, "allow",
         {"clearance.audit.command_redaction", "clearance.audit.event", "clearance.intent.shell"}),
    ],
)  # fmt: skip
def test_the_installed_hook_imports_nothing_heavy_on_an_allow_or_an_ask(  # type: ignore[no-untyped-def]
    world, tool: str, tool_input: dict[str, str], expected: str, also_forbidden: set[str]
) -> None:
    payload = json.dumps(
        {
            "session_id": "hot-path", "transcript_path": "/dev/null", "cwd": str(world.home),
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": tool_input,
        }
    )  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-X", "importtime", str(LAUNCHER), "hook", "claude-code"],
        input=payload, capture_output=True, text=True, timeout=60, env=world.env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    decision = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"]
    assert decision == expected
    loaded = _imported(result.stderr)
    assert "clearance.hosts.claude_code.hook" in loaded  # it really ran the installed code
    forbidden = HEAVY | HOOK_FORBIDDEN | also_forbidden
    assert not (loaded & forbidden), sorted(loaded & forbidden)


HOOK_SCRIPT = """
import io, json, sys
payload = json.dumps({{"session_id": "s", "transcript_path": "/dev/null", "cwd": {cwd!r},
    "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
    "tool_input": {{"command": "git status"}}, "tool_use_id": "t"}}).encode()
sys.stdin = io.TextIOWrapper(io.BytesIO(payload))
before = set(sys.modules)
from clearance.cli import main
sys.stdout = io.StringIO()
main(["hook", "claude-code"])
sys.stdout = sys.__stdout__
print(",".join(sorted(set(sys.modules) - before)))
"""


def test_the_command_hook_never_imports_the_web_service(world) -> None:  # type: ignore[no-untyped-def]
    # clearance serve --listen (Starlette, uvicorn) is cold code: the hook's path never loads it.
    result = subprocess.run(
        [sys.executable, "-c", HOOK_SCRIPT.format(cwd=str(world.home))],
        capture_output=True, text=True, timeout=60,
        env={**world.env, "PYTHONPATH": str(SRC)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    loaded = set(result.stdout.strip().split(","))
    web = {m for m in loaded if m.split(".")[0] in ("starlette", "uvicorn", "anyio")}
    web |= {m for m in loaded if m.startswith("clearance.service")}
    assert not web, sorted(web)
    assert "clearance.hosts.claude_code.hook" in loaded  # the hook really ran
