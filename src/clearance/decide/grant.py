"""Session grants: "yes, for this session" recorded as ``(surface, pattern)`` allows.

A grant is consulted only where the policy would ask: it turns an asking gate into an allow when
its pattern covers that gate's value, and never touches a deny — not a deny on another gate, and
not a config deny on the same surface (a grant ``git *`` from approving ``git status`` does not
let ``git push --force`` through ``git push --force*: deny``; docs/approvals.md, "Session grants").

Long-lived hosts keep grants in memory (:class:`GrantStore`). Hosts that run a fresh process per
call keep them on disk (:class:`DiskGrants`): ``$state/sessions/<session>/grants.json``, 0600,
rewritten atomically under an exclusive lock so concurrent writers never lose a grant, and sealed
with the per-user secret (:mod:`clearance.policy.secret`): a file whose seal does not match was
not written by clearance, and its grants are ignored. A session unused for :data:`SESSION_TTL`
seconds has expired.
"""

from __future__ import annotations

import os
import time

from clearance._frozen import Frozen
from clearance.policy.wildcard import compile_pattern, expand_home, is_command_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

__all__ = [
    "SESSION_TTL",
    "DiskGrants",
    "Grant",
    "GrantStore",
    "list_sessions",
    "remove_session",
    "session_dir",
]

SESSION_TTL = 24 * 3600
_FILE = "grants.json"  # in a session's directory
_LOCK = "grants.lock"
_set = object.__setattr__


class Grant(Frozen):
    __slots__ = ("pattern", "surface")
    surface: str
    pattern: str

    def __init__(self, surface: str, pattern: str) -> None:
        _set(self, "surface", surface)
        _set(self, "pattern", pattern)

    def covers(self, surface: str, values: Sequence[str], home: str = "") -> bool:
        if surface != self.surface:
            return False
        if surface == "bash" and is_command_pattern(self.pattern):
            return _covers_command(self.pattern, values)
        pattern = expand_home(self.pattern, home) if home else self.pattern
        matcher = compile_pattern(pattern)
        return any(matcher.match(v) for v in values)


def _covers_command(pattern: str, values: Sequence[str]) -> bool:
    """A command-rule grant (``rm [-r -f] build``, suggested for a file mutator) covers a unit
    whose words, split at blanks, meet it as an allow rule. Only literal words are suggested,
    so a unit with quotes or expansions is met by no grant of this form."""
    from clearance.policy.command_rule import CommandPattern, CommandPatternError, parse_argv

    try:
        compiled = CommandPattern(pattern, "allow")
    except CommandPatternError:
        return False
    for value in values:
        if any(ch in value for ch in "'\"\\$`*?[{~"):
            continue
        found = parse_argv(value.split())
        if found is not None and found[0] == compiled.program and compiled.match(found[1]):
            return True
    return False


class GrantStore:
    """Grants held in memory, for hosts that live as long as the session."""

    __slots__ = ("_grants",)

    def __init__(self, grants: Iterable[Grant] = ()) -> None:
        self._grants: list[Grant] = list(dict.fromkeys(grants))

    def grants(self) -> tuple[Grant, ...]:
        return tuple(self._grants)

    def add(self, grants: Iterable[Grant]) -> None:
        for grant in grants:
            if grant not in self._grants:
                self._grants.append(grant)

    def find(self, surface: str, values: Sequence[str], home: str = "") -> Grant | None:
        for grant in reversed(self.grants()):
            if grant.covers(surface, values, home):
                return grant
        return None

    def clear(self) -> None:
        self._grants.clear()


def _safe(session: str) -> str:
    """A session id as one directory name: unsafe characters percent-encoded."""
    out = []
    for ch in session:
        if ch.isalnum() or ch in "-_.":
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
    name = "".join(out)
    return name if name not in ("", ".", "..") else "%2E" * max(1, len(name))


def session_dir(state: str, session: str) -> str:
    return os.path.join(state, "sessions", _safe(session))


# The review-log event for a grant file that failed its seal (written by whoever read it: a
# host's gatekeeper, or a serving session).
GRANTS_REJECTED = "session_grants.rejected"


def rejected_fields(session: str, path: str, why: str) -> dict[str, str]:
    """The review-log fields of :data:`GRANTS_REJECTED` for one rejected grant file."""
    return {
        "session": session, "file": path, "why": why,
        "message": "a session-grant file was not written by clearance (its seal does not "
        "match): its grants are ignored; remove it with `clearance grants --clear ID`",
    }  # fmt: skip


class DiskGrants(GrantStore):
    """Grants of one session on disk, shared by every process of that session."""

    __slots__ = ("path", "rejected", "session", "state", "why")

    def __init__(self, state: str, session: str) -> None:
        self.state = state
        self.session = session
        self.rejected = False  # the file failed its seal: not written by clearance
        self.why = ""  # why it was rejected, for the review log
        self.path = os.path.join(session_dir(state, session), _FILE)
        super().__init__(self._read())

    def _read(self) -> list[Grant]:
        try:
            st = os.stat(self.path)
            if time.time() - st.st_mtime > SESSION_TTL:
                return []
            with open(self.path, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError):
            return []
        from clearance._json import loads

        try:
            data = loads(text)
            grants = [
                Grant(g["surface"], g["pattern"])
                for g in data.get("grants", [])
                if isinstance(g, dict)
                and isinstance(g.get("surface"), str)
                and isinstance(g.get("pattern"), str)
            ]
        except (ValueError, AttributeError):
            return []
        if not grants:
            return []
        from clearance.policy.secret import seal, user_secret

        secret = user_secret(self.state)
        tag = data.get("seal")
        if not isinstance(tag, str):
            why = "it carries no seal"
        elif secret is None:
            why = "no per-user secret to check its seal against"
        elif tag != seal(self._body(grants), secret):
            why = "its seal does not match its grants"
        else:
            return grants
        # Not written by clearance: ignored, and written to the review log by whoever read it
        # (:data:`GRANTS_REJECTED`).
        self.rejected = True
        self.why = why
        return []

    def _body(self, grants: list[Grant]) -> bytes:
        """What the seal covers: the session and its grants, one per line."""
        lines = [self.session, *(f"{g.surface}\0{g.pattern}" for g in grants)]
        return "\n".join(lines).encode("utf-8", "surrogatepass")

    def grants(self) -> tuple[Grant, ...]:
        return tuple(self._grants)

    def add(self, grants: Iterable[Grant]) -> None:
        """Record ``grants`` for the session (merged with what other processes recorded)."""
        new = list(grants)
        self._update(lambda current: current + [g for g in new if g not in current])

    def remove(self, grants: Iterable[Grant]) -> None:
        """Revoke ``grants`` (the others, including those other processes recorded, stay)."""
        gone = set(grants)
        self._update(lambda current: [g for g in current if g not in gone])

    def _update(self, change: Callable[[list[Grant]], list[Grant]]) -> None:
        """Rewrite the file with ``change(current grants)``, under the exclusive lock."""
        import fcntl

        from clearance._json import dumps
        from clearance.policy.state import atomic_write, ensure_private_dir

        directory = os.path.dirname(self.path)
        ensure_private_dir(self.state)
        ensure_private_dir(os.path.join(self.state, "sessions"))
        ensure_private_dir(directory)
        lock_path = os.path.join(directory, _LOCK)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            current = change(self._read())
            now = time.time()
            from clearance.policy.secret import seal, user_secret

            secret = user_secret(self.state, create=True)
            if secret is None:
                raise OSError(f"{self.state}/secret is not a private file of this user")
            body = {
                "version": 1,
                "session": self.session,
                "updated": now,
                "grants": [{"surface": g.surface, "pattern": g.pattern} for g in current],
                "seal": seal(self._body(current), secret),
            }
            atomic_write(self.path, (dumps(body, indent=2) + "\n").encode("utf-8"))
            self._grants = current
        finally:
            os.close(fd)

    def clear(self) -> None:
        remove_session(self.state, self.session)
        self._grants = []


def list_sessions(state: str) -> list[tuple[str, float, int, bool]]:
    """(session id, last update, number of grants, expired) for every recorded session."""
    root = os.path.join(state, "sessions")
    out = []
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    from urllib.parse import unquote

    for name in names:
        session = unquote(name)
        path = os.path.join(root, name, _FILE)
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            continue
        count = len(DiskGrants(state, session).grants())
        out.append((session, mtime, count, time.time() - mtime > SESSION_TTL))
    return out


def remove_session(state: str, session: str) -> bool:
    directory = session_dir(state, session)
    removed = False
    for name in (_FILE, _LOCK):
        try:
            os.unlink(os.path.join(directory, name))
            removed = removed or name == _FILE
        except OSError:
            pass
    try:
        os.rmdir(directory)
    except OSError:
        pass
    return removed
