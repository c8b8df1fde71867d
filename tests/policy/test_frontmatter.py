"""Agent definition front matter: the small YAML subset a permission block needs."""

from __future__ import annotations

import pytest

from clearance.policy.frontmatter import parse_frontmatter
from clearance.policy.jsonc import JsoncError


def test_a_claude_code_agent_file_yields_its_permission_block() -> None:
    doc = parse_frontmatter(
        "---\n"
        "name: reviewer\n"
        "description: Reviews code # not a comment inside? yes it is\n"
        "tools:\n"
        "  - Read\n"
        "  - Grep\n"
        "permission:\n"
        "  read: allow\n"
        "  bash:\n"
        '    "git log *": allow\n'
        "    '*': ask   # trailing comment\n"
        "  mcp:\n"
        '    "*": allow\n'
        "    exa_web_search_exa: deny\n"
        "---\n"
        "You are a reviewer.\n"
    )
    assert doc is not None
    assert doc.value["name"] == "reviewer"
    assert doc.value["permission"] == {
        "read": "allow",
        "bash": {"git log *": "allow", "*": "ask"},
        "mcp": {"*": "allow", "exa_web_search_exa": "deny"},
    }


def test_a_file_without_front_matter_has_none() -> None:
    assert parse_frontmatter("# just markdown\n") is None


def test_an_unclosed_front_matter_is_an_error() -> None:
    with pytest.raises(JsoncError):
        parse_frontmatter("---\nname: x\n")


def test_a_list_inside_permission_is_an_error() -> None:
    with pytest.raises(JsoncError):
        parse_frontmatter("---\npermission:\n  - read\n---\n")


def test_a_duplicate_key_in_the_permission_block_is_an_error() -> None:
    with pytest.raises(JsoncError):
        parse_frontmatter(
            '---\npermission:\n  bash:\n    "ls*": deny\n  bash:\n    "x": allow\n---\n'
        )


def test_a_byte_order_mark_does_not_hide_the_front_matter() -> None:
    doc = parse_frontmatter("\ufeff---\npermission:\n  read: deny\n---\n")
    assert doc is not None and doc.value["permission"] == {"read": "deny"}
