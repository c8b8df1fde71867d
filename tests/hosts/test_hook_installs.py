"""Installing the command hooks of Gemini CLI, Copilot CLI, Cursor and Qwen Code: other hooks
stay, a second install changes nothing, uninstall removes only clearance's entries, and
``sync gemini`` writes Gemini policy rules only for literal command allows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clearance.hosts.hook_files import fail_closed_command, is_ours

HOSTS = ["gemini", "copilot", "cursor", "qwen"]


def _module(host: str) -> Any:
    return __import__(f"clearance.hosts.{host}.install", fromlist=["install"])


@pytest.mark.parametrize("host", HOSTS)
def test_install_is_idempotent_keeps_other_hooks_and_uninstalls(world: Any, host: str) -> None:
    module = _module(host)
    path = Path(module.hooks_path("user", str(world.home), world.env))
    path.parent.mkdir(parents=True, exist_ok=True)
    event = module.EVENTS[0]
    container = getattr(module, "CONTAINER", "hooks")
    other = {"type": "command", "command": "/usr/bin/logger", "bash": "/usr/bin/logger"}
    path.write_text(json.dumps({"theme": "dark", container: {event: [other]}}))
    command = fail_closed_command(host, ["/opt/venv/bin/clearance"])
    first = module.install(str(path), scope="user", directory=str(world.home), command=command)
    assert first.changed
    data = json.loads(path.read_text())
    assert data["theme"] == "dark"
    assert data[container][event][0] == other
    assert module.installed_command(str(path)) == command
    before = path.read_text()
    again = module.install(str(path), scope="user", directory=str(world.home), command=command)
    assert not again.changed and path.read_text() == before
    module.uninstall(str(path))
    data = json.loads(path.read_text())
    assert data[container][event] == [other]
    assert module.installed_command(str(path)) is None


def test_the_installed_command_is_recognized_and_fails_closed() -> None:
    command = fail_closed_command("gemini", ["/opt/venv/bin/clearance"])
    assert is_ours(command, "gemini")
    assert not is_ours(command, "codex")
    assert command.endswith("exit 2; }")


def test_sync_gemini_writes_prefix_rules_only_for_literal_allows(world: Any) -> None:
    from clearance.hosts.gemini import install as gemini

    world.global_config("""{"permission": {"*": "ask", "bash": {
        "*": "ask", "git status": "allow", "cat *": "allow", "rm *": "deny",
        "echo $(*": "allow", "ls*": "allow"}}}""")
    gemini.install(gemini.hooks_path("user", str(world.home), world.env), scope="user",
                   directory=str(world.home))  # fmt: skip
    change = gemini.sync(scope="user", directory=str(world.home), env=world.env)
    text = Path(change.path).read_text()
    assert 'commandPrefix = ["git status", "cat"]' in text
    assert "rm" not in text.split("commandPrefix")[1]
    assert not gemini.sync(scope="user", directory=str(world.home), env=world.env).changed


GEMINI_ALLOWS = '{"permission": {"*": "ask", "bash": {"*": "ask", "cat *": "allow"}}}'


def test_sync_gemini_writes_its_rules_only_with_the_user_s_hook(world: Any) -> None:
    # A Gemini allow rule lets a command past Gemini CLI's own checks, in every project (it reads
    # no project's policies); only the hook decides it. Without the user's hook (none, or only a
    # project's) the rules would let commands run undecided elsewhere.
    from clearance.hosts.gemini import install as gemini
    from clearance.hosts.hook_files import HookFileError

    world.global_config(GEMINI_ALLOWS)
    project = world.home / "proj"
    project.mkdir()
    for scope in ("user", "project"):
        with pytest.raises(HookFileError, match="clearance install gemini"):
            gemini.sync(scope=scope, directory=str(project), env=world.env)
    gemini.install(gemini.hooks_path("project", str(project), world.env), scope="project",
                   directory=str(project))  # fmt: skip
    for scope in ("user", "project"):
        with pytest.raises(HookFileError, match="clearance install gemini"):
            gemini.sync(scope=scope, directory=str(project), env=world.env)
    assert not Path(gemini.policy_path(world.env)).exists()
    hooks = gemini.hooks_path("user", str(project), world.env)
    gemini.install(hooks, scope="user", directory=str(project))
    change = gemini.sync(scope="user", directory=str(project), env=world.env)
    assert change.path == gemini.policy_path(world.env)
    assert 'commandPrefix = ["cat"]' in Path(change.path).read_text()
    # A project's uninstall leaves the user's hook, and so its rules.
    gemini.uninstall(gemini.hooks_path("project", str(project), world.env), env=world.env)
    assert Path(change.path).exists()


def test_uninstall_gemini_takes_the_synced_rules_away_with_the_hook(world: Any) -> None:
    from clearance.hosts.gemini import install as gemini

    world.global_config(GEMINI_ALLOWS)
    hooks = gemini.hooks_path("user", str(world.home), world.env)
    gemini.install(hooks, scope="user", directory=str(world.home))
    rules = Path(gemini.sync(scope="user", directory=str(world.home), env=world.env).path)
    assert rules == Path(gemini.policy_path(world.env))
    mine = rules.parent / "mine.toml"
    mine.write_text('[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 10\n')
    change = gemini.uninstall(hooks, env=world.env)
    assert change.changed and not rules.exists()
    assert mine.exists()  # the user's own rules stay
    assert gemini.installed_command(hooks) is None


def test_uninstall_gemini_leaves_a_rules_file_clearance_did_not_write(world: Any) -> None:
    from clearance.hosts.gemini import install as gemini

    hooks = gemini.hooks_path("user", str(world.home), world.env)
    gemini.install(hooks, scope="user", directory=str(world.home))
    rules = Path(gemini.policy_path(world.env))
    rules.parent.mkdir(parents=True, exist_ok=True)
    rules.write_text("# my own file, by chance named clearance.toml\n")
    gemini.uninstall(hooks, env=world.env)
    assert rules.exists()


@pytest.mark.parametrize(("host", "name"), [("opencode", "clearance.js"), ("pi", "clearance.ts")])
def test_plugin_install_fills_in_clearance_and_is_idempotent(
    world: Any, host: str, name: str
) -> None:
    module = _module(host)
    path = Path(module.hooks_path("user", str(world.home), world.env))
    assert path.name == name
    words = ["/opt/venv/bin/clearance"]
    assert module.install(str(path), scope="user", directory=str(world.home), words=words).changed
    text = path.read_text()
    assert "__CLEARANCE_ARGV__" not in text and "__CLEARANCE_SERVICE__" not in text
    assert '["/opt/venv/bin/clearance"]' in text
    assert module.installed_command(str(path)) == f"/opt/venv/bin/clearance hook {host}"
    again = module.install(str(path), scope="user", directory=str(world.home), words=words)
    assert not again.changed
    assert module.uninstall(str(path)).changed
    assert not path.exists()


def test_a_plugin_file_that_is_not_clearances_is_left_alone(world: Any) -> None:
    from clearance.hosts.hook_files import HookFileError
    from clearance.hosts.opencode import install as opencode

    path = Path(opencode.hooks_path("project", str(world.home)))
    path.parent.mkdir(parents=True)
    path.write_text("export const Mine = async () => ({})\n")
    with pytest.raises(HookFileError):
        opencode.install(str(path), scope="project", directory=str(world.home))
    assert not opencode.uninstall(str(path)).changed
    assert path.exists()


@pytest.mark.parametrize("host", [*HOSTS, "opencode", "pi"])
def test_the_doctor_round_trips_and_finds_a_hook_that_cannot_answer(world: Any, host: str) -> None:
    world.global_config('{"permission": {"*": "ask", "bash": {"true": "allow"}}}')
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**world.env, "COPILOT_HOME": str(world.home / ".copilot"), "PYTHONPATH": str(src)}

    def clearance(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "clearance", *args], capture_output=True,
                              text=True, env=env, timeout=120, cwd=str(world.home))  # fmt: skip

    assert clearance("install", host).returncode == 0
    doctor = clearance("doctor", host)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "ok    fails closed" in doctor.stdout and "ok    round trip" in doctor.stdout
    # The clearance the installed hook runs is gone: the doctor's round trip finds no answer.
    path = Path(_module(host).hooks_path("user", str(world.home), env))
    program = str(Path(sys.executable).parent / "clearance")
    assert program in path.read_text()
    path.write_text(path.read_text().replace(program, "/nonexistent/clearance"))
    doctor = clearance("doctor", host)
    assert doctor.returncode == 1, doctor.stdout
    assert "FAIL  round trip" in doctor.stdout or "FAIL  fails closed" in doctor.stdout


@pytest.mark.parametrize(("host", "block"), [("opencode", "throw new Error"),
                                             ("pi", "return { block: true")])  # fmt: skip
def test_the_doctor_finds_a_plugin_edited_not_to_block(world: Any, host: str, block: str) -> None:
    # The round trip runs `clearance hook` as a process, which still answers; the plugin itself
    # no longer blocks on a deny. Only the comparison with the file install writes shows it.
    world.global_config('{"permission": {"*": "ask", "bash": {"true": "allow"}}}')
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**world.env, "PYTHONPATH": str(src)}

    def doctor() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "clearance", "doctor", host],
                              capture_output=True, text=True, env=env, timeout=120,
                              cwd=str(world.home))  # fmt: skip

    module = _module(host)
    path = Path(module.hooks_path("user", str(world.home), env))
    module.install(str(path), scope="user", directory=str(world.home))
    healthy = doctor()
    assert healthy.returncode == 0 and "ok    plugin" in healthy.stdout, healthy.stdout
    text = path.read_text()
    assert block in text
    path.write_text(text.replace(block, "return undefined; " + block, 1))
    edited = doctor()
    assert edited.returncode == 1, edited.stdout
    assert "FAIL  plugin" in edited.stdout and f"clearance install {host}" in edited.stdout
    module.install(str(path), scope="user", directory=str(world.home))
    assert doctor().returncode == 0
