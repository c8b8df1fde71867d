"""Policy engine benchmark: decision time vs rule count, and cold `clearance check` start-up.

Run: .venv/bin/python bench/bench_policy.py
Prints a table; targets: the 10,000-rule check within 2x the 100-rule check, a cold
`clearance check` on a non-bash call within 2.5x of a bare `python -c pass` (issue 2), and a
cold bash check within 3x (issue 4).
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _timing import (
    bare_python,
    clearance_command,
    compile_sources,
    interleaved,
    median,
    ms,
    per_call,
    percentile,
    us,
)

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

WORDS = ["git", "npm", "cargo", "docker", "kubectl", "make", "pytest", "terraform", "aws", "gh"]
SUBS = ["status", "run", "build", "push", "apply", "test", "deploy", "logs", "exec", "list"]


def policy_with(n: int, seed: int = 7) -> str:
    """A realistic policy with ``n`` rules spread over bash, mcp, tools and paths."""
    rng = random.Random(seed)
    bash: dict[str, str] = {"*": "ask"}
    mcp: dict[str, str] = {"*": "ask"}
    webfetch: dict[str, str] = {"*": "ask"}
    path: dict[str, str] = {}
    actions = ["allow", "ask", "deny"]
    i = 0
    while len(bash) + len(mcp) + len(webfetch) + len(path) < n:
        i += 1
        kind = i % 4
        if kind == 0:
            bash[f"{rng.choice(WORDS)}{i} {rng.choice(SUBS)} *"] = rng.choice(actions)
        elif kind == 1:
            mcp[f"server{i}:*"] = rng.choice(actions)
        elif kind == 2:
            webfetch[f"https://host{i}.example/*"] = rng.choice(actions)
        else:
            path[f"/srv/data{i}/*"] = rng.choice(actions)
    bash["git status*"] = "allow"
    return json.dumps(
        {"permission": {"*": "ask", "bash": bash, "mcp": mcp, "webfetch": webfetch, "path": path}}
    )


CALLS = [
    ToolCall("bash", {"command": "git status --short"}, "/"),
    ToolCall("bash", {"command": "npm run build"}, "/"),
    ToolCall("mcp", {"server": "github", "tool": "search"}, "/"),
    ToolCall("webfetch", {"url": "https://docs.python.org/3/"}, "/"),
    ToolCall("task", {"subagent_type": "Explore"}, "/"),
]


def in_process() -> list[tuple[int, float, float]]:
    rows = []
    for n in (10, 100, 1_000, 10_000):
        engine = Engine.load(cwd="/", policy=policy_with(n))
        assert len(engine.policy.rules) >= n

        def decide_all(engine: Engine = engine) -> None:
            for call in CALLS:
                engine.check(call)

        samples = [s / len(CALLS) for s in per_call(decide_all, repeat=300, inner=5)]
        rows.append((n, median(samples), percentile(samples, 99)))
    return rows


def cold_start(runs: int) -> dict[str, list[float]]:
    compile_sources()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.update(
            HOME=tmp,
            XDG_CONFIG_HOME=os.path.join(tmp, "config"),
            CLEARANCE_HOME=os.path.join(tmp, "state"),
        )
        config = os.path.join(tmp, "config", "clearance", "config.jsonc")
        os.makedirs(os.path.dirname(config))
        with open(config, "w") as handle:
            handle.write(policy_with(100))
        check = [*clearance_command(), "check", "read", "notes.md"]
        # A literal line is read without the parser; the other one loads tree-sitter.
        bash = [*clearance_command(), "check", "bash", "git status && npm run build"]
        parsed = [*clearance_command(), "check", "bash", 'git log | grep "$(whoami)" > log']
        interleaved({"warm": check}, runs=2, env=env)  # fill the compiled-policy cache
        return interleaved(
            {"python -c pass": bare_python(), "clearance check read": check,
             "clearance check bash": bash, "check bash (parsed)": parsed},
            runs=runs,
            env=env,
        )  # fmt: skip


def main() -> None:
    print("In-process check time (median over 5 calls: bash, bash, mcp, webfetch, task)")
    print(f"{'rules':>8} | {'median':>11} | {'p99':>11} | vs 100 rules")
    rows = in_process()
    base = next(m for n, m, _ in rows if n == 100)
    for n, med, p99 in rows:
        print(f"{n:>8} | {us(med)} | {us(p99)} | {med / base:5.2f}x")
    ratio = next(m for n, m, _ in rows if n == 10_000) / base
    print(
        f"target: 10,000 rules within 2x of 100 rules -> {ratio:.2f}x "
        f"{'OK' if ratio <= 2 else 'MISSED'}"
    )
    print()
    runs = int(os.environ.get("BENCH_RUNS", "40"))
    times = cold_start(runs)
    bare = median(times["python -c pass"])
    print(f"Cold process start ({runs} runs each, interleaved, compiled-policy cache warm)")
    print(f"{'command':>24} | {'median':>11} | {'p95':>11} | vs bare")
    for name, samples in times.items():
        print(
            f"{name:>24} | {ms(median(samples))} | {ms(percentile(samples, 95))} | "
            f"{median(samples) / bare:5.2f}x"
        )
    ratio = median(times["clearance check read"]) / bare
    print(
        f"target: cold non-bash check within 2.5x of bare python -> {ratio:.2f}x "
        f"{'OK' if ratio <= 2.5 else 'MISSED'}"
    )
    for name in ("clearance check bash", "check bash (parsed)"):
        ratio = median(times[name]) / bare
        print(
            f"target: cold bash check within 3x of bare python ({name}) -> {ratio:.2f}x "
            f"{'OK' if ratio <= 3 else 'MISSED'}"
        )


if __name__ == "__main__":
    main()
