"""MCP targets as the seed derives them: qualified names also match as ``server_tool``, and a
tool named without its server takes it from the configured MCP servers (issue 13, point 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.hosts.facts import AgentHostFacts
from clearance.intent.call import ToolCall
from clearance.intent.target import mcp_targets


@pytest.mark.parametrize(
    ("tool", "data", "expected"),
    [
        ("mcp", "github:search", {"github:search", "github_search", "github", "search"}),
        ("mcp", {"server": "github", "tool": "search"}, {"github:search", "github_search"}),
        ("mcp__github__search", {}, {"github:search", "github_search", "mcp__github__search"}),
        ("mcp", {"tool": "mcp__github__search"}, {"github_search", "github:search"}),
    ],
)
def test_a_server_qualified_call_is_also_matched_as_server_tool(
    tool: str, data: object, expected: set[str]
) -> None:
    assert expected <= set(mcp_targets(ToolCall(tool, data)))


def test_an_unprefixed_tool_takes_the_longest_configured_server_that_prefixes_it() -> None:
    call = ToolCall("mcp", {"tool": "github_enterprise_search_code"})
    targets = mcp_targets(call, ("github", "github_enterprise"))
    assert "github_enterprise:search_code" in targets
    assert "github_enterprise" in targets
    assert "github_enterprise_search_code" in targets
    assert "github:enterprise_search_code" not in targets


def test_a_legacy_tool_server_suffix_names_the_server() -> None:
    targets = mcp_targets(ToolCall("mcp", {"tool": "search_code_github"}), ("github",))
    assert {"github:search_code", "github", "search_code_github"} <= set(targets)


def test_without_configured_servers_an_unprefixed_tool_is_only_itself() -> None:
    assert mcp_targets(ToolCall("mcp", {"tool": "github_search_code"})) == ("github_search_code",)
    # A name that is only the server and an underscore derives nothing.
    assert mcp_targets(ToolCall("mcp", {"tool": "github_"}), ("github",)) == ("github_",)


def test_a_sanitized_server_is_matched_under_its_configured_spelling() -> None:
    targets = mcp_targets(ToolCall("mcp__danger_srv__wipe", {}), ("danger-srv",))
    assert {"danger-srv:wipe", "danger-srv_wipe", "danger-srv", "danger_srv:wipe"} <= set(targets)


def _project(root: Path) -> tuple[Path, Path]:
    home = root / "home"
    project = home / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "sub").mkdir()
    return home, project


def test_configured_servers_come_from_claude_code_and_pi_files(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"github": {}}}))
    (project / ".pi").mkdir()
    (project / ".pi" / "mcp.json").write_text(json.dumps({"mcpServers": {"linear": {}}}))
    (home / ".claude.json").write_text(
        json.dumps(
            {"mcpServers": {"slack": {}}, "projects": {str(project): {"mcpServers": {"db": {}}}}}
        )
    )
    (home / ".pi" / "agent").mkdir(parents=True)
    (home / ".pi" / "agent" / "mcp.json").write_text(json.dumps({"mcpServers": {"jira": {}}}))
    servers = AgentHostFacts().mcp_servers(str(project), str(project / "sub"), str(home))
    assert set(servers) == {"github", "linear", "slack", "db", "jira"}


def test_a_broken_or_missing_file_adds_nothing(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    (project / ".mcp.json").write_text("{ not json")
    assert AgentHostFacts().mcp_servers(str(project), str(project), str(home)) == ()


def test_the_engine_matches_an_unprefixed_tool_by_its_configured_server(tmp_path: Path) -> None:
    home, project = _project(tmp_path)
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"github": {}}}))
    policy = {"permission": {"*": "ask", "mcp": {"*": "ask", "github:*": "allow",
                                                   "github_delete*": "deny"}}}  # fmt: skip
    engine = Engine.load(cwd=str(project), policy=json.dumps(policy), env={"HOME": str(home)},
                         use_cache=False, host=AgentHostFacts())  # fmt: skip
    call = ToolCall("mcp", {"tool": "github_search_code"}, str(project))
    assert engine.check(call).action == "allow"
    call = ToolCall("mcp", {"tool": "github_delete_repo"}, str(project))
    assert engine.check(call).action == "deny"
    call = ToolCall("mcp", {"tool": "slack_post"}, str(project))
    assert engine.check(call).action == "ask"


def test_a_configured_server_whose_name_holds_a_double_underscore_is_matched() -> None:
    # found by an adversarial review: `mcp__my__srv__drop` split at its first "__" missed a
    # deny on the configured server `my__srv`
    found = set(mcp_targets(ToolCall("mcp__my__srv__drop", {}), ["my__srv", "other"]))
    assert {"my__srv:drop", "my__srv", "my:srv__drop"} <= found
    # the benign twin: a server without "__" adds nothing of its own
    plain = set(mcp_targets(ToolCall("mcp__github__search", {}), ["github", "my__srv"]))
    assert not any(t.startswith("my") for t in plain)
