"""Path-gate benchmark: a file-tool check with 10 vs 1,000 path rules.

Run: .venv/bin/python bench/bench_paths.py
Target (issue 3): the 1,000-rule check within 1.5x of the 10-rule check. The calls touch real
files (symlink resolution included), in a temporary project.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _timing import median, per_call, percentile, us

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall


def policy(n: int, root: str, seed: int = 3) -> str:
    """``n`` path rules: directory patterns under many roots, a tenth by file suffix."""
    rng = random.Random(seed)
    path: dict[str, str] = {"*.env": "deny", "*.env.example": "allow"}
    external: dict[str, str] = {"*": "ask"}
    i = 0
    while len(path) + len(external) < n:
        i += 1
        action = rng.choice(["allow", "ask", "deny"])
        if i % 10 == 0:
            path[f"*.ext{i}"] = action
        elif i % 3 == 0:
            external[f"/srv/mirror{i}/*"] = action
        else:
            path[f"{root}/vendor/pkg{i}/*"] = action
    return json.dumps({"permission": {"*": "allow", "path": path, "external_directory": external}})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.realpath(tmp)
        project = os.path.join(root, "proj")
        os.makedirs(os.path.join(project, "src"))
        for name in ("src/app.py", ".env", "README.md"):
            with open(os.path.join(project, name), "w") as handle:
                handle.write("x")
        os.symlink(os.path.join(project, ".env"), os.path.join(project, "envlink"))
        calls = [
            ToolCall("read", {"file_path": "src/app.py"}, project),
            ToolCall("write", {"file_path": os.path.join(project, "README.md")}, project),
            ToolCall("edit", {"file_path": "envlink"}, project),
            ToolCall("read", {"file_path": "/etc/hosts"}, project),
            ToolCall("grep", {"path": "src"}, project),
        ]
        rows = []
        for n in (10, 100, 1_000):
            engine = Engine.load(cwd=project, policy=policy(n, root), env={"HOME": root})
            expected = [engine.check(c).action for c in calls]
            assert expected == ["allow", "allow", "deny", "ask", "allow"], expected

            def decide_all(engine: Engine = engine) -> None:
                for call in calls:
                    engine.check(call)

            samples = [s / len(calls) for s in per_call(decide_all, repeat=300, inner=5)]
            rows.append((n, median(samples), percentile(samples, 99)))
    print(
        "File-tool check time (median per call over read, write, edit via symlink, read outside, grep)"
    )
    print(f"{'path rules':>10} | {'median':>11} | {'p99':>11} | vs 10 rules")
    base = rows[0][1]
    for n, med, p99 in rows:
        print(f"{n:>10} | {us(med)} | {us(p99)} | {med / base:5.2f}x")
    ratio = rows[-1][1] / base
    print(
        f"target: 1,000 path rules within 1.5x of 10 -> {ratio:.2f}x {'OK' if ratio <= 1.5 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
