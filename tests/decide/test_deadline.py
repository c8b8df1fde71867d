"""The deadline over a bash decision: past it the line asks with <analysis-deadline>."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from clearance.decide import deadline
from clearance.decide.deadline import Expired, within
from clearance.decide.decision import Decision
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


def _on_worker(fn: Callable[[], object]) -> object:
    """``fn()`` on a new thread (not the main one): its result, or the exception it raised."""
    out: list[object] = []

    def run() -> None:
        try:
            out.append(fn())
        except BaseException as exc:  # Expired too
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=30)  # a fail-safe, not a timing assertion
    assert not thread.is_alive(), "the call was never interrupted"
    return out[0]


def test_within_interrupts_a_python_loop_on_a_worker_thread() -> None:
    def spin() -> None:
        while True:
            pass

    found = _on_worker(lambda: within(0.2, spin))
    assert isinstance(found, Expired)


def test_a_call_that_finished_in_time_on_a_worker_thread_is_never_interrupted_later() -> None:
    def quick_then_wait() -> str:
        value = within(0.05, lambda: "done")
        time.sleep(0.3)  # well past the deadline: nothing may arrive now
        return value

    assert _on_worker(quick_then_wait) == "done"


def test_an_error_inside_the_deadline_on_a_worker_thread_is_its_own() -> None:
    def fail() -> None:
        raise KeyError("x")

    assert isinstance(_on_worker(lambda: within(1.0, fail)), KeyError)


def test_a_bash_decision_on_a_worker_thread_past_the_deadline_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "CLEARANCE_HOME": str(tmp_path / "s")}  # fmt: skip
    engine = Engine.load(cwd=str(tmp_path), policy=json.dumps({"permission": {"*": "allow"}}),
                         env=env)  # fmt: skip
    from clearance.decide import engine as engine_module

    # The benign twin, on a worker thread under the real deadline: decided as usual.
    quick = _on_worker(lambda: engine.check(ToolCall("bash", {"command": "ls"}, str(tmp_path))))
    assert isinstance(quick, Decision) and quick.action == "allow"
    monkeypatch.setattr(engine_module, "SECONDS", 0.01)
    line = "; ".join(f"echo {i} > /tmp/x{i}" for i in range(10_000))
    found = _on_worker(lambda: engine.check(ToolCall("bash", {"command": line}, str(tmp_path))))
    assert isinstance(found, Decision)
    assert found.action == "ask" and "<analysis-deadline>" in found.reason


def _swallowing() -> str:
    """Work that swallows the deadline's exception (as a gc callback or a ``__del__`` would)."""
    try:
        time.sleep(5)
    except BaseException:
        pass
    return "finished anyway"


def test_a_deadline_swallowed_inside_the_call_still_expires_it_on_the_main_thread() -> None:
    with pytest.raises(Expired):
        within(0.1, _swallowing)
    assert within(1.0, lambda: "later calls are unaffected") == "later calls are unaffected"


def test_a_deadline_swallowed_inside_the_call_still_expires_it_on_a_worker_thread() -> None:
    assert isinstance(_on_worker(lambda: within(0.1, _swallowing)), Expired)
    assert _on_worker(lambda: within(1.0, lambda: "next")) == "next"


def test_loading_the_analyzer_is_not_counted_against_the_deadline(tmp_path: Path) -> None:
    """The deadline bounds the analysis of a line, not a cold start: in a fresh process whose
    analyzer takes longer than the deadline to load (as on a machine where dozens of hooks start
    at once), an allowed line is still allowed."""
    import subprocess
    import sys

    program = f"""
import json, time
from clearance.decide import engine as engine_module
from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.decide.gates import bash

engine_module.SECONDS = 0.3
slow = bash._load_analyze
def load():
    time.sleep(0.6)
    return slow()
bash._load_analyze = load
env = {{"HOME": {str(tmp_path)!r}, "XDG_CONFIG_HOME": {str(tmp_path / "c")!r},
       "CLEARANCE_HOME": {str(tmp_path / "s")!r}}}
policy = json.dumps({{"permission": {{"*": "ask", "bash": {{"make *": "allow"}}}}}})
engine = Engine.load(cwd={str(tmp_path)!r}, policy=policy, env=env)
found = engine.check(ToolCall("bash", {{"command": "make test"}}, {str(tmp_path)!r}))
print(found.action, found.reason)
"""
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         timeout=60, check=True)  # fmt: skip
    assert out.stdout.startswith("allow "), out.stdout + out.stderr


def test_yolo_never_lifts_the_ask_of_a_line_past_the_deadline(tmp_path: Path) -> None:
    """A deny may lie in the part of the line not analysed: yolo ("every deny survives") leaves
    ``<analysis-deadline>`` asking, as it leaves a protected path's ask."""
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
           "CLEARANCE_HOME": str(tmp_path / "s")}  # fmt: skip
    policy = json.dumps({"permission": {"*": "ask", "bash": {"*": "ask", "rm -rf ~": "deny"}}})
    engine = Engine.load(cwd=str(tmp_path), policy=policy, yolo=True, env=env)
    line = "a;" * 20_000 + "rm -rf ~"
    found = engine.check(ToolCall("bash", {"command": line}, str(tmp_path)), seconds=0.01)
    assert found.action == "ask" and "<analysis-deadline>" in found.reason
    # The benign twin: a line decided in time, whose ask yolo approves.
    short = engine.check(ToolCall("bash", {"command": "a; b"}, str(tmp_path)))
    assert short.action == "allow"


def test_a_held_run_installs_the_handler_once_and_still_interrupts() -> None:
    import signal

    def mine(signum: int, frame: object) -> None:
        pass

    before = signal.signal(signal.SIGALRM, mine)
    try:
        with deadline.Held():
            installed = signal.getsignal(signal.SIGALRM)
            assert installed is not mine  # the deadline's, for the whole run
            assert within(1.0, lambda: 7) == 7
            assert signal.getsignal(signal.SIGALRM) is installed  # not put back between calls
            assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
            started = time.monotonic()
            with pytest.raises(Expired):
                within(0.2, lambda: time.sleep(5))
            assert time.monotonic() - started < 4
            caught: list[BaseException] = []

            def swallowing() -> None:  # a deadline swallowed inside the call still expires it
                try:
                    time.sleep(5)
                except BaseException as exc:
                    caught.append(exc)

            with pytest.raises(Expired):
                within(0.2, swallowing)
            assert caught
        assert signal.getsignal(signal.SIGALRM) is mine  # the run's end puts the handler back
    finally:
        signal.signal(signal.SIGALRM, before)


def test_a_run_held_elsewhere_changes_nothing_on_another_thread() -> None:
    results: list[object] = []

    def work() -> None:
        with deadline.Held():
            try:
                within(0.2, lambda: time.sleep(5))
            except Expired:
                results.append("expired")  # the watchdog's, on this thread

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(30)
    assert results == ["expired"]


def test_a_timer_handled_after_the_call_ended_does_not_raise_in_the_callers_code() -> None:
    """The race of a timer going off just as the call returns: its Python handler runs at the
    next bytecode boundary, after ``within`` has returned. Within a held run the handler is still
    the deadline's, and it must not raise into the caller's code."""
    import signal

    with deadline.Held():
        assert within(1.0, lambda: 3) == 3
        signal.raise_signal(signal.SIGALRM)  # as the late timer would
        after = "the caller's own code ran on"
    assert after


def test_a_call_within_a_call_keeps_the_outer_deadline_in_a_held_run() -> None:
    def outer() -> None:
        within(5.0, lambda: None)  # the inner call must not clear the outer timer
        time.sleep(3)

    with deadline.Held():
        started = time.monotonic()
        with pytest.raises(Expired):
            within(0.3, outer)
        assert time.monotonic() - started < 2.5
