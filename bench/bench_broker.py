"""Forwarding through Redis: round trip of a policy-resolved ask, and throughput with 8 children
and 2 serving instances — with the local socket transport beside it, in the same run.

Run: .venv/bin/python bench/bench_broker.py [--requests 4000] [--children 8] [--runs 500]
(``BENCH_PROFILE_SERVE=DIR``: run the broker's serving instances, and the throughput children,
under ``python -m cProfile``, writing their profiles in DIR.)

A real ``redis-server`` (loopback, a random port, append-only file with ``everysec`` as
docs/forwarding.md recommends) and real ``clearance serve --broker URL --no-human`` processes
serving a policy that allows ``make *``. The child side is the child's own code path
(``ForwardingAuthorizer.forward`` over ``RedisTransport``: add the request to the stream, read the
signed answer from its reply stream, verify it). The local rows use ``clearance serve`` without
``--broker`` and the socket transport. The throughput run starts N child processes, lets each
warm up (imports, connection, 5 asks), then times them forwarding their share concurrently, and
checks the broker's audit stream (every request answered exactly once, none lost), and counts the broker's commands per ask
(the round trips, independent of the machine's load). Targets: broker median round trip ≤ 5 ms, ≥ 1,000 asks/s with 8 children and
2 servers.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _timing import median, ms, percentile

from clearance.authority.ask import Requester
from clearance.authority.forwarding.child import ForwardingAuthorizer
from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce

POLICY = json.dumps({"permission": {"bash": {"*": "ask", "make *": "allow"}}})
SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
SESSION = "BENCH"


def request(n: int, session: str) -> Request:
    now = time.time()
    command = f"make target{n}"
    return Request(
        id=new_id(), nonce=new_nonce(), target=SESSION, created=now, expires=now + 60,
        requester=Requester(None, session, "/tmp", "bash", "bash", command),
        reason=f"Needs approval: bash command {command!r}",
        gates=(GateFact("bash", "bash", command, (command,)),),
    )  # fmt: skip


def authorizer(state: str, url: str | None, public: str | None) -> ForwardingAuthorizer:
    if url is None:
        return ForwardingAuthorizer(state=state, target=SESSION)
    from clearance.authority.forwarding.broker import BrokerConfig, RedisTransport
    from clearance.policy.broker import parse_public_key

    assert public is not None
    config = BrokerConfig(url, session=SESSION, keys=(parse_public_key(public),))
    return ForwardingAuthorizer(state=state, target=SESSION,
                                transport=RedisTransport(config, 5.0))  # fmt: skip


def forward_many(child: ForwardingAuthorizer, count: int, session: str) -> list[float]:
    samples = []
    for n in range(count):
        started = time.perf_counter()
        verdict = child.forward(request(n, session))
        samples.append(time.perf_counter() - started)
        if verdict.action != "allow":
            raise SystemExit(f"unexpected answer: {verdict.reason}")
    return samples


# -- processes ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_redis(directory: str) -> tuple[subprocess.Popen[bytes], str]:
    import redis

    port = free_port()
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", directory,
         "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = redis.Redis(host="127.0.0.1", port=port)
    deadline = time.monotonic() + 15
    while True:
        try:
            client.ping()
            return process, f"redis://127.0.0.1:{port}/0"
        except redis.RedisError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("redis-server did not start") from None
            time.sleep(0.02)


def start_serve(env: dict[str, str], directory: str, url: str | None) -> subprocess.Popen[bytes]:
    profile = os.environ.get("BENCH_PROFILE_SERVE")  # a directory: profile each server there
    prof = ["-m", "cProfile", "-o", os.path.join(profile or "", f"serve-{time.time_ns()}.prof")]
    args = [sys.executable, *(prof if profile and url else []), "-m", "clearance", "serve", "--session", SESSION, "--dir", directory,
            "--policy", POLICY, "--no-human"]  # fmt: skip
    if url is not None:
        args += ["--broker", url]
    server = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 20
    while True:
        if _serving(env, url, server.pid):
            return server
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("the serving session did not start")
        time.sleep(0.02)


def _serving(env: dict[str, str], url: str | None, pid: int) -> bool:
    from clearance.authority.forwarding.local_child import LocalTransport
    from clearance.authority.forwarding.transport import Unreachable

    try:
        if url is None:
            LocalTransport(env["CLEARANCE_HOME"], 1.0).probe(SESSION)
            return True
        import redis

        from clearance.authority.forwarding.broker import Keys

        raw = redis.Redis.from_url(url).get(Keys("clearance", SESSION).beacon)
        return bool(raw) and json.loads(raw)["pid"] == pid
    except Unreachable:
        return False


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(timeout=15)


def keygen(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "clearance", "serve", "--broker-keygen"],
                          env=env, capture_output=True, text=True, check=True)  # fmt: skip
    return next(x for x in done.stdout.splitlines() if x.startswith("export ")).split("=", 1)[1]


# -- measurements -------------------------------------------------------------------------------


def round_trip(env: dict[str, str], tmp: str, url: str | None, public: str | None,
               runs: int) -> list[float]:  # fmt: skip
    server = start_serve(env, tmp, url)
    try:
        child = authorizer(env["CLEARANCE_HOME"], url, public)
        forward_many(child, 30, "warm")
        return forward_many(child, runs, "timed")
    finally:
        stop(server)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CPU: dict[str, float] = {}  # what the last throughput run used, in seconds: children, servers


def throughput(envs: list[dict[str, str]], tmp: str, url: str | None, public: str | None,
               total: int, children: int) -> tuple[float, int]:  # fmt: skip
    servers = [start_serve(env, tmp, url) for env in envs]
    share = total // children
    try:
        profile = os.environ.get("BENCH_PROFILE_SERVE")
        prof = ["-m", "cProfile", "-o", os.path.join(profile or "", "child.prof")]
        argv = [sys.executable, *(prof if profile and url else []), __file__, "--child", envs[0]["CLEARANCE_HOME"],
                str(share), url or "-", public or "-"]  # fmt: skip
        procs = [subprocess.Popen([*argv, f"child{i}"], env=envs[0], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE) for i in range(children)]  # fmt: skip
        for proc in procs:  # every child started, warmed up and connected
            assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        before = sum(cpu_seconds(s.pid) for s in servers)
        started = time.perf_counter()
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write(b"go\n")
            proc.stdin.flush()
        lines = [p.stdout.readline() for p in procs if p.stdout is not None]
        elapsed = time.perf_counter() - started
        CPU["servers"] = sum(cpu_seconds(s.pid) for s in servers) - before
        CPU["children"] = sum(float(line.split()[1]) for line in lines if line.startswith(b"cpu"))
        codes = [p.wait(timeout=900) for p in procs]
    finally:
        for server in servers:
            stop(server)
    if any(codes):
        raise SystemExit(f"FAILED: a child exited with {sorted(set(codes))}")
    return elapsed, share * children


def audit_check(url: str, expected: int) -> str:
    import redis

    from clearance.authority.forwarding.broker import Keys

    client = redis.Redis.from_url(url)
    entries = client.xrange(Keys("clearance", SESSION).audit)
    answered = collections.Counter(f[b"id"] for _e, f in entries if f[b"event"] == b"answered")
    consumers = collections.Counter(f[b"consumer"] for _e, f in entries)
    doubled = sum(1 for c in answered.values() if c > 1)
    return (f"audit: {len(answered)} answered of {expected}, double-answered {doubled}, "
            f"{len(consumers)} serving instances answered")  # fmt: skip


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        state, count, url, public, session = sys.argv[2:7]
        child = authorizer(state, None if url == "-" else url, None if public == "-" else public)
        forward_many(child, 5, session + "-warm")  # imports, connections: before the clock
        print("ready", flush=True)
        sys.stdin.readline()  # the go signal
        cpu = time.process_time()
        forward_many(child, int(count), session)
        print(f"cpu {time.process_time() - cpu}", flush=True)
        return
    args = sys.argv[1:]
    total = int(args[args.index("--requests") + 1]) if "--requests" in args else 4000
    children = int(args[args.index("--children") + 1]) if "--children" in args else 8
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 500
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "redis"))
        redis_process, url = start_redis(os.path.join(tmp, "redis"))
        try:
            envs = [{**os.environ, "HOME": tmp, "PYTHONPATH": SRC,
                     "CLEARANCE_HOME": os.path.join(tmp, f"state{i}")} for i in (1, 2)]  # fmt: skip
            public = keygen(envs[0])
            os.makedirs(os.path.join(tmp, "state2", "broker"), mode=0o700)
            shutil.copy(os.path.join(tmp, "state1", "broker", "answer.key"),
                        os.path.join(tmp, "state2", "broker", "answer.key"))  # fmt: skip
            print(f"round trip of a policy-resolved forwarded ask ({runs} asks, one child):")
            for label, via in (("broker", url), ("socket", None)):
                samples = round_trip(envs[0], tmp, via, public, runs)
                print(f"  {label:7s} p50 {ms(median(samples))}  p95 "
                      f"{ms(percentile(samples, 95))}", flush=True)  # fmt: skip
            print(f"throughput, {children} children:")
            redis_client_flush(url)
            before, redis_cpu = commands(url), cpu_seconds(redis_process.pid)
            calls_before = command_calls(url)
            elapsed, done = throughput(envs, tmp, url, public, total, children)
            used = commands(url) - before
            redis_cpu = cpu_seconds(redis_process.pid) - redis_cpu
            check = audit_check(url, done + 5 * children)  # with the warm-up asks
            print(f"  broker, 2 servers: {done} asks in {elapsed:.2f} s "
                  f"({done / elapsed:.0f}/s); {check}", flush=True)  # fmt: skip
            # Load-independent: the broker's commands (and calls) per ask, everything included
            # (the warm-up, the serving instances' heartbeats).
            print(f"  broker commands per ask: {used / (done + 5 * children):.2f}", flush=True)
            calls = command_calls(url)
            per = sorted(((n - calls_before.get(name, 0), name) for name, n in calls.items()),
                         reverse=True)  # fmt: skip
            print("    by command (scripts' own calls included): " + ", ".join(
                f"{name} {n / (done + 5 * children):.2f}" for n, name in per if n))  # fmt: skip
            print(f"  CPU per ask: children {CPU['children'] / done * 1000:.2f} ms, servers "
                  f"{CPU['servers'] / done * 1000:.2f} ms, redis {redis_cpu / done * 1000:.2f} ms",
                  flush=True)  # fmt: skip
            broker_rate = done / elapsed
            elapsed, done = throughput(envs[:1], tmp, None, None, total, children)
            print(f"  socket, 1 server:  {done} asks in {elapsed:.2f} s "
                  f"({done / elapsed:.0f}/s); broker/socket {broker_rate / (done / elapsed):.2f}",
                  flush=True)  # fmt: skip
            print(f"  CPU per ask: children {CPU['children'] / done * 1000:.2f} ms, server "
                  f"{CPU['servers'] / done * 1000:.2f} ms", flush=True)  # fmt: skip
        finally:
            stop(redis_process)
    print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


def commands(url: str) -> int:
    """The commands the broker processed so far (a script's calls inside it not counted)."""
    import redis

    return int(redis.Redis.from_url(url).info("stats")["total_commands_processed"])


def command_calls(url: str) -> dict[str, int]:
    """Calls per command so far (``INFO commandstats``; a script's own calls counted too)."""
    import redis

    stats = redis.Redis.from_url(url).info("commandstats")
    return {name.removeprefix("cmdstat_"): int(row["calls"]) for name, row in stats.items()}


def redis_client_flush(url: str) -> None:
    """Start the throughput run with an empty audit stream."""
    import redis

    from clearance.authority.forwarding.broker import Keys

    redis.Redis.from_url(url).delete(Keys("clearance", SESSION).audit)


if __name__ == "__main__":
    main()
