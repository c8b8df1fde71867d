""" "Always" appends an allow rule to a config file, keeping every comment, validated first."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clearance.policy.config import parse_config
from clearance.policy.loader import load_policy
from clearance.service.always import AlwaysError, add_allow_rule, edited


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("", {"bash": {"npm test*": "allow"}}),
        ('{"yolo": false /* keep */}', {"bash": {"npm test*": "allow"}}),
        ('{"permission": {}}', {"bash": {"npm test*": "allow"}}),
        ('{"permission": {"bash": "ask"}}', {"bash": {"*": "ask", "npm test*": "allow"}}),
        (
            '{\n  // mine\n  "permission": {"bash": {"*": "ask", "git *": "allow",},},\n}',
            {"bash": {"*": "ask", "git *": "allow", "npm test*": "allow"}},
        ),
    ],
)
def test_the_rule_is_appended_last_and_everything_else_is_kept(source: str, expected: dict) -> None:  # type: ignore[type-arg]
    text = edited(source, "bash", "npm test*")
    from clearance.policy.jsonc import parse

    assert parse(text).value.get("permission") == expected
    for comment in ("// mine", "/* keep */"):
        if comment in source:
            assert comment in text
    assert not parse_config(text, "t").errors


def test_a_later_rule_wins_so_the_appended_allow_decides(world) -> None:  # type: ignore[no-untyped-def]
    path = world.global_config('{"permission": {"bash": {"*": "ask", "npm *": "ask"}}}')
    add_allow_rule(str(path), "bash", "npm test*", state=str(world.state))
    policy = load_policy(cwd=str(world.home), use_cache=False)
    assert policy.rules.evaluate("bash", ("npm test --watch",)).action == "allow"
    assert policy.rules.evaluate("bash", ("npm publish",)).action == "ask"  # the benign twin


def test_the_old_file_is_backed_up_privately_and_the_mode_kept(world) -> None:  # type: ignore[no-untyped-def]
    path = world.global_config('{"permission": {}}')
    os.chmod(path, 0o640)
    backup = add_allow_rule(str(path), "read", "/srv/data/*", state=str(world.state))
    assert Path(backup).read_text() == '{"permission": {}}'
    assert Path(backup).stat().st_mode & 0o777 == 0o600
    assert Path(backup).parent == world.state / "backups"
    assert path.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("source", ['{"permission": [1]}', '{"permission": {"bash": 7}}', "{oops"])
def test_a_file_that_cannot_take_the_rule_is_left_untouched(world, source: str) -> None:  # type: ignore[no-untyped-def]
    path = world.global_config(source)
    with pytest.raises(AlwaysError) as caught:
        add_allow_rule(str(path), "bash", "npm test*", state=str(world.state))
    assert str(path) in str(caught.value)
    assert path.read_text() == source
    assert not (world.state / "backups").exists()


def test_a_pattern_is_written_as_a_json_string_whatever_it_holds(world) -> None:  # type: ignore[no-untyped-def]
    # The pattern comes from the agent's command: quotes and comment markers stay data.
    path = world.global_config("{}")
    nasty = 'echo "}, "yolo": true, "x": {" // */'
    add_allow_rule(str(path), "bash", nasty, state=str(world.state))
    data = json.loads(path.read_text())
    assert data == {"permission": {"bash": {nasty: "allow"}}}
    assert load_policy(cwd=str(world.home), use_cache=False).yolo is False
