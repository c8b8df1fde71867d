"""The deadline: whatever the input, a bash decision completes in about two seconds.

A host may let a call run when its hook times out, so a slow analysis would be a
hole. The bash gate therefore runs under a wall-clock deadline (:data:`SECONDS`, far below any
host's hook timeout): past it the analysis is interrupted and the line asks, naming
``<analysis-deadline>``. The glob walker and brace expansion keep their own, tighter bounds
(``docs/shell-analysis.md``); this is the guard over everything together.

The interruption is a ``SIGALRM`` timer, which only the main thread can set. Elsewhere (a
long-lived server's worker thread) the guard is off and the per-step bounds alone apply.
"""

from __future__ import annotations

# The C module: `signal` itself loads `enum`, milliseconds on a cold start.
import _signal as signal  # type: ignore[import-not-found]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = ["SECONDS", "Expired", "within"]

SECONDS = 2.0


class Expired(BaseException):
    """The deadline passed. A ``BaseException``, like ``KeyboardInterrupt``: the analysis
    turns any ``Exception`` into its fail-closed answer, and this one must reach the gate."""


def _expire(signum: int, frame: FrameType | None) -> None:
    raise Expired


def within(seconds: float, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, raising :class:`Expired` when it takes longer than ``seconds``
    (when this is the main thread and no other timer is set; else just the call)."""
    try:
        previous = signal.signal(signal.SIGALRM, _expire)
    except ValueError:  # not the main thread
        return fn(*args, **kwargs)
    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:  # someone else's timer: leave it alone
        signal.signal(signal.SIGALRM, previous)
        return fn(*args, **kwargs)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        result: T = fn(*args, **kwargs)
        return result
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
