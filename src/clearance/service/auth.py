"""Who may use the service: the hook's bearer token, console logins, sessions and CSRF tokens.

* The console's login is a **one-time URL**: ``/login?t=<token>`` exchanges an unused token for a
  session cookie (``HttpOnly``, ``SameSite=Strict``, ``Secure`` over TLS) and burns the token; a
  replayed URL is refused. ``clearance serve`` prints the first one; a logged-in console can mint
  another (for a phone), valid for :data:`LINK_TTL` seconds.
* Every state-changing request carries the session's **CSRF token** (a form field or the
  ``X-CSRF-Token`` header), and a request whose ``Origin`` (or ``Sec-Fetch-Site``) says it comes
  from another site is refused before anything else is looked at.
* Every secret is 32 random bytes, compared in constant time.
"""

from __future__ import annotations

import hmac
import os
import threading
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["COOKIE", "LINK_TTL", "SESSION_TTL", "Auth", "ConsoleSession", "cross_origin"]

COOKIE = "clearance_console"
LINK_TTL = 600.0
SESSION_TTL = 7 * 24 * 3600.0


def _secret() -> str:
    return os.urandom(32).hex()


class ConsoleSession:
    __slots__ = ("address", "created", "csrf", "id", "label")

    def __init__(self, address: str) -> None:
        self.id = _secret()
        self.csrf = _secret()
        self.created = time.time()
        self.address = address
        # What the review log names: never the cookie itself.
        self.label = "console-" + hmac.new(self.id.encode(), b"label", "sha256").hexdigest()[:12]


class Auth:
    def __init__(self, hook_token: str | None) -> None:
        self.hook_token = hook_token
        self._links: dict[str, float] = {}  # token -> expiry (inf for the printed one)
        self._used: set[str] = set()
        self._sessions: dict[str, ConsoleSession] = {}
        self._lock = threading.Lock()

    # -- the hook --------------------------------------------------------------------------

    def hook_allowed(self, header: str | None) -> bool:
        if not self.hook_token or not header:
            return False
        scheme, _, value = header.partition(" ")
        if scheme.lower() != "bearer":
            return False
        return hmac.compare_digest(value.strip().encode(), self.hook_token.encode())

    # -- logins ------------------------------------------------------------------------------

    def new_link(self, *, ttl: float | None = LINK_TTL) -> str:
        token = _secret()
        with self._lock:
            self._links[token] = float("inf") if ttl is None else time.time() + ttl
        return token

    def login(self, token: str, address: str) -> ConsoleSession | str:
        """A new session for an unused login token, else why not."""
        with self._lock:
            for known in list(self._links):
                if hmac.compare_digest(known.encode(), token.encode()):
                    expiry = self._links.pop(known)
                    self._used.add(known)
                    if expiry < time.time():
                        return "this login link has expired; mint a new one from a console"
                    session = ConsoleSession(address)
                    self._sessions[session.id] = session
                    return session
            if any(hmac.compare_digest(u.encode(), token.encode()) for u in self._used):
                return ("this login link was already used (a login link works once); use the "
                        "console you logged in with, or mint a new link there")  # fmt: skip
        return "this login link is not valid (restarting clearance serve prints a new one)"

    def session(self, cookies: Mapping[str, str]) -> ConsoleSession | None:
        value = cookies.get(COOKIE, "")
        if not value:
            return None
        with self._lock:
            found = self._sessions.get(value)
            if found is None or time.time() - found.created > SESSION_TTL:
                return None
            return found

    def logout(self, session: ConsoleSession) -> None:
        with self._lock:
            self._sessions.pop(session.id, None)

    @staticmethod
    def csrf_ok(session: ConsoleSession, given: str | None) -> bool:
        return bool(given) and hmac.compare_digest(str(given).encode(), session.csrf.encode())


def cross_origin(headers: Mapping[str, str]) -> str | None:
    """Why a request comes from another site, or ``None`` when it does not say so."""
    host = headers.get("host", "")
    origin = headers.get("origin")
    if origin is not None:
        if origin == "null":
            return "the request comes from an opaque origin"
        _, _, rest = origin.partition("://")
        if not host or rest.rstrip("/").lower() != host.lower():
            return f"the request comes from another origin ({origin})"
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"the request comes from another site (Sec-Fetch-Site: {site})"
    return None
