"""Machine instructions per bash decision, counted by valgrind: a measure the noise of a shared
machine does not move, to compare changes whose effect is smaller than that noise.

Run: .venv/bin/python bench/bench_instructions.py   (needs `valgrind` on PATH)

Each row runs the corpus once to warm up and once more to measure, in separate processes, and
prints (measured - warm-up) / commands: the mean over the corpus, not the median that
bench_bash.py reports.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = """
import json, os, sys
sys.path.insert(0, {here!r})
from bench_bash import POLICY, commands
from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell import analyze
cwd = os.getcwd()
engine = Engine.load(cwd=cwd, policy=json.dumps(POLICY), env={{"HOME": os.path.expanduser("~")}})
lines = commands()
calls = [ToolCall("bash", {{"command": c}}, cwd) for c in lines]
def once():
    if {what!r} == "analysis":
        for line in lines:
            analyze(line, cwd=cwd, home="/home/u")
    else:
        for call in calls:
            engine.check(call)
once()
if {measure!r}:
    once()
"""


def instructions(what: str, measure: bool) -> int:
    code = WORKLOAD.format(here=HERE, what=what, measure=measure)
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, "-c", code],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"Collected : (\d+)", result.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{result.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    sys.path.insert(0, HERE)
    from bench_bash import commands

    count = len(commands())
    print(f"{count} commands, instructions per command (mean)")
    print(f"{'what':>22} | {'instructions':>12}")
    for what in ("analysis", "analysis + decision"):
        key = "analysis" if what == "analysis" else "check"
        per = (instructions(key, True) - instructions(key, False)) // count
        print(f"{what:>22} | {per:>12,}")


if __name__ == "__main__":
    main()
