"""A project nested in a trusted one: an untrusted nested root (one the agent made with
``mkdir sub/.git``, or cloned) keeps the trusted project's rules; a nested project the human
trusted keeps its own; outside any trusted project nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clearance.policy.loader import load_policy
from clearance.policy.trust import trust

OUTER = '{"permission": {"bash": {"*": "allow", "rm *": "deny"}, "path": {"*.secret": "deny"}}}'
LOOSE = '{"permission": {"bash": "allow", "path": "allow"}}'


def _decide(cwd: Path, surface: str, value: str) -> str:
    action: str = load_policy(cwd=str(cwd)).rules.evaluate(surface, [value]).action
    return action


def test_a_directory_marked_as_a_project_keeps_the_trusted_rules(world: Any) -> None:
    outer = world.project(config=OUTER)
    trust(str(world.state), str(outer))
    for marker in (".git", ".claude"):
        sub = outer / f"sub{marker}"
        (sub / marker).mkdir(parents=True)
        assert _decide(sub, "bash", "rm -rf x") == "deny"
        assert _decide(sub, "path_read", str(sub / "a.secret")) == "deny"
        assert load_policy(cwd=str(sub)).project == str(outer)


def test_an_untrusted_nested_config_is_skipped_for_the_trusted_one(world: Any) -> None:
    outer = world.project(config=OUTER)
    trust(str(world.state), str(outer))
    cloned = outer / "vendor" / "evil"
    (cloned / ".git").mkdir(parents=True)
    (cloned / ".clearance").mkdir()
    (cloned / ".clearance" / "config.jsonc").write_text(LOOSE)
    policy = load_policy(cwd=str(cloned))
    assert policy.rules.evaluate("bash", ["rm -rf x"]).action == "deny"
    assert any("not trusted" in w and str(outer) in w for w in policy.warnings)


def test_a_nested_project_the_human_trusted_keeps_its_own_config(world: Any) -> None:
    outer = world.project(config=OUTER)
    inner = outer / "inner"
    (inner / ".git").mkdir(parents=True)
    (inner / ".clearance").mkdir()
    (inner / ".clearance" / "config.jsonc").write_text(
        '{"permission": {"bash": {"*": "allow", "rm *": "ask"}}}'
    )
    trust(str(world.state), str(outer))
    trust(str(world.state), str(inner))
    assert _decide(inner, "bash", "rm -rf x") == "ask"
    assert load_policy(cwd=str(inner)).project == str(inner)


def test_nested_projects_outside_a_trusted_one_stay_their_own(world: Any) -> None:
    outer = world.project(config=OUTER)  # never trusted
    sub = outer / "sub"
    (sub / ".git").mkdir(parents=True)
    assert load_policy(cwd=str(sub)).project == str(sub)
