"""Whether the volume holding a path folds case: ``.GIT`` and ``.git`` name one directory on
macOS's default volumes, on Windows drives (WSL's ``/mnt/c``), on FAT and exFAT, and in an ext4
directory marked casefold; on an ordinary Linux volume they are two.

The answer is probed per directory and remembered for the life of the process: where the
platform says it (``pathconf(_PC_CASE_SENSITIVE)``, macOS), that; else one entry of the
directory whose name has ASCII letters is looked up again with its letters' case swapped — the
same file (device and inode) means the volume folds case, no such file means it does not. A
directory whose answer cannot be had (no such entry on the same device, an unreadable
directory) answers ``None``: unknown, which the gates treat as folding (ADR 0015).

Probing is I/O, and the gates ask only when a case-folded spelling would meet a stricter rule
than the spelling as written: a line whose paths meet no rule differently never probes.
Tests inject the property with :class:`FixedVolumes`.

:func:`program_folds` asks the same of a command word: whether ``Sudo`` runs the file ``sudo``.
"""

from __future__ import annotations

import os

__all__ = ["FixedVolumes", "Volumes", "default_volumes", "program_folds"]

_CACHE_MAX = 256
_ENTRIES = 64  # entries of one directory looked at for a name to swap
_LEVELS = 8  # parent directories (on the same device) tried when a directory has none


class Volumes:
    """The file systems on this machine, as they compare names; probed and remembered."""

    __slots__ = ("_cache",)

    def __init__(self) -> None:
        self._cache: dict[str, bool | None] = {}

    def folds(self, path: str) -> bool | None:
        """Whether the volume holding the absolute ``path`` (or its nearest existing
        ancestor) folds case: ``True``, ``False``, or ``None`` when it cannot be told."""
        directory = _existing_directory(path)
        if directory is None:
            return None
        cache = self._cache
        if directory in cache:
            return cache[directory]
        found = probe(directory)
        if len(cache) >= _CACHE_MAX:
            cache.clear()
        cache[directory] = found
        return found


class FixedVolumes(Volumes):
    """Every volume answers the same (tests: a case-insensitive volume on Linux)."""

    __slots__ = ("_folds",)

    def __init__(self, folds: bool | None) -> None:
        super().__init__()
        self._folds = folds

    def folds(self, path: str) -> bool | None:
        return self._folds


_DEFAULT: Volumes | None = None


def default_volumes() -> Volumes:
    """The process's shared :class:`Volumes`."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Volumes()
    return _DEFAULT


def _existing_directory(path: str) -> str | None:
    if not path.startswith("/"):
        return None
    current = os.path.normpath(path)
    while True:
        if os.path.isdir(current):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def probe(directory: str) -> bool | None:
    """Whether names in the existing ``directory`` fold case (``None``: cannot tell)."""
    if "PC_CASE_SENSITIVE" in getattr(os, "pathconf_names", {}):  # pragma: no cover - macOS
        try:
            return os.pathconf(directory, "PC_CASE_SENSITIVE") == 0
        except (OSError, ValueError):
            pass
    try:
        device = os.stat(directory).st_dev
    except OSError:
        return None
    current = directory
    for _ in range(_LEVELS):
        found = _probe_entries(current)
        if found is not None:
            return found
        parent = os.path.dirname(current)
        if parent == current:
            break
        try:
            if os.stat(parent).st_dev != device:
                break  # another volume: its answer says nothing about this one
        except OSError:
            break
        current = parent
    return None


def _probe_entries(directory: str) -> bool | None:
    try:
        with os.scandir(directory) as entries:
            for n, entry in enumerate(entries):
                if n >= _ENTRIES:
                    break
                name = entry.name
                swapped = name.swapcase()
                if swapped == name or not name.isascii():
                    continue
                try:
                    mine = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                try:
                    other = os.lstat(os.path.join(directory, swapped))
                except FileNotFoundError:
                    return False
                except OSError:
                    return None
                return (other.st_dev, other.st_ino) == (mine.st_dev, mine.st_ino)
    except OSError:
        return None
    return None


def program_folds(typed: str, cwd: str | None = None) -> bool | None:
    """Whether the command word ``typed`` (a name with capitals, or a path ending in one) runs
    the same file as its name in lower case, as bash finds it: ``Sudo`` is ``/usr/bin/sudo``
    where the volume holding it folds case. ``None`` when that cannot be told: a relative path
    from an unknown ``cwd``, a file that cannot be compared, or a name not found on this
    process's ``PATH`` while a directory on it folds case or cannot be told (the agent's shell
    may search further). A name found nowhere on a case-sensitive ``PATH`` runs nothing."""
    name = typed.rpartition("/")[2]
    lower = name.lower()
    if lower == name:
        return False
    if "/" in typed:
        if not typed.startswith("/"):
            if cwd is None:
                return None
            typed = os.path.join(cwd, typed)
        return _same(typed, typed[: len(typed) - len(name)] + lower)
    directories = []
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        directory = os.path.join(cwd, entry) if cwd is not None else entry
        if not directory.startswith("/"):
            continue  # bash's own working directory, not known here
        found = os.path.join(directory, name)
        if os.path.isfile(found) and os.access(found, os.X_OK):
            return _same(found, os.path.join(directory, lower))
        directories.append(directory)
    volumes = default_volumes()
    return None if any(volumes.folds(d) is not False for d in directories) else False


def _same(found: str, lower: str) -> bool | None:
    try:
        return os.path.samefile(found, lower)
    except FileNotFoundError:
        return False  # no such program, or no lower-case one: another program
    except (OSError, ValueError):
        return None
