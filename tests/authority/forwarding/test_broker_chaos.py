"""Chaos through the broker, bounded: Redis restarted during a few hundred asks, one of two
serving instances killed with SIGKILL mid-traffic, a child killed mid-wait. Afterwards, checked
against the audit stream: no ask lost, none answered twice."""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redisharness import BrokerServing, Driver, RedisServer, audit, keygen, needs_redis, withdrawn

pytestmark = needs_redis

POLICY = {"permission": {"bash": {"*": "ask", "git *": "allow"}}}
# Asks per child: 250, 1,000 in all (about 30 s on the loaded 2-core development machine);
# CLEARANCE_CHAOS_ASKS sets another number per child.
CHILDREN, ASKS = 4, int(os.environ.get("CLEARANCE_CHAOS_ASKS", "250"))
FAST = {"CLEARANCE_BROKER_VISIBILITY_MS": "1500"}  # a dead instance's asks are taken over soon


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    yield server
    server.close()


def answered(redis_server: RedisServer) -> list[dict[str, str]]:
    try:
        return [e for e in audit(redis_server.client(), "alice") if e["event"] == "answered"]
    except Exception:  # restarting
        return []


def wait_answered(redis_server: RedisServer, count: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(answered(redis_server)) < count:
        assert time.monotonic() < deadline, f"fewer than {count} answers"
        time.sleep(0.05)


def test_restart_redis_kill_a_server_and_a_child_mid_traffic_nothing_lost_nothing_twice(
    world: Any, redis_server: RedisServer
) -> None:
    public = keygen(world.root / "one", world.env)
    (world.root / "two" / "broker").mkdir(parents=True, mode=0o700)
    key = world.root / "two" / "broker" / "answer.key"
    shutil.copy(world.root / "one" / "broker" / "answer.key", key)
    key.chmod(0o600)
    servers = []
    try:
        for home in ("one", "two"):
            server = BrokerServing(world.env, world.root / home, "alice", redis_server.url,
                                   world.home, POLICY, extra_env=FAST)  # fmt: skip
            servers.append(server)
            server.wait_serving(redis_server.client())
        drivers = [Driver(world.env, world.state, redis_server.url, public, count=ASKS,
                          grace=10.0) for _ in range(CHILDREN)]  # fmt: skip
        doomed = Driver(world.env, world.state, redis_server.url, public, count=ASKS, grace=10.0)
        total = CHILDREN * ASKS
        wait_answered(redis_server, total // 5)
        servers[0].kill()  # SIGKILL, mid-traffic: its pending asks go to the other instance
        doomed.kill()  # a child killed mid-wait (or between asks)
        wait_answered(redis_server, total // 2)
        redis_server.restart(down=2.0)  # longer than the first reconnect delays
        results = [d.results(timeout=120) for d in drivers]
        partial = doomed.results(timeout=10)
    finally:
        for server in servers:
            server.close()
    said = servers[1].output()
    assert "broker unreachable: redis://127.0.0.1:" in said and "reachable again" in said, said
    sent = {r["id"] for rs in results for r in rs if r["event"] == "sent"}
    verdicts = {r["id"]: r for rs in results for r in rs if r["event"] == "verdict"}
    assert len(sent) == total
    assert set(verdicts) == sent  # no child left without its answer
    denied = [v["reason"] for v in verdicts.values() if v["action"] != "allow"]
    assert denied == []  # none lost to the restart or the kill: each was approved by policy
    entries = audit(redis_server.client(), "alice")
    counts = Counter(e["id"] for e in entries)
    assert {i for i, n in counts.items() if n > 1} == set()  # nothing answered twice
    assert sent <= {e["id"] for e in entries if e["event"] == "answered"}
    # The killed child's asks: each answered or abandoned, once (already checked), none lost
    # in between; its last one may still be waiting for its alive key to expire.
    doomed_ids = {r["id"] for r in partial if r["event"] == "sent"}
    assert doomed_ids
    assert all(counts[i] <= 1 for i in doomed_ids)


def test_an_instance_killed_while_its_human_deliberates_is_taken_over_and_answered_once(
    world: Any, redis_server: RedisServer
) -> None:
    """The ask waits in instance A's dialog; A is killed with SIGKILL; after the visibility
    timeout instance B takes the ask over and answers it (B has no human: it denies, saying
    so). The child gets that one answer; the audit stream holds one entry for it."""
    from clearance.authority.forwarding.broker import Keys

    public = keygen(world.root / "one", world.env)
    (world.root / "two" / "broker").mkdir(parents=True, mode=0o700)
    key = world.root / "two" / "broker" / "answer.key"
    shutil.copy(world.root / "one" / "broker" / "answer.key", key)
    key.chmod(0o600)
    client = redis_server.client()
    asks = Keys("clearance", "alice").asks
    first = BrokerServing(world.env, world.root / "one", "alice", redis_server.url, world.home,
                          POLICY, extra_env=FAST, human=True)  # fmt: skip
    second = None
    try:
        first.wait_serving(client)
        driver = Driver(world.env, world.state, redis_server.url, public, count=1,
                        command="npm publish", grace=10.0)  # fmt: skip
        rid = driver.first_sent()
        deadline = time.monotonic() + 20
        while client.xpending(asks, "serve")["pending"] == 0:
            assert time.monotonic() < deadline, "the first instance never took the ask"
            time.sleep(0.05)
        second = BrokerServing(world.env, world.root / "two", "alice", redis_server.url,
                               world.home, POLICY, extra_env=FAST)  # fmt: skip
        second.wait_serving(client)
        time.sleep(2.0)  # longer than the visibility timeout: a live instance keeps its ask
        assert audit(client, "alice") == []
        first.kill()
        [verdict] = driver.results(timeout=60)  # (its "sent" line was read above)
    finally:
        first.close()
        if second is not None:
            second.close()
    assert verdict["id"] == rid and verdict["action"] == "deny"
    assert "no human at the serving session 'alice'" in verdict["reason"]
    entries = audit(client, "alice")
    assert [(e["event"], e["id"]) for e in entries] == [("answered", rid)]
    assert client.xpending(asks, "serve")["pending"] == 0


def test_a_child_killed_while_the_human_deliberates_is_withdrawn_and_marked_abandoned(
    world: Any, redis_server: RedisServer
) -> None:
    from clearance.authority.forwarding.broker import Keys

    public = keygen(world.root / "one", world.env)
    client = redis_server.client()
    asks = Keys("clearance", "alice").asks
    server = BrokerServing(world.env, world.root / "one", "alice", redis_server.url, world.home,
                           POLICY, human=True)  # fmt: skip
    try:
        server.wait_serving(client)
        driver = Driver(world.env, world.state, redis_server.url, public, count=1,
                        command="npm publish", grace=10.0)  # fmt: skip
        rid = driver.first_sent()
        deadline = time.monotonic() + 20
        while client.xpending(asks, "serve")["pending"] == 0:
            assert time.monotonic() < deadline, "the instance never took the ask"
            time.sleep(0.05)
        driver.kill()
        deadline = time.monotonic() + 20
        while not audit(client, "alice"):
            assert time.monotonic() < deadline, "the ask was never marked abandoned"
            time.sleep(0.1)
        # The signed notice follows the audit entry (it is signed outside Redis's atomic step).
        while not withdrawn(client, Keys("clearance", "alice").reply(rid)):
            assert time.monotonic() < deadline, "the ask was never withdrawn"
            time.sleep(0.05)
    finally:
        server.close()
    assert [(e["event"], e["id"]) for e in audit(client, "alice")] == [("abandoned", rid)]
    assert client.xpending(asks, "serve")["pending"] == 0
    assert withdrawn(client, Keys("clearance", "alice").reply(rid))
    review = (world.root / "one" / "logs" / "review.jsonl").read_text()
    assert "forwarded_permission.abandoned" in review
