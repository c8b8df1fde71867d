"""Where clearance keeps things, and how it writes them safely.

State (trust records, caches, logs, session grants, forwarding) lives under the state root:
``$CLEARANCE_HOME`` when set, else ``$XDG_STATE_HOME/clearance`` (``~/.local/state/clearance``).
The user's configuration lives under ``$XDG_CONFIG_HOME/clearance`` (``~/.config/clearance``).
Directories are created 0700 and files written 0600, atomically (temp file + rename), never
through a symlink.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["atomic_write", "backup", "config_home", "ensure_private_dir", "home_dir", "state_root"]


def home_dir(env: Mapping[str, str] | None = None) -> str:
    """``$HOME`` (else the user's home) in its normal form: a ``~/.ssh/*`` rule then meets
    ``~/.ssh/id_rsa`` however ``HOME`` is spelled (``/home/u/``, ``/home//u``, ``/home/u/.``)."""
    env = os.environ if env is None else env
    home = env.get("HOME") or os.path.expanduser("~")
    return os.path.normpath(home) if home[:1] == "/" else home


def state_root(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    explicit = env.get("CLEARANCE_HOME")
    if explicit:
        return os.path.abspath(explicit)
    base = env.get("XDG_STATE_HOME") or os.path.join(home_dir(env), ".local", "state")
    return os.path.join(base, "clearance")


def config_home(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(home_dir(env), ".config")
    return os.path.join(base, "clearance")


def ensure_private_dir(path: str) -> str:
    """Create ``path`` (and parents) with mode 0700; tighten it if it exists looser."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except FileExistsError:
        raise OSError(f"{path} exists and is not a directory") from None
    st = os.lstat(path)
    if not _is_dir(st.st_mode):
        raise OSError(f"{path} is not a directory (a symlink is not accepted here)")
    if st.st_mode & 0o077 and st.st_uid == os.getuid():
        os.chmod(path, 0o700)
    return path


def _is_dir(mode: int) -> bool:
    return (mode & 0o170000) == 0o040000


def atomic_write(path: str, data: bytes, *, mode: int = 0o600) -> None:
    """Write ``data`` to ``path`` all at once: a temp file beside it, then rename over it."""
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(
        directory, f".{os.path.basename(path)}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    )
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, mode)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def backup(path: str, data: bytes, env: Mapping[str, str] | None = None) -> str:
    """Keep ``data``, the previous content of ``path``, under the state root's ``backups/``
    (never beside ``path``, where git would show it); return where."""
    import time

    directory = ensure_private_dir(os.path.join(state_root(env), "backups"))
    flat = os.path.abspath(path).strip(os.sep).replace(os.sep, "%")
    name = os.path.join(directory, f"{flat}.{time.strftime('%Y%m%dT%H%M%S')}")
    atomic_write(name, data)
    return name
