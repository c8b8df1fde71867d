"""Launchers (ADR 0041): the command ``uv run``, ``npx``, ``poetry run``… run is a unit the
rules naming it decide; where only the catch-all speaks for it, the launcher's own rule does."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.decide.engine import Engine
from clearance.decide.grant import Grant, GrantStore
from clearance.intent.call import ToolCall

IND = "<indirection-bash-wrapper>"
# An allow-list that trusts its launchers, and says what it thinks of some commands.
ALLOW_LIST = {"bash": {"*": "ask", "uv run *": "allow", "poetry run *": "allow", "npx *": "allow",
                       "rm *": "deny", "git push *": "ask", "ls *": "allow"}}  # fmt: skip
# A deny-list: the launcher is allowed by the catch-all alone.
DENY_LIST = {"bash": {"*": "allow", "rm *": "deny", "pytest *": "ask", "git push *": "deny"}}


def _check(policy: dict, command: str, grants: tuple[str, ...] = ()) -> tuple[str, list[str]]:  # type: ignore[type-arg]
    engine = Engine.load(cwd="/w", policy=json.dumps({"permission": policy}), env={"HOME": "/h"})
    if grants:
        engine.grants = GrantStore([Grant("bash", g) for g in grants])
    decision = engine.check(ToolCall("bash", {"command": command}, "/w"))
    sentinels = [g.sentinel for g in decision.gates if g.sentinel]
    return decision.action, sentinels


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("uv run pytest", "allow"),  # the launcher's rule stands for its command
        ("uv run pytest -q tests", "allow"),
        ("poetry run pytest -q", "allow"),
        ("npx prettier --check .", "allow"),
        ("uv run timeout 5 pytest", "allow"),  # through a wrapper between
        ("uv run poetry run pytest", "allow"),  # and through a launcher it runs
        ("uv run ls -la", "allow"),
        ("uv run rm -rf x", "deny"),  # a rule naming the command speaks
        ("npx rm -rf x", "deny"),
        ("uv run git push origin main", "ask"),
        ("uv run pytest; pytest", "ask"),  # only what the launcher runs
        ("uvx pytest", "ask"),  # `uvx` is not `uv run`: no rule of its own
        ("uv --offline run pytest", "ask"),  # nor is this text
    ],
)
def test_an_allow_list_launcher_rule_decides_what_only_the_catch_all_names(
    command: str, expected: str
) -> None:
    assert _check(ALLOW_LIST, command)[0] == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("uv run pytest", "ask"),  # the inner command is decided fully
        ("uv run ls", "allow"),
        ("uv run rm -rf x", "deny"),
        ("poetry run git push", "deny"),
        ("bundle exec rm -rf ~", "deny"),
        ("npx -y rm -rf /", "deny"),
    ],
)
def test_a_launcher_the_catch_all_allows_leaves_its_command_to_the_rules(
    command: str, expected: str
) -> None:
    assert _check(DENY_LIST, command)[0] == expected


@pytest.mark.parametrize(
    "command",
    ["uv run --no-such-option rm x", "uv $SUB x", "uv run --directory /tmp ls", "uv run -m pytest",
     "mise exec rm x", "npm exec --"],
)  # fmt: skip
def test_a_command_that_cannot_be_proven_keeps_the_indirection_floor(command: str) -> None:
    action, sentinels = _check(ALLOW_LIST | {"bash": {"*": "allow"}}, command)
    assert action == "ask"
    assert IND in sentinels


def test_a_computed_command_asks_as_computed() -> None:
    action, sentinels = _check(ALLOW_LIST, 'uv run "$X" x')
    assert action == "ask"
    assert "<computed-bash-command>" in sentinels


def test_a_wrapper_the_launcher_runs_keeps_its_own_floor() -> None:
    action, sentinels = _check(ALLOW_LIST, "uv run sudo pytest")
    assert action == "ask"
    assert IND in sentinels


def test_the_built_in_policy_asks_for_a_launcher() -> None:
    engine = Engine.load(cwd="/w", env={"HOME": "/h"})
    for command in ("uv run pytest", "uv run ls", "npx prettier .", "poetry run pytest"):
        assert engine.check(ToolCall("bash", {"command": command}, "/w")).action == "ask"


def test_a_session_grant_for_the_launcher_covers_what_it_runs() -> None:
    granted = ("uv run pytest *",)
    assert _check({"bash": {"*": "ask"}}, "uv run pytest -q", granted)[0] == "allow"
    assert _check({"bash": {"*": "ask"}}, "uv run pytest; pytest", granted)[0] == "ask"
    # a rule naming the command is not the catch-all: the grant does not reach past it
    assert _check({"bash": {"*": "ask", "rm *": "ask"}}, "uv run rm x", ("uv run *",))[0] == "ask"


_LAUNCHED = ["uv run", "uvx", "npx", "npx -y", "poetry run", "pipenv run", "bundle exec",
             "pnpm exec", "pnpm dlx", "yarn exec", "npm exec --", "conda run -n dev",
             "mise exec --", "direnv exec .", "nix develop -c", "perf stat"]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(_LAUNCHED), st.sampled_from(["-rf", "-r -f", "--recursive --force"]))
def test_rm_is_denied_through_any_launcher_under_a_deny_list(prefix: str, options: str) -> None:
    assert _check(DENY_LIST, f"{prefix} rm {options} x")[0] == "deny"


def test_only_the_launchers_pattern_is_offered_for_what_it_runs() -> None:
    from clearance.decide.offer import suggestions

    engine = Engine.load(cwd="/w", env={"HOME": "/h"})
    decision = engine.check(ToolCall("bash", {"command": "uv run pytest -q"}, "/w"))
    assert [s.pattern for s in suggestions(decision)] == ["uv run pytest *"]
    decision = engine.check(ToolCall("bash", {"command": "timeout 5 npm test"}, "/w"))
    assert [s.pattern for s in suggestions(decision)] == ["npm test *"]
