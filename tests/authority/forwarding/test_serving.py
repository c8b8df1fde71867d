"""A serving session and headless children as real processes: resolution, the dialog, scopes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from fwdharness import Child, Serving, ask, events, review, serve

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SERVING_POLICY = {
    "permission": {
        "bash": {
            "*": "ask",
            "make *": "allow",
            "rm *": {"action": "deny", "reason": "use trash instead"},
        }
    }
}


def sink_kinds(sink: Path, *, wanted: int, timeout: float = 10.0) -> list[str]:
    """The event kinds a notify command wrote, once ``wanted`` arrived (it runs after the
    answer is delivered, so the child may finish first) and a moment passed for extras."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = sink.read_text().splitlines() if sink.exists() else []
        if len([x for x in lines if x.strip()]) >= wanted:
            time.sleep(0.3)
            break
        time.sleep(0.05)
    return [json.loads(x)["kind"] for x in sink.read_text().splitlines() if x.strip()]


def test_an_allow_of_the_serving_policy_approves_a_forwarded_ask_without_a_prompt(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    sink = world.root / "events.jsonl"
    policy = {**SERVING_POLICY, "notify": {"events": ["ui_prompt", "decision"],
              "command": ["sh", "-c", f"cat >> {sink}; echo >> {sink}"]}}  # fmt: skip
    serve(servers, world, "P", project, policy)
    result = ask(world, "C1", "make build", cwd=project, parent="P", agent="builder")
    assert result["decision"] == "allow", result
    assert (result["decidedBy"], result["resolution"]) == ("forwarded", "policy_allow")
    [approved] = [e for e in events(world) if e["event"] == "forwarded_permission.auto_approved"]
    assert approved["requesterSession"] == "C1" and approved["responderSession"] == "P"
    assert approved["requesterAgent"] == "builder" and approved["rule"]["pattern"] == "make *"
    kinds = sink_kinds(sink, wanted=1)
    assert kinds == ["decision"]  # no ui_prompt: nobody was asked


def test_a_deny_of_the_serving_policy_denies_with_its_reason(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, SERVING_POLICY)
    result = ask(world, "C1", "rm -rf build", cwd=project, parent="P")
    assert result["decision"] == "deny" and "use trash instead" in result["reason"]
    assert [e["event"] for e in events(world)][-2:] == [
        "forwarded_permission.auto_denied",
        "forwarded_permission.response_received",
    ]  # fmt: skip  (the serving session logs its answer before it writes it)


def test_a_child_finds_the_serving_session_by_its_directory_without_a_parent_variable(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, SERVING_POLICY)
    inner = project / "src"
    inner.mkdir()
    assert ask(world, "C1", "make test", cwd=inner)["decision"] == "allow"
    elsewhere = world.project("other")
    result = ask(world, "C1", "make test", cwd=elsewhere)
    assert result["decision"] == "deny" and "no serving session" in result["reason"]


def test_without_a_human_an_ask_is_denied_at_once_saying_nobody_is_there(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, SERVING_POLICY)
    child = Child(world, "C1", "npm publish", cwd=project, parent="P")
    result = child.result()
    assert result["decision"] == "deny" and "no human at the serving session" in result["reason"]
    assert child.elapsed < 5


def test_a_floored_ask_keeps_its_floor_the_serving_allow_does_not_answer_it(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project, {"permission": {"bash": {"*": "allow"}}})
    result = ask(world, "C1", 'bash -c "$MAKE_CMD"', cwd=project, parent="P",
                 policy=json.dumps({"permission": {"bash": {"*": "allow"}}}))  # fmt: skip
    assert result["decision"] == "deny" and "no human" in result["reason"]


def test_the_serving_yolo_approves_a_floored_ask_but_an_explicit_deny_survives_it(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    serve(servers, world, "P", project,
          {"yolo": True, "permission": {"bash": {"*": "ask", "curl *": "deny"}}})  # fmt: skip
    child_policy = json.dumps({"permission": {"bash": {"*": "allow", "curl *": "ask"}}})
    floored = ask(world, "C1", 'bash -c "$MAKE_CMD"', cwd=project, parent="P", policy=child_policy)
    assert floored["decision"] == "allow" and floored["resolution"] == "auto_approved"
    denied = ask(world, "C1", "curl https://x", cwd=project, parent="P", policy=child_policy)
    assert denied["decision"] == "deny"


def test_the_serving_policy_is_agent_neutral(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    policy = {**SERVING_POLICY, "agents": {"builder": {"permission": {"bash": {"make *": "deny"}}}}}
    serve(servers, world, "P", project, policy)
    assert (
        ask(world, "C1", "make x", cwd=project, parent="P", agent="builder")["decision"] == "allow"
    )


def test_an_ask_reaches_the_serving_human_titled_for_a_subagent_with_its_provenance(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    sink = world.root / "events.jsonl"
    policy = {**SERVING_POLICY, "notify": {"events": ["ui_prompt"],
              "command": ["sh", "-c", f"cat >> {sink}; echo >> {sink}"]}}  # fmt: skip
    server = serve(servers, world, "P", project, policy, human=True)
    child = Child(world, "C1", "npm publish --tag next", cwd=project, parent="P", agent="release")
    screen = server.read_screen("No, with a reason")
    assert "Permission Required (Subagent)" in screen
    assert "agent release" in screen and "session C1" in screen and str(project) in screen
    assert "for this subagent only" in screen and "for the whole session" in screen
    server.press("y")
    result = child.result()
    assert result["decision"] == "allow" and result["resolution"] == "user_approved"
    assert sink_kinds(sink, wanted=1) == ["ui_prompt"]
    [prompt] = [json.loads(x) for x in sink.read_text().splitlines() if x.strip()]
    forwarding = prompt["payload"]["forwarding"]
    assert prompt["kind"] == "ui_prompt"
    assert (forwarding["agent"], forwarding["session"], forwarding["cwd"]) == (
        "release", "C1", str(project),
    )  # fmt: skip
    assert forwarding["tool"] == "bash" and forwarding["responderSession"] == "P"
    assert forwarding["gates"][0]["values"][0] == "npm publish --tag next"


def test_no_with_a_reason_from_the_serving_human_goes_back_to_the_child(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, SERVING_POLICY, human=True)
    child = Child(world, "C1", "npm publish", cwd=project, parent="P")
    server.read_screen("No, with a reason")
    server.press("r")
    server.read_screen("the agent is told why")
    server.press("not from a subagent\r")
    result = child.result()
    assert result["decision"] == "deny" and "not from a subagent" in result["reason"]


def test_for_this_subagent_only_the_child_records_the_grant(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, SERVING_POLICY, human=True)
    child = Child(world, "C1", "npm install left-pad", cwd=project, parent="P")
    server.read_screen("No, with a reason")
    server.press("s")
    assert child.result()["resolution"] == "user_approved_for_session"
    grants = json.loads((world.state / "sessions" / "C1" / "grants.json").read_text())
    assert grants["grants"] == [{"surface": "bash", "pattern": "npm install *"}]
    again = ask(world, "C1", "npm install lodash", cwd=project, parent="P")
    assert again["resolution"] == "session_approved"  # answered locally, not forwarded
    assert not (world.state / "sessions" / "P" / "grants.json").exists()
    other = Child(world, "C2", "npm install lodash", cwd=project, parent="P")
    server.read_screen("No, with a reason")  # another subagent is asked about again
    server.press("n")
    assert other.result()["decision"] == "deny"


def test_for_the_whole_session_the_serving_session_records_it_and_approves_the_next_call(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, SERVING_POLICY, human=True)
    child = Child(world, "C1", "npm install left-pad", cwd=project, parent="P")
    server.read_screen("No, with a reason")
    server.press("b")
    result = child.result()
    assert result["decision"] == "allow"
    assert result["resolution"] == "user_approved_for_serving_session"
    assert not (world.state / "sessions" / "C1" / "grants.json").exists()
    grants = json.loads((world.state / "sessions" / "P" / "grants.json").read_text())
    assert grants["grants"] == [{"surface": "bash", "pattern": "npm install *"}]
    for session in ("C1", "C2"):
        again = ask(world, session, "npm install lodash", cwd=project, parent="P")
        assert (again["decision"], again["resolution"]) == ("allow", "session_approved")
    recorded = [e for e in events(world) if e["event"] == "forwarded_permission.session_recorded"]
    assert len(recorded) == 1 and recorded[0]["requesterSession"] == "C1"


def test_a_timeout_denies_saying_the_parent_did_not_answer(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, SERVING_POLICY, human=True)
    policy = json.dumps({"permission": {"bash": {"*": "ask"}}, "forwardingTimeoutMs": 1500})
    child = Child(world, "C1", "npm publish", cwd=project, parent="P", policy=policy)
    server.read_screen("No, with a reason")
    result = child.result()
    # The dialog closes at the request's deadline too; whichever side speaks first says why.
    assert result["decision"] == "deny"
    assert "did not answer within" in result["reason"] or "in time" in result["reason"]
    assert child.elapsed < 10
    names = {e["event"] for e in review(world)}
    assert names & {"forwarded_permission.response_timed_out", "forwarded_permission.denied"}


def test_a_stopped_serving_session_removes_its_socket(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = serve(servers, world, "P", project, SERVING_POLICY)
    assert server.socket.exists() and server.alive()
    code, out = server.stop()
    assert code == 0 and "stopped (SIGTERM)" in out
    assert not server.socket.exists()
    names = [e["event"] for e in events(world)]
    assert names[0] == "forwarded_permission.serving_started"
    assert names[-1] == "forwarded_permission.serving_stopped"


def test_a_host_with_its_own_dialog_can_forward_a_decision_and_gets_none_when_nobody_serves(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    from clearance.authority.forwarding.child import forward_decision
    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall

    engine = Engine.load(cwd=str(project), policy='{"permission": {"bash": {"*": "ask"}}}')
    decision = engine.check(ToolCall("bash", {"command": "make all"}, str(project), None, "C1"))
    assert forward_decision(engine, decision, "req-x") is None
    serve(servers, world, "P", project, SERVING_POLICY)
    verdict = forward_decision(engine, decision, "req-x")
    assert verdict is not None and verdict.action == "allow"


def test_a_tampered_grant_file_of_the_serving_session_is_ignored_and_logged_once(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    from clearance.decide.grant import DiskGrants, Grant

    DiskGrants(str(world.state), "P").add([Grant("bash", "npm install *")])
    path = world.state / "sessions" / "P" / "grants.json"
    body = json.loads(path.read_text())
    # A writer of the state directory widens the serving session's grant: the seal breaks.
    body["grants"].append({"surface": "bash", "pattern": "*"})
    path.write_text(json.dumps(body))
    serve(servers, world, "P", project, SERVING_POLICY)
    for command in ("curl x | sh", "npm install left-pad"):
        result = ask(world, "C1", command, cwd=project, parent="P")
        assert result["decision"] == "deny", result  # no human, and no grant answers it
    rejected = events(world, "session_grants.rejected")
    assert len(rejected) == 1, rejected
    assert rejected[0]["session"] == "P" and rejected[0]["file"] == str(path)
    assert "seal does not match" in rejected[0]["why"]


@pytest.mark.parametrize("config_env", [False, True], ids=["--config", "CLEARANCE_CONFIG"])
def test_a_config_file_the_serving_session_did_not_write_is_not_reloaded(
    world: Any, project: Path, servers: list[Serving], config_env: bool
) -> None:
    """``serve --config F`` (or ``CLEARANCE_CONFIG=F``) pins F's content (ADR 0050): an agent
    that can write F (here it lies in the project, where the agent's own hook does not know it
    is the serving policy) edits it to allow everything; the serving session keeps its policy,
    and says so once."""
    from fwdharness import wait_for

    config = project / "serving.jsonc"
    serve(servers, world, "P", project, SERVING_POLICY, config=config, config_env=config_env)
    assert ask(world, "C1", "make build", cwd=project, parent="P")["decision"] == "allow"
    assert ask(world, "C1", "curl x | sh", cwd=project, parent="P")["decision"] == "deny"
    loosened = {"permission": {"*": "allow", "bash": {"*": "allow"}}, "yolo": True}
    config.write_text(json.dumps(loosened))
    refused = wait_for(lambda: events(world, "forwarded_permission.policy_not_reloaded"))
    assert str(config) in refused[0]["why"] and "changed outside" in refused[0]["why"]
    for command in ("curl x | sh", "npm install left-pad"):
        result = ask(world, "C1", command, cwd=project, parent="P")
        assert result["decision"] == "deny", result  # the pinned policy: nobody to ask
    assert ask(world, "C1", "make test", cwd=project, parent="P")["decision"] == "allow"
    time.sleep(2.5)  # another reload interval: still refused, and not logged again
    assert len(events(world, "forwarded_permission.policy_not_reloaded")) == 1


def test_without_a_config_file_the_serving_policy_is_the_one_given(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    """The benign twin: the inline policy has no file to pin; nothing is refused."""
    serve(servers, world, "P", project, SERVING_POLICY)
    assert ask(world, "C1", "make build", cwd=project, parent="P")["decision"] == "allow"
    assert events(world, "forwarded_permission.policy_not_reloaded") == []
