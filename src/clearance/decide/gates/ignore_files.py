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
    try:
        with open(path, "rb") as handle:
            data = handle.read(_LIMIT)
    except (OSError, ValueError):
        return False
    if len(data) >= _LIMIT:
        return True
    return b"!" in data and any(line.lstrip().startswith(b"!") for line in data.splitlines())


def _files(directory: str, name: str) -> list[str]:
    """The ignore files the entry ``name`` of ``directory`` stands for: ``.git``'s
    ``info/exclude``, through a gitfile (``gitdir: …``, a linked worktree's or a submodule's)
    and its ``commondir`` as git and ripgrep find them."""
    if name != ".git":
        return [os.path.join(directory, name)]
    dot = os.path.join(directory, ".git")
    if not os.path.isfile(dot):
        return [os.path.join(dot, "info", "exclude")]
    gitdir = _pointer(dot, b"gitdir:")
    if gitdir is None:
        return []
    out = [os.path.join(gitdir, "info", "exclude")]
    common = _pointer(os.path.join(gitdir, "commondir"), b"")
    if common is not None:
        out.append(os.path.join(common, "info", "exclude"))
    return out


def _pointer(path: str, prefix: bytes) -> str | None:
    """The directory the file ``path`` names after ``prefix`` (relative to the file's own
    directory), ``None`` when it names none."""
    try:
        with open(path, "rb") as handle:
            line = handle.read(4096).split(b"\n", 1)[0].strip()
    except (OSError, ValueError):
        return None
    if not line.startswith(prefix) or not line[len(prefix) :].strip():
        return None
    named = os.fsdecode(line[len(prefix) :].strip())
    return os.path.join(os.path.dirname(path), named)


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
        for named in _excludes_files(path):
            if named[:2] == "~/":
                named = os.path.join(home, named[2:])
            if _negates(named):
                return True
    return False


_EXCLUDES: re.Pattern[bytes] | None = None


def _excludes_files(path: str) -> list[str]:
    """The paths ``excludesfile = PATH`` lines of the git configuration file ``path`` name."""
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

        _EXCLUDES = re.compile(rb"(?im)^\s*excludesfile\s*=(.*)$")
    out = []
    for found in _EXCLUDES.finditer(data):
        value = found.group(1).strip()
        # the value as ripgrep reads it (its first word, unquoted) and as git does (the line)
        for one in (value.strip(b'"').split(None, 1)[:1], [value.strip(b'"').strip()]):
            out += [os.fsdecode(v) for v in one if v]
    return out
