"""The broker's key names, timings and Redis ACLs (docs/decisions/0018-redis-broker.md).

Keys, for a serving session (the *serving scope*, e.g. a user or a team) ``S`` under the prefix
``P`` (default ``clearance``; ``S`` spelled as :func:`~clearance.authority.forwarding.private.
safe_name` spells it)::

    P:S:asks            stream of requests; consumer group "serve" of the serving instances
    P:S:beacon          a live instance's description, refreshed every second, expiring in 5 s
    P:sessions          set of the sessions ever served (discovery)
    P:S:alive:<id>      the child still waits for <id> (it refreshes it; expires in 5 s)
    P:S:reply:<id>      stream the child reads its answer from (signed), expires with the ask
    P:S:done:<id>       <id> was answered (or abandoned): the one-answer guard
    P:S:claim:<id>      which instance is deciding <id> (refreshed while it decides)
    P:S:grants          hash of the "whole session" grants every instance honours
    P:S:revoked         hash of the grants revoked since: no instance honours its own copy
    P:S:audit           stream of decisions and abandonments, one entry per request id
"""

from __future__ import annotations

from clearance.authority.forwarding.private import safe_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "ACL_CHILD",
    "ACL_SERVER",
    "ALIVE",
    "AUDIT_MAX",
    "GROUP",
    "KEEP",
    "REFRESH",
    "STALE",
    "VISIBILITY",
    "Keys",
    "env_seconds",
    "ms",
]

GROUP = "serve"
REFRESH = 1.0  # beacons, alive keys and claims are refreshed this often
STALE = 5.0  # a beacon (an instance's heartbeat) lives this long
ALIVE = 5.0  # a child's "still waiting" key lives this long
VISIBILITY = 10.0  # a dead instance's entry idle this long is taken over
KEEP = 3600.0  # answers (and the one-answer guard) outlive their ask by this long
AUDIT_MAX = 100_000  # the audit stream is trimmed to about this many entries


# Redis ACL rules (``ACL SETUSER <name> reset on ><password> <rules>``, ``{prefix}`` replaced;
# docs/forwarding.md quotes them). A child may add requests, keep its own "alive" key, read
# beacons and its reply stream — never write a reply, read the requests, or touch the grants. A
# serving instance may use the prefix's keys with stream, string, hash, set and script commands.
ACL_CHILD = (
    "resetchannels -@all +ping +hello +auth +client|setname +select +xadd +set "
    "+get +mget +smembers +xread %RW~{prefix}:*:asks %W~{prefix}:*:alive:* "
    "%R~{prefix}:*:beacon %R~{prefix}:sessions %R~{prefix}:*:reply:*"
)
ACL_SERVER = "resetchannels ~{prefix}:* +@all -@dangerous -@admin -@pubsub"


def ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))


def env_seconds(env: Mapping[str, str], name: str, default: float) -> float:
    try:
        value = float(env.get(name, "")) / 1000
    except ValueError:
        return default
    return value if value > 0 else default


class Keys:
    """The key names of one serving session under a prefix."""

    __slots__ = ("asks", "audit", "base", "beacon", "grants", "revoked", "sessions")

    def __init__(self, prefix: str, session: str) -> None:
        self.base = f"{prefix}:{safe_name(session)}"
        self.asks = self.base + ":asks"
        self.beacon = self.base + ":beacon"
        self.grants = self.base + ":grants"
        self.revoked = self.base + ":revoked"
        self.audit = self.base + ":audit"
        self.sessions = prefix + ":sessions"

    def alive(self, rid: str) -> str:
        return f"{self.base}:alive:{rid}"

    def reply(self, rid: str) -> str:
        return f"{self.base}:reply:{rid}"

    def done(self, rid: str) -> str:
        return f"{self.base}:done:{rid}"

    def claim(self, rid: str) -> str:
        return f"{self.base}:claim:{rid}"
