"""Wiring for ``clearance serve --broker URL``: the local socket and the broker, served at once."""

from __future__ import annotations

import os

from clearance.authority.forwarding.broker.keys import VISIBILITY, env_seconds
from clearance.policy.broker import parse_broker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from clearance.authority.forwarding.server import Server
    from clearance.authority.forwarding.transport import Inbound

__all__ = ["serve_inbound"]


def serve_inbound(url: str, server_state: str, setting: object) -> Callable[[Server], Inbound]:
    """The serving side for ``clearance serve --broker URL``: the local socket and the broker,
    served at once. ``setting`` is the serving policy's ``forwarding`` value (its prefix is
    used). Raises ``OSError`` (no key) or ``BrokerSettingError`` (a bad URL)."""
    from clearance.authority.forwarding.signing import Signer
    from clearance.policy.broker import parse_url

    parse_url(url, ())
    prefix = "clearance"
    if isinstance(setting, dict) and isinstance(setting.get("broker"), dict | str):
        prefix = parse_broker(setting["broker"])["prefix"]
    signer = Signer.load(server_state)
    visibility = env_seconds(os.environ, "CLEARANCE_BROKER_VISIBILITY_MS", VISIBILITY)

    def build(server: Server) -> Inbound:
        from clearance.authority.forwarding.broker.inbound import RedisInbound
        from clearance.authority.forwarding.merged import Merged
        from clearance.authority.forwarding.server import _local
        from clearance.decide.grant import DiskGrants

        broker = RedisInbound(
            url, server.session, server.describe, signer, prefix=prefix, report=server.write,
            notice=lambda text: server.observe("notice", None, text), visibility=visibility,
            grants=lambda: DiskGrants(server.state, server.session),
        )  # fmt: skip
        return Merged(_local(server), broker)

    return build
