"""``~name``: a login name's home directory, as bash's tilde expansion finds it.

bash reads the characters after an unquoted ``~`` up to the first ``/`` as a login name, unless
they are ``+``, ``-`` or a directory-stack index (``~+``, ``~-``, ``~2``, ``~-1``), and looks the
name up in the password database; a name it does not find leaves the word as typed. The
analysis looks the name up the same way, on the machine that runs the line. A name it cannot
look up (no password database, no such user yet, a home that is no absolute path) is no known
path, so the words holding it stay unknown paths and ask (docs/shell-analysis.md, "Paths").
"""

from __future__ import annotations

__all__ = ["user_path"]


def user_path(text: str) -> str | None:
    """What bash expands the unquoted word ``text`` (``~name`` or ``~name/rest``) to, else
    ``None`` (not a login name bash looks up, or one this system does not know)."""
    name, slash, rest = text[1:].partition("/")
    if not name or name[0] in "+-" or name.isdigit():
        return None  # `~`, `~/x`, `~+`, `~-`, `~N`: not a login name
    home = login_home(name)
    if home is None:
        return None
    if not slash:
        return home
    return home.rstrip("/") + "/" + rest


def login_home(name: str) -> str | None:
    """The home directory of the login ``name`` in the password database (``None``: none)."""
    try:
        import pwd  # only a line holding `~name` pays for it
    except ImportError:  # no password database on this system
        return None
    try:
        home = pwd.getpwnam(name).pw_dir
    except (KeyError, ValueError, OSError):
        return None
    return home if home[:1] == "/" else None
