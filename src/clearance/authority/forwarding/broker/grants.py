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
            fields = {f"{g.surface}\x00{g.pattern}": str(time.time()) for g in grants}
            self.inbound.client.hset(self.inbound.keys.grants, mapping=fields)
            self.inbound.shared = tuple(dict.fromkeys([*self.inbound.shared, *grants]))
