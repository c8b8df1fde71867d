"""The gatekeeper: the whole path of a call — log lines, events, grants, yolo, fail closed."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from clearance.audit.log import ReviewLog
from clearance.authority.ask import Ask, Verdict
from clearance.decide.engine import Engine
from clearance.hosts.gatekeeper import Gatekeeper
from clearance.intent.call import ToolCall

SRC = Path(__file__).resolve().parents[2] / "src"


class Scripted:
    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.asks: list[Ask] = []

    def authorize(self, ask: Ask) -> Verdict:
        self.asks.append(ask)
        return self.verdict


def keeper(
    tmp_path: Path, policy: dict[str, Any], verdict: Verdict | None = None, **load: Any
) -> tuple[Gatekeeper, Path, Scripted]:
    engine = Engine.load(
        cwd=str(tmp_path),
        policy=json.dumps(policy),
        env={"HOME": str(tmp_path), "CLEARANCE_HOME": str(tmp_path / "state")},
        **load,
    )
    log_path = tmp_path / "state" / "logs" / "review.jsonl"
    scripted = Scripted(verdict or Verdict("deny", "no"))
    return Gatekeeper(engine, authorizer=scripted, log=ReviewLog(str(log_path))), log_path, scripted


def lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_policy_deny_is_logged_as_blocked_without_asking(tmp_path: Path) -> None:
    gk, log, scripted = keeper(tmp_path, {"permission": {"bash": {"rm *": "deny"}}})
    outcome = gk.decide(ToolCall("bash", {"command": "rm x"}, str(tmp_path), "a", "s"))
    assert (outcome.action, outcome.resolution, outcome.decided_by) == (
        "deny",
        "policy_denied",
        "rule",
    )
    assert scripted.asks == []
    [record] = lines(log)
    assert record["event"] == "permission_request.blocked"
    assert record["rule"] == {
        "surface": "bash",
        "pattern": "rm *",
        "origin": "inline",
        "source": "<inline policy>:1:26",
    }
    assert (record["tool"], record["agent"], record["session"]) == ("bash", "a", "s")
    assert record["requestId"] == outcome.request_id


def test_an_ask_is_logged_waiting_then_answered(tmp_path: Path) -> None:
    gk, log, scripted = keeper(tmp_path, {"permission": {"*": "ask"}}, Verdict("deny", "not now"))
    outcome = gk.decide(ToolCall("webfetch", {"url": "https://x"}, str(tmp_path)))
    assert outcome.action == "deny" and outcome.reason == "not now"
    assert [r["event"] for r in lines(log)] == [
        "permission_request.waiting",
        "permission_request.denied",
    ]
    assert len(scripted.asks) == 1


def test_for_this_session_records_grants_and_the_next_call_is_session_approved(
    tmp_path: Path,
) -> None:
    from clearance.decide.grant import Grant

    verdict = Verdict("allow", decided_by="user", resolution="user_approved_for_session",
                      grants=(Grant("bash", "git push *"),))  # fmt: skip
    gk, log, scripted = keeper(
        tmp_path, {"permission": {"bash": {"*": "ask", "git push --force*": "deny"}}}, verdict
    )
    first = gk.decide(ToolCall("bash", {"command": "git push origin"}, str(tmp_path), session="S"))
    second = gk.decide(
        ToolCall("bash", {"command": "git push upstream"}, str(tmp_path), session="S")
    )
    third = gk.decide(ToolCall("bash", {"command": "git push --force"}, str(tmp_path), session="S"))
    assert (first.action, second.action, third.action) == ("allow", "allow", "deny")
    assert second.resolution == "session_approved" and len(scripted.asks) == 1
    events = [r["event"] for r in lines(log)]
    assert events[-2:] == ["permission_request.session_approved", "permission_request.blocked"]
    assert lines(log)[-2]["sessionApprovalPattern"] == "git push *"


def test_yolo_auto_approves_with_its_own_event(tmp_path: Path) -> None:
    gk, log, scripted = keeper(tmp_path, {"permission": {"*": "ask"}}, yolo=True)
    outcome = gk.decide(ToolCall("webfetch", {"url": "x"}, str(tmp_path)))
    assert outcome.action == "allow" and outcome.resolution == "auto_approved"
    assert lines(log)[0]["event"] == "permission_request.auto_approved" and scripted.asks == []


def test_yolo_approves_a_synthetic_ask_too(tmp_path: Path) -> None:
    gk, log, _ = keeper(tmp_path, {"permission": {"bash": {"*": "allow"}}}, yolo=True)
    outcome = gk.decide(ToolCall("bash", {"command": 'bash -c "$CMD"'}, str(tmp_path)))
    assert outcome.action == "allow" and outcome.decided_by == "yolo"
    assert lines(log)[0]["event"] == "permission_request.auto_approved"


def test_an_exception_while_asking_denies_and_writes_gate_error(tmp_path: Path) -> None:
    class Broken:
        def authorize(self, ask: Ask) -> Verdict:
            raise RuntimeError("link exploded")

    engine = Engine.load(
        cwd=str(tmp_path), policy='{"permission": {"*": "ask"}}', env={"HOME": str(tmp_path)}
    )
    log = tmp_path / "review.jsonl"
    outcome = Gatekeeper(engine, authorizer=Broken(), log=ReviewLog(str(log))).decide(
        ToolCall("task", {}, str(tmp_path))
    )
    assert outcome.action == "deny" and outcome.resolution == "gate_error"
    assert lines(log)[-1]["event"] == "gate_error" and "link exploded" in lines(log)[-1]["reason"]


def test_notifications_get_ui_prompt_only_when_a_human_is_asked_and_every_decision(
    tmp_path: Path,
) -> None:
    sink = tmp_path / "events.jsonl"
    policy = {
        "permission": {"*": "ask", "read": "allow"},
        "notify": {
            "command": ["sh", "-c", f"cat >> {sink}; echo >> {sink}"],
            "events": ["ui_prompt", "decision"],
        },
    }
    engine = Engine.load(
        cwd=str(tmp_path),
        policy=json.dumps(policy),
        env={"HOME": str(tmp_path), "CLEARANCE_HOME": str(tmp_path / "state")},
    )
    gk = Gatekeeper.from_config(engine, tty_path="")  # no terminal: nobody is asked
    gk.decide(ToolCall("read", {"file_path": "x"}, str(tmp_path)))
    gk.decide(ToolCall("webfetch", {"url": "x"}, str(tmp_path)))
    events = [json.loads(line) for line in sink.read_text().splitlines() if line.strip()]
    assert [e["kind"] for e in events] == ["decision", "decision"]
    assert events[1]["payload"]["resolution"] == "confirmation_unavailable"


def run_in_pty(
    args: list[str], keys: str, env: dict[str, str], expect: str = "for this session"
) -> tuple[int, str]:
    """Run ``clearance`` with its dialog on a fresh pty; type ``keys`` once ``expect`` shows."""
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "clearance", *args, "--tty", os.ttyname(slave)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**env, "PYTHONPATH": str(SRC)},
    )  # fmt: skip
    screen = b""
    deadline = time.time() + 30
    while expect.encode() not in screen and time.time() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            screen += os.read(master, 65536)
    os.write(master, keys.encode())
    out, _ = proc.communicate(timeout=30)
    os.close(master)
    os.close(slave)
    return proc.returncode, out.decode()


def test_a_session_grant_made_in_the_dialog_serves_a_second_process(world) -> None:  # type: ignore[no-untyped-def]
    sink = world.root / "ev"
    world.global_config(
        '{"permission": {"bash": {"*": "ask"}}, "notify": {"events": ["ui_prompt", "decision"],'
        f' "command": ["sh", "-c", "cat >> {sink}; echo >> {sink}"]}}}}'
    )
    code, out = run_in_pty(
        ["gate", "--session", "S1", "bash", "git status --short"], "s", world.env
    )
    assert code == 0, out
    second = world.run("gate", "--session", "S1", "bash", "git status")
    assert second.returncode == 0 and "session grant" in second.stdout
    other = world.run("gate", "--session", "S2", "bash", "git status")
    assert other.returncode == 4 and "No one could approve this" in other.stdout
    events = [json.loads(x) for x in (world.root / "ev").read_text().splitlines() if x.strip()]
    kinds = [e["kind"] for e in events]
    assert kinds == ["ui_prompt", "decision", "decision", "decision"]
    log = world.run("log", "--json", "--session", "S1")
    assert [json.loads(x)["event"] for x in log.stdout.splitlines()] == [
        "permission_request.waiting", "permission_request.approved", "permission_request.session_approved",
    ]  # fmt: skip
    sessions = world.run("sessions")
    assert sessions.stdout.startswith("S1\t1 grant(s)")


def test_no_with_a_reason_goes_back_to_the_agent(world) -> None:  # type: ignore[no-untyped-def]
    code, out = run_in_pty(
        ["gate", "bash", "npm install left-pad"],
        "rUse pnpm instead\r",
        world.env,
        expect="No, with a reason",
    )
    assert code == 4
    assert "Use pnpm instead" in out


def test_reasons_in_the_log_and_events_never_carry_secrets(tmp_path: Path) -> None:
    gk, log, _ = keeper(tmp_path, {"permission": {"*": "ask"}}, Verdict("deny", "no"))
    commands = [
        "curl -H 'Authorization: Bearer abc123secret' https://x",
        "export GITHUB_TOKEN=ghp_zzzsecret",
        "env OPENAI_API_KEY=sk-aaasecret python x",
    ]
    for command in commands:
        gk.decide(ToolCall("bash", {"command": command}, str(tmp_path)))
    text = log.read_text()
    assert "secret" not in text, text
    assert "[redacted]" in text


def test_a_tampered_grant_file_is_ignored_and_written_to_the_review_log(world) -> None:  # type: ignore[no-untyped-def]
    from clearance.decide.grant import DiskGrants, Grant

    world.global_config('{"permission": {"bash": {"*": "ask"}}}')
    state = str(world.state)
    DiskGrants(state, "S1").add([Grant("bash", "git status *")])
    path = world.state / "sessions" / "S1" / "grants.json"
    body = json.loads(path.read_text())
    # A writer of the state directory widens the grant: the seal no longer matches.
    body["grants"].append({"surface": "bash", "pattern": "*"})
    path.write_text(json.dumps(body))
    # A real process of a host that runs one process per call (no human to ask).
    run = world.run("gate", "--session", "S1", "bash", "curl x | sh")
    assert run.returncode == 4, run.stdout  # nobody could approve: the forged grant is ignored
    records = [json.loads(x) for x in default_log(world).read_text().splitlines()]
    [rejected] = [r for r in records if r["event"] == "session_grants.rejected"]
    assert rejected["session"] == "S1" and rejected["file"] == str(path)
    assert "seal does not match" in rejected["why"]
    # Even the honest grant is gone with the file: the next call asks again, and is logged again.
    again = world.run("gate", "--session", "S1", "bash", "git status")
    assert again.returncode == 4
    records = [json.loads(x) for x in default_log(world).read_text().splitlines()]
    assert sum(r["event"] == "session_grants.rejected" for r in records) == 2
    # An intact file is never reported.
    DiskGrants(state, "S2").add([Grant("bash", "git status *")])
    assert world.run("gate", "--session", "S2", "bash", "git status").returncode == 0
    records = [json.loads(x) for x in default_log(world).read_text().splitlines()]
    assert not [
        r for r in records if r["event"] == "session_grants.rejected" and r["session"] == "S2"
    ]


def test_a_grant_file_without_a_seal_is_reported_once_per_engine(tmp_path: Path) -> None:
    gate, log_path, _ = keeper(tmp_path, {"permission": {"bash": {"*": "ask"}}})
    directory = tmp_path / "state" / "sessions" / "S"
    directory.mkdir(parents=True)
    (directory / "grants.json").write_text(
        json.dumps({"version": 1, "session": "S", "grants": [{"surface": "bash", "pattern": "*"}]})
    )
    for _ in range(2):
        outcome = gate.decide(ToolCall("bash", {"command": "make"}, str(tmp_path), session="S"))
        assert outcome.action == "deny"  # asked, and the scripted human said no
    events = [r["event"] for r in lines(log_path)]
    assert events.count("session_grants.rejected") == 1
    [record] = [r for r in lines(log_path) if r["event"] == "session_grants.rejected"]
    assert record["why"] == "it carries no seal"


def default_log(world) -> Path:  # type: ignore[no-untyped-def]
    return Path(world.state) / "logs" / "review.jsonl"


def test_a_session_grant_for_a_call_without_a_session_covers_that_call_only(
    tmp_path: Path,
) -> None:
    from clearance.decide.grant import Grant

    verdict = Verdict("allow", "yes", grants=(Grant("webfetch", "https://x*"),))
    gk, log, _scripted = keeper(tmp_path, {"permission": {"*": "ask"}}, verdict)
    outcome = gk.decide(ToolCall("webfetch", {"url": "https://x"}, str(tmp_path)))
    assert outcome.action == "allow"
    # No store was made on the engine, which may serve other sessions too (the service caches
    # engines per project): the next call of any session asks again.
    assert gk.engine.grants is None
    gk.authorizer = Scripted(Verdict("deny", "no"))
    again = gk.decide(ToolCall("webfetch", {"url": "https://x"}, str(tmp_path), "a", "s2"))
    assert again.action == "deny"
    assert "grants" not in lines(log)[1]
