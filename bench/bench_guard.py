"""The destructive-command guard (examples/policies/guard.jsonc) on the public test suites of two
other guards: how many of their destructive commands it stops, how many of their safe ones it
allows.

Run: .venv/bin/python bench/bench_guard.py [--list] [--time]
The cases are tests/policy/guard_suites.py (sources and licences in its header); the
per-case expectations, with the reason for every case the guard cannot meet, are asserted by
tests/policy/test_guard.py. With --time it also prints the median decision time over
bench/shell_corpus.txt under the guard, next to an allow-everything policy in the same run (the
cost of its command rules). "Stops" is deny or ask: either way the command does not run
unattended. Each command is decided in a fresh temporary directory holding a git repository,
the working directory of an agent in a project.
"""

from __future__ import annotations

import os
import sys
import tempfile

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "policy")
)

from guard_suites import CASES

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUARD = os.path.join(ROOT, "examples", "policies", "guard.jsonc")


def decide_all() -> list[tuple[str, str, str, str, str]]:
    """``(suite, file, command, verdict, action)`` for every case."""
    with open(GUARD, encoding="utf-8") as handle:
        text = handle.read()
    out = []
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as project:
        os.mkdir(os.path.join(project, ".git"))
        env = {"HOME": home, "CLEARANCE_HOME": os.path.join(home, "state")}
        engine = Engine.load(cwd=project, policy=text, env=env)
        for suite, file, command, verdict in CASES:
            decision = engine.check(ToolCall("bash", {"command": command}, project))
            out.append((suite, file, command, verdict, decision.action))
    return out


def timing() -> None:
    import time

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _timing import median, us

    with open(GUARD, encoding="utf-8") as handle:
        guard = handle.read()
    with open(os.path.join(ROOT, "bench", "shell_corpus.txt"), encoding="utf-8") as handle:
        corpus = [line.rstrip("\n").replace("\\n", "\n") for line in handle if line.strip()]
    plain = '{"permission": {"*": "allow", "bash": {"*": "allow"}}}'
    cwd = os.getcwd()
    env = {"HOME": os.path.expanduser("~")}
    engines = {name: Engine.load(cwd=cwd, policy=text, env=env)
               for name, text in (("guard", guard), ("allow everything", plain))}  # fmt: skip
    calls = [ToolCall("bash", {"command": c}, cwd) for c in corpus]
    times: dict[str, list[float]] = {name: [] for name in engines}
    for engine in engines.values():
        for call in calls[:20]:
            engine.check(call)
    for _ in range(3):
        for call in calls:
            for name, engine in engines.items():
                started = time.perf_counter()
                engine.check(call)
                times[name].append(time.perf_counter() - started)
    for name, found in times.items():
        print(f"{name:>18}: median decision {us(median(found))} over {len(corpus)} commands x 3")


def main() -> None:
    if "--time" in sys.argv:
        timing()
    results = decide_all()
    for suite in sorted({r[0] for r in results}):
        mine = [r for r in results if r[0] == suite]
        bad = [r for r in mine if "destructive" in r[3]]  # blocked in any of the suite's settings
        good = [r for r in mine if "destructive" not in r[3]]
        denied = sum(r[4] == "deny" for r in bad)
        asked = sum(r[4] == "ask" for r in bad)
        allowed = sum(r[4] == "allow" for r in good)
        print(
            f"{suite}: stops {denied + asked} of {len(bad)} destructive ({denied} denied, "
            f"{asked} asked), allows {allowed} of {len(good)} safe"
        )
    if "--list" in sys.argv:
        for suite, _file, command, verdict, action in results:
            if ("destructive" in verdict and action == "allow") or (
                "destructive" not in verdict and action != "allow"
            ):
                print(f"  {suite[:12]:12} {verdict:22} {action:5} {command!r}")


if __name__ == "__main__":
    main()
