"""What the console sees of the serving session, and the only way it acts on it.

:class:`Broker` is the interface between the web console and the serving session:

* **pending asks** — ``pending()``, ``subscribe()`` (a wake-up on every change, for Server-Sent
  Events) and ``answer(id, answer, by)``; the first answer wins, from the console or the
  terminal dialog (:class:`~clearance.authority.forwarding.remote.Ticket`); ``withdraw(ask_id,
  why)`` takes back the ask of a requester that gave up (the HTTP hook's client disconnected),
  and the serving session abandons it;
* **recent decisions** — ``recent(...)``, from the review log, filtered like ``clearance log``;
  ``decisions(...)`` adds, with a broker (``use_audit``), the latest entries of the broker's
  audit stream decided by the session's other serving instances;
* **session grants** — ``grants()`` and ``revoke(...)``, the serving session's own grants.

It implements :class:`~clearance.authority.forwarding.remote.RemoteHuman`, so the serving
session opens a ticket here for every ask that escalates to its human.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

from clearance.authority.forwarding.remote import Ticket

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from clearance.authority.ask import Ask
    from clearance.authority.forwarding.protocol import Request
    from clearance.authority.forwarding.resolution import Resolution
    from clearance.authority.prompt import Answer, Prompt
    from clearance.decide.grant import GrantStore

__all__ = ["Broker", "Pending", "machine_label"]

_TAIL = 1 << 20  # the review log's last MiB is what "recent" reads
_REMEMBER = 1024  # withdrawn asks remembered (not yet shown, or shown and gone)
AUDIT_READ = 200  # the broker's audit entries "recent decisions" reads (XREVRANGE COUNT)


class Pending:
    """One ask waiting on the console: its ticket and everything the human is shown."""

    __slots__ = ("created", "expires", "id", "prompt", "request", "resolution", "ticket")

    def __init__(
        self, request: Request, prompt: Prompt, resolution: Resolution, ticket: Ticket
    ) -> None:
        self.id = request.id
        self.request = request
        self.prompt = prompt
        self.resolution = resolution
        self.ticket = ticket
        self.created = request.created
        self.expires = request.expires

    def view(self) -> dict[str, Any]:
        """The ask's whole provenance, as plain data (rendered by ``pages``)."""
        from clearance.hosts.names import host_label

        request, prompt = self.request, self.prompt
        who = request.requester
        return {
            "id": self.id, "title": prompt.title, "requester": prompt.requester,
            "host": host_label(who.host), "machine": machine_label(who.machine),
            "agent": who.agent, "session": who.session,
            "cwd": who.cwd, "tool": who.tool,
            "surface": who.surface, "value": who.value, "reason": request.reason,
            "via": list(request.via), "rule": prompt.rule, "reasons": list(prompt.reasons),
            "asking": list(prompt.asking), "created": self.created, "expires": self.expires,
            "gates": [
                {"gate": g.gate, "surface": g.surface, "value": g.value, "unit": g.unit,
                 "sentinel": g.sentinel, "message": g.message, "values": list(g.values)}
                for g in request.gates
            ],
            "patterns": [{"surface": g.surface, "pattern": g.pattern} for g in request.grants],
            "resolved": [
                {"gate": g.gate, "surface": g.surface, "value": g.value, "action": g.action,
                 "message": g.message}
                for g in self.resolution.gates
            ],
        }  # fmt: skip


def machine_label(machine: str | None) -> str:
    """Which machine an ask came from, as the console shows it."""
    if not machine:
        return "unknown machine"
    return f"{machine} (this machine)" if machine == os.uname().nodename else machine


class Broker:
    """The console's view of one serving session (``session`` with its ``state`` root)."""

    def __init__(
        self,
        *,
        session: str,
        state: str,
        log_path: str | None,
        write: Callable[[str, dict[str, Any]], object] | None = None,
    ) -> None:
        self.session = session
        self.session_grants: Callable[[], GrantStore] | None = None  # see use_grants()
        self.audit: Callable[[int], list[dict[str, Any]]] | None = None  # see use_audit()
        self.state = state
        self.log_path = log_path
        self.write = write
        self._pending: dict[str, Pending] = {}
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        self._withdrawn: OrderedDict[str, str] = OrderedDict()  # ask id → why (not shown yet)
        self._gone: OrderedDict[str, str] = OrderedDict()  # request id → why it was withdrawn
        self.version = 0
        self.base = ""  # the console's address, once it listens (for deep links)

    # -- the serving session's side (RemoteHuman) --------------------------------------------

    def open(self, request: Request, ask: Ask, prompt: Prompt, resolution: Resolution) -> Ticket:
        link = f"{self.base}/#ask-{request.id}" if self.base else None
        ticket = _Ticket(request, self, link)
        with self._lock:
            why = self._withdrawn.pop(request.ask_id, None) if request.ask_id else None
            if why is None:
                self._pending[request.id] = Pending(request, prompt, resolution, ticket)
        if why is not None:  # its requester gave up before the ask got here
            ticket.withdraw(why)
            return ticket
        self._changed()
        return ticket

    def withdraw(self, ask_id: str, why: str) -> int:
        """Withdraw the ask ``ask_id`` (the id its requester gave it) because its requester gave
        up; when it has not reached the console yet, it is withdrawn as soon as it does. How
        many pending asks were withdrawn now."""
        with self._lock:
            found = [p for p in self._pending.values() if p.request.ask_id == ask_id]
            if not found:
                self._withdrawn[ask_id] = why
                while len(self._withdrawn) > _REMEMBER:
                    self._withdrawn.popitem(last=False)
        return sum(1 for p in found if p.ticket.withdraw(why))

    def _closed(self, request_id: str, withdrawn: str = "") -> None:
        with self._lock:
            gone = self._pending.pop(request_id, None)
            if withdrawn:
                self._gone[request_id] = withdrawn
                while len(self._gone) > _REMEMBER:
                    self._gone.popitem(last=False)
        if gone is not None:
            self._changed()

    # -- pending asks --------------------------------------------------------------------------

    def pending(self) -> list[Pending]:
        with self._lock:
            return sorted(self._pending.values(), key=lambda p: p.created)

    def find(self, request_id: str) -> Pending | None:
        with self._lock:
            return self._pending.get(request_id)

    def answer(self, request_id: str, answer: Answer, by: str) -> str | None:
        """Answer a pending ask; ``None`` when it was taken, else why not (already answered,
        elsewhere or here, or gone)."""
        with self._lock:
            found = self._pending.get(request_id)
        if found is None:
            return self.why_gone(request_id)
        if not found.ticket.claim(answer, by):
            first = found.ticket.by or "elsewhere"
            return f"this ask was already answered ({first})"
        return None

    def why_gone(self, request_id: str) -> str:
        """Why ``request_id`` is not pending (a sentence without its capital and full stop)."""
        with self._lock:
            withdrawn = self._gone.get(request_id)
        if withdrawn is not None:
            return f"this ask was withdrawn and abandoned: {withdrawn}"
        return "this ask is no longer pending (answered elsewhere, withdrawn or timed out)"

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake()`` (from any thread) on every change; returns the unsubscribe."""
        with self._lock:
            self._listeners.append(wake)

        def cancel() -> None:
            with self._lock:
                if wake in self._listeners:
                    self._listeners.remove(wake)

        return cancel

    def _changed(self) -> None:
        with self._lock:
            self.version += 1
            listeners = list(self._listeners)
        for wake in listeners:
            try:
                wake()
            except Exception:
                pass

    # -- recent decisions ----------------------------------------------------------------------

    def recent(
        self,
        *,
        limit: int = 50,
        tool: str | None = None,
        decision: str | None = None,
        session: str | None = None,
        since: str | None = None,
    ) -> list[dict[str, Any]]:
        """The latest review-log records that pass the filter, newest first."""
        from clearance.audit.reader import LogFilter, _parse

        if self.log_path is None:
            return []
        keep = LogFilter(tool=tool or None, decision=decision or None, session=session or None,
                         since=since or None)  # fmt: skip
        try:
            with open(self.log_path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                handle.seek(max(0, size - _TAIL))
                lines = handle.read().splitlines()
        except OSError:
            return []
        if size > _TAIL and lines:
            lines = lines[1:]  # a partial first line
        out: list[dict[str, Any]] = []
        for raw in reversed(lines):
            record = _parse(raw)
            if record is not None and keep.matches(record):
                out.append(record)
                if len(out) >= limit:
                    break
        return out

    def use_audit(self, recent: Callable[[int], list[dict[str, Any]]]) -> None:
        """Show, beside the review log, the broker's audit stream: ``recent(count)`` is its
        latest entries, newest first (``RedisInbound.recent_audit``; raises ``OSError`` when
        the broker cannot be read)."""
        self.audit = recent

    def decisions(
        self, filters: dict[str, str], *, limit: int = 50
    ) -> tuple[list[dict[str, Any]], str | None]:
        """The recent decisions, newest first: the review log's, and with a broker the audit
        stream's entries decided by the session's other instances (this instance's own are in
        its log already), merged by time; and a note when the broker could not be read (the
        review log's are shown alone). ``filters``: ``tool``, ``decision``, ``session`` and
        ``since``, as ``recent`` takes them."""
        from clearance.audit.reader import LogFilter, record_stamp

        records = self.recent(limit=limit, **filters)
        if self.audit is None:
            return records, None
        keep = LogFilter(**{name: value or None for name, value in filters.items()})
        try:
            entries = self.audit(AUDIT_READ)
        except OSError as exc:
            from clearance._fault import os_reason

            return records, (f"The decisions of the session's other serving instances are "
                             f"unavailable: its broker could not be read ({os_reason(exc)}). "
                             "Only this machine's review log is shown.")  # fmt: skip
        found = [_from_audit(e) for e in entries if not e.get("mine")]
        merged = records + [r for r in found if keep.matches(r)]
        merged.sort(key=lambda r: record_stamp(r.get("timestamp")) or "", reverse=True)
        return merged[:limit], None

    # -- session grants ------------------------------------------------------------------------

    def use_grants(self, session_grants: Callable[[], GrantStore]) -> None:
        """Read and revoke the grants through the serving session's own store
        (``Server.session_grants``): with a broker, the hash every serving instance honours, on
        every machine; else the session's grants on disk."""
        self.session_grants = session_grants

    def _store(self) -> GrantStore:
        if self.session_grants is not None:
            return self.session_grants()
        from clearance.decide.grant import DiskGrants

        return DiskGrants(self.state, self.session)

    def grants(self) -> list[tuple[str, str]]:
        return [(g.surface, g.pattern) for g in self._store().grants()]

    def revoke(self, surface: str, pattern: str, by: str) -> bool:
        """Revoke one grant of the session; False when it has none such. Raises ``OSError``
        when it cannot be removed (the grant stands)."""
        from clearance.decide.grant import Grant

        store = self._store()
        grant = Grant(surface, pattern)
        if grant not in store.grants():
            return False
        store.remove([grant])  # type: ignore[attr-defined]
        if self.write is not None:
            self.write("console.grant_revoked", {"responderSession": self.session,
                                                 "surface": surface, "pattern": pattern,
                                                 "answeredBy": by})  # fmt: skip
        self._changed()
        return True


def _from_audit(entry: dict[str, Any]) -> dict[str, Any]:
    """A broker audit entry as a review-log record (``broker.answered``, ``broker.refused``,
    ``broker.abandoned``): the requester's machine, the instance that decided it."""
    from clearance.audit.log import iso_timestamp

    record = entry.get("record") or {}
    event = entry.get("event") or "unknown"
    at = record.get("at")
    machine = record.get("machine") or record.get("host")
    approved = record.get("approved")
    out: dict[str, Any] = {
        "timestamp": iso_timestamp(at if isinstance(at, int | float) else entry.get("at")),
        "event": f"broker.{event}",
        "machine": machine if isinstance(machine, str) and machine else None,
        "tool": record.get("tool"), "value": record.get("value"),
        "session": record.get("requesterSession"), "requestId": entry.get("id"),
        "decidedBy": record.get("decidedBy") or entry.get("why") or None,
        "instance": entry.get("consumer") or "?",
    }  # fmt: skip
    if event == "answered" and isinstance(approved, bool):
        out["decision"] = "allow" if approved else "deny"
    elif event in ("refused", "answered"):
        out["decision"] = "deny"
    else:
        out["resolution"] = event
    return out


class _Ticket(Ticket):
    """A ticket that leaves the console's pending list when it closes."""

    __slots__ = ("broker",)

    def __init__(self, request: Request, broker: Broker, link: str | None) -> None:
        super().__init__(request, link)
        self.broker = broker

    def close(self, note: str = "") -> None:
        super().close(note)
        self.broker._closed(self.request.id)

    def withdraw(self, why: str) -> bool:
        if not super().withdraw(why):
            return False
        self.broker._closed(self.request.id, why)
        return True
