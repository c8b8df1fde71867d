"""Bash decisions in process: analysis + decision per command over the shell corpus.

Run: .venv/bin/python bench/bench_bash.py [--thread]
Target (issue 4): median <= 100 µs per command (analysis and decision together). Printed next to
the analysis alone, measured in the same run, so the decision's own share is visible.
``--thread`` decides on a worker thread, as the HTTP hook of ``clearance serve`` does (the
deadline is then the watchdog's, not ``SIGALRM``).
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _timing import median, percentile, us

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell import analyze

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shell_corpus.txt")
POLICY = {
    "permission": {
        "*": "ask",
        "bash": {"*": "ask", "git status*": "allow", "git diff*": "allow", "ls*": "allow",
                 "cat *": "allow", "grep *": "allow", "npm test*": "allow", "rm -rf *": "deny",
                 "git push --force*": "deny", "docker *": "ask", "kubectl get *": "allow"},
        "path": {"*.env": "deny", "~/.ssh/*": "deny"},
        "external_directory": "ask",
    }
}  # fmt: skip


def commands() -> list[str]:
    with open(CORPUS, encoding="utf-8") as handle:
        return [line.rstrip("\n").replace("\\n", "\n") for line in handle if line.strip()]


def main() -> None:
    import time

    cmds = commands()
    cwd = os.getcwd()
    engine = Engine.load(cwd=cwd, policy=json.dumps(POLICY), env={"HOME": os.path.expanduser("~")})
    calls = [ToolCall("bash", {"command": c}, cwd) for c in cmds]
    for call in calls[:20]:  # warm the parser
        engine.check(call)
    analysis: list[float] = []
    decision: list[float] = []
    for _ in range(3):
        for command, call in zip(cmds, calls, strict=True):
            started = time.perf_counter()
            analyze(command, cwd=cwd, home="/home/u")
            middle = time.perf_counter()
            engine.check(call)
            decision.append(time.perf_counter() - middle)
            analysis.append(middle - started)
    print(f"{len(cmds)} commands x 3 rounds")
    print(f"{'what':>28} | {'median':>11} | {'p99':>11}")
    print(f"{'analysis only':>28} | {us(median(analysis))} | {us(percentile(analysis, 99))}")
    print(f"{'analysis + decision':>28} | {us(median(decision))} | {us(percentile(decision, 99))}")
    verdict = "OK" if median(decision) <= 100e-6 else "MISSED"
    print(
        f"target: median analysis + decision <= 100 µs -> {us(median(decision)).strip()} {verdict}"
    )


if __name__ == "__main__":
    if "--thread" in sys.argv[1:]:
        import threading

        worker = threading.Thread(target=main)
        worker.start()
        worker.join()
    else:
        main()
