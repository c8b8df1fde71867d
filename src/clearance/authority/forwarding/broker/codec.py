"""What travels through the broker, as bytes: JSON messages, beacons, the machine's name.

JSON over the broker uses the standard library's C codec. ``redis`` loads ``json`` anyway, so
this costs no import; it parses a message about ten times faster than ``clearance._json`` (which
the hook's hot path keeps to avoid importing ``json``), and writes the same compact ASCII text.
Reading stays strict: UTF-8 only, NaN and infinities refused.
"""

from __future__ import annotations

from clearance.authority.forwarding.transport import Beacon

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["beacon", "dumps", "hostname", "loads", "text"]


def dumps(value: object) -> str:
    import json

    return json.dumps(value, separators=(",", ":"), default=str)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def loads(raw: bytes | str) -> Any:
    """Strict JSON (NaN and infinities refused). Raises ``ValueError`` (bad UTF-8 included)."""
    import json

    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw  # UTF-8 only, never UTF-16
    return json.loads(text, parse_constant=_no_constant)


def beacon(raw: bytes | None) -> Beacon | None:
    """A serving instance's beacon, or ``None`` when ``raw`` is not one."""
    if not raw:
        return None
    try:
        data = loads(raw)
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    session, pid, started, directory = (data.get("session"), data.get("pid"),
                                        data.get("started"), data.get("dir"))  # fmt: skip
    if not (isinstance(session, str) and isinstance(directory, str)):
        return None
    if not isinstance(pid, int) or isinstance(pid, bool):
        return None
    if isinstance(started, bool) or not isinstance(started, (int, float)):
        return None
    return Beacon(session, pid, float(started), directory, data.get("relay") is True)


def hostname() -> str:
    import socket

    return socket.gethostname()


def text(raw: object) -> str:
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw or "")
