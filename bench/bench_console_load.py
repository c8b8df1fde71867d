"""Load on ``clearance serve --listen``: policy-resolved hook calls from 8 clients, and 100 asks
waiting on the console at once.

    .venv/bin/python bench/bench_console_load.py [--clients 8] [--seconds 5] [--asks 100]

1. ``--clients`` threads, each with its own kept-alive connection, POST PreToolUse payloads the
   policy allows or denies (no human involved) for ``--seconds``; prints the rate and checks that
   every request got a well-formed decision (none lost). On Linux it also prints the CPU time the
   service spent per call (all its threads, from ``/proc``) and the rate one core would sustain
   at that cost: on a loaded machine the rate follows the load, the CPU per call much less.
2. ``--asks`` concurrent hook calls that ask, so each waits on the console; a logged-in console
   client waits until all are pending, answers every one, and checks that each call got exactly
   one allow and that a second answer to any of them is refused (none answered twice). Prints
   the time from the first answer to the last call's return.
3. ``--round-trips`` asks one at a time: the time from the console's answer (the click's POST) to
   the waiting hook call's return.
Numbers are reported, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clearance.service.wiring import LOGIN_IN_FILE

CLEARANCE = Path(sys.executable).parent / "clearance"
POLICY = {"permission": {"*": "ask", "read": "allow",
                         "bash": {"*": "ask", "git status*": "allow", "rm *": "deny"}}}  # fmt: skip


def payload(cwd: Path, command: str, session: str) -> bytes:
    return json.dumps({"session_id": session, "transcript_path": "/dev/null", "cwd": str(cwd),
                       "permission_mode": "default", "hook_event_name": "PreToolUse",
                       "tool_name": "Bash", "tool_input": {"command": command},
                       "tool_use_id": "t"}).encode()  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--asks", type=int, default=100)
    parser.add_argument("--round-trips", type=int, default=20)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="clearance-bench-console-"))
    project = root / "home" / "proj"
    (project / ".git").mkdir(parents=True)
    (root / "config" / "clearance").mkdir(parents=True)
    (root / "config" / "clearance" / "config.jsonc").write_text(json.dumps(POLICY))
    env = {"PATH": os.environ["PATH"], "HOME": str(root / "home"),
           "XDG_CONFIG_HOME": str(root / "config"), "CLEARANCE_HOME": str(root / "state"),
           "CLEARANCE_FORWARDING_GRACE_MS": "5000"}  # fmt: skip
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    serve = subprocess.Popen(
        [str(CLEARANCE), "serve", "--listen", f"127.0.0.1:{port}", "--dir", str(project)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
        text=True,
    )  # fmt: skip
    try:
        login = ""
        assert serve.stdout is not None
        for line in serve.stdout:
            if "/login?t=" in line:
                login = line.strip()
                break
            if line.startswith(LOGIN_IN_FILE):  # no terminal: serve names the file instead
                login = Path(line[len(LOGIN_IN_FILE) :].strip()).read_text().strip()
                break
        threading.Thread(target=serve.stdout.read, daemon=True).start()
        token = (root / "state" / "service" / "hook-token").read_text().strip()
        headers = {"Authorization": f"Bearer {token}"}
        cookie, csrf = console_login(port, login)
        throughput(port, headers, project, args.clients, args.seconds, serve.pid)
        waiting(port, headers, project, cookie, csrf, args.asks)
        round_trip(port, headers, project, cookie, csrf, args.round_trips)
    finally:
        serve.terminate()
        serve.wait(timeout=20)


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU time of process ``pid`` so far (Linux), else ``None``."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throughput(
    port: int,
    headers: dict[str, str],
    project: Path,
    clients: int,
    seconds: float,
    pid: int | None = None,
) -> None:
    bodies = [payload(project, "git status", "s"), payload(project, "rm -rf x", "s")]
    counts = [0] * clients
    bad = [0] * clients
    stop = time.monotonic() + seconds

    def client(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n = 0
        while time.monotonic() < stop:
            conn.request("POST", "/hooks/claude-code", bodies[n % 2], headers)
            answer = json.loads(conn.getresponse().read())
            decision = answer["hookSpecificOutput"]["permissionDecision"]
            if decision != ("allow" if n % 2 == 0 else "deny"):
                bad[index] += 1
            n += 1
        counts[index] = n

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    cpu_before = cpu_seconds(pid) if pid is not None else None
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    cpu_after = cpu_seconds(pid) if pid is not None else None
    total = sum(counts)
    print(f"{clients} clients, {elapsed:.1f} s: {total} policy-resolved calls, "
          f"{total / elapsed:.0f}/s, {sum(bad)} wrong or missing answers")  # fmt: skip
    if cpu_before is not None and cpu_after is not None and total and cpu_after > cpu_before:
        per_call = (cpu_after - cpu_before) / total
        print(f"service CPU per call: {per_call * 1e3:.3f} ms "
              f"(one core at that cost: {1 / per_call:.0f}/s)")  # fmt: skip


def waiting(
    port: int, headers: dict[str, str], project: Path, cookie: str, csrf: str, asks: int
) -> None:
    results: dict[int, str] = {}
    lock = threading.Lock()

    def ask(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        conn.request(
            "POST", "/hooks/claude-code", payload(project, f"mkdir d{index}", f"c{index}"), headers
        )
        answer = json.loads(conn.getresponse().read())["hookSpecificOutput"]["permissionDecision"]
        with lock:
            results[index] = results.get(index, "") + answer

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(asks)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120
    ids: list[str] = []
    while time.monotonic() < deadline:
        ids = re.findall(r'<article class=ask id="ask-([^"]+)"', get(port, "/", cookie))
        if len(ids) >= asks:
            break
        time.sleep(0.2)
    print(f"{len(ids)} of {asks} asks pending on the console at once")
    started = time.monotonic()
    twice = 0
    for ident in ids:
        status = post(port, f"/asks/{ident}", {"action": "once", "csrf": csrf}, cookie)
        again = post(port, f"/asks/{ident}", {"action": "deny", "csrf": csrf}, cookie)
        twice += again == 200 or status != 200
    for thread in threads:
        thread.join(timeout=120)
    elapsed = time.monotonic() - started
    allowed = sum(1 for v in results.values() if v == "allow")
    print(f"answered {len(ids)} from the console in {elapsed:.1f} s: {allowed} calls got exactly "
          f"one allow, {asks - len(results)} got nothing, {twice} answered twice")  # fmt: skip


def round_trip(
    port: int, headers: dict[str, str], project: Path, cookie: str, csrf: str, runs: int
) -> None:
    """One ask at a time: from the console's answer (the click) to the hook call's return."""
    from _timing import percentile

    samples = []
    for index in range(runs):
        done = threading.Event()

        def ask(i: int = index, done: threading.Event = done) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            conn.request("POST", "/hooks/claude-code", payload(project, f"mkdir r{i}", f"r{i}"),
                         headers)  # fmt: skip
            conn.getresponse().read()
            done.set()

        thread = threading.Thread(target=ask)
        thread.start()
        ids: list[str] = []
        while not ids:
            ids = re.findall(r'<article class=ask id="ask-([^"]+)"', get(port, "/", cookie))
            time.sleep(0.02)
        started = time.perf_counter()
        post(port, f"/asks/{ids[0]}", {"action": "once", "csrf": csrf}, cookie)
        done.wait(60)
        samples.append(time.perf_counter() - started)
        thread.join()
    print(f"console round trip (answer posted -> the waiting hook call returns), {runs} asks: "
          f"p50 {percentile(samples, 50) * 1e3:.1f} ms, "
          f"p95 {percentile(samples, 95) * 1e3:.1f} ms")  # fmt: skip


def console_login(port: int, login: str) -> tuple[str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", login.split(str(port), 1)[1])
    response = conn.getresponse()
    response.read()
    cookie = (response.getheader("set-cookie") or "").split(";", 1)[0]
    page = get(port, "/", cookie)
    found = re.search(r'<meta name="csrf" content="([0-9a-f]+)">', page)
    return cookie, found.group(1) if found else ""


def get(port: int, path: str, cookie: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Cookie": cookie})
    return conn.getresponse().read().decode()


def post(port: int, path: str, form: dict[str, str], cookie: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, urllib.parse.urlencode(form),
                 {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
                  "Accept": "application/json"})  # fmt: skip
    response = conn.getresponse()
    response.read()
    return response.status


if __name__ == "__main__":
    main()
