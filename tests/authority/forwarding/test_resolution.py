"""A forwarded request against the serving policy: verbatim facts, floors, grants, yolo."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from clearance.authority.ask import Requester
from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce
from clearance.authority.forwarding.resolution import resolve
from clearance.decide.engine import Engine
from clearance.decide.grant import Grant, GrantStore


def request(*gates: GateFact) -> Request:
    return Request(id=new_id(), nonce=new_nonce(), target="P", created=0.0, expires=1.0,
                   requester=Requester(None, "C", "/child/cwd", "bash"), reason="asked",
                   gates=gates)  # fmt: skip


def rules(policy: Mapping[str, object], *, yolo: bool = False) -> Engine:
    return Engine.load(cwd="/srv", policy=json.dumps(policy), env={"HOME": "/home/u"},
                       yolo=yolo or None, use_cache=False)  # fmt: skip


BASH = {"permission": {"bash": {"*": "ask", "make *": "allow", "rm *": "deny"},
                       "path": {"/data/*": "deny"}}}  # fmt: skip


@pytest.mark.parametrize(
    ("fact", "action"),
    [
        (GateFact("bash", "bash", "make x"), "allow"),
        (GateFact("bash", "bash", "rm x"), "deny"),
        (GateFact("bash", "bash", "npm i"), "ask"),
        (GateFact("bash", "bash", "make x", sentinel="<opaque-bash-wrapper>"), "ask"),
        (GateFact("bash", "bash", "rm x", sentinel="<opaque-bash-wrapper>"), "deny"),
        # Paths are matched as the requester spelled them, never re-derived here.
        (GateFact("path", "path_read", "../data/f", ("../data/f", "/data/f")), "deny"),
        (GateFact("path", "path_read", "/other/f"), "ask"),  # no path rule: no opinion
    ],
)
def test_each_gate_is_resolved_by_the_serving_policy(fact: GateFact, action: str) -> None:
    engine = rules(BASH)
    assert resolve(request(fact), engine.policy.rules).action == action


def test_any_deny_denies_and_any_ask_escalates() -> None:
    engine = rules(BASH)
    make, npm, rm = (GateFact("bash", "bash", v) for v in ("make x", "npm i", "rm x"))
    assert resolve(request(make, npm, rm), engine.policy.rules).action == "deny"
    assert resolve(request(make, npm), engine.policy.rules).action == "ask"


def test_a_request_without_facts_is_escalated_never_approved() -> None:
    engine = rules({"permission": {"*": "allow"}}, yolo=True)
    assert resolve(request(), engine.policy.rules, yolo=True).action == "ask"


def test_a_serving_grant_approves_an_ask_and_a_floored_ask_but_never_a_deny() -> None:
    engine = rules(BASH)
    store = GrantStore([Grant("bash", "npm *"), Grant("bash", "rm *"), Grant("bash", "make x")])
    floored = GateFact("bash", "bash", "make x", sentinel="<opaque-bash-wrapper>")
    for fact, action in ((GateFact("bash", "bash", "npm i"), "allow"), (floored, "allow"),
                         (GateFact("bash", "bash", "rm x"), "deny")):  # fmt: skip
        result = resolve(request(fact), engine.policy.rules, grants=store)
        assert result.action == action
    assert resolve(request(floored), engine.policy.rules, grants=store).decided_by == (
        "session_approval"
    )


def test_yolo_approves_asks_and_floors_but_a_deny_survives() -> None:
    engine = rules(BASH, yolo=True)
    floored = GateFact("bash", "bash", "make x", sentinel="<indirection-bash-wrapper>")
    for fact, action in ((GateFact("bash", "bash", "npm i"), "allow"), (floored, "allow"),
                         (GateFact("bash", "bash", "rm x"), "deny")):  # fmt: skip
        result = resolve(request(fact), engine.policy.rules, yolo=True)
        assert result.action == action
