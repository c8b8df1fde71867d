"""Every decision ``clearance check --batch`` makes on the agent-command corpus, to compare runs.

Run: .venv/bin/python bench/batch_decisions.py OUT.jsonl [--policy developer] [--commands FILE]
then ``diff`` two outputs (before and after a change): a speed-up must leave every line's
action, reason and asking gates the same. The lines are those of bench_batch.py (the corpus of
bench_corpus.py, relocated under one fixed scratch root so the paths compare across runs).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_corpus import corpus_records, developer_policy, relocate

BIN = os.path.join(os.path.dirname(sys.executable), "clearance")
ROOT = "/tmp/clearance-batch-decisions"


def main() -> None:
    out_path = sys.argv[1]
    records = corpus_records()
    shutil.rmtree(ROOT, ignore_errors=True)
    os.makedirs(ROOT)
    items = relocate(records, ROOT)
    home = ROOT + "/Users/agent"
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=ROOT + "/config",
               CLEARANCE_HOME=ROOT + "/state")  # fmt: skip
    policy = None
    if "--policy" in sys.argv and sys.argv[sys.argv.index("--policy") + 1] == "developer":
        policy = developer_policy([r["command"] for r in records])
    lines = "".join(
        json.dumps({"tool": "bash", "input": {"command": c}, "cwd": cwd}
                   | ({"policy": policy} if policy else {})) + "\n"
        for c, cwd in items
    )  # fmt: skip
    done = subprocess.run([BIN, "check", "--batch"], input=lines, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    with open(out_path, "w", encoding="utf-8") as out:
        out.write(done.stdout)
    print(f"{done.stdout.count(chr(10))} decisions of {len(items)} lines -> {out_path}")


if __name__ == "__main__":
    main()
