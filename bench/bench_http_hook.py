"""HTTP hook latency: ``clearance serve --listen`` answering Claude Code's http hook.

    .venv/bin/python bench/bench_http_hook.py [--n 1000] [--command-runs 40]

Starts a real ``clearance serve --listen`` on 127.0.0.1 (a temporary user, a small policy) and
POSTs Bash, Read and MCP PreToolUse payloads from one loopback client over a kept-alive
connection (as Claude Code does), timing request to answer. In the same run it times the
command hook (``clearance hook claude-code``, a whole process per call) on the same payloads.
Prints p50/p99 per payload and the ratio. Targets (issue 17): p50 <= 2 ms and p99 <= 10 ms over
HTTP; reported, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import percentile, process_times

CLEARANCE = Path(sys.executable).parent / "clearance"
POLICY = {"permission": {"*": "ask", "read": "allow", "mcp": {"github:*": "allow"},
                         "bash": {"*": "ask", "git status*": "allow"}}}  # fmt: skip


def payloads(cwd: Path) -> dict[str, bytes]:
    base = {"session_id": "bench", "transcript_path": "/dev/null", "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_use_id": "toolu_bench"}  # fmt: skip
    calls = {
        "Bash": ("Bash", {"command": "git status --short", "description": "status"}),
        "Read": ("Read", {"file_path": str(cwd / "notes.txt")}),
        "MCP": ("mcp__github__search_code", {"query": "clearance"}),
    }
    return {k: json.dumps({**base, "tool_name": t, "tool_input": i}).encode()
            for k, (t, i) in calls.items()}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--command-runs", type=int, default=40)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="clearance-bench-http-"))
    home, project = root / "home", root / "home" / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "notes.txt").write_text("notes\n")
    (root / "config" / "clearance").mkdir(parents=True)
    (root / "config" / "clearance" / "config.jsonc").write_text(json.dumps(POLICY))
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CONFIG_HOME": str(root / "config"),
           "CLEARANCE_HOME": str(root / "state")}  # fmt: skip
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    serve = subprocess.Popen(
        [str(CLEARANCE), "serve", "--listen", f"127.0.0.1:{port}", "--dir", str(project)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    try:
        token = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                token = (root / "state" / "service" / "hook-token").read_text().strip()
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/health")
                break
            except OSError:
                time.sleep(0.1)
        bodies = payloads(project)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        print(f"HTTP hook, {args.n} requests per payload, one loopback client (keep-alive):")
        http_p50 = {}
        for name, body in bodies.items():
            for _ in range(50):  # warm up: the engine is loaded once, then held
                conn.request("POST", "/hooks/claude-code", body, headers)
                conn.getresponse().read()
            samples = []
            for _ in range(args.n):
                started = time.perf_counter()
                conn.request("POST", "/hooks/claude-code", body, headers)
                answer = conn.getresponse().read()
                samples.append(time.perf_counter() - started)
            decision = json.loads(answer)["hookSpecificOutput"]["permissionDecision"]
            http_p50[name] = percentile(samples, 50)
            print(f"  {name:5} p50 {percentile(samples, 50) * 1e3:6.2f} ms  "
                  f"p99 {percentile(samples, 99) * 1e3:6.2f} ms  ({decision})")  # fmt: skip
        print(f"command hook (a process per call), {args.command_runs} runs per payload:")
        for name, body in bodies.items():
            times = process_times([str(CLEARANCE), "hook", "claude-code"],
                                  runs=args.command_runs, env=env, stdin=body)  # fmt: skip
            p50 = percentile(times, 50)
            print(f"  {name:5} p50 {p50 * 1e3:6.2f} ms  p99 {percentile(times, 99) * 1e3:6.2f} ms"
                  f"  (HTTP is {p50 / http_p50[name]:.0f}x faster at p50)")  # fmt: skip
    finally:
        serve.terminate()
        serve.wait(timeout=10)


if __name__ == "__main__":
    main()
