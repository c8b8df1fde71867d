"""Heartbeats: which sessions are serving forwarded asks, and whether they are alive.

A serving session publishes ``forwarding/serving/<session>.json`` — ``{version, session, pid,
started, updated, dir, relay}`` — and rewrites it every :data:`REFRESH` seconds while it runs
(also while its human deliberates), removing it when it stops. A child judges a heartbeat
(:func:`liveness`): ``absent`` (no valid file), ``dead_pid`` (the process is gone), ``stale``
(not refreshed for :data:`STALE` seconds: hung or suspended), else ``alive`` (notes §11.5).
"""

from __future__ import annotations

import os
import time

from clearance._frozen import Frozen
from clearance.authority.forwarding.inbox import (
    forwarding_root,
    private_dir,
    read_private_json,
    safe_name,
    write_private_json,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    Liveness = Literal["alive", "absent", "dead_pid", "stale"]

__all__ = [
    "REFRESH",
    "STALE",
    "Heartbeat",
    "liveness",
    "pid_alive",
    "publish",
    "read_heartbeat",
    "serving",
    "serving_for",
    "withdraw",
]

REFRESH = 1.0
STALE = 5.0
_set = object.__setattr__


class Heartbeat(Frozen):
    __slots__ = ("directory", "pid", "relay", "session", "started", "updated")
    session: str
    pid: int
    started: float
    updated: float
    directory: str
    relay: bool

    def __init__(
        self,
        session: str,
        pid: int,
        started: float,
        updated: float,
        directory: str,
        relay: bool = False,
    ) -> None:
        for name, value in (("session", session), ("pid", pid), ("started", started),
                            ("updated", updated), ("directory", directory),
                            ("relay", relay)):  # fmt: skip
            _set(self, name, value)

    def as_json(self) -> dict[str, Any]:
        return {"version": 1, "kind": "heartbeat", "session": self.session, "pid": self.pid,
                "started": self.started, "updated": self.updated, "dir": self.directory,
                "relay": self.relay}  # fmt: skip

    @classmethod
    def from_json(cls, data: object) -> Heartbeat | None:
        if not isinstance(data, dict) or data.get("version") != 1:
            return None
        session, pid, directory = data.get("session"), data.get("pid"), data.get("dir")
        started, updated = data.get("started"), data.get("updated")
        if not (isinstance(session, str) and session and isinstance(directory, str)):
            return None
        if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
            return None
        if not all(isinstance(t, (int, float)) for t in (started, updated)):
            return None
        return cls(session, pid, float(started), float(updated), directory,  # type: ignore[arg-type]
                   data.get("relay") is True)  # fmt: skip


def _dir(state: str) -> str:
    return os.path.join(forwarding_root(state), "serving")


def _path(state: str, session: str) -> str:
    return os.path.join(_dir(state), safe_name(session) + ".json")


def publish(state: str, beat: Heartbeat) -> None:
    from clearance.policy.state import ensure_private_dir

    ensure_private_dir(state)
    private_dir(forwarding_root(state))
    private_dir(_dir(state))
    write_private_json(_path(state, beat.session), beat.as_json())


def withdraw(state: str, session: str, pid: int) -> None:
    """Remove ``session``'s heartbeat if it is still the one ``pid`` published."""
    beat = read_heartbeat(state, session)
    if beat is not None and beat.pid == pid:
        try:
            os.unlink(_path(state, session))
        except OSError:
            pass


def read_heartbeat(state: str, session: str) -> Heartbeat | None:
    try:
        return Heartbeat.from_json(read_private_json(_path(state, session)))
    except (OSError, ValueError):
        return None


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def liveness(beat: Heartbeat | None, now: float | None = None) -> Liveness:
    if beat is None:
        return "absent"
    if not pid_alive(beat.pid):
        return "dead_pid"
    if (time.time() if now is None else now) - beat.updated >= STALE:
        return "stale"
    return "alive"


def serving(state: str, *, sweep: bool = False) -> list[Heartbeat]:
    """Every live serving session; with ``sweep``, heartbeats of dead processes are removed."""
    directory = _dir(state)
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    now = time.time()
    out = []
    for name in sorted(names):
        if not name.endswith(".json") or name.startswith("."):
            continue
        try:
            beat = Heartbeat.from_json(read_private_json(os.path.join(directory, name)))
        except (OSError, ValueError):
            continue
        state_of = liveness(beat, now)
        if state_of == "alive" and beat is not None:
            out.append(beat)
        elif sweep and state_of == "dead_pid":
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass
    return out


def _contains(directory: str, cwd: str) -> bool:
    directory = directory.rstrip("/") or "/"
    return cwd == directory or cwd.startswith(directory if directory == "/" else directory + "/")


def serving_for(state: str, cwd: str, *, exclude: tuple[str, ...] = ()) -> Heartbeat | None:
    """The live serving session whose served directory holds ``cwd`` most closely (the deepest
    directory; the most recently started on a tie), not one of ``exclude``."""
    cwd = os.path.abspath(cwd)
    found = [
        b
        for b in serving(state)
        if b.session not in exclude
        and (_contains(b.directory, cwd) or _contains(b.directory, os.path.realpath(cwd)))
    ]
    if not found:
        return None
    return max(found, key=lambda b: (len(b.directory), b.started))
