"""Ignore files that make ripgrep search hidden entries: a host's Grep tool runs ripgrep
without ``--hidden``, yet a negation (``!.env``) in an ignore file whitelists a hidden entry,
which ripgrep then searches (ADR 0016, point 5). The files ripgrep reads: ``.ignore``,
``.rgignore`` and ``.gitignore`` in the searched directory, every directory above it and every
directory beneath it; a repository's ``.git/info/exclude``; and git's global ignore file. An
agent that may write one of them could otherwise read a hidden ``.env`` through a Grep the
gate judged without it."""

from __future__ import annotations

import os

from clearance.intent.path import lexists

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterable

__all__ = ["NAMES", "whitelists", "whitelists_above"]

# Entry names in a directory that hold ripgrep ignore rules (`.git`: its `info/exclude`).
NAMES = frozenset({".ignore", ".rgignore", ".gitignore", ".git"})
_ORDERED = sorted(NAMES)
_access = os.access  # (an ignore file that is a dangling link is none: ripgrep reads none)
_F_OK = os.F_OK
_LIMIT = 1 << 20  # a longer file is taken to negate: its end is not read


def _negates(path: str) -> bool:
    """Whether the ignore file ``path`` holds a negation (a line starting with ``!``)."""
    if path == _UNKNOWN:
        return True
    try:
        with open(path, "rb") as handle:
            data = handle.read(_LIMIT)
    except (OSError, ValueError):
        return False
    if len(data) >= _LIMIT:
        return True
    return b"!" in data and any(line.lstrip().startswith(b"!") for line in data.splitlines())


# A file that stands for "whitelists, as far as clearance can tell".
_UNKNOWN = "\x00"


def _files(directory: str, name: str) -> list[str]:
    """The ignore files the entry ``name`` of ``directory`` stands for: ``.git``'s
    ``info/exclude``, through a gitfile (``gitdir: …``, a linked worktree's or a submodule's)
    and its ``commondir``, read as git reads them and as ripgrep does (the line as it is, with
    its blanks); a path ripgrep reads from its own working directory stands for a file not
    known (:data:`_UNKNOWN`)."""
    if name != ".git":
        return [os.path.join(directory, name)]
    dot = os.path.join(directory, ".git")
    if not os.path.isfile(dot):
        return [os.path.join(dot, "info", "exclude")]
    out: list[str] = []
    for gitdir in _pointers(dot, b"gitdir: ", None):
        if gitdir == _UNKNOWN:
            return [_UNKNOWN]
        out.append(os.path.join(gitdir, "info", "exclude"))
        for common in _pointers(os.path.join(gitdir, "commondir"), b"", gitdir):
            if common == _UNKNOWN:
                return [_UNKNOWN]
            out.append(os.path.join(common, "info", "exclude"))
    return out


def _pointers(path: str, prefix: bytes, base: str | None) -> list[str]:
    """The directories the file ``path`` may name after ``prefix``: its first line as it is and
    without the blanks around it. An absolute one is itself; a relative one is read from
    ``base`` when it starts with ``.`` (a ``commondir``: ``../..``), else — and a gitfile's
    always — ripgrep reads it from its working directory: :data:`_UNKNOWN`."""
    try:
        with open(path, "rb") as handle:
            line = handle.read(4096).split(b"\n", 1)[0]
    except (OSError, ValueError):
        return []
    if not line.startswith(prefix):
        return []
    out = []
    for named in dict.fromkeys((line[len(prefix) :], line[len(prefix) :].strip())):
        if not named:
            continue
        if named[:1] == b"/":
            out.append(os.fsdecode(named))
        elif base is not None and named[:1] == b".":
            out.append(os.path.join(base, os.fsdecode(named)))
        else:
            return [_UNKNOWN]
    return out


def whitelists(directory: str, names: Iterable[str]) -> bool:
    """Whether one of the ignore files ``names`` (from :data:`NAMES`) in ``directory``
    whitelists an entry."""
    return any(_negates(path) for name in names for path in _files(directory, name))


def whitelists_above(directory: str, home: str) -> bool:
    """Whether an ignore file that ripgrep reads for a search of ``directory`` and that lies
    outside it — in it or a directory above, or git's global ignore file — whitelists an
    entry."""
    current = directory.rstrip("/")
    while True:
        # Most directories hold no ignore file: each name is looked for without raising.
        prefix = current + "/"
        found = [name for name in _ORDERED if _access(prefix + name, _F_OK)]
        if found and whitelists(current or "/", found):
            return True
        if not current:
            break
        current = current.rpartition("/")[0]
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    for path in (config + "/git/ignore", home.rstrip("/") + "/.config/git/ignore"):
        if lexists(path) and _negates(path):
            return True
    # git's `core.excludesFile`, as ripgrep finds it: a line `excludesfile = PATH` of either
    # global configuration file (ripgrep reads them so, without sections or includes).
    for path in (config + "/git/config", home.rstrip("/") + "/.gitconfig"):
        if not lexists(path):
            continue
        for named in _excludes_files(path, home):
            if _negates(named):
                return True
    return False


_EXCLUDES: re.Pattern[bytes] | None = None


def _excludes_files(path: str, home: str) -> list[str]:
    """The files ``excludesfile = PATH`` lines of the git configuration file ``path`` name, as
    git reads them (the value trimmed and unquoted, a leading ``~/`` the home) and as ripgrep
    does (the rest of the line as it is, each ``~`` the home); a relative one, which ripgrep
    reads from its working directory, is a file not known (:data:`_UNKNOWN`)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_LIMIT)
    except (OSError, ValueError):
        return []
    if b"xcludesfile" not in data.lower():
        return []
    global _EXCLUDES
    if _EXCLUDES is None:
        import re  # only for a file that names one (the hot path does not load re)

        # (ripgrep's blanks are `\s`: a vertical tab or a form feed too)
        _EXCLUDES = re.compile(rb"(?im)^\s*excludesfile\s*=[ \t\v\f]*([^\n]*)$")
    out = []
    for found in _EXCLUDES.finditer(data):
        raw = os.fsdecode(found.group(1))
        as_git = raw.strip().strip('"')
        if as_git[:2] == "~/":
            as_git = home.rstrip("/") + as_git[1:]
        for named in (raw.replace("~", home.rstrip("/")), as_git):
            out.append(named if named[:1] == "/" else _UNKNOWN)
    return out
