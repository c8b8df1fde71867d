"""The "whole session" grants of a broker's serving session, shared by every instance."""

from __future__ import annotations

import time

from clearance.decide.grant import Grant, GrantStore

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.authority.forwarding.broker.inbound import RedisInbound

__all__ = ["SharedGrants"]


class SharedGrants(GrantStore):
    """The serving session's "whole session" grants: the broker's hash (every instance honours
    them; read with each batch of requests and every second), with the local session's grants
    beside it, less those revoked on the broker since (from any console, on any machine). Adding
    one writes both; revoking one takes it out of the hash and marks it revoked for every
    instance. When the broker cannot be read, the grants last read stand (a missing grant only
    makes an ask ask)."""

    __slots__ = ("inbound", "local")

    def __init__(self, inbound: RedisInbound, local: GrantStore | None) -> None:
        self.inbound = inbound
        self.local = local
        revoked = inbound.revoked
        found = [g for g in local.grants() if g not in revoked] if local is not None else []
        super().__init__([*found, *inbound.shared])

    def add(self, grants: Any) -> None:
        """Grant ``grants`` for every instance: into the broker's hash and out of its revoked
        one, then into the local grants (raises ``OSError`` when the broker cannot be written:
        nothing is recorded, here or there)."""
        import redis

        grants = list(grants)
        if not grants:
            return
        inbound = self.inbound
        try:
            pipe = inbound.client.pipeline(transaction=True)
            pipe.hset(inbound.keys.grants, mapping={_field(g): str(time.time()) for g in grants})
            pipe.hdel(inbound.keys.revoked, *(_field(g) for g in grants))
            pipe.execute()
        except redis.RedisError as exc:
            raise OSError(f"the grant could not be recorded on the broker {inbound.where}: "
                          f"{exc}") from None  # fmt: skip
        inbound.shared = tuple(dict.fromkeys([*inbound.shared, *grants]))
        inbound.revoked = inbound.revoked - set(grants)
        super().add(grants)
        if self.local is not None:
            self.local.add(grants)

    def remove(self, grants: Any) -> None:
        """Revoke ``grants`` for every instance: out of the broker's hash and marked revoked, so
        no instance honours a copy of its own either (raises ``OSError`` when the broker cannot
        be written: the grants stand), then out of the local grants."""
        import redis

        grants = list(grants)
        if not grants:
            return
        inbound = self.inbound
        try:
            pipe = inbound.client.pipeline(transaction=True)
            pipe.hdel(inbound.keys.grants, *(_field(g) for g in grants))
            pipe.hset(inbound.keys.revoked, mapping={_field(g): str(time.time()) for g in grants})
            pipe.execute()
        except redis.RedisError as exc:
            raise OSError(f"the grant could not be revoked on the broker {inbound.where}: "
                          f"{exc}") from None  # fmt: skip
        inbound.shared = tuple(g for g in inbound.shared if g not in grants)
        inbound.revoked = inbound.revoked | set(grants)
        self._grants = [g for g in self._grants if g not in grants]
        remove = getattr(self.local, "remove", None)
        if remove is not None:
            remove(grants)


def _field(grant: Grant) -> str:
    return f"{grant.surface}\x00{grant.pattern}"
