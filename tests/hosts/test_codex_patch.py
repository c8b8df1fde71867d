"""Codex's ``apply_patch``: every file the envelope touches is decided, in every spelling of a
file header Codex itself obeys."""

from __future__ import annotations

from typing import Any

import pytest

from clearance.hosts.codex.hook import CodexAdapter


def _paths(patch: str) -> list[str]:
    payload: dict[str, Any] = {
        "hook_event_name": "PreToolUse", "tool_name": "apply_patch", "cwd": "/p",
        "session_id": "s", "tool_input": {"command": patch},
    }  # fmt: skip
    call = CodexAdapter().read(payload, {}).call
    assert call.kind == "edit"
    paths = call.input["file_path"]
    assert isinstance(paths, list)
    return paths


def _patch(*body: str) -> str:
    return "\n".join(("*** Begin Patch", *body, "*** End Patch")) + "\n"


# Codex trims a hunk header before reading it, and splits lines only at "\n".
@pytest.mark.parametrize(
    "header",
    [
        "  *** Add File: .codex/hooks.json",
        "\t*** Update File: .codex/hooks.json",
        "*** Delete File: .codex/hooks.json \r",
        "\u3000*** Add File: .codex/hooks.json",
    ],
)
def test_a_padded_file_header_is_seen(header: str) -> None:
    assert ".codex/hooks.json" in _paths(_patch("*** Add File: a.txt", "+x", header, "+{}"))


def test_a_line_separator_inside_a_path_keeps_the_path_whole() -> None:
    paths = _paths(_patch("*** Add File: x\u2028/../.codex/hooks.json", "+{}"))
    assert paths == ["x\u2028/../.codex/hooks.json"]


def test_every_file_and_the_move_target_are_seen() -> None:
    patch = _patch(
        "*** Update File: src/a.py", "*** Move to: src/b.py", "@@", "-x", "+y",
        "*** Delete File: old.txt", "*** Add File: new.txt", "+z",
    )  # fmt: skip
    assert _paths(patch) == ["src/a.py", "src/b.py", "old.txt", "new.txt"]


def test_added_content_that_looks_like_a_header_is_not_a_file_of_its_own() -> None:
    # a benign twin: an added line starts with "+", so it never reads as a header
    assert _paths(_patch("*** Add File: notes.md", "+*** Add File: x")) == ["notes.md"]


def test_opencodes_apply_patch_is_an_edit_of_every_file_it_names() -> None:
    from clearance.hosts.opencode.hook import OpenCodeAdapter

    patch = _patch("*** Add File: a.txt", "+x", "*** Add File: .opencode/plugins/clearance.js")
    for tool in ("apply_patch", "patch"):
        payload = {"tool": tool, "cwd": "/p", "sessionID": "s", "ui": False,
                   "args": {"patchText": patch}}  # fmt: skip
        call = OpenCodeAdapter().read(payload, {}).call
        assert call.kind == "edit"
        assert call.input["file_path"] == ["a.txt", ".opencode/plugins/clearance.js"]
