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
    beside it. Adding one writes both. When the broker cannot be read, the grants last read stand
    (a missing grant only makes an ask ask)."""

    __slots__ = ("inbound", "local")

    def __init__(self, inbound: RedisInbound, local: GrantStore | None) -> None:
        self.inbound = inbound
        self.local = local
        found: list[Grant] = list(local.grants()) if local is not None else []
        super().__init__([*found, *inbound.shared])

    def add(self, grants: Any) -> None:
        grants = list(grants)
        super().add(grants)
        if self.local is not None:
            self.local.add(grants)
        if grants:
            fields = {_field(g): str(time.time()) for g in grants}
            self.inbound.client.hset(self.inbound.keys.grants, mapping=fields)
            self.inbound.shared = tuple(dict.fromkeys([*self.inbound.shared, *grants]))

    def remove(self, grants: Any) -> None:
        """Revoke ``grants`` for every instance: out of the broker's hash first (raises
        ``OSError`` when the broker cannot be written: the grants stand), then locally."""
        import redis

        grants = list(grants)
        if not grants:
            return
        inbound = self.inbound
        try:
            inbound.client.hdel(inbound.keys.grants, *(_field(g) for g in grants))
        except redis.RedisError as exc:
            raise OSError(f"the grant could not be revoked on the broker {inbound.where}: "
                          f"{exc}") from None  # fmt: skip
        inbound.shared = tuple(g for g in inbound.shared if g not in grants)
        self._grants = [g for g in self._grants if g not in grants]
        remove = getattr(self.local, "remove", None)
        if remove is not None:
            remove(grants)


def _field(grant: Grant) -> str:
    return f"{grant.surface}\x00{grant.pattern}"
