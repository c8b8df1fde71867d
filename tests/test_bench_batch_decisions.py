"""bench/batch_decisions.py works in a fresh private scratch directory, removes it, and names it
``<root>`` in its output, so two runs compare line by line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = Path(sys.executable).parent / "clearance"


@pytest.mark.skipif(not LAUNCHER.exists(), reason="clearance is not installed beside this python")
def test_two_runs_compare_and_leave_no_scratch_behind(tmp_path: Path) -> None:
    commands = tmp_path / "commands.txt"
    commands.write_text("git status\ncat /Users/agent/work/project/README.md\nrm -rf build\n")
    scratch = tmp_path / "tmp"  # where the bench's temporary directory goes
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "PYTHONPATH": str(ROOT / "src")}
    outputs = []
    for name in ("a.jsonl", "b.jsonl"):
        out = tmp_path / name
        done = subprocess.run(
            [sys.executable, str(ROOT / "bench" / "batch_decisions.py"), str(out),
             "--commands", str(commands)],
            capture_output=True, text=True, timeout=300, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "3 decisions of 3 lines" in done.stdout
        outputs.append(out.read_text())
        assert list(scratch.iterdir()) == []  # removed once it is done
    assert outputs[0] == outputs[1]
    assert "<root>/Users/agent/work/project/README.md" in outputs[0]
    assert str(scratch) not in outputs[0] and "/tmp/clearance-batch" not in outputs[0]
