"""Requests whose requester died (the host killed its hook): never prompted, never granted."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest
from fwdharness import Child, Serving, a_request, connect, line, named, wait_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

POLICY = {"permission": {"bash": {"*": "ask"}}}


def kill(child: Child, sig: signal.Signals) -> None:
    child.process.send_signal(sig)
    child.process.wait(timeout=10)


def files_under(path: Path) -> list[Path]:
    return sorted(p for p in path.rglob("*") if p.is_file())


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_requester_killed_before_anyone_serves_leaves_nothing_behind(
    world: Any, project: Path, servers: list[Serving], sig: signal.Signals
) -> None:
    child = Child(world, "C1", "npm publish", cwd=project, parent="P",
                  env={"CLEARANCE_FORWARDING_GRACE_MS": "60000"})  # fmt: skip
    wait_for(lambda: named(world, "request_created"))
    kill(child, sig)
    assert files_under(world.state / "forwarding") == []  # nothing was written to be found
    server = Serving(world, "P", project, POLICY, human=True)
    servers.append(server)
    other = Child(world, "C2", "npm install lodash", cwd=project, parent="P")
    screen = server.read_screen("No, with a reason")
    assert "npm install lodash" in screen and "npm publish" not in screen
    server.press("n")
    assert other.result()["decision"] == "deny"


def test_a_request_whose_requester_is_gone_on_arrival_is_discarded_not_prompted(
    world: Any, project: Path, servers: list[Serving]
) -> None:
    server = Serving(world, "P", project, POLICY, human=True)
    servers.append(server)
    dead = subprocess.Popen(["true"])
    dead.wait()
    with connect(world, "P") as sock:
        sock.sendall(line(a_request("P", "npm publish", pid=dead.pid)))
        [gone] = wait_for(lambda: named(world, "abandoned"))
    assert gone["requesterSession"] == "C1" and gone["pid"] == dead.pid
    assert str(dead.pid) in gone["why"] and "before it was resolved" in gone["why"]
    assert not named(world, "prompted")
    other = Child(world, "C2", "npm install lodash", cwd=project, parent="P")
    screen = server.read_screen("No, with a reason")
    assert "npm install lodash" in screen and "npm publish" not in screen  # never asked
    server.press("n")
    assert other.result()["decision"] == "deny"


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
    # serving goes on: the next ask reaches the human once the abandoned dialog is answered
    other = Child(world, "C2", "npm install lodash", cwd=project, parent="P")
    server.read_screen("npm install lodash")
    server.read_screen("No, with a reason")
    assert not (world.state / "sessions" / "P" / "grants.json").exists()
    assert not named(world, "session_recorded")
    assert not named(world, "approved")
    assert len(named(world, "abandoned")) == 1
    server.press("y")
    assert other.result()["decision"] == "allow"
    assert not (world.state / "sessions" / "P" / "grants.json").exists()
