"""The repository git would use from a directory, as far as it lies inside the project.

git finds its repository by walking up from its working directory (after ``-C``): in each
directory it takes a ``.git`` entry (a directory, or a *gitfile* naming one elsewhere:
``gitdir: ../x``), else the directory itself when it looks like a bare repository (``HEAD``,
with ``objects/`` and ``refs/``, or a ``commondir`` naming where they are) — and that
repository's configuration names programs git runs (``core.fsmonitor``, ``diff.external``,
filters, aliases, hooks). An agent that may write files in the project can plant such a
layout with ordinary writes, so :func:`foreign_repository` says, from what is on disk, whether
git started in a directory would use a repository inside the project that is not the project's
own: the project's ``.git``, one of its submodules (``.git/modules/…``) or one of its linked
worktrees (a git directory whose ``commondir`` is the project's). ADR 0040.

Only ``lstat``-like probes and bounded reads of a gitfile or ``commondir`` file, a bounded
number of directories: it never raises.
"""

from __future__ import annotations

import os
from stat import S_ISDIR, S_ISREG

from clearance.intent.path import canonical_cwd, canonicalize, is_within, lexists

__all__ = ["foreign_repository", "git_directory"]

_MAX_LEVELS = 64
_MAX_POINTER = 4096  # a gitfile or a commondir file: a path, not a document


def foreign_repository(
    start: str, root: str, home: str = "", git_dir: str | None = None
) -> str | None:
    """The git directory git would use when started in the absolute directory ``start``
    (``git_dir``: the absolute ``--git-dir`` it is given instead of discovering one), when that
    lies inside the project ``root`` (canonical) and is not the project's own, nor a submodule's
    or linked worktree's of it; else ``None``. A ``start`` outside ``root`` is not looked at.
    ``home``: the user's home, above which no enclosing work tree is looked for."""
    own = _own(root, home)
    if git_dir is not None:
        found = git_directory(git_dir)  # a directory, or a gitfile naming one
        if found is None or not is_within(found, root) or _owned(found, own):
            return None  # none (git refuses to run), outside the project, or the project's
        return git_dir
    probe = canonical_cwd(start)  # git's own working directory: links resolved, as chdir does
    if not is_within(probe, root):
        return None
    if own is None:
        return root + "/.git"  # a planted gitfile made the project's top (see _own)
    for _ in range(_MAX_LEVELS):
        if probe == root:
            # The project's own `.git`, or none: nothing of the project's work tree above.
            return None if own or not _bare(probe) else probe
        entry = probe + "/.git"
        if lexists(entry):
            target = _entry(entry, probe)
            return None if target is not None and _owned(target, own) else entry
        if _bare(probe):
            return None if _owned(probe, own) else probe
        parent = probe.rpartition("/")[0] or "/"
        if parent == probe:
            break
        probe = parent
    return None


def git_directory(entry: str) -> str | None:
    """The canonical git directory a ``.git`` entry names: itself when a directory, the
    directory a gitfile names, ``None`` when neither (git then refuses to run)."""
    return _entry(entry, entry.rpartition("/")[0] or "/")


def _entry(entry: str, where: str) -> str | None:
    try:
        mode = os.stat(entry).st_mode
    except (OSError, ValueError):
        return None
    if S_ISDIR(mode):
        return canonicalize(entry)
    if not S_ISREG(mode):
        return None
    text = _pointer(entry)
    if text is None or not text.startswith("gitdir:"):
        return None
    named = text[len("gitdir:") :].strip()
    if not named:
        return None
    return canonicalize(named if named[:1] == "/" else where + "/" + named)


def _own(root: str, home: str) -> tuple[str, ...] | None:
    """The canonical git directories of the project: its own, and the common one it shares
    with its linked worktrees (the same one for an ordinary checkout); empty without one.

    ``None`` when the project's top is itself suspect: its ``.git`` is a gitfile whose
    repository keeps its configuration where clearance does not protect it (not in a ``.git``
    directory or its ``modules/``), inside another work tree below ``home``. A host that keeps
    the working directory an earlier command moved to would otherwise take a planted
    ``sub/.git`` for the project's own."""
    entry = root + "/.git"
    try:
        status = os.lstat(entry)
    except (OSError, ValueError):
        return ()
    if S_ISDIR(status.st_mode):  # an ordinary checkout: no link, no file to read
        common = _common(entry)
        if common is None:
            return None
        return (entry,) if common == entry else (entry, common)
    # A gitfile (a linked worktree, a submodule) or a link: remembered while the entry is the
    # same file, unchanged (a process deciding many calls reads it once).
    key = (root, home, status.st_ino, status.st_mtime_ns, status.st_size)
    if key in _OWN:
        return _OWN[key]
    if len(_OWN) >= 64:
        _OWN.clear()
    found = _OWN[key] = _own_of(entry, root, home)
    return found


_OWN: dict[tuple[str, str, int, int, int], tuple[str, ...] | None] = {}


def _own_of(entry: str, root: str, home: str) -> tuple[str, ...] | None:
    found = git_directory(entry) if root != "/" else None
    if found is None:
        return ()
    common = _common(found)
    if common is None:
        return None
    if not _protected(common) and os.path.isfile(entry) and _nested(root, home):
        return None
    return (found,) if common == found else (found, common)


def _protected(gitdir: str) -> bool:
    """Whether ``gitdir``'s configuration and hooks are protected paths (``*/.git/config``,
    ``*/.git/modules/*/config``, ``docs/configuration.md``, "Protected paths")."""
    return gitdir.endswith("/.git") or "/.git/modules/" in gitdir


def _nested(root: str, home: str) -> bool:
    """Whether a directory above ``root``, below ``home``, holds a ``.git`` entry."""
    home_c = canonicalize(home) if home else ""
    probe = root
    for _ in range(_MAX_LEVELS):
        parent = probe.rpartition("/")[0] or "/"
        if parent == probe or (home_c and is_within(home_c, parent)):
            return False
        probe = parent
        if lexists(probe + "/.git" if probe != "/" else "/.git"):
            return True
    return False


def _common(gitdir: str) -> str | None:
    """The directory whose configuration and hooks ``gitdir`` uses: the one its ``commondir``
    file names, else itself; ``None`` when that file cannot be read."""
    pointer = gitdir + "/commondir"
    if not lexists(pointer):
        return gitdir
    text = _pointer(pointer)
    if text is None or not text.strip():
        return None
    named = text.strip()
    return canonicalize(named if named[:1] == "/" else gitdir + "/" + named)


def _owned(gitdir: str, own: tuple[str, ...] | None) -> bool:
    """Whether the configuration ``gitdir`` uses is the project's, or a submodule's kept in
    the project's git directory (``.git/modules/…``, whose configuration and hooks are
    protected paths)."""
    if not own:
        return False
    common = _common(gitdir)
    if common is None:
        return False
    for mine in own:
        if common == mine or is_within(common, mine + "/modules"):
            return True
    return False


def _bare(directory: str) -> bool:
    """git's test of a git directory (``is_git_directory``): ``HEAD``, and ``objects`` and
    ``refs`` (or a ``commondir`` naming where they are). Any entry of those names counts."""
    if not lexists(directory + "/HEAD"):
        return False
    if lexists(directory + "/commondir"):
        return True
    return lexists(directory + "/objects") and lexists(directory + "/refs")


def _pointer(path: str) -> str | None:
    """The text of a small file (a gitfile, a ``commondir``), ``None`` past the bound or on
    any failure."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_POINTER + 1)
    except (OSError, ValueError):
        return None
    if len(data) > _MAX_POINTER:
        return None
    try:
        return data.decode()
    except UnicodeDecodeError:
        return None
