"""The engine: per-tool surfaces, MCP targets, skills, interim bash, fail closed."""

from __future__ import annotations

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall


def engine(policy: str, **kw) -> Engine:  # type: ignore[no-untyped-def]
    return Engine.load(cwd="/", policy=policy, **kw)


MCP = '{"permission": {"*": "ask", "mcp": {"*": "ask", "github:*": "allow", "github_delete*": "deny", "danger": "deny"}}}'


@pytest.mark.parametrize(
    ("tool", "data", "expected"),
    [
        ("mcp", {"server": "github", "tool": "search"}, "allow"),
        ("mcp__github__search", {"query": "x"}, "allow"),
        ("mcp", "github:search", "allow"),
        ("mcp", {"tool": "github:search"}, "allow"),
        ("mcp", {"server": "github", "tool": "delete_repo"}, "deny"),
        ("mcp__github__delete_repo", {}, "deny"),
        ("mcp__danger__anything", {}, "deny"),
        ("mcp", {"server": "slack", "tool": "post"}, "ask"),
        ("mcp", {}, "ask"),
    ],
)
def test_mcp_calls_match_every_target_spelling(tool: str, data: object, expected: str) -> None:
    assert engine(MCP).check(ToolCall(tool, data)).action == expected


def test_a_rule_under_the_hosts_own_tool_name_still_applies() -> None:
    e = engine('{"permission": {"mcp": "allow", "mcp__github__delete": "deny"}}')
    assert e.check(ToolCall("mcp__github__delete", {})).action == "deny"
    assert e.check(ToolCall("mcp__github__read", {})).action == "allow"


@pytest.mark.parametrize(
    ("data", "expected"),
    [({"skill": "pdf"}, "allow"), ({"skill": "deploy"}, "deny"), ({"name": "other"}, "ask")],
)
def test_skills_match_by_name(data: object, expected: str) -> None:
    e = engine('{"permission": {"skill": {"*": "ask", "pdf": "allow", "dep*": "deny"}}}')
    assert e.check(ToolCall("skill", data)).action == expected


@pytest.mark.parametrize(
    ("tool", "data", "expected"),
    [
        ("WebFetch", {"url": "https://docs.python.org/3/"}, "allow"),
        ("webfetch", {"url": "https://evil.example/x"}, "deny"),
        ("Task", {"subagent_type": "Explore"}, "allow"),
        ("Task", {"subagent_type": "general"}, "ask"),
        ("unknown_tool", {}, "deny"),
    ],
)
def test_other_tools_match_their_own_surface(tool: str, data: object, expected: str) -> None:
    e = engine(
        '{"permission": {"*": "deny", "webfetch": {"*": "ask", "https://docs.python.org/*": "allow",'
        ' "https://evil.example/*": "deny"}, "task": {"*": "ask", "Explore": "allow"}}}'
    )
    assert e.check(ToolCall(tool, data)).action == expected


def test_a_deny_names_the_rule_and_its_reason() -> None:
    e = engine('{"permission": {"bash": {"rm *": {"action": "deny", "reason": "use trash-cli"}}}}')
    decision = e.check(ToolCall("bash", {"command": "rm x"}))
    assert decision.action == "deny"
    assert decision.rule is not None and decision.rule.pattern == "rm *"
    assert "use trash-cli" in decision.reason and "rm *" in decision.reason


def test_an_exception_on_the_decision_path_denies_with_gate_error() -> None:
    e = engine('{"permission": {"*": "allow"}}')

    class Exploding(dict):  # type: ignore[type-arg]
        def get(self, *args: object) -> object:
            raise RuntimeError("boom")

    decision = e.check(ToolCall("bash", Exploding()))
    assert decision.action == "deny"
    assert decision.gates[0].gate == "gate_error"
    assert "boom" in decision.reason and "fails closed" in decision.reason


def test_yolo_allows_asks_but_keeps_denies() -> None:
    e = engine('{"permission": {"*": "ask", "bash": {"rm *": "deny"}}}', yolo=True)
    assert e.check(ToolCall("webfetch", {"url": "x"})).action == "allow"
    assert e.check(ToolCall("bash", {"command": "rm x"})).action == "deny"


def test_yolo_approves_synthetic_asks_in_every_host_but_not_denies() -> None:
    e = engine('{"permission": {"bash": {"*": "ask", "rm *": "deny"}}}', yolo=True)
    decision = e.check(ToolCall("bash", {"command": 'eval "$X"'}))
    assert decision.action == "allow" and decision.rule is not None
    assert decision.rule.origin == "yolo"
    assert e.check(ToolCall("bash", {"command": "sudo rm x"})).action == "deny"


def test_an_internal_fault_is_told_as_a_sentence_with_where_it_happened() -> None:
    e = engine('{"permission": {"*": "allow"}}')

    class Exploding(dict):  # type: ignore[type-arg]
        def get(self, *args: object) -> object:
            raise FileNotFoundError(2, "No such file or directory", "/gone/config.jsonc")

    reason = e.check(ToolCall("bash", Exploding())).reason
    assert "FileNotFoundError" not in reason and "Errno" not in reason, reason
    assert "an internal fault at clearance/" in reason, reason  # where: clearance's own line
    assert "/gone/config.jsonc: does not exist" in reason, reason
