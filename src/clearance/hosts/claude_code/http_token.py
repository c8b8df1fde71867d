"""The HTTP hook's bearer token: 32 random bytes, hex, in ``$state/service/hook-token`` (0600).

``clearance install claude-code --http`` creates it (or reuses it) and Claude Code sends it in
the ``Authorization`` header, read from ``CLEARANCE_HOOK_TOKEN`` (``settings.TOKEN_VAR``)
through the hook's ``allowedEnvVars``; ``clearance serve --listen`` refuses every hook request
without it.
"""

from __future__ import annotations

import os

from clearance.policy.state import atomic_write, ensure_private_dir

__all__ = ["hook_token", "token_path"]


def token_path(state: str) -> str:
    return os.path.join(state, "service", "hook-token")


def hook_token(state: str, *, create: bool = True) -> str | None:
    """The token (created when missing and ``create``); ``None`` when there is none."""
    path = token_path(state)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        if not create:
            return None
        ensure_private_dir(os.path.dirname(path))
        token = os.urandom(32).hex()
        atomic_write(path, token.encode() + b"\n")
        return token
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if info.st_mode & 0o077 or info.st_uid != os.getuid():
            raise OSError(f"{path} is readable by others or not yours; remove it and reinstall")
        text = handle.read(256).decode("ascii", "replace").strip()
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise OSError(f"{path} does not hold a token; remove it and reinstall")
    return text
