"""The deadline over a bash decision: past it the line asks with <analysis-deadline>."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from clearance.decide import deadline
from clearance.decide.deadline import Expired, within
from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall


def test_within_interrupts_a_call_that_runs_too_long() -> None:
    def slow() -> None:
        time.sleep(5)

    started = time.monotonic()
    with pytest.raises(Expired):
        within(0.2, slow)
    assert time.monotonic() - started < 4


def test_within_returns_what_a_quick_call_returns_and_clears_its_timer() -> None:
    import signal

    assert within(1.0, lambda: 42) == 42
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_a_bash_decision_past_the_deadline_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "CLEARANCE_HOME": str(tmp_path / "s")}  # fmt: skip
    engine = Engine.load(cwd=str(tmp_path), policy=json.dumps({"permission": {"*": "allow"}}),
                         env=env)  # fmt: skip
    from clearance.decide import engine as engine_module

    # A real line that takes far longer than the deadline set here (10,000 commands).
    monkeypatch.setattr(engine_module, "SECONDS", 0.01)
    line = "; ".join(f"echo {i} > /tmp/x{i}" for i in range(10_000))
    found = engine.check(ToolCall("bash", {"command": line}, str(tmp_path)))
    assert found.action == "ask" and "<analysis-deadline>" in found.reason
    assert deadline.SECONDS == 2.0
