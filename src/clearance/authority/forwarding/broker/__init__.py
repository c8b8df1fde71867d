"""The broker transport: forwarded asks through Redis (or Valkey), so agents on other machines
reach one human (docs/decisions/0018-redis-broker.md, docs/forwarding.md *Broker*).

One module per responsibility:

* :mod:`.keys` — the key names of a serving session, the timings, the Redis ACLs;
* :mod:`.config` — where the broker is (``CLEARANCE_BROKER``, ``forwarding.broker``), the client;
* :mod:`.codec` — messages and beacons as bytes (strict JSON);
* :mod:`.child` — the child side, :class:`RedisTransport`: request, signed answer, liveness;
* :mod:`.inbound` — the serving side, :class:`RedisInbound`: the consumer group, take-over;
* :mod:`.answers` — signing and writing each answer once, acknowledged with it;
* :mod:`.scripts` — the two Lua scripts that make "once" atomic;
* :mod:`.grants` — the "whole session" grants every instance honours;
* :mod:`.serve` — wiring for ``clearance serve --broker URL``.

``redis`` and ``cryptography`` (the ``clearance[redis]`` extra) are imported only inside these
functions, and this package only when a broker is configured: the hook's hot path never loads
them otherwise.
"""

from __future__ import annotations

from clearance.authority.forwarding.broker.child import BrokenBroker, RedisTransport
from clearance.authority.forwarding.broker.config import BrokerConfig, broker_config
from clearance.authority.forwarding.broker.grants import SharedGrants
from clearance.authority.forwarding.broker.inbound import RedisInbound
from clearance.authority.forwarding.broker.keys import (
    ACL_CHILD,
    ACL_SERVER,
    ALIVE,
    GROUP,
    REFRESH,
    STALE,
    VISIBILITY,
    Keys,
)
from clearance.authority.forwarding.broker.serve import serve_inbound

__all__ = [
    "ACL_CHILD",
    "ACL_SERVER",
    "ALIVE",
    "GROUP",
    "REFRESH",
    "STALE",
    "VISIBILITY",
    "BrokenBroker",
    "BrokerConfig",
    "Keys",
    "RedisInbound",
    "RedisTransport",
    "SharedGrants",
    "broker_config",
    "serve_inbound",
]
