"""Claude Code payloads: parsing, and mapping every tool to the call clearance decides."""

from __future__ import annotations

import pytest

from clearance._json import dumps
from clearance.decide.engine import Engine
from clearance.hosts.claude_code.payload import (
    MAX_PAYLOAD_BYTES,
    PayloadError,
    glob_root,
    parse_payload,
    to_call,
)
from clearance.intent.tool_paths import paths_of


def payload(tool: str, tool_input: object, **extra: object) -> bytes:
    data = {
        "session_id": "sess-1",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/work/proj",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_1",
        **extra,
    }
    return dumps(data).encode()


@pytest.mark.parametrize(
    ("tool", "tool_input", "kind"),
    [
        ("Bash", {"command": "ls", "description": "list"}, "bash"),
        ("Read", {"file_path": "/work/proj/a.py"}, "read"),
        ("Write", {"file_path": "/work/proj/a.py", "content": "x"}, "write"),
        ("Edit", {"file_path": "/work/proj/a.py", "old_string": "a", "new_string": "b"}, "edit"),
        ("MultiEdit", {"file_path": "/work/proj/a.py", "edits": []}, "edit"),
        ("NotebookEdit", {"notebook_path": "/work/proj/n.ipynb", "new_source": ""}, "edit"),
        ("Glob", {"pattern": "**/*.py"}, "find"),
        ("Grep", {"pattern": "TODO", "path": "/work/proj/src"}, "grep"),
        ("WebFetch", {"url": "https://example.com", "prompt": "x"}, "webfetch"),
        ("WebSearch", {"query": "python"}, "websearch"),
        ("Task", {"description": "d", "prompt": "p", "subagent_type": "reviewer"}, "task"),
        ("Agent", {"description": "d", "prompt": "p", "subagent_type": "reviewer"}, "task"),
        ("Skill", {"skill": "pdf"}, "skill"),
        ("mcp__github__search_code", {"q": "x"}, "mcp"),
        ("TodoWrite", {"todos": []}, "TodoWrite"),
    ],
)
def test_every_claude_code_tool_maps_to_its_canonical_kind(
    tool: str, tool_input: dict[str, object], kind: str
) -> None:
    call = to_call(parse_payload(payload(tool, tool_input)))
    assert call.tool == tool
    assert call.kind == kind
    assert call.cwd == "/work/proj"
    assert call.session == "sess-1"
    assert call.agent is None


@pytest.mark.parametrize(
    ("tool", "tool_input", "paths"),
    [
        ("Read", {"file_path": "/work/proj/.env"}, ["/work/proj/.env"]),
        ("Write", {"file_path": "/work/proj/out.txt", "content": ""}, ["/work/proj/out.txt"]),
        ("Edit", {"file_path": "/etc/hosts"}, ["/etc/hosts"]),
        ("MultiEdit", {"file_path": "/etc/hosts"}, ["/etc/hosts"]),
        ("NotebookEdit", {"notebook_path": "/work/proj/n.ipynb"}, ["/work/proj/n.ipynb"]),
        ("Grep", {"pattern": "x", "path": "/srv/data"}, ["/srv/data"]),
        ("Glob", {"pattern": "*.py", "path": "/srv/data"}, ["/srv/data", "/srv/data/*.py"]),
        ("Glob", {"pattern": "/etc/**/*.conf"}, ["/etc", "/etc/**/*.conf"]),
        (
            "Glob",
            {"pattern": "../other/**/*.py", "path": "/work/proj"},
            ["/work/proj/../other", "/work/proj/../other/**/*.py"],
        ),
        ("Glob", {"pattern": "**/*.py"}, ["**/*.py"]),
        ("Grep", {"pattern": "x", "path": "/srv", "glob": "*.py"}, ["/srv", "/srv/*.py"]),
        ("mcp__fs__read_file", {"path": "/etc/passwd"}, ["/etc/passwd"]),
    ],
)
def test_paths_are_found_where_each_tool_keeps_them(
    tool: str, tool_input: dict[str, object], paths: list[str]
) -> None:
    raw, _direction, _ = paths_of(to_call(parse_payload(payload(tool, tool_input))))
    # The spelled paths come first; a search filter's matches on this machine may follow.
    assert raw[: len(paths)] == paths


@pytest.mark.parametrize(
    ("pattern", "path", "root"),
    [
        ("*.py", None, None),
        ("**/*.py", "/a", "/a"),
        ("src/**/*.py", None, "src"),
        ("src/pkg/*.py", "/a", "/a/src/pkg"),
        ("/etc/*.conf", "/a", "/etc"),
        ("/*", None, "/"),
    ],
)
def test_a_glob_searches_its_path_joined_with_the_literal_head_of_its_pattern(
    pattern: str, path: str | None, root: str | None
) -> None:
    assert glob_root(pattern, path) == root


def test_a_subagent_payload_carries_its_agent_type_as_the_agent() -> None:
    raw = payload("Bash", {"command": "ls"}, agent_id="a-1", agent_type="reviewer")
    parsed = parse_payload(raw)
    assert parsed.agent_id == "a-1"
    assert to_call(parsed).agent == "reviewer"


def test_an_mcp_call_is_matched_under_its_server_and_tool_names(world: object) -> None:
    engine = Engine.load(
        cwd="/", policy='{"permission": {"*": "ask", "mcp": {"github:*": "deny"}}}'
    )
    decision = engine.check(to_call(parse_payload(payload("mcp__github__search_code", {}))))
    assert decision.action == "deny"


def test_a_missing_tool_input_is_an_empty_input() -> None:
    raw = dumps({"hook_event_name": "PreToolUse", "tool_name": "WebSearch", "cwd": "/"})
    assert parse_payload(raw).tool_input == {}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"not json", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[1, 2]", "JSON list, not an object"),
        (b'"text"', "JSON str, not an object"),
        (b"{}", "no hook_event_name"),
        (b'{"hook_event_name": "PreToolUse", "cwd": "/"}', "no tool_name"),
        (b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}', "no cwd"),
        (
            b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/", "tool_input": "ls"}',
            "not an object",
        ),
        (
            b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/", "session_id": 3}',
            "must be a string",
        ),
        (b'{"hook_event_name": 1}', "no hook_event_name"),
    ],
)
def test_a_malformed_payload_is_refused_with_what_is_wrong(raw: bytes, message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        parse_payload(raw)


def test_a_payload_over_the_size_limit_is_refused() -> None:
    with pytest.raises(PayloadError, match="larger than"):
        parse_payload(b" " * (MAX_PAYLOAD_BYTES + 1))


@pytest.mark.parametrize(
    ("tool", "tool_input", "why"),
    [
        ("Read", {}, "has no 'file_path'"),
        ("Read", {"file_path": 123}, "'file_path' is a int, not a string"),
        ("Read", {"file_path": ""}, "'file_path' is empty"),
        ("Write", {"content": "x"}, "has no 'file_path'"),
        ("Edit", {"file_path": ["/etc/passwd"]}, "'file_path' is a list"),
        ("MultiEdit", {"file_path": None}, "has no 'file_path'"),
        ("NotebookEdit", {"file_path": "/a.ipynb"}, "has no 'notebook_path'"),
        ("Bash", {}, "has no 'command'"),
        ("Bash", {"command": ["rm"]}, "'command' is a list, not a string"),
        ("Glob", {"pattern": "*", "path": 7}, "'path' is a int"),
        ("Grep", {"path": "/etc"}, "has no 'pattern'"),
    ],
)
def test_a_file_tool_or_bash_without_its_field_as_a_string_is_refused(
    tool: str, tool_input: dict[str, object], why: str
) -> None:
    with pytest.raises(PayloadError, match=why):
        to_call(parse_payload(payload(tool, tool_input)))
    from clearance.hosts.claude_code.payload import Payload

    with pytest.raises(PayloadError):  # also for a Payload built directly (the Agent SDK)
        to_call(Payload("PreToolUse", tool, tool_input, "/work/proj"))
