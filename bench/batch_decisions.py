"""Every decision ``clearance check --batch`` makes on the agent-command corpus, to compare runs.

Run: .venv/bin/python bench/batch_decisions.py OUT.jsonl [--policy developer] [--commands FILE]
then ``diff`` two outputs (before and after a change): a speed-up must leave every line's
action, reason and asking gates the same. The lines are those of bench_batch.py (the corpus of
bench_corpus.py, relocated under a fresh private scratch directory, removed afterwards; the
output names it ``<root>``, so the paths compare across runs).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_corpus import corpus_records, developer_policy, relocate

BIN = os.path.join(os.path.dirname(sys.executable), "clearance")
SHOWN_ROOT = "<root>"  # the scratch directory, as the output names it


def main() -> None:
    out_path = sys.argv[1]
    records = corpus_records()
    root = tempfile.mkdtemp(prefix="clearance-batch-decisions-")  # private: mode 0700
    try:
        decided, count = _decide(records, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    with open(out_path, "w", encoding="utf-8") as out:
        out.write(decided)
    print(f"{decided.count(chr(10))} decisions of {count} lines -> {out_path}")


def _decide(records: list[dict[str, str]], root: str) -> tuple[str, int]:
    """``clearance check --batch``'s output on ``records`` relocated under ``root`` (shown as
    :data:`SHOWN_ROOT`), and how many lines it was given."""
    items = relocate(records, root)
    home = root + "/Users/agent"
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=root + "/config",
               CLEARANCE_HOME=root + "/state")  # fmt: skip
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
    decided = done.stdout
    # The longer spelling first: on macOS /var/folders/… is /private/var/folders/….
    for spelling in sorted({os.path.realpath(root), root}, key=len, reverse=True):
        decided = decided.replace(spelling, SHOWN_ROOT)
    return decided, len(items)


if __name__ == "__main__":
    main()
