"""Paths reached by shell patterns and directories meet the path rules (real filesystem)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

POLICY = {"*": "allow", "path": {"~/.ssh/*": "deny", "*.env": "deny"}}


@pytest.mark.parametrize(
    "command",
    [
        "cat ~/.ss?/id_*",
        "cat ~/.s*/id_rsa",
        "cat ~/{.ssh,x}/id_rsa",
        "cat .e?v",
        "cat .en*",
        "cat .{env,x}",
        "cp -r ~/.ssh /tmp/y",
        "tar czf /tmp/y.tgz ~/.ssh",
        "grep -r . ~/.ssh",
        "cat ~/.ssh/id_rsa",
    ],
)
def test_secrets_named_by_pattern_or_directory_are_denied(tmp_path: Path, command: str) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("k")
    project = home / "proj"
    project.mkdir()
    (project / ".env").write_text("S")
    (project / "README.md").write_text("r")
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                         env={"HOME": str(home)})  # fmt: skip
    assert engine.check(ToolCall("bash", {"command": command}, str(project))).action == "deny"
    assert engine.check(ToolCall("bash", {"command": "cat *.md"}, str(project))).action == "allow"
