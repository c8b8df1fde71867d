"""``clearance init`` (starter and Claude Code import) and ``clearance policy`` (rules with origins)."""

from __future__ import annotations

import json
from pathlib import Path

from clearance.hosts.claude_code.permissions import translate


def test_init_writes_a_global_starter_that_validates_and_keeps_the_builtin_protections(  # type: ignore[no-untyped-def]
    world,
) -> None:
    result = world.run("init")
    assert result.returncode == 0, result.stderr
    path = world.config_home / "clearance" / "config.jsonc"
    assert str(path) in result.stdout
    text = path.read_text()
    assert text.startswith("// clearance configuration")
    validated = world.run("validate")
    assert validated.returncode == 0, validated.stdout
    assert "3 test(s) passed, 0 failed" in validated.stdout
    # the built-in allows and asks survive the global file replacing the built-in policy
    assert world.run("check", "bash", "git status").returncode == 0
    assert world.run("check", "bash", "git push --force").returncode == 3
    assert world.run("check", "read", str(world.home / ".ssh" / "id_rsa")).returncode == 4
    assert world.run("check", "bash", "rm -rf /").returncode == 4


def test_init_refuses_to_overwrite_without_force_and_keeps_the_old_one_in_the_state_dir(  # type: ignore[no-untyped-def]
    world,
) -> None:
    path = world.global_config('{"permission": {"bash": "allow"}}')
    result = world.run("init")
    assert result.returncode == 1
    assert "already exists" in result.stderr and "--force" in result.stderr
    assert path.read_text() == '{"permission": {"bash": "allow"}}'
    result = world.run("init", "--force")
    assert result.returncode == 0, result.stderr
    assert "clearance init" in path.read_text()
    backups = list((world.state / "backups").iterdir())
    assert [b.read_text() for b in backups] == ['{"permission": {"bash": "allow"}}']
    assert not list(path.parent.glob("*.bak"))


def test_init_project_writes_the_project_config_which_counts_once_trusted(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project()
    result = world.run("init", "--project", cwd=project)
    assert result.returncode == 0, result.stderr
    assert (project / ".clearance" / "config.jsonc").exists()
    assert "clearance trust" in result.stdout
    assert world.run("trust", cwd=project).returncode == 0
    assert world.run("validate", cwd=project).returncode == 0


CLAUDE = {
    "permissions": {
        "allow": ["Bash(npm run test:*)", "Read(./src/**)", "mcp__github__search_code",
                  "WebFetch(domain:docs.python.org)", "Bash(git diff:*)", "Read(/rel)"],
        "deny": ["Read(./.env)", "Bash(curl:*)", "Weird(thing"],
        "ask": ["Edit(//etc/**)", "mcp__linear"],
    }
}  # fmt: skip


def test_init_from_claude_code_imports_the_permission_lists_and_reports_the_rest(world) -> None:  # type: ignore[no-untyped-def]
    settings = world.home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps(CLAUDE))
    result = world.run("init", "--from-claude-code")
    assert result.returncode == 0, result.stderr
    assert "not imported (2)" in result.stderr
    assert "Read(/rel) (allow)" in result.stderr and "Weird(thing (deny)" in result.stderr
    assert world.run("validate").returncode == 0
    assert world.run("check", "bash", "npm run test").returncode == 0
    assert world.run("check", "bash", "curl https://x").returncode == 4
    assert world.run("check", "mcp", "github:search_code").returncode == 0
    assert world.run("check", "mcp", "linear:create").returncode == 3
    assert world.run("check", "webfetch", "https://docs.python.org/3/").returncode == 0
    assert world.run("check", "read", ".env").returncode == 4
    assert world.run("check", "bash", "git status").returncode == 0  # the starter is kept


def test_init_from_claude_code_without_settings_says_where_it_looked(world) -> None:  # type: ignore[no-untyped-def]
    result = world.run("init", "--from-claude-code")
    assert result.returncode == 1
    assert "no Claude Code settings file here" in result.stderr
    assert "Errno" not in result.stderr


def test_translation_of_claude_code_entries() -> None:
    assert translate("Bash(npm run test:*)", "allow").rules == [("bash", "npm run test *")]
    assert translate("Bash", "deny").rules == [("bash", "*")]
    assert translate("Read(./src/**)", "deny").rules == [("path_read", "src/**")]
    assert translate("Edit(//etc/x)", "allow").rules == [("edit", "/etc/x"), ("write", "/etc/x")]
    assert translate("Read(/docs/*)", "allow", "/p").rules[0] == ("read", "/p/docs/*")
    assert translate("mcp__srv", "allow").rules == [("mcp", "srv:*")]
    assert translate("WebFetch(url:x)", "allow").why


def test_policy_lists_every_rule_with_its_origin(world) -> None:  # type: ignore[no-untyped-def]
    builtin = world.run("policy")
    assert builtin.returncode == 0
    assert ["builtin:4:13", "allow", "read", '"*"'] in [
        line.split() for line in builtin.stdout.splitlines()
    ]
    world.global_config('{\n  "permission": {"bash": {"make *": "allow"}}\n}')
    project = world.project(config='{"permission": {"bash": {"npm test": "deny"}}}')
    assert world.run("trust", cwd=project).returncode == 0
    result = world.run("policy", "--cwd", str(project))
    lines = result.stdout.splitlines()
    glob = world.config_home / "clearance" / "config.jsonc"
    assert any(line.startswith(f"global {glob}:2:") and 'bash "make *"' in line for line in lines)
    assert any(line.startswith("project ") and 'bash "npm test"' in line for line in lines)
    assert not any(line.startswith("builtin:4:13") for line in lines)  # a global file replaces it
    assert "builtin:4:13" in world.run("policy", "--builtin").stdout
    data = json.loads(world.run("policy", "--json", "--cwd", str(project)).stdout)
    assert {"surface": "bash", "pattern": "npm test", "origin": "project"}.items() <= next(
        r for r in data["rules"] if r["pattern"] == "npm test"
    ).items()


def test_policy_shows_agent_rules(world, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"agents": {"reviewer": {"permission": {"edit": "deny"}}}}')
    result = world.run("policy", "--agent", "reviewer")
    assert any(
        line.startswith("agent ") and 'edit "*"' in line for line in result.stdout.splitlines()
    )
