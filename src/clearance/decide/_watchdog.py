"""The deadline's watchdog for threads other than the main one (:mod:`clearance.decide.deadline`).

One daemon thread, started on first use, holds the armed deadlines. When one passes it raises
the armed exception in the thread that armed it, with ``PyThreadState_SetAsyncExc``: the
exception arrives between two bytecodes of that thread, as a signal handler's would on the main
thread (a long call into C finishes first, exactly as under ``SIGALRM``).

Arming and disarming take one lock; the watchdog is woken only when a new deadline is earlier
than the one it waits for, so a steady stream of decisions costs no thread switch. It fires
and disarming happens under that lock, so once :meth:`Watchdog.disarm` returns nothing more is
raised in the caller: a deadline that fired is withdrawn there if it has not arrived yet, and
``disarm`` says it fired.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time

__all__ = ["WATCHDOG", "Watchdog"]

_API = ctypes.pythonapi
# PyThreadState_SetAsyncExc(id, exc) raises exc in thread id; with NULL it withdraws a pending one.
_set_async_exc = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.py_object)(
    ("PyThreadState_SetAsyncExc", _API)
)
_withdraw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)(
    ("PyThreadState_SetAsyncExc", _API)
)
_FOREVER = float("inf")


class Watchdog:
    """Deadlines of threads: :meth:`arm` one, :meth:`disarm` it when the work is done."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._armed: dict[int, tuple[float, int, type[BaseException]]] = {}
        self._count = 0
        self._until = _FOREVER  # when the watchdog wakes next
        self._thread: threading.Thread | None = None
        self.fired = 0  # how many deadlines fired (for tests and diagnostics)

    def arm(self, seconds: float, exc: type[BaseException]) -> int:
        """Raise ``exc`` in this thread ``seconds`` from now, unless disarmed before; a token."""
        deadline = time.monotonic() + seconds
        ident = threading.get_ident()
        with self._lock:
            self._count += 1
            token = self._count
            self._armed[token] = (deadline, ident, exc)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="clearance-deadline",
                                                daemon=True)  # fmt: skip
                self._thread.start()
            elif deadline < self._until:
                self._wake.notify()
        return token

    def disarm(self, token: int) -> bool:
        """Disarm ``token``; True when its deadline had already fired (its exception, if it had
        not arrived yet, is withdrawn)."""
        with self._lock:
            if self._armed.pop(token, None) is not None:
                return False
            _withdraw(threading.get_ident(), None)
            return True

    def _run(self) -> None:
        with self._lock:
            while True:
                now = time.monotonic()
                for token, (deadline, ident, exc) in list(self._armed.items()):
                    if deadline <= now:
                        del self._armed[token]
                        self.fired += 1
                        _set_async_exc(ident, exc)
                self._until = min((d for d, _, _ in self._armed.values()), default=_FOREVER)
                self._wake.wait(None if self._until == _FOREVER else self._until - now)

    def _after_fork(self) -> None:
        self.__init__()  # type: ignore[misc]


WATCHDOG = Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WATCHDOG._after_fork)
