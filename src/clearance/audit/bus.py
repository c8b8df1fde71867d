"""The event bus: who hears about prompts and decisions, and what happens when they fail.

A :class:`Consumer` is a one-method seam (``consume``). :meth:`EventBus.emit` calls every
subscribed consumer that accepts the event's kind, in order of subscription. A consumer that
raises is reported — as a returned warning and a ``notify.error`` line in the review log — and the
next one still runs: the bus never raises, so it can neither block nor change a decision. How long
a consumer may take is the consumer's business (:mod:`clearance.audit.notify` bounds its own).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from clearance.audit.event import Event
    from clearance.audit.log import ReviewLog

__all__ = ["Consumer", "EventBus"]


class Consumer:
    """Something that hears events. Subclasses implement :meth:`consume`."""

    __slots__ = ()

    def accepts(self, kind: str) -> bool:
        """Whether this consumer wants events of ``kind`` (default: all)."""
        return True

    def describe(self) -> str:
        """A short name for warnings; must not reveal secrets (no URL paths, no tokens)."""
        return type(self).__name__

    def consume(self, event: Event) -> None:
        """Handle one event; raising is allowed and reported by the bus."""
        raise NotImplementedError


class EventBus:
    """Fans events out to consumers; reports their failures instead of raising them."""

    __slots__ = ("_consumers", "_log")

    def __init__(self, consumers: Iterable[Consumer] = (), *, log: ReviewLog | None = None) -> None:
        self._consumers: list[Consumer] = list(consumers)
        self._log = log

    @property
    def consumers(self) -> tuple[Consumer, ...]:
        return tuple(self._consumers)

    def subscribe(self, consumer: Consumer) -> Callable[[], None]:
        """Add ``consumer``; return a function that removes it again."""
        self._consumers.append(consumer)

        def unsubscribe() -> None:
            if consumer in self._consumers:
                self._consumers.remove(consumer)

        return unsubscribe

    def emit(self, event: Event) -> list[str]:
        """Deliver ``event``; return one warning per consumer that failed (empty when none)."""
        warnings: list[str] = []
        for consumer in tuple(self._consumers):
            try:
                if not consumer.accepts(event.kind):
                    continue
                consumer.consume(event)
            except Exception as exc:
                warnings.extend(self._report(consumer, event, exc))
        return warnings

    def _report(self, consumer: Consumer, event: Event, exc: Exception) -> list[str]:
        try:
            name = consumer.describe()
        except Exception:
            name = type(consumer).__name__
        from clearance._fault import what
        from clearance.audit.review_event import NOTIFY_ERROR

        error = what(exc)
        warnings = [f"clearance: notify consumer {name} failed on {event.kind}: {error}"]
        if self._log is not None:
            logged = self._log.write(
                NOTIFY_ERROR,
                {
                    "consumer": name,
                    "kind": event.kind,
                    "requestId": event.payload.get("requestId"),
                    "error": error,
                },
            )
            if logged is not None:
                warnings.append(logged)
        return warnings
