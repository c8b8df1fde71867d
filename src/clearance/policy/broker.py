"""The ``forwarding.broker`` setting: where asks cross machines (docs/forwarding.md, *Broker*).

One home for its shape, read by the config checker (a broken setting fails the config closed,
docs/decisions/0002-fail-closed-on-invalid-config.md) and by the broker transport (which also
reads ``CLEARANCE_BROKER`` and ``CLEARANCE_BROKER_PUBLIC_KEY``)::

    "forwarding": {"broker": "rediss://child@redis.example:6380/0"}
    "forwarding": {"broker": {"url": "rediss://…", "session": "alice",
                              "publicKey": "ed25519:<base64 of 32 bytes>" | [...],
                              "prefix": "clearance"}}

``session`` is the serving scope: the session id every serving instance of a user or team serves
under, and the target of this child's asks unless ``CLEARANCE_PARENT_SESSION`` names another.
``publicKey`` is the serving side's answer key (or keys): a child accepts only answers signed by
one of them. This module imports nothing at load time.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["KEY_PREFIX", "BrokerSettingError", "parse_broker", "parse_public_key", "parse_url"]

KEY_PREFIX = "ed25519:"
_FIELDS = ("url", "session", "publicKey", "prefix")
_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


class BrokerSettingError(ValueError):
    """A broker setting that cannot be used: ``path`` is where, below ``forwarding.broker``."""

    def __init__(self, message: str, path: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


def parse_url(url: object, path: tuple[object, ...] = ("url",)) -> str:
    if not isinstance(url, str) or not url.startswith(("redis://", "rediss://")):
        raise BrokerSettingError(
            "the broker must be a redis://HOST:PORT or rediss://HOST:PORT URL (rediss: with TLS)",
            path,
        )
    rest = url.split("://", 1)[1]
    if not rest or rest.startswith(("/", ":")) or any(c.isspace() for c in url):
        raise BrokerSettingError(f"the broker URL {_shown(url)} names no host", path)
    return url


def parse_public_key(text: object, path: tuple[object, ...] = ("publicKey",)) -> bytes:
    """The 32 raw bytes of an ``ed25519:<base64>`` public key."""
    import binascii
    from base64 import b64decode

    if not isinstance(text, str) or not text.startswith(KEY_PREFIX):
        raise BrokerSettingError(
            'a broker public key is "ed25519:" followed by base64 (as `clearance serve '
            "--broker-keygen` prints it)",
            path,
        )
    try:
        raw = b64decode(text[len(KEY_PREFIX) :].strip(), validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 32:
        raise BrokerSettingError(
            f"the broker public key {text[:20]}… is not 32 bytes of base64 (copy the line "
            "`clearance serve --broker-keygen` printed)",
            path,
        )
    return raw


def parse_broker(value: object) -> dict[str, Any]:
    """``{"url", "session", "publicKeys", "prefix"}`` from the setting's value (a URL, or an
    object). Raises :class:`BrokerSettingError`."""
    if isinstance(value, str):
        return {"url": parse_url(value, ()), "session": None, "publicKeys": (),
                "prefix": "clearance"}  # fmt: skip
    if not isinstance(value, dict):
        raise BrokerSettingError("must be a redis:// URL or an object {url, session, publicKey}")
    for key in value:
        if key not in _FIELDS:
            raise BrokerSettingError(f'unknown key "{key}"; expected {", ".join(_FIELDS)}', (key,))
    if "url" not in value:
        raise BrokerSettingError('needs "url" (redis://… or rediss://…)')
    session = value.get("session")
    if session is not None and not (isinstance(session, str) and session.strip()):
        raise BrokerSettingError('"session" must be a non-empty string', ("session",))
    keys = value.get("publicKey", [])
    listed = keys if isinstance(keys, list) else [keys]
    parsed = tuple(parse_public_key(k, ("publicKey",)) for k in listed)
    prefix = value.get("prefix", "clearance")
    if not (isinstance(prefix, str) and prefix and set(prefix) <= _NAME):
        raise BrokerSettingError('"prefix" must be letters, digits, ".", "_" or "-"', ("prefix",))
    return {"url": parse_url(value["url"]), "session": session, "publicKeys": parsed,
            "prefix": prefix}  # fmt: skip


def parse_forwarding(value: object) -> dict[str, Any]:
    """The ``forwarding`` setting: an object whose one key is ``broker``."""
    if not isinstance(value, dict):
        raise BrokerSettingError('"forwarding" must be an object {"broker": …}', ())
    for key in value:
        if key != "broker":
            raise BrokerSettingError(f'unknown key "{key}" in "forwarding"; expected "broker"',
                                     (key,))  # fmt: skip
    if "broker" in value:
        try:
            parse_broker(value["broker"])
        except BrokerSettingError as exc:
            raise BrokerSettingError(f'"forwarding.broker": {exc}', ("broker", *exc.path)) from None
    return value


def _shown(url: str) -> str:
    """``url`` without its password."""
    scheme, _, rest = url.partition("://")
    auth, at, host = rest.rpartition("@")
    if not at:
        return url
    user = auth.split(":", 1)[0]
    return f"{scheme}://{user + ':***' if ':' in auth else user}@{host}"


def shown_url(url: str) -> str:
    return _shown(url)
