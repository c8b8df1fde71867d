"""Layering: merge order, directional sugar, yolo and the fail-closed clamp."""

from __future__ import annotations

from clearance.policy.config import parse_config
from clearance.policy.layering import clamp_allows, merge, rewrite_yolo


def pmap(text: str):  # type: ignore[no-untyped-def]
    return parse_config(text, "t").permission


def rules_of(*scopes: tuple[str, str]) -> list[tuple[str, str, str, str]]:
    merged = merge([(origin, pmap(text)) for origin, text in scopes])
    return [(s, p, a, o) for s, p, a, o, _, _ in merged]


def test_a_redefined_pattern_keeps_its_position_and_takes_the_later_action() -> None:
    out = rules_of(
        ("global", '{"permission": {"skill": {"*": "ask"}}}'),
        ("agent", '{"permission": {"skill": {"pi-*": "allow", "*": "deny"}}}'),
    )
    assert out == [("skill", "*", "deny", "agent"), ("skill", "pi-*", "allow", "agent")]


def test_a_string_surface_in_a_later_scope_replaces_the_whole_surface() -> None:
    out = rules_of(
        ("global", '{"permission": {"bash": {"*": "ask", "git *": "allow"}}}'),
        ("project", '{"permission": {"bash": "deny"}}'),
    )
    assert out == [("bash", "*", "deny", "project")]


def test_bare_path_expands_into_both_directions_before_explicit_entries() -> None:
    out = rules_of(
        ("global", '{"permission": {"path_read": {"*.md": "allow"}, "path": {"*.env": "deny"}}}')
    )
    assert out == [
        ("path_read", "*.env", "deny", "global"),
        ("path_read", "*.md", "allow", "global"),
        ("path_write", "*.env", "deny", "global"),
    ]


def test_the_universal_rule_comes_first_whatever_the_scope() -> None:
    out = rules_of(
        ("global", '{"permission": {"read": "allow"}}'),
        ("project", '{"permission": {"*": "deny"}}'),
    )
    assert out[0] == ("*", "*", "deny", "project")


def test_yolo_turns_asks_into_allows_and_keeps_denies() -> None:
    merged = merge([("global", pmap('{"permission": {"*": "ask", "bash": {"rm *": "deny"}}}'))])
    assert [(r[2], r[3]) for r in rewrite_yolo(merged)] == [("allow", "yolo"), ("deny", "global")]


def test_the_clamp_turns_allows_into_asks_and_keeps_denies() -> None:
    merged = merge(
        [("global", pmap('{"permission": {"read": "allow", "bash": {"rm *": "deny"}}}'))]
    )
    assert [(r[2], r[3]) for r in clamp_allows(merged)] == [
        ("ask", "fail_closed"),
        ("deny", "global"),
    ]
