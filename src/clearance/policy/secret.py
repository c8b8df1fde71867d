"""The per-user secret that seals clearance's own state files against forgery.

State files that clearance later trusts as read (session grants) carry a keyed BLAKE2b tag made
with this secret. It lives in ``$state/secret`` (32 random bytes, 0600, created once: written
whole beside it and linked into place, inside the protected state directory: an agent's write
there is denied and its read asks, ``docs/configuration.md``). A file whose tag does not match
was not written by clearance and is ignored.

``_blake2`` is imported directly: ``hashlib`` would load OpenSSL first, several milliseconds on
the hook's path.
"""

from __future__ import annotations

import os

__all__ = ["seal", "user_secret"]

_SIZE = 32


def _blake2b(data: bytes, key: bytes) -> str:
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - an interpreter without the C module
        from hashlib import blake2b
    return blake2b(data, key=key, digest_size=32).hexdigest()


def user_secret(state: str, *, create: bool = False) -> bytes | None:
    """The secret of ``state`` (``None`` when absent and not ``create``, or unusable: not a
    regular private file of this user)."""
    path = os.path.join(state, "secret")
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if not create:
            return None
        return _create(state, path)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if st.st_uid != os.getuid() or st.st_mode & 0o077 or not (st.st_mode & 0o100000):
            return None
        data = os.read(fd, _SIZE + 1)
    finally:
        os.close(fd)
    return data if len(data) == _SIZE else None


def _create(state: str, path: str) -> bytes | None:
    from clearance.policy.state import ensure_private_dir

    ensure_private_dir(state)
    secret = os.urandom(_SIZE)
    # Written whole beside it, then linked into place: a process stopped half-way (killed, a
    # full disk) leaves no empty secret behind, which would turn the caches and grants off
    # until someone removed it.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(tmp, flags, 0o600)
        try:
            if os.write(fd, secret) != _SIZE:
                return None
        finally:
            os.close(fd)
        os.link(tmp, path)
    except FileExistsError:
        return user_secret(state)  # another process made it first
    except OSError:
        return None  # no secret: no cache, no grants (fail closed)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return secret


def seal(data: bytes, secret: bytes) -> str:
    """The tag of ``data`` under ``secret``."""
    return _blake2b(data, secret)
