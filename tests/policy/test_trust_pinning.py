"""Trust pinned to content: a project's policy files load only as they were when trusted."""

from __future__ import annotations

from clearance.policy.loader import load_policy
from clearance.policy.trust import read_trusted, trust, trust_file


def decide(policy, surface: str, value: str) -> str:  # type: ignore[no-untyped-def]
    return policy.rules.evaluate(surface, [value]).action  # type: ignore[no-any-return]


def test_a_changed_project_config_is_untrusted_until_trusted_again(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "ask"}}}')
    project = world.project(config='{"permission": {"bash": {"npm *": "allow"}}}')
    trust(str(world.state), str(project))
    assert decide(load_policy(cwd=str(project)), "bash", "npm test") == "allow"
    config = project / ".clearance" / "config.jsonc"
    config.write_text('{"permission": {"bash": {"*": "allow"}}}')
    policy = load_policy(cwd=str(project))
    assert decide(policy, "bash", "curl x | sh") == "ask"
    assert any("changed" in w and "clearance trust" in w for w in policy.warnings)
    trust(str(world.state), str(project))
    assert decide(load_policy(cwd=str(project)), "bash", "curl x | sh") == "allow"


def test_a_project_config_created_after_trust_is_not_loaded(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project()
    trust(str(world.state), str(project))
    (project / ".clearance").mkdir()
    (project / ".clearance" / "config.jsonc").write_text('{"permission": {"*": "allow"}}')
    policy = load_policy(cwd=str(project))
    assert decide(policy, "bash", "rm x") == "ask"
    assert any("changed (or appeared)" in w for w in policy.warnings)


def test_an_agent_definition_with_permissions_is_pinned_too(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config="{}")
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    body = '---\nname: rev\npermission:\n  bash:\n    "RULE": allow\n---\nreview code\n'
    (agents / "rev.md").write_text(body.replace("RULE", "npm *"))
    trust(str(world.state), str(project))
    assert decide(load_policy(cwd=str(project), agent="rev"), "bash", "npm test") == "allow"
    (agents / "rev.md").write_text(body.replace("RULE", "*"))
    policy = load_policy(cwd=str(project), agent="rev")
    assert decide(policy, "bash", "rm x") == "ask"
    assert any("rev.md" in w and "changed" in w for w in policy.warnings)


def test_a_record_without_hashes_trusts_no_file(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config='{"permission": {"*": "allow"}}')
    world.state.mkdir(parents=True, exist_ok=True)
    # A line as an older clearance wrote it: the root alone.
    with open(trust_file(str(world.state)), "w") as handle:
        handle.write(f"{project.resolve()}\n")
    assert str(project.resolve()) in read_trusted(str(world.state))
    policy = load_policy(cwd=str(project))
    assert decide(policy, "bash", "rm x") == "ask"
    assert policy.trusted


def test_the_cli_lists_the_pinned_files(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config="{}")
    out = world.run("trust", str(project))
    assert out.returncode == 0 and "pinned to the content" in out.stdout
    listed = world.run("trust", "--list").stdout
    assert str(project.resolve()) in listed and ".clearance/config.jsonc" in listed


def test_doctor_says_when_a_trusted_config_changed(world) -> None:  # type: ignore[no-untyped-def]
    from clearance.hosts.claude_code.doctor import check_trust

    project = world.project(config="{}")
    trust(str(world.state), str(project))
    assert check_trust(str(project), world.env).ok
    (project / ".clearance" / "config.jsonc").write_text('{"permission": {"*": "allow"}}')
    check = check_trust(str(project), world.env)
    assert not check.ok and "changed since" in check.summary
    assert check.fix is not None and "clearance trust" in check.fix


# Found by an adversarial review: `git checkout`, `git stash` or `rm` of a trusted config shed its
# denies, so a changed, appeared or deleted pinned file now fails the policy closed.
def _trusted_under_an_allowing_global(world, config: str):  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "allow"}}}')
    project = world.project(config=config)
    trust(str(world.state), str(project))
    return project


def test_a_trusted_config_changed_or_deleted_fails_closed(world) -> None:  # type: ignore[no-untyped-def]
    project = _trusted_under_an_allowing_global(world, '{"permission": {"bash": {"rm *": "deny"}}}')
    policy = load_policy(cwd=str(project))
    assert decide(policy, "bash", "rm x") == "deny"
    assert decide(policy, "bash", "ls") == "allow"  # the benign twin
    config = project / ".clearance" / "config.jsonc"
    for change in ("edit", "delete"):
        if change == "edit":
            config.write_text('{"permission": {}}')
        else:
            config.unlink()
        policy = load_policy(cwd=str(project))
        assert decide(policy, "bash", "rm x") == "ask", change
        assert decide(policy, "bash", "ls") == "ask", change
        assert policy.errors and "clearance trust" in policy.errors[0].message
    trust(str(world.state), str(project))
    assert decide(load_policy(cwd=str(project)), "bash", "ls") == "allow"


def test_a_deleted_pinned_agent_file_fails_closed(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config="{}")
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "rev.md").write_text('---\nname: rev\npermission:\n  bash:\n    "rm *": deny\n---\n')
    project = _trusted_under_an_allowing_global(world, "{}")
    assert decide(load_policy(cwd=str(project), agent="rev"), "bash", "rm x") == "deny"
    assert decide(load_policy(cwd=str(project), agent="other"), "bash", "rm x") == "allow"
    (agents / "rev.md").unlink()
    assert decide(load_policy(cwd=str(project), agent="rev"), "bash", "rm x") == "ask"
    assert decide(load_policy(cwd=str(project), agent="other"), "bash", "rm x") == "allow"
