"""The broker transport against a real redis-server: a round trip through `clearance serve
--broker`, forged answers, the ACL children get, grants every instance honours, and what a child
is told when the broker or its servers are gone."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redisharness import (
    SRC,
    BrokerServing,
    Driver,
    RedisServer,
    a_request,
    audit,
    free_port,
    keygen,
    make_tls,
    needs_redis,
    transport,
    withdrawn,
)

from clearance.authority.forwarding.broker import Keys
from clearance.authority.forwarding.child import ForwardingAuthorizer

pytestmark = needs_redis

POLICY = {"permission": {"bash": {"*": "ask", "git *": "allow", "rm *": "deny"}}}


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    yield server
    server.close()


@pytest.fixture
def public(world: Any) -> str:
    return keygen(world.root / "serving", world.env)


@pytest.fixture
def brokers() -> Iterator[list[BrokerServing]]:
    started: list[BrokerServing] = []
    yield started
    for server in started:
        server.close()


def serving(world: Any, brokers: list[BrokerServing], redis_server: RedisServer,
            home: str = "serving", **options: Any) -> BrokerServing:  # fmt: skip
    server = BrokerServing(world.env, world.root / home, "alice", redis_server.url, world.home,
                           POLICY, **options)  # fmt: skip
    brokers.append(server)
    server.wait_serving(redis_server.client())
    return server


def child(world: Any, url: str, public: str, grace: float = 2.0) -> ForwardingAuthorizer:
    return ForwardingAuthorizer(state=str(world.state), transport=transport(url, public,
                                                                            grace=grace))  # fmt: skip


def test_a_round_trip_is_resolved_by_the_serving_policy_and_audited_once(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    serving(world, brokers, redis_server)
    asker = child(world, redis_server.url, public)
    allowed = asker.forward(a_request("alice", "git status"))
    denied = asker.forward(a_request("alice", "rm -rf build"))
    nobody = asker.forward(a_request("alice", "npm publish"))
    assert (allowed.action, allowed.resolution) == ("allow", "policy_allow")
    assert (denied.action, denied.resolution) == ("deny", "policy_denied")
    assert nobody.action == "deny" and "no human at the serving session 'alice'" in nobody.reason  # type: ignore[operator]
    entries = audit(redis_server.client(), "alice")
    assert [e["event"] for e in entries] == ["answered"] * 3
    records = [json.loads(e["record"]) for e in entries]
    assert [r["state"] for r in records] == ["approved", "denied", "denied"]
    assert {r["requesterAgent"] for r in records} == {"explore"}
    assert {r["host"] for r in records} == {socket.gethostname()}  # the child's machine
    # Nothing is left pending, and the stream keeps no answered entry.
    client = redis_server.client()
    assert client.xpending(Keys("clearance", "alice").asks, "serve")["pending"] == 0
    assert client.xlen(Keys("clearance", "alice").asks) == 0


def test_the_environment_alone_sends_a_childs_asks_through_the_broker(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    """`clearance gate` in a headless child with CLEARANCE_BROKER set: the whole hook path."""
    serving(world, brokers, redis_server)
    env = {**world.env, "PYTHONPATH": str(SRC), "CLEARANCE_BROKER": redis_server.url,
           "CLEARANCE_BROKER_PUBLIC_KEY": public, "CLEARANCE_PARENT_SESSION": "alice"}  # fmt: skip
    policy = json.dumps({"permission": {"bash": {"*": "ask"}}})
    results = {}
    for command in ("git log", "rm -rf /"):
        run = subprocess.run(
            [sys.executable, "-m", "clearance", "gate", "--json",
             "--session", "C9", "--policy", policy, "bash", command],
            capture_output=True, text=True, timeout=60, env=env, cwd=str(world.home),
            start_new_session=True,  # no controlling terminal: a headless agent
        )  # fmt: skip
        results[command] = json.loads(run.stdout)
    assert results["git log"]["decision"] == "allow", results
    assert results["rm -rf /"]["decision"] == "deny", results


def test_forged_answers_written_straight_into_redis_are_rejected(
    world: Any, redis_server: RedisServer, public: str
) -> None:
    """Whoever can write into Redis (a compromised child, a leaked password) writes approvals
    into the reply stream before the server answers: unsigned, signed by another key, a genuine
    answer to another request, and a genuine answer altered. The child adopts none of them and
    takes the genuine answer that follows."""
    import base64

    from clearance._json import dumps
    from clearance.authority.forwarding.signing import Signer, generate

    client = redis_server.client()
    keys = Keys("clearance", "alice")
    client.set(keys.beacon, json.dumps({"session": "alice", "pid": 1, "started": 1.0,
                                        "dir": "/", "relay": False}), px=60_000)  # fmt: skip
    real = Signer.load(str(world.root / "serving"))
    generate(str(world.root / "other"))
    other = Signer.load(str(world.root / "other"))
    asker = child(world, redis_server.url, public)
    request = a_request("alice", "npm publish")

    def answer(**fields: Any) -> dict[str, Any]:
        return {"version": 1, "kind": "response", "id": request.id, "nonce": request.nonce,
                "approved": True, "state": "approved", "reason": "forged", "responder": "alice",
                "responded": time.time(), "decidedBy": "user", "resolution": "user_approved",
                **fields}  # fmt: skip

    def signed(signer: Signer, body: dict[str, Any]) -> dict[str, bytes]:
        text = dumps(body).encode()
        return {"m": text, "s": base64.b64encode(signer.sign(text))}

    replay = signed(real, answer(id="req-" + "0" * 32, nonce="0" * 32))
    altered = signed(real, answer(approved=False, state="denied"))
    altered["m"] = dumps(answer()).encode()
    forgeries = [
        {"m": dumps(answer()).encode(), "s": b""},
        {"m": dumps(answer()).encode(), "s": base64.b64encode(b"\0" * 64)},
        signed(other, answer()),
        replay,
        altered,
        {"m": b"not json", "s": base64.b64encode(real.sign(b"not json"))},
    ]
    for entry in forgeries:
        client.xadd(keys.reply(request.id), entry)
    genuine = answer(approved=False, state="denied", reason="Denied by the real server.",
                     decidedBy="policy", resolution="policy_deny")  # fmt: skip
    client.xadd(keys.reply(request.id), signed(real, genuine))
    verdict = asker.forward(request)
    assert verdict.action == "deny"
    assert verdict.reason == "Denied by the real server."
    assert asker.transport.skipped == len(forgeries)  # type: ignore[attr-defined]


def test_only_forgeries_end_in_a_timeout_never_an_approval(
    world: Any, redis_server: RedisServer, public: str
) -> None:
    import base64

    from clearance._json import dumps

    client = redis_server.client()
    keys = Keys("clearance", "alice")
    client.set(keys.beacon, json.dumps({"session": "alice", "pid": 1, "started": 1.0,
                                        "dir": "/", "relay": False}), px=60_000)  # fmt: skip
    request = a_request("alice", "npm publish", expires=1.5)
    body = {"version": 1, "kind": "response", "id": request.id, "nonce": request.nonce,
            "approved": True, "state": "approved", "reason": "forged", "responder": "alice",
            "responded": time.time(), "decidedBy": "user", "resolution": "user_approved"}  # fmt: skip
    client.xadd(keys.reply(request.id), {"m": dumps(body), "s": base64.b64encode(b"x" * 64)})
    verdict = child(world, redis_server.url, public).forward(request)
    assert verdict.action == "deny" and "did not answer" in verdict.reason  # type: ignore[operator]


def test_a_child_with_the_documented_acl_can_ask_but_not_answer(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    """The ACL of docs/forwarding.md: children may add requests and read replies; they cannot
    write a reply, read the request stream, or touch the grants."""
    import redis

    from clearance.authority.forwarding.broker import ACL_CHILD, ACL_SERVER

    admin = redis_server.client()
    admin.execute_command("ACL", "SETUSER", "child", "reset", "on", ">child-secret",
                          *ACL_CHILD.replace("{prefix}", "clearance").split())  # fmt: skip
    admin.execute_command("ACL", "SETUSER", "server", "reset", "on", ">server-secret",
                          *ACL_SERVER.replace("{prefix}", "clearance").split())  # fmt: skip
    server = BrokerServing(world.env, world.root / "serving", "alice",
                           f"redis://server:server-secret@127.0.0.1:{redis_server.port}/0",
                           world.home, POLICY)  # fmt: skip
    brokers.append(server)
    server.wait_serving(admin)
    url = f"redis://child:child-secret@127.0.0.1:{redis_server.port}/0"
    verdict = child(world, url, public).forward(a_request("alice", "git status"))
    assert verdict.action == "allow", verdict.reason
    limited = redis.Redis.from_url(url)
    keys = Keys("clearance", "alice")
    for attempt in (
        lambda: limited.xadd(keys.reply("req-" + "1" * 32), {"m": "x", "s": "y"}),
        lambda: limited.xrange(keys.asks),
        lambda: limited.xreadgroup("serve", "evil", {keys.asks: ">"}),
        lambda: limited.hset(keys.grants, "bash\0*", "1"),
        lambda: limited.xadd(keys.audit, {"event": "answered"}),
        lambda: limited.keys("*"),
        lambda: limited.delete(keys.beacon),
    ):
        with pytest.raises(redis.exceptions.NoPermissionError):
            attempt()


def test_whole_session_grants_in_the_broker_are_honoured_by_every_instance(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    serving(world, brokers, redis_server)
    asker = child(world, redis_server.url, public)
    assert asker.forward(a_request("alice", "npm publish")).action == "deny"
    # Another instance's human answered "yes, for the whole session" (it writes the hash).
    from clearance.authority.forwarding.broker import RedisInbound, SharedGrants
    from clearance.authority.forwarding.signing import Signer
    from clearance.decide.grant import Grant

    other = RedisInbound(redis_server.url, "alice", lambda: {}, Signer.load(str(world.root /
                                                                               "serving")))  # fmt: skip
    other.open()
    try:
        store = other.session_grants()
        assert isinstance(store, SharedGrants)
        store.add([Grant("bash", "npm publish*")])
    finally:
        other.close()
    verdict = asker.forward(a_request("alice", "npm publish"))
    assert (verdict.action, verdict.resolution) == ("allow", "session_approved"), verdict.reason


def test_a_broker_that_is_down_is_named_within_the_grace(world: Any, public: str) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    verdict = child(world, url, public, grace=0.5).forward(a_request("alice", "git status"))
    assert verdict.action == "deny"
    assert "broker unreachable: redis://127.0.0.1:" in verdict.reason, verdict.reason  # type: ignore[operator]


def test_no_live_server_is_named_within_the_grace(
    world: Any, redis_server: RedisServer, public: str
) -> None:
    verdict = child(world, redis_server.url, public, grace=0.5).forward(
        a_request("alice", "git status")
    )
    assert verdict.action == "deny"
    assert (
        "Session 'alice' is not serving forwarded permission requests (no serving instance of "
        "session 'alice' has a heartbeat on the broker redis://127.0.0.1:" in verdict.reason  # type: ignore[operator]
    )


def test_a_child_without_the_public_key_is_told_how_to_set_it(
    world: Any, redis_server: RedisServer
) -> None:
    from clearance.authority.forwarding.broker import BrokerConfig, RedisTransport

    asker = ForwardingAuthorizer(state=str(world.state),
                                 transport=RedisTransport(BrokerConfig(redis_server.url), 1.0))  # fmt: skip
    verdict = asker.forward(a_request("alice", "git status"))
    assert verdict.action == "deny" and "CLEARANCE_BROKER_PUBLIC_KEY" in verdict.reason  # type: ignore[operator]


def test_a_child_killed_while_it_waits_is_abandoned_never_answered(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    """Its ask waits in the stream (no server yet); the child is killed; the server that comes
    later finds it gone: audited as abandoned, no answer."""
    driver = Driver(world.env, world.state, redis_server.url, public, count=1, grace=30.0)
    rid = driver.first_sent()
    client = redis_server.client()
    keys = Keys("clearance", "alice")
    deadline = time.monotonic() + 10
    while client.xlen(keys.asks) == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    driver.kill()
    deadline = time.monotonic() + 15
    while client.exists(keys.alive(rid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    serving(world, brokers, redis_server)
    deadline = time.monotonic() + 10
    while not audit(client, "alice") and time.monotonic() < deadline:
        time.sleep(0.05)
    entries = audit(client, "alice")
    assert [(e["event"], e["id"]) for e in entries] == [("abandoned", rid)]
    # The signed notice follows the audit entry (it is signed outside Redis's atomic step).
    deadline = time.monotonic() + 10
    while not withdrawn(client, keys.reply(rid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert withdrawn(client, keys.reply(rid))


def test_a_broken_broker_setting_fails_the_config_closed(world: Any) -> None:
    world.global_config(json.dumps({"forwarding": {"broker": {"url": "http://x"}}}))
    result = world.run("check", "bash", "ls")
    assert "redis://" in result.stdout + result.stderr
    assert not result.stdout.startswith("allow"), result.stdout
    world.global_config(json.dumps({"forwarding": {"broker": {
        "url": "rediss://r:6380", "publicKey": "ed25519:abc"}}}))  # fmt: skip
    result = world.run("check", "bash", "ls")
    assert "not 32 bytes of base64" in result.stdout + result.stderr
    key = "ed25519:" + "A" * 43 + "="
    good = {"forwarding": {"broker": {"url": "rediss://r:6380", "session": "team",
                                      "publicKey": [key]}}}  # fmt: skip
    world.global_config(json.dumps(good))
    result = world.run("check", "bash", "ls")
    assert result.stderr == "" and "forwarding" not in result.stdout, result.stdout + result.stderr


def test_the_key_pair_lives_in_the_protected_state_directory(world: Any, public: str) -> None:
    key = world.root / "serving" / "broker" / "answer.key"
    assert key.stat().st_mode & 0o777 == 0o600
    assert key.parent.stat().st_mode & 0o777 == 0o700
    assert public.startswith("ed25519:")
    assert keygen(world.root / "serving", world.env) == public  # kept, not replaced
    os.chmod(key, 0o644)
    from clearance.authority.forwarding.signing import Signer

    with pytest.raises(OSError, match="mode 0600"):
        Signer.load(str(world.root / "serving"))


def test_over_tls_a_round_trip_works_and_an_unknown_certificate_is_refused(
    world: Any, tmp_path: Path, public: str, brokers: list[BrokerServing]
) -> None:
    tls = make_tls(tmp_path / "tls")
    secure = RedisServer(tmp_path / "redis-tls", tls=tls)
    try:
        serving(world, brokers, secure)
        verdict = child(world, secure.url, public).forward(a_request("alice", "git status"))
        assert verdict.action == "allow", verdict.reason
        # Without the private CA the child does not trust the server: it never sends the ask.
        url = f"rediss://127.0.0.1:{secure.port}/0"
        refused = child(world, url, public, grace=0.5).forward(a_request("alice", "git status"))
        assert refused.action == "deny" and "broker unreachable: rediss://127.0.0.1:" in (  # type: ignore[operator]
            refused.reason
        ), refused.reason
    finally:
        for server in brokers:
            server.close()
        secure.close()


def test_one_serve_answers_local_and_broker_asks_at_once(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    serving(world, brokers, redis_server)
    remote = child(world, redis_server.url, public).forward(a_request("alice", "git status"))
    local = ForwardingAuthorizer(state=str(world.root / "serving")).forward(
        a_request("alice", "git status")
    )
    assert (remote.action, local.action) == ("allow", "allow"), (remote.reason, local.reason)
    # Only the broker's ask is in the broker's audit; the local one went over the socket.
    assert len(audit(redis_server.client(), "alice")) == 1


def test_the_config_alone_names_the_broker_the_session_and_the_key(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    """forwarding.broker in the child's config, nothing in its environment: its asks go to the
    configured session through the configured broker."""
    serving(world, brokers, redis_server)
    world.global_config(json.dumps({
        "permission": {"bash": {"*": "ask"}},
        "forwarding": {"broker": {"url": redis_server.url, "session": "alice",
                                  "publicKey": [public]}},
    }))  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-m", "clearance", "gate", "--json",
         "--session", "C7", "bash", "git push"],
        capture_output=True, text=True, timeout=60, cwd=str(world.home),
        env={**world.env, "PYTHONPATH": str(SRC)}, start_new_session=True,
    )  # fmt: skip
    result = json.loads(run.stdout)
    assert result["decision"] == "allow", result
    assert [json.loads(e["record"])["requesterSession"] for e in audit(redis_server.client(),
                                                                       "alice")] == ["C7"]  # fmt: skip


def test_answers_are_written_after_the_broker_forgets_its_scripts(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    # The serving loop writes its answers with EVALSHA in one round trip (no SCRIPT EXISTS
    # first); a broker that lost its script cache (a restart) gets the script again.
    serving(world, brokers, redis_server)
    asker = child(world, redis_server.url, public)
    assert asker.forward(a_request("alice", "git status")).action == "allow"
    redis_server.client().script_flush()
    assert asker.forward(a_request("alice", "git log")).action == "allow"
    assert [e["event"] for e in audit(redis_server.client(), "alice")] == ["answered"] * 2
    commands = redis_server.client().info("commandstats")
    assert "cmdstat_script|exists" not in commands


def test_broker_messages_are_strict_utf8_json() -> None:
    # Messages over the broker use the standard library's C codec (redis-py loads it anyway);
    # what it reads stays strict: no NaN or infinities, UTF-8 only, and it writes the same
    # compact text as clearance._json.
    from clearance._json import dumps
    from clearance.authority.forwarding.broker import codec

    for bad in (b'{"expires": NaN}', b'{"expires": -Infinity}', b"\xff{}",
                '{"a":1}'.encode("utf-16")):  # fmt: skip
        with pytest.raises(ValueError):
            codec.loads(bad)
    message = {"id": "r1", "reason": "Needs approval: 'café'\n", "n": [1, 2.5, None, True]}
    assert codec.dumps(message) == dumps(message)
    assert codec.loads(codec.dumps(message).encode()) == message


def test_the_answer_key_directory_is_checked_like_the_socket_directory(tmp_path: Any) -> None:
    # One helper (state_dirs.private_path) makes the broker key's directory and the local
    # socket's: a directory others can write, or a symlink, is refused, never "repaired".
    import os

    from clearance.authority.forwarding.private import UnsafeInbox
    from clearance.authority.forwarding.signing import generate

    state = tmp_path / "state"
    (state / "broker").mkdir(parents=True)
    os.chmod(state / "broker", 0o777)
    with pytest.raises(UnsafeInbox, match="writable by other users"):
        generate(str(state))
    assert not (state / "broker" / "answer.key").exists()
    other = tmp_path / "other"
    (other / "elsewhere").mkdir(parents=True)
    os.symlink(other / "elsewhere", other / "broker")
    with pytest.raises(UnsafeInbox, match="symlink"):
        generate(str(other))
    fresh = tmp_path / "fresh"
    generate(str(fresh))
    assert os.stat(fresh / "broker").st_mode & 0o777 == 0o700
    assert os.stat(fresh / "broker" / "answer.key").st_mode & 0o777 == 0o600


def test_a_grant_revoked_on_one_machine_is_honoured_by_no_instance(
    world: Any, redis_server: RedisServer, public: str, brokers: list[BrokerServing]
) -> None:
    """The serving instance holds the grant in its own machine's session grants too; a console
    on another machine revokes it: the hash loses it and the revocation reaches every instance,
    so the copy on the serving machine is not honoured either."""
    from clearance.authority.forwarding.broker import RedisInbound
    from clearance.authority.forwarding.signing import Signer
    from clearance.decide.grant import DiskGrants, Grant

    grant = Grant("bash", "npm publish*")
    DiskGrants(str(world.root / "serving"), "alice").add([grant])
    serving(world, brokers, redis_server)
    asker = child(world, redis_server.url, public)
    verdict = asker.forward(a_request("alice", "npm publish"))
    assert (verdict.action, verdict.resolution) == ("allow", "session_approved"), verdict.reason
    other = RedisInbound(redis_server.url, "alice", lambda: {},
                         Signer.load(str(world.root / "serving")))  # fmt: skip
    other.open()
    try:
        other.session_grants().remove([grant])  # type: ignore[attr-defined]
    finally:
        other.close()
    assert redis_server.client().hkeys(Keys("clearance", "alice").grants) == []
    assert grant in DiskGrants(str(world.root / "serving"), "alice").grants()  # its own copy
    assert asker.forward(a_request("alice", "npm publish")).action == "deny"
    # Granted again for the whole session: honoured again everywhere.
    other.open()
    try:
        other.session_grants().add([grant])
    finally:
        other.close()
    verdict = asker.forward(a_request("alice", "npm publish"))
    assert (verdict.action, verdict.resolution) == ("allow", "session_approved"), verdict.reason
