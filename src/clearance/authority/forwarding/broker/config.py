"""Where the broker is, and the connection to it: a child's settings (``CLEARANCE_BROKER``,
``forwarding.broker``) and a redis-py client for either side."""

from __future__ import annotations

from clearance.policy.broker import BrokerSettingError, parse_broker, parse_public_key, shown_url

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["BrokerConfig", "broker_config", "connect"]


class BrokerConfig:
    """Where the broker is, which session a child asks by default, and the keys it trusts."""

    __slots__ = ("keys", "prefix", "session", "url")

    def __init__(
        self, url: str, *, session: str | None = None, keys: tuple[bytes, ...] = (),
        prefix: str = "clearance",
    ) -> None:  # fmt: skip
        self.url = url
        self.session = session
        self.keys = keys
        self.prefix = prefix

    @property
    def where(self) -> str:
        return shown_url(self.url)


def broker_config(setting: object, env: Mapping[str, str]) -> BrokerConfig | None:
    """The broker a child uses: ``CLEARANCE_BROKER`` (a URL) over the config's
    ``forwarding.broker``; public keys from ``CLEARANCE_BROKER_PUBLIC_KEY`` (comma-separated)
    over the config's. ``None``: no broker. Raises ``BrokerSettingError``."""
    conf: dict[str, Any] = {"url": None, "session": None, "publicKeys": (), "prefix": "clearance"}
    if isinstance(setting, dict) and setting.get("broker") is not None:
        conf = parse_broker(setting["broker"])
    url = env.get("CLEARANCE_BROKER", "").strip() or conf["url"]
    if not url:
        return None
    from clearance.policy.broker import parse_url

    try:
        parse_url(url, ())
    except BrokerSettingError as exc:
        raise BrokerSettingError(f"CLEARANCE_BROKER: {exc}") from None
    keys: tuple[bytes, ...] = conf["publicKeys"]
    listed = env.get("CLEARANCE_BROKER_PUBLIC_KEY", "").strip()
    if listed:
        try:
            keys = tuple(parse_public_key(k.strip()) for k in listed.split(",") if k.strip())
        except BrokerSettingError as exc:
            raise BrokerSettingError(f"CLEARANCE_BROKER_PUBLIC_KEY: {exc}") from None
    return BrokerConfig(url, session=conf["session"], keys=keys, prefix=conf["prefix"])


def connect(url: str, timeout: float, connect: float | None = None) -> Any:
    """A redis-py client for ``url`` (raises ``ValueError`` for a URL option that does not
    parse)."""
    import redis

    connect = timeout if connect is None else connect
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=connect,
                                health_check_interval=0)  # fmt: skip
