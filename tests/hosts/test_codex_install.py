"""``clearance install|uninstall|doctor codex``: hooks.json, the trust entry, idempotence."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

from clearance.hosts.codex import install as codex


def env_of(world: Any) -> dict[str, str]:
    return {**world.env, "CODEX_HOME": str(world.home / ".codex")}


def test_the_trust_hash_is_codexs_for_a_known_hook() -> None:
    # Codex skips an untrusted hook silently; tests/e2e/test_codex_e2e.py proves the formula
    # against the real Codex. Here: its shape and what it depends on.
    group = {"hooks": [{"type": "command", "command": "/tmp/h/dump.sh", "timeout": 30}]}
    digest = codex.trust_hash("PreToolUse", group)
    assert digest.startswith("sha256:") and len(digest) == 71
    # None-valued fields are dropped, key order does not matter, and the event is part of it.
    same = {"matcher": None, "hooks": [{"timeout": 30, "command": "/tmp/h/dump.sh",
                                        "type": "command", "async": False}]}  # fmt: skip
    assert codex.trust_hash("PreToolUse", same) == digest
    assert codex.trust_hash("PermissionRequest", group) != digest


def test_install_keeps_other_hooks_records_trust_and_is_idempotent(world: Any) -> None:
    env = env_of(world)
    path = Path(codex.hooks_path("user", str(world.home), env))
    path.parent.mkdir(parents=True)
    other = {"hooks": [{"type": "command", "command": "/usr/bin/logger", "timeout": 5}]}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [other]}}))
    config = path.parent / "config.toml"
    config.write_text('model = "o3"\n\n[projects."/x"]\ntrust_level = "trusted"\n')

    change = codex.install(str(path), scope="user", directory=str(world.home), env=env,
                           command="clearance hook codex")  # fmt: skip
    assert change.changed
    data = json.loads(path.read_text())
    assert data["hooks"]["PreToolUse"][0] == other
    assert data["hooks"]["PreToolUse"][1]["hooks"][0]["command"] == "clearance hook codex"
    state = tomllib.loads(config.read_text())
    assert state["model"] == "o3" and state["projects"]["/x"]["trust_level"] == "trusted"
    key = f"{path}:pre_tool_use:1:0"
    assert state["hooks"]["state"][key]["trusted_hash"] == codex.trust_hash(
        "PreToolUse", data["hooks"]["PreToolUse"][1]
    )
    assert codex.installed(str(path), env) == (["PermissionRequest", "PreToolUse"], [])

    before = (path.read_text(), config.read_text())
    again = codex.install(str(path), scope="user", directory=str(world.home), env=env,
                          command="clearance hook codex")  # fmt: skip
    assert not again.changed
    assert (path.read_text(), config.read_text()) == before

    codex.uninstall(str(path), env=env)
    data = json.loads(path.read_text())
    assert data["hooks"] == {"PreToolUse": [other]}
    assert "hooks" not in tomllib.loads(config.read_text()) or not tomllib.loads(
        config.read_text()
    )["hooks"].get("state")


def test_a_changed_command_is_reported_untrusted(world: Any) -> None:
    env = env_of(world)
    path = Path(codex.hooks_path("user", str(world.home), env))
    codex.install(str(path), scope="user", directory=str(world.home), env=env,
                  command="clearance hook codex")  # fmt: skip
    data = json.loads(path.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 5
    path.write_text(json.dumps(data))
    assert codex.installed(str(path), env)[1] == ["PreToolUse"]


def test_the_cli_installs_and_the_doctor_round_trips(world: Any) -> None:
    world.global_config('{"permission": {"*": "ask", "bash": {"true": "allow"}}}')
    src = Path(__file__).resolve().parents[2] / "src"
    full = {**world.env, "CODEX_HOME": str(world.home / ".codex"), "PYTHONPATH": str(src)}
    proc = subprocess.run([sys.executable, "-m", "clearance", "install", "codex"],
                          capture_output=True, text=True, env=full, timeout=60)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    doctor = subprocess.run([sys.executable, "-m", "clearance", "doctor", "codex"],
                            capture_output=True, text=True, env=full, timeout=120,
                            cwd=str(world.home))  # fmt: skip
    assert "trust: Codex trusts the hooks" in doctor.stdout, doctor.stdout + doctor.stderr
    assert "ok    fails closed" in doctor.stdout, doctor.stdout


def test_sync_forbids_only_literal_command_prefixes_the_policy_denies(world: Any) -> None:
    world.global_config("""{"permission": {"*": "ask", "bash": {
        "*": "ask", "git push --force *": {"action": "deny", "reason": "no force pushes"},
        "rm *": "deny", "cat *": "allow", "curl *|*": "deny", "echo $(*": "deny"}}}""")
    env = env_of(world)
    change = codex.sync(scope="user", directory=str(world.home), env=env)
    text = Path(change.path).read_text()
    assert 'pattern = ["git", "push", "--force"]' in text
    assert '"[clearance] no force pushes"' in text
    assert 'pattern = ["rm"]' in text
    assert '"cat"' not in text and "curl" not in text and '"echo"' not in text
    assert 'decision = "allow"' not in text
    assert not codex.sync(scope="user", directory=str(world.home), env=env).changed


def test_a_reinstall_keeps_the_old_hook_file_under_the_state_directory_not_beside_it(
    world: Any,
) -> None:
    src = Path(__file__).resolve().parents[2] / "src"
    project = world.project("proj")
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir(parents=True)
    hooks.write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}\n')
    full = {**world.env, "CODEX_HOME": str(world.home / ".codex"), "PYTHONPATH": str(src)}
    proc = subprocess.run([sys.executable, "-m", "clearance", "install", "codex", "--project"],
                          capture_output=True, text=True, env=full, timeout=60,
                          cwd=str(project))  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "PreToolUse" in hooks.read_text()
    assert not list(hooks.parent.glob("*.bak")), "nothing beside the hook file for git to show"
    kept = list((world.state / "backups").iterdir())
    assert len(kept) == 1 and '"Stop"' in kept[0].read_text(), kept
