"""The seam between a serving session and a remote human (the web console of ``clearance serve``).

A serving session that has a remote human opens a :class:`Ticket` for every ask that escalates
to its human, before its terminal dialog (if any) is shown. Whoever answers first — the terminal
dialog or the console — claims the ticket; every later answer is refused, and the losing prompt
closes with a note. A ticket may also be *withdrawn* (its requester gave up: the HTTP hook's
client closed the connection, or the requester's connection or process is gone): nobody can
answer it any more, and the serving session abandons the request. This module holds no I/O and
knows nothing of HTTP: the console implements :class:`RemoteHuman` above this layer and hands it
to the :class:`~clearance.authority.forwarding.server.Server`.
"""

from __future__ import annotations

import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from clearance.authority.ask import Ask
    from clearance.authority.forwarding.protocol import Request
    from clearance.authority.forwarding.resolution import Resolution
    from clearance.authority.prompt import Answer, Prompt

    class RemoteHuman(Protocol):
        """Where asks are shown besides the terminal: ``open`` one ticket per escalated ask."""

        def open(
            self, request: Request, ask: Ask, prompt: Prompt, resolution: Resolution
        ) -> Ticket: ...


__all__ = ["Ticket"]


class Ticket:
    """One ask waiting for the first answer, from the terminal or the console."""

    __slots__ = (
        "_lock", "answer", "by", "closed", "decided", "link", "note", "request", "withdrawn",
    )  # fmt: skip

    def __init__(self, request: Request, link: str | None = None) -> None:
        self.request = request
        self.link = link  # the ask's address in the console, for notifications
        self.decided = threading.Event()
        self.answer: Answer | None = None
        self.by = ""
        self.note = ""
        self.closed = False
        self.withdrawn = ""  # why, once withdrawn
        self._lock = threading.Lock()

    def claim(self, answer: Answer, by: str) -> bool:
        """Record ``answer`` from ``by`` (``terminal`` or ``console …``) when nobody answered
        yet; False when another answer came first or the ask is closed."""
        with self._lock:
            if self.answer is not None or self.closed:
                return False
            self.answer, self.by = answer, by
        self.decided.set()
        return True

    def wait(self, timeout: float) -> Answer | None:
        self.decided.wait(max(timeout, 0.0))
        return self.answer

    def close(self, note: str = "") -> None:
        """Nobody may answer any more (answered, timed out, abandoned)."""
        with self._lock:
            self.closed = True
            if not self.withdrawn:
                self.note = note
        self.decided.set()

    def withdraw(self, why: str) -> bool:
        """The requester gave up (``why``): close the ticket unanswered; False when it was
        already answered or closed."""
        with self._lock:
            if self.answer is not None or self.closed:
                return False
            self.closed = True
            self.withdrawn = why
            self.note = f"withdrawn: {why}"
        self.decided.set()
        return True
