"""Review-log benchmark: the cost of one append, and of importing the append path.

Run: .venv/bin/python bench/bench_audit.py [--appends N] [--runs N]
Prints a table. Process times are interleaved with a bare `python -c pass` measured in the same
run, so the numbers are read side by side (docs/decisions/0009-own-launcher.md), never asserted. Source files are compiled
to .pyc first, as an installed package has them (PYTHONDONTWRITEBYTECODE would skip that).
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time

SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
sys.path.insert(0, SRC)

from clearance.audit.log import ReviewLog  # noqa: E402

FIELDS: dict[str, object] = {
    "requestId": "req-5f0c2a9e6f1b4d0c8a3e2b7d9c1f4a6e",
    "tool": "bash",
    "agent": "main",
    "session": "0f6b9a4e-2d1c-4c8e-9a7b-3e5d1f2a4c6b",
    "surface": "bash",
    "value": 'GH_TOKEN=ghp_x gh api -H "Authorization: Bearer y" repos/o/r/pulls --paginate',
    "rule": {"surface": "bash", "pattern": "gh api *", "origin": "project"},
    "resolution": "approved",
    "decidedBy": "user",
    "cwd": "/home/user/projects/clearance",
}
WRITE_ONE = (
    "import sys\n"
    "from clearance.audit.log import ReviewLog\n"
    "ReviewLog(sys.argv[1]).write('permission_request.approved', "
    "{'tool': 'bash', 'surface': 'bash', 'value': 'API_KEY=x curl -H \"Authorization: y\" u'})\n"
)


def append_samples(directory: str, appends: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds per ReviewLog.write, per render alone, and per bare O_APPEND os.write."""
    log = ReviewLog(os.path.join(directory, "logs", "review.jsonl"))
    log.write("warm-up", FIELDS)
    writes, renders, bare = [], [], []
    clock = time.perf_counter
    for _ in range(appends):
        started = clock()
        log.write("permission_request.approved", FIELDS)
        writes.append(clock() - started)
    for _ in range(appends):
        started = clock()
        log.render("permission_request.approved", FIELDS)
        renders.append(clock() - started)
    line = log.render("permission_request.approved", FIELDS)
    bare_path = os.path.join(directory, "bare.jsonl")
    for _ in range(appends):
        started = clock()
        fd = os.open(bare_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.write(fd, line)
        os.close(fd)
        bare.append(clock() - started)
    return writes, renders, bare


def process_medians(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median wall-clock seconds per command, runs interleaved so noise hits all alike."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            started = time.perf_counter()
            subprocess.run(argv, env=env, check=True)
            samples[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) for name, values in samples.items()}


def importtime_us(module: str, runs: int) -> float:
    """Median cumulative microseconds Python's own -X importtime reports for ``module``."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    values = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stderr
        for line in out.splitlines():
            parts = [part.strip() for part in line.split("|")]
            if len(parts) == 3 and parts[2] == module:
                values.append(float(parts[1]))
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    compileall.compile_dir(SRC, quiet=1)

    with tempfile.TemporaryDirectory() as directory:
        writes, renders, bare = append_samples(directory, args.appends)
        target = os.path.join(directory, "process.jsonl")
        medians = process_medians(
            {
                "python -c pass": [sys.executable, "-c", "pass"],
                "import clearance.audit.log": [sys.executable, "-c", "import clearance.audit.log"],
                "import + one write": [sys.executable, "-c", WRITE_ONE, target],
                "import json (for scale)": [sys.executable, "-c", "import json"],
            },
            args.runs,
        )
    importtime = importtime_us("clearance.audit.log", 10)

    def p95(values: list[float]) -> float:
        return sorted(values)[int(len(values) * 0.95)]

    print(f"clearance.audit benchmark — Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print()
    print(f"{'one append (' + str(args.appends) + ' appends)':44} {'median':>12} {'p95':>12}")
    for name, values in (
        ("ReviewLog.write (render + open/write/close)", writes),
        ("  render only (cap, redact, encode)", renders),
        ("  bare open + O_APPEND write + close", bare),
    ):
        print(f"{name:44} {statistics.median(values) * 1e6:9.1f} µs {p95(values) * 1e6:9.1f} µs")
    print()
    base = medians["python -c pass"]
    print(
        f"{'process (median of ' + str(args.runs) + ', interleaved)':44} {'wall':>12} {'vs bare':>12}"
    )
    for name, seconds in medians.items():
        extra = "" if seconds is base else f"{(seconds - base) * 1000:+9.2f} ms"
        print(f"{name:44} {seconds * 1000:9.2f} ms {extra:>12}")
    print()
    print(f"{'-X importtime clearance.audit.log (cumulative)':44} {importtime / 1000:9.2f} ms")


if __name__ == "__main__":
    main()
