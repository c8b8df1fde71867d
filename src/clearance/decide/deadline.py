"""The deadline: whatever the input, a bash decision completes in about two seconds.

A host may let a call run when its hook times out, so a slow analysis would be a
hole. The bash gate therefore runs under a wall-clock deadline (:data:`SECONDS`, far below any
host's hook timeout): past it the analysis is interrupted and the line asks, naming
``<analysis-deadline>``. The glob walker and brace expansion keep their own, tighter bounds
(``docs/shell-analysis.md``); this is the guard over everything together.

It holds on every thread:

* on the main thread (the command hook, ``clearance check``) the interruption is a ``SIGALRM``
  timer: two system calls, nothing started (and the handler installed around the call; a run of
  many calls, ``check --batch``, installs it once for the run: :class:`Held`);
* on any other thread (the HTTP hook of ``clearance serve``, which decides on worker threads) a
  watchdog thread, started on first use, raises :class:`Expired` in the late thread with
  ``PyThreadState_SetAsyncExc`` — the same way a signal handler's exception arrives, between two
  bytecodes of that thread (``docs/decisions/0020-deadline-on-every-thread.md``).

Either way :class:`Expired` reaches the caller of :func:`within` and never escapes past it into
the caller's later code. A deadline that went off is never lost: when something inside the call
swallowed the exception (a ``try`` that catches ``BaseException``, a garbage-collector callback,
a ``__del__``), :func:`within` raises :class:`Expired` once the call returns.
"""

from __future__ import annotations

# The C module: `signal` itself loads `enum`, milliseconds on a cold start.
import _signal as signal  # type: ignore[import-not-found]
from _thread import get_ident as _get_ident

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = ["SECONDS", "Expired", "Held", "within"]

SECONDS = 2.0


class Expired(BaseException):
    """The deadline passed. A ``BaseException``, like ``KeyboardInterrupt``: the analysis
    turns any ``Exception`` into its fail-closed answer, and this one must reach the gate."""


_fired = [False]  # whether the main thread's timer went off during the current call
# Whether the main thread is inside :func:`within`: a signal's Python handler runs at the next
# bytecode boundary, so a timer that goes off just as the call ends is handled after it ended,
# where raising would hit the caller's own code (with the handler held for a run).
_armed = [False]


def _expire(signum: int, frame: FrameType | None) -> None:
    _fired[0] = True
    if _armed[0]:
        raise Expired


# The thread holding the SIGALRM handler for a run of calls (:class:`Held`), else 0.
_held = [0]


class Held:
    """``with Held():`` a run of many calls on the main thread (``check --batch``) installs the
    ``SIGALRM`` handler once for the run instead of around each call, and each :func:`within`
    only sets and clears the timer: two system calls a call instead of five. Elsewhere (another
    thread, someone else's timer set, a run already held) it changes nothing."""

    __slots__ = ("previous",)

    def __init__(self) -> None:
        self.previous: Any = None

    def __enter__(self) -> Held:
        if _held[0]:
            return self
        try:
            previous = signal.signal(signal.SIGALRM, _expire)
        except ValueError:  # not the main thread
            return self
        if signal.getitimer(signal.ITIMER_REAL)[0] > 0:  # someone else's timer: leave it alone
            signal.signal(signal.SIGALRM, previous)
            return self
        self.previous = (previous,)
        _held[0] = _get_ident()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            _held[0] = 0
            signal.signal(signal.SIGALRM, self.previous[0])
            self.previous = None


def within(seconds: float, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, raising :class:`Expired` when it takes longer than ``seconds``.

    The main thread uses a ``SIGALRM`` timer (unless someone else's timer is set: then the
    watchdog); any other thread the watchdog."""
    held = _held[0] != 0 and _held[0] == _get_ident()  # the handler is in place for the run
    if held and _armed[0]:  # a call within a call: the outer timer stays, the watchdog times it
        return _watched(seconds, fn, args, kwargs)
    previous: Any = None
    if not held:
        try:
            previous = signal.signal(signal.SIGALRM, _expire)
        except ValueError:  # not the main thread
            return _watched(seconds, fn, args, kwargs)
        if signal.getitimer(signal.ITIMER_REAL)[0] > 0:  # someone else's timer: leave it alone
            signal.signal(signal.SIGALRM, previous)
            return _watched(seconds, fn, args, kwargs)
    _fired[0] = False
    outer, _armed[0] = _armed[0], True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        result: T = fn(*args, **kwargs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _armed[0] = outer
        if not held:
            signal.signal(signal.SIGALRM, previous)
    if _fired[0]:  # it went off, and something in the call swallowed it: the deadline wins
        raise Expired
    return result


def _watched(seconds: float, fn: Callable[..., T], args: Any, kwargs: Any) -> T:
    from clearance.decide._watchdog import WATCHDOG

    token = WATCHDOG.arm(seconds, Expired)
    try:
        result: T = fn(*args, **kwargs)
    finally:
        # Disarmed here, the watchdog can no longer fire; when it already did, its exception
        # is withdrawn if it has not arrived yet, and the deadline wins either way.
        if WATCHDOG.disarm(token):
            raise Expired
    return result
