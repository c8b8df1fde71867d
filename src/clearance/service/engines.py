"""Engines held in memory for the HTTP hook: one per (cwd, agent), reloaded when config changes.

Loading goes through :meth:`Engine.load`, so a reload applies exactly the validation of a
command hook: a configuration with errors fails closed (its allows ask, yolo is off) and never
loosens anything. An engine is re-checked at most every :data:`RECHECK` seconds; the loader's
cache compares the size and mtime of every file it probed, so an unchanged configuration costs
a few ``stat`` calls and a changed one is rebuilt.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.payload import Payload

__all__ = ["RECHECK", "RECHECK_VARIABLE", "EngineCache"]

RECHECK = 1.0
RECHECK_VARIABLE = "CLEARANCE_ENGINE_RECHECK_MS"  # another interval, in milliseconds
_MAX = 256


class EngineCache:
    """``get(payload, env)``: the engine for the payload's cwd and agent."""

    def __init__(
        self,
        load: Callable[[str, str | None, Mapping[str, str]], Engine] | None = None,
        *,
        recheck: float = RECHECK,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load or _default_load
        self._recheck = recheck
        self._clock = clock
        self._engines: OrderedDict[tuple[str, str | None], tuple[float, Engine]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, payload: Payload, env: Mapping[str, str]) -> Engine:
        return self.engine(payload.cwd, payload.agent_type, env)

    def fresh(self, payload: Payload, env: Mapping[str, str]) -> Engine | None:
        """The engine for the payload when one is held and needs no re-check yet, else
        ``None``: never loads (the HTTP hook decides on its event loop only with an engine at
        hand; loading, with its files and caches, is left to a worker thread, ADR 0049)."""
        key = (payload.cwd, payload.agent_type or None)
        with self._lock:
            held = self._engines.get(key)
        if held is None or self._clock() - held[0] >= self._recheck:
            return None
        return held[1]

    def engine(self, cwd: str, agent: str | None, env: Mapping[str, str]) -> Engine:
        key = (cwd, agent or None)
        now = self._clock()
        with self._lock:
            held = self._engines.get(key)
            if held is not None and now - held[0] < self._recheck:
                self._engines.move_to_end(key)
                return held[1]
        engine = self._load(cwd, agent or None, env)  # raises: the hook denies (fail closed)
        with self._lock:
            self._engines[key] = (now, engine)
            self._engines.move_to_end(key)
            while len(self._engines) > _MAX:
                self._engines.popitem(last=False)
        return engine


def _default_load(cwd: str, agent: str | None, env: Mapping[str, str]) -> Engine:
    from clearance.decide.engine import Engine
    from clearance.hosts.facts import HOST_FACTS, relocated_homes

    engine = Engine.load(cwd=cwd, agent=agent, env=env, host=HOST_FACTS)
    engine.relocated = relocated_homes(env)
    engine.grep_skips_hidden = True  # Claude Code's Grep runs ripgrep without --hidden
    return engine
