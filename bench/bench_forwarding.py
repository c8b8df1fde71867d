"""Forwarding: round trip of an auto-resolved forwarded ask, and throughput under 8 children.

Run: .venv/bin/python bench/bench_forwarding.py [--requests 2000] [--children 8] [--baseline REF]

A real ``clearance serve --no-human`` process serves a policy that allows ``make *``; the client
side is the child's own code path (``ForwardingAuthorizer.forward``: connect to the serving
session's socket, send the request, read the answer on the same connection), so a round trip is
what a headless agent pays on top of its own decision. The throughput run starts N child
processes that forward their share of the requests concurrently, then checks the review log:
every request answered exactly once, none lost. Target: median round trip under 5 ms.

``--baseline REF`` first runs this benchmark as it was at git revision REF (its own code, from
``git archive``), so an older transport — the file inbox of ``main`` before the socket — is
measured on the same machine in the same run.
"""

from __future__ import annotations

import collections
import json
import os
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


def request(target: str, n: int, session: str) -> Request:
    now = time.time()
    command = f"make target{n}"
    return Request(
        id=new_id(), nonce=new_nonce(), target=target, created=now, expires=now + 60,
        requester=Requester(None, session, "/tmp", "bash", "bash", command),
        reason=f"Needs approval: bash command {command!r}",
        gates=(GateFact("bash", "bash", command),),
    )  # fmt: skip


def forward_many(
    state: str,
    target: str,
    count: int,
    session: str,
    *,
    logged: bool = False,
    probe: bool = False,
) -> list[float]:
    report = None
    if logged:
        from clearance.audit.log import ReviewLog, default_log_path

        report = ReviewLog(default_log_path(state)).write
    authorizer = ForwardingAuthorizer(state=state, target=target, report=report)
    samples = []
    for n in range(count):
        started = time.perf_counter()
        if probe:  # the Claude Code hook pings the serving session before it forwards
            authorizer.transport.probe(target)
        verdict = authorizer.forward(request(target, n, session))
        samples.append(time.perf_counter() - started)
        if verdict.action != "allow":
            raise SystemExit(f"unexpected answer: {verdict}")
    return samples


def start_server(env: dict[str, str], session: str, directory: str) -> subprocess.Popen[bytes]:
    from clearance.authority.forwarding.local_child import LocalTransport
    from clearance.authority.forwarding.transport import Unreachable

    server = subprocess.Popen(
        [sys.executable, "-m", "clearance", "serve", "--session", session, "--dir", directory,
         "--policy", POLICY, "--no-human"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    transport = LocalTransport(env["CLEARANCE_HOME"], 1.0)
    deadline = time.monotonic() + 15
    while True:
        try:
            transport.probe(session)
            return server
        except Unreachable:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("the serving session did not start")
        time.sleep(0.01)


def stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    server.wait(timeout=10)


def round_trips(tmp: str, runs: int, *, probe: bool = False) -> list[float]:
    env = {**os.environ, "HOME": tmp, "CLEARANCE_HOME": os.path.join(tmp, "state-socket"),
           "PYTHONPATH": SRC}  # fmt: skip
    server = start_server(env, "BENCH", tmp)
    try:
        forward_many(env["CLEARANCE_HOME"], "BENCH", 20, "warm")  # warm caches
        return forward_many(env["CLEARANCE_HOME"], "BENCH", runs, "timed", probe=probe)
    finally:
        stop(server)


def throughput(tmp: str, total: int, children: int) -> None:
    state = os.path.join(tmp, "state-throughput")
    env = {**os.environ, "HOME": tmp, "CLEARANCE_HOME": state, "PYTHONPATH": SRC}
    server = start_server(env, "BENCH", tmp)
    share = total // children
    try:
        started = time.perf_counter()
        argv = [sys.executable, __file__, "--child", state, str(share)]
        procs = [subprocess.Popen([*argv, f"child{i}"], env=env) for i in range(children)]
        codes = [p.wait(timeout=600) for p in procs]
        elapsed = time.perf_counter() - started
    finally:
        stop(server)
    with open(os.path.join(state, "logs", "review.jsonl"), encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    answered = collections.Counter(
        r["requestId"] for r in records if r["event"] == "forwarded_permission.auto_approved"
    )
    created = {
        r["requestId"] for r in records if r["event"] == "forwarded_permission.request_created"
    }
    received = collections.Counter(
        r["requestId"] for r in records if r["event"] == "forwarded_permission.response_received"
    )
    lost = len(created - set(received))
    doubled = sum(1 for c in answered.values() if c > 1) + sum(
        1 for c in received.values() if c > 1
    )
    print(f"throughput: {children} children x {share} requests = {len(created)} requests in "
          f"{elapsed:.2f} s ({len(created) / elapsed:.0f}/s); exit codes {sorted(set(codes))}; "
          f"answered {len(answered)}, lost {lost}, double-answered {doubled}")  # fmt: skip
    if lost or doubled or len(created) != share * children or any(codes):
        raise SystemExit("FAILED: requests lost or answered twice")


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        state, count, session = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        forward_many(state, "BENCH", count, session, logged=True)
        return
    args = sys.argv[1:]
    total = int(args[args.index("--requests") + 1]) if "--requests" in args else 2000
    children = int(args[args.index("--children") + 1]) if "--children" in args else 8
    if "--baseline" in args:
        baseline(args[args.index("--baseline") + 1], total, children)
    with tempfile.TemporaryDirectory() as tmp:
        print("socket transport (this tree):")
        print(
            "round trip of an auto-resolved forwarded ask (child → serve → child, one connection):"
        )
        runs = 500
        for label, probe in (("socket", False), ("+ ping", True)):
            samples = round_trips(tmp, runs, probe=probe)
            print(f"  {label:8s} median {ms(median(samples))}  p95 "
                  f"{ms(percentile(samples, 95))}  ({runs} asks)")  # fmt: skip
        throughput(tmp, total, children)


def baseline(ref: str, total: int, children: int) -> None:
    """Run this benchmark as it was at ``ref``, with that revision's own code."""
    root = os.path.dirname(SRC)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", root, "archive", ref, "src", "bench"],
                                 capture_output=True, check=True).stdout  # fmt: skip
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = {**os.environ, "PYTHONPATH": os.path.join(tmp, "src")}
        print(f"baseline: {ref} (its own code and benchmark):", flush=True)
        done = subprocess.run(
            [sys.executable, os.path.join(tmp, "bench", "bench_forwarding.py"),
             "--requests", str(total), "--children", str(children)],
            env=env, capture_output=True, text=True, timeout=1200,
        )  # fmt: skip
        for text in (done.stdout + done.stderr).splitlines():
            print(f"  {text}")
        print(flush=True)


if __name__ == "__main__":
    main()
