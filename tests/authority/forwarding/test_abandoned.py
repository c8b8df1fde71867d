"""Requests whose requester died (the host killed its hook): never prompted, never granted."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
from fwdharness import Child, Serving, events, inbox

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

POLICY = {"permission": {"bash": {"*": "ask"}}}


def wait_for(check: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("never happened")


def kill(child: Child, sig: signal.Signals) -> None:
    child.process.send_signal(sig)
    child.process.wait(timeout=10)


def named(world: Any, event: str) -> list[dict[str, Any]]:
    return [e for e in events(world) if e["event"] == f"forwarded_permission.{event}"]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_request_left_by_a_killed_requester_is_discarded_not_prompted(
    world: Any, project: Path, servers: list[Serving], sig: signal.Signals
) -> None:
    requests = inbox(world, "P") / "requests"
    child = Child(world, "C1", "npm publish", cwd=project, parent="P",
                  env={"CLEARANCE_FORWARDING_GRACE_MS": "60000"})  # fmt: skip
    [left] = wait_for(lambda: list(requests.glob("req-*.json")))
    pid = json.loads(left.read_text())["pid"]
    assert pid == child.process.pid
    kill(child, sig)
    assert left.exists()  # nobody withdrew it
    server = Serving(world, "P", project, POLICY, human=True)
    servers.append(server)
    wait_for(lambda: named(world, "abandoned"))
    [gone] = named(world, "abandoned")
    assert gone["requesterSession"] == "C1" and gone["pid"] == pid
    assert str(pid) in gone["why"]
    assert not left.exists()
    assert not named(world, "prompted")
    time.sleep(0.5)
    assert b"No, with a reason" not in server.screen  # the human was never asked


def test_a_requester_dying_while_the_human_deliberates_records_nothing(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = Serving(world, "P", project, POLICY, human=True)
    servers.append(server)
    child = Child(world, "C1", "npm install left-pad", cwd=project, parent="P")
    server.read_screen("No, with a reason")
    kill(child, signal.SIGKILL)
    wait_for(lambda: named(world, "abandoned"))
    server.press("b")  # "for the whole session", for a request nobody waits for any more
    time.sleep(1.0)
    assert not (world.state / "sessions" / "P" / "grants.json").exists()
    assert not named(world, "session_recorded")
    assert not named(world, "approved")
    assert len(named(world, "abandoned")) == 1
    assert not list((inbox(world, "P") / "requests").glob("req-*.json"))
    assert not list((inbox(world, "P") / "responses").glob("req-*.json"))
    # and serving goes on
    other = Child(world, "C2", "npm install lodash", cwd=project, parent="P")
    server.read_screen("No, with a reason")
    server.press("y")
    assert other.result()["decision"] == "allow"
