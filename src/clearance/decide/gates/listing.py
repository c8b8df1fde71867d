"""Directory listings kept between the recursive reads of one process (a service, a batch),
for the beneath gate (:mod:`clearance.decide.gates.beneath`; docs/configuration.md,
"Recursive reads"; ADR 0029)."""

from __future__ import annotations

import os
from time import time_ns

from clearance.decide.gates.ignore_files import NAMES

__all__ = ["Listing", "Row", "listing", "view_of"]

# Directory listings kept between calls (a service, a batch): a directory's entries, keyed by its
# path and checked on every use against its inode, device, mtime and ctime. A change to a
# directory's entries (a file added, removed, renamed or replaced by a link) sets its mtime and
# ctime to the current time; a process can set the mtime back (`touch -d`), but never the ctime.
# A listing is kept only when the directory's ctime is at least _SETTLED_NS old, with a
# sub-second part (a filesystem that keeps fine timestamps): a later change then gets a later
# ctime even where the clock ticks coarsely. Otherwise the directory is listed afresh each time;
# an unreadable directory is never kept. ADR 0029.
_SETTLED_NS = 2_000_000_000
_KEEP = 50_000  # entries held across all listings (a few MB); past it, every listing is dropped
_LISTINGS: dict[str, Listing] = {}
_held = [0]

Row = tuple[str, bool, bool]  # name, is a directory, is a symlink


class Listing:
    """One directory's entries, as :meth:`_Walk.run` reads them."""

    __slots__ = ("_visible", "ignores", "key", "prefix", "whole")

    def __init__(self, key: tuple[int, int, int, int] | None, prefix: str, rows: list[Row]):
        self.key = key
        self.prefix = prefix  # the directory's path, ending with "/"
        self.whole = view_of(prefix, rows)
        # its entries that hold ripgrep ignore rules (`.gitignore`, `.git`, …)
        self.ignores = tuple(name for name, _, _ in rows if name in NAMES)
        self._visible: tuple[list[Row], str, list[str], bool] | None = None

    def view(self, hidden: bool) -> tuple[list[Row], str, list[str], bool]:
        """The rows (without the hidden ones unless ``hidden``), their lower-case paths joined
        by NUL, the subdirectories to walk, and whether a symlink is among them."""
        if hidden:
            return self.whole
        found = self._visible
        if found is None:
            visible = [row for row in self.whole[0] if row[0][:1] != "."]
            found = self._visible = view_of(self.prefix, visible)
        return found


def view_of(prefix: str, rows: list[Row]) -> tuple[list[Row], str, list[str], bool]:
    return (
        rows,
        "\0".join([(prefix + name + "/" if is_dir else prefix + name).lower()
                    for name, is_dir, _ in rows]),
        [prefix + name for name, is_dir, _ in rows if is_dir],
        any(row[2] for row in rows),
    )  # fmt: skip


def listing(directory: str) -> Listing | None:
    """The entries of ``directory``, kept from an earlier call while it is unchanged;
    ``None`` when it cannot be listed."""
    try:
        st = os.stat(directory)
    except OSError:
        key = None
    else:
        key = (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_ctime_ns)
        kept = _LISTINGS.get(directory)
        if kept is not None and kept.key == key:
            return kept
    try:
        with os.scandir(directory) as entries:
            listed = list(entries)
    except OSError:
        return None
    rows: list[Row] = []
    for entry in listed:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            is_link = not is_dir and entry.is_symlink()
        except OSError:
            is_dir = is_link = False
        rows.append((entry.name, is_dir, is_link))
    listing = Listing(key, directory if directory.endswith("/") else directory + "/", rows)
    if key is not None and key[3] % 1_000_000_000 and key[3] < time_ns() - _SETTLED_NS:
        if _held[0] + len(rows) > _KEEP:
            _LISTINGS.clear()
            _held[0] = 0
        _LISTINGS[directory] = listing
        _held[0] += len(rows)
    return listing
