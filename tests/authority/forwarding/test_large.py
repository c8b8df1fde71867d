"""Large requests: the child caps what it copies, and nobody waits for a request too large."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fwdharness import Serving, a_request, events, exchange_raw, line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

SERVING = {"permission": {"bash": {"*": "ask", "make *": "allow"}}}
CHILD = json.dumps({"permission": {"bash": {"*": "ask"}}, "forwardingTimeoutMs": 8000})


@pytest.fixture
def server(world: Any, project: Path) -> Iterator[Serving]:
    serving = Serving(world, "P", project, SERVING)
    yield serving
    serving.close()


def forward(project: Path, command: str) -> tuple[Any, list[str]]:
    """The verdict for ``command`` forwarded by a requester, and the events the requester
    reported on the way, in order."""
    from clearance.authority.forwarding.child import forward_decision
    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall

    engine = Engine.load(cwd=str(project), policy=CHILD)
    decision = engine.check(ToolCall("bash", {"command": command}, str(project), None, "C1"))
    assert decision.action == "ask"
    reported: list[str] = []
    verdict = forward_decision(engine, decision, "ask-1", report=lambda e, _: reported.append(e))
    return verdict, reported


def long_command(size: int) -> str:
    return "make " + " ".join(f"arg{i}" for i in range(size // 8))


def test_a_200_kb_command_is_forwarded_and_resolved(
    world: Any, project: Path, server: Serving
) -> None:
    command = long_command(200_000)
    assert len(command) > 200_000
    verdict, reported = forward(project, command)
    assert verdict is not None and verdict.action == "allow", verdict
    # Resolved by the serving session's rule, not by a human or the requester's timeout (which
    # denies): the server approved it by policy, prompted nobody, and the requester got that
    # response back.
    assert (verdict.decided_by, verdict.resolution) == ("forwarded", "policy_allow"), verdict
    [approved] = [e for e in events(world) if e["event"] == "forwarded_permission.auto_approved"]
    assert approved["rule"]["pattern"] == "make *"
    assert not [e for e in events(world) if e["event"] == "forwarded_permission.prompted"]
    assert reported == [
        "forwarded_permission.request_created",
        "forwarded_permission.response_received",
    ]


def test_a_request_copies_a_long_value_once_and_caps_what_is_only_shown(project: Path) -> None:
    from clearance.authority.ask import Ask
    from clearance.authority.forwarding.child import CAP, ForwardingAuthorizer
    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall

    command = long_command(200_000)
    engine = Engine.load(cwd=str(project), policy=CHILD)
    decision = engine.check(ToolCall("bash", {"command": command}, str(project), None, "C1"))
    request = ForwardingAuthorizer(state=str(project)).request_for(Ask(decision, "a"), "P")
    [gate] = request.gates
    assert command in gate.values  # the facts travel whole
    for shown in (request.reason, gate.message, gate.value, gate.unit, request.requester.value):
        assert shown is not None and len(shown) < CAP + 100 and "[truncated: " in shown


def test_a_command_too_large_to_forward_is_denied_at_once(
    world: Any, project: Path, server: Serving
) -> None:
    verdict, reported = forward(project, long_command(1_200_000))
    assert verdict is not None and verdict.action == "deny"
    assert "too large to forward" in verdict.reason
    # At once: the requester rejected it before sending anything, so there was nothing to
    # wait for (no request made, no response awaited, none timed out).
    assert reported == ["forwarded_permission.file_rejected"]
    assert not [e for e in events(world) if e["event"] == "forwarded_permission.request_created"]


def test_an_oversized_request_is_refused_by_the_server_saying_why(
    world: Any, project: Path, server: Serving
) -> None:
    # A requester that does not cap (an older one): the server answers it with a reason.
    body = a_request("P", "make x", reason="x" * (1 << 20))
    answer = exchange_raw(world, "P", line(body))
    assert answer["kind"] == "refused" and "larger than" in answer["reason"]
    [rejected] = [e for e in events(world) if e["event"] == "forwarded_permission.file_rejected"]
    assert "larger than" in rejected["why"]
    assert not [e for e in events(world) if e["event"] == "forwarded_permission.auto_approved"]
