"""The project boundary: where "outside" starts for the ``external_directory`` gate.

A path is inside when it lies under the **project** of the working directory: the nearest
enclosing git work tree (the nearest ancestor of the cwd holding a ``.git`` entry, a directory or
a worktree's file), or the cwd itself when there is none. A work tree at or above the home
directory (a dotfiles repository in ``~``) never counts: the boundary is then the cwd, so a home
directory under version control does not put all of it inside.

Further directories count as inside when the agent host names them (its own scratch space, the
extra directories its settings list): the engine asks its :class:`HostFacts`, which the host
integrations provide (``clearance.hosts.facts``). See docs/configuration.md, "Paths".
"""

from __future__ import annotations

import os

from clearance.intent.path import canonical_cwd, canonicalize, is_within, lexists

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class HostFacts(Protocol):
        """What the agent host knows about a call's surroundings."""

        def inside(self, project: str, home: str) -> tuple[str, ...]:
            """Directories besides ``project`` that count as inside (absolute)."""

        def mcp_servers(self, project: str, cwd: str, home: str) -> tuple[str, ...]:
            """The MCP server names the host has configured."""


__all__ = ["Boundary", "project_boundary", "project_root"]

_MAX_LEVELS = 64


class Boundary:
    """``root``: the canonical project directory; ``inside``: further canonical directories
    that count as inside."""

    __slots__ = ("inside", "root")

    def __init__(self, root: str, inside: tuple[str, ...]) -> None:
        self.root = root
        self.inside = inside

    def contains(self, path: str) -> bool:
        return self.holder(path) is not None

    def holder(self, path: str) -> str | None:
        """The directory of the boundary that holds the canonical ``path``: the project's,
        else the first further directory that does; ``None`` when it is outside."""
        if self.root and is_within(path, self.root):
            return self.root
        return next((extra for extra in self.inside if is_within(path, extra)), None)


_ROOTS: dict[tuple[str, str], str] = {}
_CACHE: dict[tuple[str, str, tuple[str, ...]], Boundary] = {}


def project_root(cwd: str, home: str) -> str:
    """The canonical project directory of the absolute working directory ``cwd`` (remembered
    per process: a batch or a long-lived host asks once per directory)."""
    key = (cwd, home)
    found = _ROOTS.get(key)
    if found is None:
        if len(_ROOTS) > 256:
            _ROOTS.clear()
        found = _ROOTS[key] = _root(cwd, home)
    return found


def project_boundary(cwd: str, home: str, extra: tuple[str, ...] = ()) -> Boundary:
    """The :class:`Boundary` of ``cwd``; ``extra``: absolute directories that count as inside
    too (never ``/``, the home directory or a directory holding it, spelled so or reached
    through a link: those are dropped)."""
    key = (cwd, home, extra)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        home_n = os.path.normpath(home) if home else ""
        home_c = canonicalize(home_n) if home_n else ""
        inside = []
        for path in extra:
            normal = os.path.normpath(path)
            if path[:1] != "/" or normal == "/" or normal == home_n:
                continue
            canonical = canonicalize(normal)
            # A directory reached through a link counts where the link leads: never when that
            # holds the home directory (a scratch directory planted as a link to `~` or `/`).
            if canonical != "/" and not (home_c and is_within(home_c, canonical)):
                inside.append(canonical)
        found = _CACHE[key] = Boundary(project_root(cwd, home), tuple(dict.fromkeys(inside)))
    return found


def _root(cwd: str, home: str) -> str:
    base = canonical_cwd(cwd)
    home_c = canonicalize(home) if home else ""
    probe = base
    for _ in range(_MAX_LEVELS):
        if lexists(probe + "/.git" if probe != "/" else "/.git"):
            if probe != "/" and not (home_c and is_within(home_c, probe)):
                return probe
            return base
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    return base
