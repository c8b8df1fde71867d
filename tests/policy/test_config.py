"""Validation: every mistake is an error naming file, line and column and what is allowed."""

from __future__ import annotations

import pytest

from clearance.policy.config import parse_config
from clearance.policy.errors import ConfigError


def test_a_full_config_validates_in_file_order() -> None:
    scope = parse_config(
        """{
          // comments are fine
          "permission": {
            "*": "ask",
            "read": "allow",
            "bash": {"git *": "allow", "rm -rf *": {"action": "deny", "reason": "use trash"}},
          },
          "yolo": false,
          "agents": {"reviewer": {"permission": {"edit": "deny"}}},
          "tests": [{"tool": "bash", "input": "rm -rf x", "expect": "deny"}],
        }""",
        "c.jsonc",
    )
    assert scope.permission.universal is not None
    assert scope.permission.universal[0] == "ask"
    surfaces = [s for s, _, _ in scope.permission.surfaces]
    assert surfaces == ["read", "bash"]
    bash = scope.permission.surfaces[1]
    assert [(p, a, r) for p, a, r, _ in bash[2]] == [
        ("git *", "allow", None),
        ("rm -rf *", "deny", "use trash"),
    ]
    assert scope.agents[0][0] == "reviewer"
    assert scope.tests[0].expect == "deny"
    assert scope.yolo is False


def test_a_string_surface_replaces_and_a_map_merges() -> None:
    scope = parse_config('{"permission": {"read": "allow", "bash": {"*": "ask"}}}', "c")
    assert [(s, replace) for s, replace, _ in scope.permission.surfaces] == [
        ("read", True),
        ("bash", False),
    ]


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ('{"permission": {"bash": {"x": "alow"}}}', "1:31", 'did you mean "allow"'),
        ('{"permision": {}}', "1:2", 'did you mean "permission"'),
        ('{"permission": {"path_wrote": "deny"}}', "1:17", '"path_read" or "path_write"'),
        ('{"permission": {"external_directory_reed": "deny"}}', "1:17", "directional"),
        ('{"permission": {"": "deny"}}', "1:17", "empty surface"),
        ('{"permission": {"bash": 3}}', "1:25", "not a number"),
        ('{"permission": []}', "1:16", "must be an object"),
        ('{"permission": {"bash": {"": "deny"}}}', "1:26", "empty pattern"),
        (
            '{"permission": {"bash": {"x": {"action": "deny", "why": 1}}}}',
            "1:50",
            'unknown key "why"',
        ),
        (
            '{"permission": {"bash": {"x": {"action": "deny", "reason": 42}}}}',
            "1:60",
            "must be a string",
        ),
        ('{"permission": {"bash": {"x": {"reason": "r"}}}}', "1:31", 'no "action"'),
        ('{"permission": {"*": "maybe"}}', "1:22", "universal"),
        ('{"yolo": "yes"}', "1:10", "true or false"),
        ('{"agents": {"a": {"perms": {}}}}', "1:19", 'expected "permission"'),
        ('{"tests": [{"tool": "bash", "expect": "block"}]}', "1:39", '"allow", "ask" or "deny"'),
        ('{"tests": [{"tool": "bash", "expected": "deny"}]}', "1:29", 'did you mean "expect"'),
        ('{"forwardingTimeoutMs": -1}', "1:25", "positive integer"),
        ("[1]", "1:1", "must be one JSON object"),
        (
            '{\n  "permission": {\n    "read": "allow",\n    "bash": {"git *": "alow"}\n  }\n}',
            "4:23",
            "unknown action",
        ),
    ],
)
def test_invalid_configs_point_at_the_fault(text: str, where: str, words: str) -> None:
    try:
        scope = parse_config(text, "cfg.jsonc")
    except ConfigError as caught:
        error = caught
    else:
        # A rule-local error: the file loads, the rule asks, and the error is reported.
        assert scope.errors, "the configuration should have been reported invalid"
        error = scope.errors[0]
    assert f"{error.line}:{error.column}" == where
    assert words in error.message
    rendered = str(error)
    assert rendered.startswith(f"cfg.jsonc:{where}: ")
    assert rendered.splitlines()[-1].strip() == "^"


def test_knobs_of_pi_configs_load_with_a_warning() -> None:
    scope = parse_config('{"debugLog": true, "permission": {}}', "pi.json")
    assert scope.warnings and "debugLog" in scope.warnings[0]


def test_settings_are_kept_for_later_layers() -> None:
    scope = parse_config('{"doublePressToConfirm": true, "authorizerChain": ["judge"]}', "c")
    assert dict(scope.settings) == {"doublePressToConfirm": True, "authorizerChain": ["judge"]}


def test_a_config_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_config("{", "c")


def test_a_host_spelling_of_a_tool_surface_warns_with_the_canonical_name() -> None:
    scope = parse_config('{"permission": {"Bash": "deny", "WebFetch": "deny", "bash": "ask"}}', "c")
    assert len(scope.warnings) == 2
    assert 'surface "Bash"' in scope.warnings[0] and 'write "bash"' in scope.warnings[0]
    assert 'write "webfetch"' in scope.warnings[1]


@pytest.mark.parametrize(
    "text",
    [
        '{"permission": {"bash": {"x": "alow", "rm *": "deny", "ls *": "allow"}}}',
        '{"permission": {"bash": {"": "deny", "rm *": "deny", "ls *": "allow"}}}',
        '{"permission": {"bash": {"x": {"reason": "r"}, "rm *": "deny", "ls *": "allow"}}}',
    ],
)
def test_a_rule_local_error_costs_only_its_rule(text: str) -> None:
    scope = parse_config(text, "cfg.jsonc")
    assert len(scope.errors) == 1
    (_, _, entries) = scope.permission.surfaces[0]
    actions = {pattern: action for pattern, action, _, _ in entries}
    assert actions["rm *"] == "deny" and actions["ls *"] == "allow"
    assert actions.get("x", "ask") == "ask"
