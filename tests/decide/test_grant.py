"""Session grants: cover only what the policy would ask, never lift a deny, shared on disk."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.decide.grant import DiskGrants, Grant, GrantStore, list_sessions, remove_session
from clearance.intent.call import ToolCall

SRC = Path(__file__).resolve().parents[2] / "src"


def engine(policy: dict, grants: list[Grant], cwd: str = "/") -> Engine:  # type: ignore[type-arg]
    e = Engine.load(cwd=cwd, policy=json.dumps({"permission": policy}), env={"HOME": "/home/u"})
    e.grants = GrantStore(grants)
    return e


def test_a_grant_allows_what_the_policy_would_ask() -> None:
    e = engine({"bash": {"*": "ask"}}, [Grant("bash", "git *")])
    decision = e.check(ToolCall("bash", {"command": "git status"}))
    assert decision.action == "allow"
    assert decision.rule is not None and decision.rule.origin == "session"


def test_a_grant_never_lifts_a_config_deny_on_the_same_surface() -> None:
    e = engine({"bash": {"*": "ask", "git push --force*": "deny"}}, [Grant("bash", "git *")])
    assert e.check(ToolCall("bash", {"command": "git push --force"})).action == "deny"
    assert e.check(ToolCall("bash", {"command": "git push"})).action == "allow"


def test_a_grant_never_lifts_a_deny_on_another_gate(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("x")
    e = engine({"*": "ask", "path": {"*.env": "deny"}}, [Grant("read", "*")], cwd=str(tmp_path))
    decision = e.check(ToolCall("read", {"file_path": ".env"}, str(tmp_path)))
    assert decision.action == "deny" and decision.deciding is not None
    assert decision.deciding.gate == "path"


def test_a_grant_covers_only_its_own_surface_and_direction(tmp_path: Path) -> None:
    e = engine(
        {"*": "allow", "external_directory": "ask"},
        [Grant("external_directory_read", "/etc/*")],
        cwd=str(tmp_path),
    )
    assert e.check(ToolCall("read", {"file_path": "/etc/hosts"}, str(tmp_path))).action == "allow"
    assert e.check(ToolCall("write", {"file_path": "/etc/hosts"}, str(tmp_path))).action == "ask"
    assert e.check(ToolCall("read", {"file_path": "/opt/x"}, str(tmp_path))).action == "ask"


def test_a_grant_on_one_of_two_asking_gates_still_asks() -> None:
    e = engine({"*": "ask"}, [Grant("write", "/etc/*")])
    decision = e.check(ToolCall("write", {"file_path": "/etc/hosts"}, "/tmp"))
    assert decision.action == "ask"
    assert [g.gate for g in decision.gates if g.action == "ask"] == ["external_directory"]


def test_grants_on_disk_are_private_and_shared_between_processes(tmp_path: Path) -> None:
    state = str(tmp_path / "state")
    DiskGrants(state, "sess/1").add([Grant("bash", "git *")])
    path = tmp_path / "state" / "sessions" / "sess%2F1" / "grants.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert DiskGrants(state, "sess/1").grants() == (Grant("bash", "git *"),)
    assert DiskGrants(state, "other").grants() == ()


def test_concurrent_writers_never_lose_a_grant(tmp_path: Path) -> None:
    state = str(tmp_path / "state")
    script = (
        "import sys; from clearance.decide.grant import DiskGrants, Grant\n"
        "for i in range(20):\n"
        "    DiskGrants(sys.argv[1], 's').add([Grant('bash', f'cmd{sys.argv[2]}-{i} *')])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    procs = [
        subprocess.Popen([sys.executable, "-c", script, state, str(n)], env=env) for n in range(8)
    ]
    assert all(p.wait(timeout=60) == 0 for p in procs)
    assert len(DiskGrants(state, "s").grants()) == 160


def test_an_expired_session_has_no_grants(tmp_path: Path) -> None:
    state = str(tmp_path / "state")
    store = DiskGrants(state, "old")
    store.add([Grant("bash", "ls")])
    old = time.time() - 2 * 24 * 3600
    os.utime(store.path, (old, old))
    assert DiskGrants(state, "old").grants() == ()
    assert list_sessions(state)[0][3] is True
    assert remove_session(state, "old") is True
    assert list_sessions(state) == []


def test_a_corrupt_grants_file_means_no_grants(tmp_path: Path) -> None:
    store = DiskGrants(str(tmp_path), "s")
    store.add([Grant("bash", "ls")])
    Path(store.path).write_text("{not json")
    assert DiskGrants(str(tmp_path), "s").grants() == ()


@pytest.mark.parametrize("session", ["..", ".", "", "a/../b", "x\x00y"])
def test_strange_session_ids_stay_inside_the_sessions_directory(
    tmp_path: Path, session: str
) -> None:
    store = DiskGrants(str(tmp_path), session)
    assert os.path.dirname(os.path.dirname(store.path)) == str(tmp_path / "sessions")


def test_an_engine_reads_the_sessions_grants_from_disk(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": {"*": "ask"}}}')
    DiskGrants(str(world.state), "S").add([Grant("bash", "npm test*")])
    e = Engine.load(cwd=str(world.home))
    assert (
        e.check(ToolCall("bash", {"command": "npm test"}, str(world.home), session="S")).action
        == "allow"
    )
    assert (
        e.check(ToolCall("bash", {"command": "npm test"}, str(world.home), session="T")).action
        == "ask"
    )
    assert e.check(ToolCall("bash", {"command": "npm test"}, str(world.home))).action == "ask"


def test_a_grant_file_not_sealed_by_clearance_is_ignored(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json as _json

    from clearance.decide.grant import DiskGrants, Grant

    state = str(tmp_path / "state")
    store = DiskGrants(state, "s1")
    store.add([Grant("bash", "npm test *")])
    assert DiskGrants(state, "s1").grants() == (Grant("bash", "npm test *"),)
    path = tmp_path / "state" / "sessions" / "s1" / "grants.json"
    body = _json.loads(path.read_text())
    # A writer of the state directory adds a grant: the seal no longer matches.
    body["grants"].append({"surface": "bash", "pattern": "*"})
    path.write_text(_json.dumps(body))
    forged = DiskGrants(state, "s1")
    assert forged.grants() == () and forged.rejected
    # Without any seal at all, likewise.
    del body["seal"]
    path.write_text(_json.dumps(body))
    assert DiskGrants(state, "s1").grants() == ()
    # The secret is private to its user.
    secret = tmp_path / "state" / "secret"
    assert secret.stat().st_mode & 0o777 == 0o600


def test_a_command_rule_grant_covers_every_spelling_of_what_was_approved() -> None:
    from clearance.decide.bash_pattern import bash_pattern

    grant = Grant("bash", bash_pattern("rm -rf build"))
    assert grant.pattern == "rm [-r -f] build"
    for command in ("rm -rf build", "rm -fr build", "rm -r -f build", "rm --force -R build"):
        assert grant.covers("bash", (command,)), command
    for command in ("rm -rf /", "rm -rf build other", "rm -rf 'build'", "rm -rf $X", "rm -r x"):
        assert not grant.covers("bash", (command,)), command
    assert not grant.covers("read", ("rm -rf build",))
