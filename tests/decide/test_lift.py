"""Session grants and yolo are applied in one step (``decide/lift.py``), by every path that decides
a call: the hook, ``check``, ``check --batch``, the service's cached engines and a serving
session; and on none of them do they lift the ask of a protected path."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from clearance.authority.ask import Requester
from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce
from clearance.authority.forwarding.resolution import resolve
from clearance.cli import main
from clearance.decide.decision import GateResult
from clearance.decide.engine import Engine
from clearance.decide.grant import DiskGrants, Grant, GrantStore
from clearance.decide.lift import UNGRANTABLE, lift
from clearance.hosts.claude_code.hook import pre_tool_use_answer
from clearance.hosts.claude_code.payload import parse_payload
from clearance.intent.sentinel import (
    DEADLINE,
    OPAQUE,
    PROTECTED,
    RUNS_LATER,
    UNKNOWN_PATH,
    UNLISTED_NAMES,
)
from clearance.policy.rule import Rule
from clearance.service.engines import EngineCache

POLICY = '{"permission": {"*": "ask", "bash": {"*": "ask", "rm *": "deny"}}}'
GRANTED = "make all"  # covered by the session grant `make *`
HOOK_FILE = ".git/hooks/pre-commit"  # a file that runs code later: asks every time


def _ask(sentinel: str | None = None, value: str = GRANTED) -> GateResult:
    return GateResult("bash", "bash", value, "ask", None, "Needs approval", sentinel)


def test_a_grant_lifts_an_ask_it_covers_then_yolo_lifts_the_rest() -> None:
    store = GrantStore()
    store.add([Grant("bash", "make *")])
    granted = lift(_ask(), store, True, "/home/u")
    assert granted.action == "allow" and granted.rule is not None
    assert granted.rule.origin == "session"
    approved = lift(_ask(value="npm i"), store, True, "/home/u")
    assert approved.action == "allow" and approved.rule is not None
    assert approved.rule.origin == "yolo" and approved.message.startswith("Approved by yolo: ")
    assert lift(_ask(value="npm i"), store, False, "/home/u").action == "ask"


def test_neither_touches_a_deny_nor_an_ungrantable_ask() -> None:
    store = GrantStore()
    store.add([Grant("bash", "*")])
    deny = GateResult("bash", "bash", "rm x", "deny", Rule("bash", "rm *", "deny", "global"), "no")
    assert lift(deny, store, True, "") is deny
    assert {PROTECTED, RUNS_LATER, UNKNOWN_PATH, UNLISTED_NAMES, DEADLINE} == UNGRANTABLE
    for sentinel in UNGRANTABLE:
        assert lift(_ask(sentinel), store, True, "").action == "ask"
    assert lift(_ask(OPAQUE), store, True, "").action == "allow"  # a floor: lifted


# -- every path ------------------------------------------------------------------------------


def _world(world: Any) -> Path:
    world.global_config(POLICY)
    project: Path = world.project()
    DiskGrants(str(world.state), "sess-1").add([Grant("bash", "make *")])
    return project


def _payload(project: Path, command: str) -> Any:
    return parse_payload(json.dumps({
        "session_id": "sess-1", "transcript_path": "/dev/null", "cwd": str(project),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "toolu_1",
    }))  # fmt: skip


def _hook(world: Any, project: Path, command: str, *, yolo: bool, service: bool) -> str:
    env = {**world.env, "CLEARANCE_HEADLESS": "1"}  # nobody to ask
    if yolo:
        env["CLEARANCE_YOLO"] = "1"
    load = EngineCache().get if service else None
    answer = pre_tool_use_answer(_payload(project, command), env, load)
    assert answer is not None
    return answer[0]


def _check(capsys: Any, project: Path, command: str, *, yolo: bool) -> dict[str, Any]:
    flags = ["--yolo"] if yolo else []
    main(["check", "--json", "--session", "sess-1", "--cwd", str(project), *flags, "bash",
          command])  # fmt: skip
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def _batch(capsys: Any, monkeypatch: Any, project: Path, command: str, *, yolo: bool) -> Any:
    line = {"tool": "bash", "input": command, "cwd": str(project), "session": "sess-1"}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(line) + "\n"))
    main(["check", "--batch", *(["--yolo"] if yolo else [])])
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("service", [False, True], ids=["hook", "service"])
def test_the_hook_and_the_service_apply_grants_and_yolo_but_never_to_a_protected_path(
    world: Any, service: bool
) -> None:
    project = _world(world)
    assert _hook(world, project, GRANTED, yolo=False, service=service) == "allow"
    assert _hook(world, project, "npm i", yolo=False, service=service) != "allow"
    assert _hook(world, project, "npm i", yolo=True, service=service) == "allow"
    protected = f"echo x >> {project / HOOK_FILE}"
    assert _hook(world, project, protected, yolo=True, service=service) != "allow"


def test_check_applies_grants_and_yolo_but_never_to_a_protected_path(
    world: Any, capsys: Any
) -> None:
    project = _world(world)
    granted = _check(capsys, project, GRANTED, yolo=False)
    assert granted["decision"] == "allow" and granted["rule"]["origin"] == "session"
    assert _check(capsys, project, "npm i", yolo=False)["decision"] == "ask"
    approved = _check(capsys, project, "npm i", yolo=True)
    assert approved["decision"] == "allow" and approved["rule"]["origin"] == "yolo"
    protected = f"echo x >> {project / HOOK_FILE}"
    assert _check(capsys, project, protected, yolo=True)["decision"] == "ask"


def test_batch_applies_grants_and_yolo_but_never_to_a_protected_path(
    world: Any, capsys: Any, monkeypatch: Any
) -> None:
    project = _world(world)
    granted = _batch(capsys, monkeypatch, project, GRANTED, yolo=False)
    assert granted["decision"] == "allow" and granted["rule"]["origin"] == "session"
    approved = _batch(capsys, monkeypatch, project, "npm i", yolo=True)
    assert approved["decision"] == "allow" and approved["rule"]["origin"] == "yolo"
    protected = f"echo x >> {project / HOOK_FILE}"
    assert _batch(capsys, monkeypatch, project, protected, yolo=True)["decision"] == "ask"


def _forwarded(*gates: GateFact) -> Request:
    return Request(id=new_id(), nonce=new_nonce(), target="P", created=0.0, expires=1.0,
                   requester=Requester(None, "C", "/child/cwd", "bash"), reason="asked",
                   gates=gates)  # fmt: skip


def test_a_serving_session_applies_its_grants_and_yolo_but_never_to_a_protected_path() -> None:
    def serving(yolo: bool) -> Any:
        return Engine.load(cwd="/srv", policy=POLICY, env={"HOME": "/home/u"}, yolo=yolo,
                           use_cache=False).policy  # fmt: skip

    plain, yolo = serving(False), serving(True)
    store = GrantStore()
    store.add([Grant("bash", "make *"), Grant("protected_write", "*")])
    make = GateFact("bash", "bash", GRANTED)
    granted = resolve(_forwarded(make), plain.rules, grants=store, home=plain.home)
    assert (granted.action, granted.decided_by) == ("allow", "session_approval")
    npm = GateFact("bash", "bash", "npm i", sentinel=OPAQUE)
    assert resolve(_forwarded(npm), plain.rules).action == "ask"
    approved = resolve(_forwarded(npm), yolo.rules, yolo=True)
    assert (approved.action, approved.decided_by) == ("allow", "yolo")
    for sentinel in (PROTECTED, RUNS_LATER):
        fact = GateFact("protected", "protected_write", "/p/" + HOOK_FILE, sentinel=sentinel)
        for policy in (plain, yolo):
            found = resolve(_forwarded(fact), policy.rules, yolo=policy.yolo, grants=store,
                            home=policy.home)  # fmt: skip
            assert found.action == "ask"
