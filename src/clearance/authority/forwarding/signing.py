"""Answer keys of the broker transport: the serving side signs, a child only verifies.

Every message a serving instance writes to a requester's reply stream is signed with an Ed25519
private key that lives in the serving machine's protected state directory
(``$state/broker/answer.key``, 0600, in a 0700 directory). A child holds only public keys (its
config's ``forwarding.broker.publicKey`` or ``CLEARANCE_BROKER_PUBLIC_KEY``) and accepts an
answer only when its signature verifies under one of them *and* the signed body echoes the id and
nonce of the request it sent. Whoever can write into Redis — a compromised child, a leaked child
password — can therefore not approve an ask (docs/decisions/0018-redis-broker.md).

Signed bytes: :data:`DOMAIN` followed by the exact JSON text of the body, so a signature made
for anything else never verifies here. Uses the ``cryptography`` package (the ``redis`` extra).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "DOMAIN",
    "KEY_FILE",
    "Signer",
    "Verifier",
    "generate",
    "key_path",
    "public_text",
    "verify",
]

DOMAIN = b"clearance.broker.answer.v1\x00"
KEY_FILE = "answer.key"


def key_path(state: str) -> str:
    return os.path.join(state, "broker", KEY_FILE)


def public_text(raw: bytes) -> str:
    from base64 import b64encode

    from clearance.policy.broker import KEY_PREFIX

    return KEY_PREFIX + b64encode(raw).decode("ascii")


def generate(state: str, *, replace: bool = False) -> tuple[str, bool]:
    """Create the answer key pair under ``state`` (the private key 0600 in a 0700 directory);
    ``(public key text, created)`` — an existing key is kept unless ``replace``."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from clearance.authority.forwarding.state_dirs import private_path
    from clearance.policy.state import atomic_write

    path = key_path(state)
    private_path(state, os.path.dirname(path))
    if os.path.exists(path) and not replace:
        return public_text(Signer.load(state).public), False
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())  # fmt: skip
    atomic_write(path, pem, mode=0o600)
    raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                        serialization.PublicFormat.Raw)  # fmt: skip
    return public_text(raw), True


class Signer:
    """The serving side's private answer key."""

    __slots__ = ("key", "public")

    def __init__(self, key: object, public: bytes) -> None:
        self.key = key
        self.public = public

    @classmethod
    def load(cls, state: str) -> Signer:
        """The key under ``state``; raises ``OSError`` saying how to make one, or why it is not
        used (readable by others, not a key)."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        path = key_path(state)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except FileNotFoundError:
            raise OSError(f"there is no broker answer key at {path}; create it with "
                          "`clearance serve --broker-keygen`") from None  # fmt: skip
        except OSError as exc:
            raise OSError(f"{path} cannot be read ({exc.strerror})") from None
        try:
            st = os.fstat(fd)
            if st.st_uid != os.getuid() or st.st_mode & 0o077:
                raise OSError(f"{path} must be the user's and mode 0600 (it is "
                              f"{st.st_mode & 0o777:04o}); fix it with chmod 600")  # fmt: skip
            data = os.read(fd, 65536)
        finally:
            os.close(fd)
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except ValueError:
            key = None
        if not isinstance(key, Ed25519PrivateKey):
            raise OSError(f"{path} is not an Ed25519 private key; remove it and run "
                          "`clearance serve --broker-keygen` again")  # fmt: skip
        raw = key.public_key().public_bytes(serialization.Encoding.Raw,
                                            serialization.PublicFormat.Raw)  # fmt: skip
        return cls(key, raw)

    def sign(self, body: bytes) -> bytes:
        signature: bytes = self.key.sign(DOMAIN + body)  # type: ignore[attr-defined]
        return signature


class Verifier:
    """The public answer keys a child trusts, loaded once for all its asks."""

    __slots__ = ("keys",)

    def __init__(self, keys: Sequence[bytes]) -> None:
        """``keys``: raw public keys; one that is not an Ed25519 key verifies nothing."""
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        loaded = []
        for raw in keys:
            try:
                loaded.append(Ed25519PublicKey.from_public_bytes(raw))
            except ValueError:
                continue
        self.keys = tuple(loaded)

    def verify(self, body: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is a signature of ``body`` by one of the keys."""
        from cryptography.exceptions import InvalidSignature

        signed = DOMAIN + body
        for key in self.keys:
            try:
                key.verify(signature, signed)
            except (InvalidSignature, ValueError):
                continue
            return True
        return False


def verify(keys: Sequence[bytes], body: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is a signature of ``body`` by one of ``keys`` (raw public keys)."""
    return Verifier(keys).verify(body, signature)
