"""Shared timing helpers for the benchmarks: medians, percentiles, process start-up."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence


def percentile(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def per_call(fn: Callable[[], object], *, repeat: int, inner: int = 1) -> list[float]:
    """Seconds per call, ``repeat`` samples of ``inner`` calls each."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - started) / inner)
    return samples


def process_times(
    argv: Sequence[str], *, runs: int, env: dict[str, str] | None = None, stdin: bytes = b""
) -> list[float]:
    """Wall-clock seconds of whole processes, from spawn to exit."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(
            list(argv), input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        samples.append(time.perf_counter() - started)
    return samples


def interleaved(
    commands: dict[str, Sequence[str]],
    *,
    runs: int,
    env: dict[str, str] | None = None,
    stdin: bytes = b"",
) -> dict[str, list[float]]:
    """Process times for several commands, interleaved so machine noise hits all alike."""
    out: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            out[name] += process_times(argv, runs=1, env=env, stdin=stdin)
    return out


def bare_python() -> list[str]:
    """The interpreter the hook runs under, doing nothing (the baseline of every ratio)."""
    return [sys.executable, "-c", "pass"]


def clearance_command() -> list[str]:
    """The installed console script, run by the same interpreter."""
    script = os.path.join(os.path.dirname(sys.executable), "clearance")
    return [sys.executable, script]


def compile_sources() -> None:
    """Write .pyc files, as an installed package has (PYTHONDONTWRITEBYTECODE would skip it)."""
    import compileall

    src = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    compileall.compile_dir(src, quiet=1)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:8.1f} µs"


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)
