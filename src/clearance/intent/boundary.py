"""The project boundary: where "outside" starts for the ``external_directory`` gate.

A path is inside when it lies under the **project** of the working directory: the nearest
enclosing git work tree (the nearest ancestor of the cwd holding a ``.git`` entry, a directory or
a worktree's file), or the cwd itself when there is none. A work tree at or above the home
directory (a dotfiles repository in ``~``) never counts: the boundary is then the cwd, so a home
directory under version control does not put all of it inside.

The agent host's own scratch and extra directories count as inside too: Claude Code's task
outputs under ``/tmp/claude/`` and the directories its settings list in
``permissions.additionalDirectories`` (the project's ``.claude/settings.json`` and
``.claude/settings.local.json``, and ``~/.claude/settings.json``). Directories given on the
command line (``claude --add-dir``) are not visible to a hook and are not known here.
See docs/configuration.md, "Paths".
"""

from __future__ import annotations

import os

from clearance.intent.path import canonical_cwd, canonicalize, expand_user, is_within, lexists

__all__ = ["HOST_SCRATCH", "Boundary", "project_boundary"]

# Directories an agent host writes for the agent and reads back (Claude Code's task outputs).
HOST_SCRATCH = ("/tmp/claude", "/private/tmp/claude")
_MAX_LEVELS = 64


class Boundary:
    """``root``: the canonical project directory; ``inside``: further canonical directories
    that count as inside (host scratch and extra directories)."""

    __slots__ = ("inside", "root")

    def __init__(self, root: str, inside: tuple[str, ...]) -> None:
        self.root = root
        self.inside = inside

    def contains(self, path: str) -> bool:
        if self.root and is_within(path, self.root):
            return True
        return any(is_within(path, extra) for extra in self.inside)


_CACHE: dict[tuple[str, str], Boundary] = {}


def project_boundary(cwd: str, home: str) -> Boundary:
    """The :class:`Boundary` of the absolute working directory ``cwd`` (remembered per process:
    a batch or a long-lived host asks once per directory)."""
    key = (cwd, home)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        found = _CACHE[key] = _compute(cwd, home)
    return found


def _compute(cwd: str, home: str) -> Boundary:
    base = canonical_cwd(cwd)
    root = base
    home_c = canonicalize(home) if home else ""
    probe = base
    for _ in range(_MAX_LEVELS):
        if lexists(probe + "/.git" if probe != "/" else "/.git"):
            if probe != "/" and not (home_c and is_within(home_c, probe)):
                root = probe
            break
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    inside = [*HOST_SCRATCH]
    for extra in _additional_directories(root, home):
        inside.append(canonicalize(extra))
    return Boundary(root, tuple(dict.fromkeys(inside)))


def _additional_directories(root: str, home: str) -> list[str]:
    """Claude Code's ``permissions.additionalDirectories`` from the settings it reads."""
    files = [root + "/.claude/settings.json", root + "/.claude/settings.local.json"]
    if home:
        files.append(home.rstrip("/") + "/.claude/settings.json")
    out: list[str] = []
    for name in files:
        try:
            with open(name, encoding="utf-8") as handle:
                text = handle.read(1 << 20)
        except OSError:
            continue
        if "additionalDirectories" not in text:
            continue
        from clearance._json import loads

        try:
            data = loads(text)
        except ValueError:
            continue
        permissions = data.get("permissions") if isinstance(data, dict) else None
        extra = permissions.get("additionalDirectories") if isinstance(permissions, dict) else None
        if not isinstance(extra, list):
            continue
        for item in extra:
            if not isinstance(item, str) or not item.strip():
                continue
            path = expand_user(item, home) if item[:1] == "~" else item
            if path[:1] != "/":
                path = os.path.join(root, path)
            path = os.path.normpath(path)
            if path != "/" and not (home and os.path.normpath(home) == path):
                out.append(path)  # never the whole filesystem or the whole home
    return out
