"""One helper for the private directories forwarding keeps under the state root: the local
socket's (``forwarding/<session>/``) and the broker's answer key's (``broker/``).

:func:`private_path` makes a directory below the state root, one directory at a time: the root
as :func:`~clearance.policy.state.ensure_private_dir` makes it, and each directory below it
checked by :func:`~clearance.authority.forwarding.private.private_dir` — a real directory of this
user that others cannot write, created 0700 and tightened to 0700, refused (``UnsafeInbox``)
otherwise, never "repaired": something may already have been planted in it.
"""

from __future__ import annotations

import os

from clearance.authority.forwarding.private import private_dir

__all__ = ["private_path"]


def private_path(state: str, path: str) -> str:
    """Make ``path``, a directory below ``state``, and every directory between them private
    (created when missing); raises ``OSError`` (``UnsafeInbox`` for a directory that must not be
    used) or ``ValueError`` when ``path`` is not below ``state``."""
    from clearance.policy.state import ensure_private_dir

    relative = os.path.relpath(path, state)
    if relative == os.curdir or relative.startswith(os.pardir) or os.path.isabs(relative):
        raise ValueError(f"{path} is not below {state}")
    done = ensure_private_dir(state)
    for name in relative.split(os.sep):
        done = private_dir(os.path.join(done, name))
    return done
