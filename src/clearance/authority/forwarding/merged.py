"""Several serving sides at once: ``clearance serve --broker URL`` serves its local socket and
the broker together, as one :class:`~clearance.authority.forwarding.transport.Inbound`.

Each inbound is received from on a thread of its own, and what arrives is handed to the server's
loop through a queue, so a request on either is handled as soon as it arrives. Whole-session
grants come from the first inbound that keeps them (the broker's, shared by every instance).
"""

from __future__ import annotations

import queue
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.authority.forwarding.transport import Delivery, Inbound

__all__ = ["Merged"]

_SLICE = 0.25  # each pump receives this long at a time, then checks whether to stop


class Merged:
    def __init__(self, *inbounds: Inbound) -> None:
        self.inbounds = inbounds
        self.arrived: queue.Queue[list[Delivery]] = queue.Queue()
        self.stopping = threading.Event()
        self.threads: list[threading.Thread] = []

    def open(self) -> None:
        opened: list[Inbound] = []
        try:
            for inbound in self.inbounds:
                inbound.open()
                opened.append(inbound)
        except BaseException:
            for inbound in opened:
                inbound.close()
            raise
        for inbound in self.inbounds:
            thread = threading.Thread(target=self._pump, args=(inbound,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def _pump(self, inbound: Inbound) -> None:
        import time

        while not self.stopping.is_set():
            try:
                got = inbound.receive(_SLICE)
            except Exception:  # fail closed: nothing is delivered; try again shortly
                time.sleep(_SLICE)
                continue
            if got:
                self.arrived.put(got)

    def receive(self, timeout: float) -> list[Delivery]:
        for inbound in self.inbounds:  # what the serving loop answered since it last received
            flush = getattr(inbound, "flush", None)
            if flush is not None:
                try:
                    flush()
                except Exception:
                    pass  # unwritten answers stay pending, and are answered again
        out: list[Delivery] = []
        try:
            out.extend(self.arrived.get(timeout=max(timeout, 0.0)) if timeout > 0
                       else self.arrived.get_nowait())  # fmt: skip
            while True:
                out.extend(self.arrived.get_nowait())
        except queue.Empty:
            pass
        return out

    def close(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=5.0)
        for inbound in self.inbounds:
            inbound.close()

    def session_grants(self) -> Any:
        for inbound in self.inbounds:
            grants = getattr(inbound, "session_grants", None)
            if grants is not None:
                return grants()
        return None

    def recent_audit(self, count: int) -> Any:
        for inbound in self.inbounds:
            recent = getattr(inbound, "recent_audit", None)
            if recent is not None:
                return recent(count)
        return []
