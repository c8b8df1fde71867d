"""``clearance check --batch`` throughput on real agent commands, next to the in-process figure.

Run: .venv/bin/python bench/bench_batch.py [--rounds N] [--corpus FILE | --commands FILE]
(``--commands bench/shell_corpus.txt``: a plain list of commands, all in one project.)
The lines are the corpus of bench_corpus.py (real coding-agent commands; bench/corpus/SOURCES.md), each with
its project relocated under a scratch directory (as bench_corpus.py does), decided under the
built-in policy. Printed: commands per second through ``clearance check --batch`` (process start, policy
load and JSON in and out included) as it runs by default, one worker process per CPU, and with
``--jobs 1`` (one process), and in process (``Engine.check`` in a loop, the same lines), measured
in the same run: in wall time, and in CPU time (the children's rusage, workers included; the
loop's process time), which a shared machine's load does not inflate.
A process that finds no bytecode for clearance's modules compiles them from source at start
(an editable install run with ``PYTHONDONTWRITEBYTECODE``: about a tenth of the batch's CPU);
an installed clearance has its bytecode. So the batch is also measured with bytecode cached, in
a scratch ``PYTHONPYCACHEPREFIX`` written by one run beforehand (the tree is left alone).
Target (issue 13): ``check --batch`` >= 5,000 realistic commands a second (wall; on an idle
machine, the workers each have a CPU). Reported, not asserted.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_corpus import corpus_records, relocate

from clearance.decide.engine import Engine
from clearance.hosts.facts import HOST_FACTS
from clearance.intent.call import ToolCall

BIN = os.path.join(os.path.dirname(sys.executable), "clearance")


def main() -> None:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    records = corpus_records()
    with tempfile.TemporaryDirectory(prefix="clearance-batch-") as scratch:
        root = os.path.realpath(scratch)
        items = relocate(records, root)
        home = root + "/Users/agent"
        os.makedirs(home, exist_ok=True)
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=root + "/config",
                   CLEARANCE_HOME=root + "/state")  # fmt: skip
        lines = "".join(
            json.dumps({"tool": "bash", "input": {"command": c}, "cwd": cwd}) + "\n"
            for c, cwd in items
        )
        compiled = dict(env, PYTHONPYCACHEPREFIX=root + "/bytecode")
        compiled.pop("PYTHONDONTWRITEBYTECODE", None)
        _batch(lines, compiled, len(items))  # writes the bytecode of every module the batch uses
        batch: list[float] = []
        inproc: list[float] = []
        engines: dict[str, Engine] = {}
        batch_cpu: list[float] = []
        cached: list[float] = []
        cached_cpu: list[float] = []
        inproc_cpu: list[float] = []
        alone: list[float] = []
        alone_cpu: list[float] = []
        for _ in range(rounds):  # interleaved, so all see the same load on a shared machine
            wall, cpu = _batch(lines, env, len(items))
            batch.append(wall)
            batch_cpu.append(cpu)
            wall, cpu = _batch(lines, env, len(items), "--jobs", "1")
            alone.append(wall)
            alone_cpu.append(cpu)
            wall, cpu = _batch(lines, compiled, len(items))
            cached.append(wall)
            cached_cpu.append(cpu)
            saved = dict(os.environ)
            os.environ.update(env)
            try:
                started = time.perf_counter()
                cpu = time.process_time()
                for command, cwd in items:
                    engine = engines.get(cwd)
                    if engine is None:
                        engine = engines[cwd] = Engine.load(cwd=cwd, env=env, host=HOST_FACTS)
                    engine.check(ToolCall("bash", {"command": command}, cwd))
                inproc.append(time.perf_counter() - started)
                inproc_cpu.append(time.process_time() - cpu)
            finally:
                os.environ.clear()
                os.environ.update(saved)
    n = len(items)
    jobs = len(os.sched_getaffinity(0))
    print(f"{n} real agent commands, best of {rounds} interleaved rounds, built-in policy, "
          f"{jobs} CPUs")  # fmt: skip
    print(f"{'what':>44} | {'wall cmd/s':>11} | {'CPU cmd/s':>10}")
    for what, wall, cpu in (
        (f"check --batch ({jobs} workers, the default)", batch, batch_cpu),
        ("… with bytecode cached (as installed)", cached, cached_cpu),
        ("check --batch --jobs 1 (one process)", alone, alone_cpu),
        ("in process (Engine.check loop, one thread)", inproc, inproc_cpu),
    ):
        print(f"{what:>44} | {n / min(wall):11,.0f} | {n / min(cpu):10,.0f}")
    print(f"one process / in-process (CPU): {min(inproc_cpu) / min(alone_cpu):.2f}; "
          f"workers' wall / one process's wall: {min(alone) / min(batch):.2f}")  # fmt: skip
    for what, wall in (("check --batch", batch), ("with bytecode cached", cached)):
        best = n / min(wall)
        verdict = "OK" if best >= 5000 else "below target"
        print(f"target: {what} >= 5,000 commands/s (wall) -> {best:,.0f} {verdict}")


def _batch(lines: str, env: dict[str, str], expected: int, *flags: str) -> tuple[float, float]:
    """One ``clearance check --batch`` over ``lines``: its wall time and its CPU time (its
    workers' included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([BIN, "check", "--batch", *flags], input=lines, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    answers = done.stdout.count("\n")
    if answers != expected:
        raise SystemExit(f"check --batch answered {answers} of {expected} lines: "
                         f"{done.stderr[:400]}")  # fmt: skip
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


if __name__ == "__main__":
    main()
