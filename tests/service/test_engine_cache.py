"""The service's engines: loaded on a worker thread, at hand on the event loop only while fresh
(ADR 0049); and serve stops when its HTTP listener has stopped."""

from __future__ import annotations

import threading
from typing import Any

from clearance.service.engines import RECHECK, RECHECK_VARIABLE, EngineCache


class _Payload:
    cwd = "/p"
    agent_type = None


def test_an_engine_is_at_hand_only_while_it_needs_no_recheck() -> None:
    now = [100.0]
    loads: list[str] = []

    def load(cwd: str, agent: str | None, env: Any) -> Any:
        loads.append(cwd)
        return object()

    cache = EngineCache(load, recheck=1.0, clock=lambda: now[0])
    payload: Any = _Payload()
    assert cache.fresh(payload, {}) is None and loads == []  # never loads
    engine = cache.get(payload, {})
    assert cache.fresh(payload, {}) is engine and loads == ["/p"]
    now[0] += 1.0
    assert cache.fresh(payload, {}) is None  # due for its re-check: that is a worker's job
    assert cache.get(payload, {}) is not None and loads == ["/p", "/p"]


def test_the_recheck_interval_comes_from_the_environment_when_it_makes_sense() -> None:
    from clearance.authority.forwarding.broker.keys import env_seconds

    assert env_seconds({RECHECK_VARIABLE: "2500"}, RECHECK_VARIABLE, RECHECK) == 2.5
    for bad in ("", "0", "-5", "soon"):
        assert env_seconds({RECHECK_VARIABLE: bad}, RECHECK_VARIABLE, RECHECK) == RECHECK


def test_serve_stops_when_its_http_listener_has_stopped() -> None:
    from clearance.cli.serve import _watch_listener

    class Listener:
        thread = threading.Thread(target=lambda: None)

    Listener.thread.start()
    Listener.thread.join()
    stop = threading.Event()
    why = ["stopped"]
    watcher = threading.Thread(target=_watch_listener, args=(Listener(), stop, why), daemon=True)
    watcher.start()
    assert stop.wait(timeout=30)
    assert why == ["the HTTP listener stopped"]
