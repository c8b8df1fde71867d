"""Time the bash analyzer over a corpus of realistic agent commands.

Usage: ``.venv/bin/python bench/bench_shell.py [--repeat N] [--corpus FILE]``

Prints, measured in the same run for scale: the cost of a bare ``python -c pass`` process, the
one-time cost of importing tree-sitter and loading the bash grammar, the import of
``clearance.intent.shell`` itself, and the median and p99 time of ``analyze`` per command
(best of ``--repeat`` passes per command, so a scheduler hiccup does not count).
In the corpus, a command's line breaks are written as the two characters ``\\n``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))


# Byte-code caching on, as for an installed package (a dev shell may export
# PYTHONDONTWRITEBYTECODE, which would time the compiler instead of the import).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
_ENV["PYTHONPATH"] = os.path.join(HERE, "..", "src")


def _process_cost(code: str, runs: int = 15) -> float:
    subprocess.run([sys.executable, "-c", code], check=True, env=_ENV)  # warm the caches
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=_ENV)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--corpus", default=os.path.join(HERE, "shell_corpus.txt"))
    args = parser.parse_args()

    with open(args.corpus, encoding="utf-8") as handle:
        corpus = [line.rstrip("\n").replace("\\n", "\n") for line in handle if line.strip()]

    bare = _process_cost("pass")
    shell_import = _process_cost("import clearance.intent.shell") - bare
    grammar_load = (
        _process_cost(
            "from tree_sitter import Language, Parser; import tree_sitter_bash as b; "
            "Parser(Language(b.language()))"
        )
        - bare
    )

    from clearance.intent.shell import analyze

    start = time.perf_counter()
    analyze("true", cwd="/w", home="/h")  # loads tree-sitter in this process
    first_call = time.perf_counter() - start

    cwd = os.getcwd()
    home = os.path.expanduser("~")
    per_command: list[float] = []
    units = 0
    for command in corpus:
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            analysis = analyze(command, cwd=cwd, home=home)
            best = min(best, time.perf_counter() - start)
        units += len(analysis.units)
        per_command.append(best)

    micro = 1e6
    rows = [
        ("python -c pass (process)", f"{bare * 1e3:8.1f} ms"),
        ("import clearance.intent.shell", f"{shell_import * 1e3:8.1f} ms"),
        ("import tree-sitter + load bash", f"{grammar_load * 1e3:8.1f} ms"),
        ("first analyze() in process", f"{first_call * 1e3:8.1f} ms"),
        (
            f"analyze median ({len(corpus)} cmds)",
            f"{statistics.median(per_command) * micro:8.1f} µs",
        ),
        ("analyze p90", f"{_percentile(per_command, 0.90) * micro:8.1f} µs"),
        ("analyze p99", f"{_percentile(per_command, 0.99) * micro:8.1f} µs"),
        ("analyze max", f"{max(per_command) * micro:8.1f} µs"),
        ("units per command (mean)", f"{units / len(corpus):8.2f}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'measure':<{width}}  value")
    print(f"{'-' * width}  {'-' * 11}")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    slowest = sorted(zip(per_command, corpus, strict=True), reverse=True)[:3]
    print("\nslowest:")
    for seconds, command in slowest:
        print(f"  {seconds * micro:8.1f} µs  {command[:70]!r}")


if __name__ == "__main__":
    main()
