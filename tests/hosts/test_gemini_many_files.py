"""Gemini CLI's and Qwen Code's ``read_many_files``: its entries are case-blind glob patterns
joined to the workspace, so every file one may read is decided, and a pattern or a directory,
which cannot be decided by name, is refused; plain file names keep working."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from clearance.hosts.claude_code.payload import PayloadError
from clearance.hosts.gemini.hook import GEMINI_TOOLS, gemini_style_read


def _paths(cwd: Path, tool_input: dict[str, Any]) -> list[str]:
    payload = {"hook_event_name": "BeforeTool", "tool_name": "read_many_files",
               "cwd": str(cwd), "session_id": "s", "tool_input": tool_input}  # fmt: skip
    call, _ = gemini_style_read(payload, "BeforeTool", GEMINI_TOOLS)
    assert call.kind == "read"
    paths = call.input["file_path"]
    assert isinstance(paths, list)
    return paths


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x")
    (tmp_path / "README.md").write_text("x")
    (tmp_path / ".env").write_text("K=1")
    return tmp_path


@pytest.mark.parametrize(
    "tool_input",
    [
        {"include": ["**/.env"]},
        {"include": ["*.e*"]},
        {"include": ["[.]env"]},
        {"paths": ["."]},  # an older version reads a directory whole
        {"paths": ["src"]},
        {"paths": ["README.md"], "include": ["*.env"]},
    ],
)
def test_a_pattern_or_a_directory_is_refused(project: Path, tool_input: dict[str, Any]) -> None:
    with pytest.raises(PayloadError):
        _paths(project, tool_input)


def test_a_case_variant_reads_the_file_it_matches(project: Path) -> None:
    (project / ".ENV").write_text("")  # a file the agent may make, beside the real one
    assert str(project / ".env") in _paths(project, {"include": [".ENV"]})
    assert str(project / ".env") in _paths(project, {"include": [".Env"]})  # no such file


def test_an_absolute_entry_is_read_beneath_the_workspace_too(project: Path) -> None:
    assert str(project / ".env") in _paths(project, {"include": ["/.env"]})


def test_plain_file_names_are_read_as_themselves(project: Path) -> None:
    found = _paths(project, {"include": ["README.md", "src/a.py"]})
    assert found == [str(project / "README.md"), str(project / "src" / "a.py")]
    assert _paths(project, {"paths": ["README.md"]}) == [str(project / "README.md")]
