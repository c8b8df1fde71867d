"""Which repository a git unit uses: the directory git starts from, and whether it would use
a repository inside the project that is not the project's own (ADR 0040).

git finds its repository by walking up from where it runs: the effective directory of the
unit's shell after ``cd``, then each ``-C`` in turn (or the ``--git-dir`` it is given). That
repository's configuration names programs git runs, so a repository planted in the project by
ordinary file writes (a bare layout ``x/HEAD``, ``x/objects/``, ``x/refs/``, ``x/config``, a
nested ``.git`` directory, or a ``.git`` file naming a directory elsewhere) is as good as
code: the unit carries :data:`~clearance.intent.sentinel.NESTED_REPOSITORY`. What is on disk
is read by :func:`clearance.intent.repository.foreign_repository`; what the line itself writes
first, by :func:`_writes_layout`. A directory that is not known (after a computed ``cd``)
holds a repository that is not known either: the unit carries the sentinel too (``x=../other;
cd "$x"; git log -p`` would print another repository's history, or run its configuration's
programs).
"""

from __future__ import annotations

from clearance.intent.path import canonicalize, is_within, lexists
from clearance.intent.repository import foreign_repository
from clearance.intent.sentinel import NESTED_REPOSITORY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.hazards import Finding

__all__ = ["repository_floor"]

_MAX_LEVELS = 64
# Entries whose making in a directory makes it, or its `.git`, a repository git finds.
_MAKES = frozenset({"HEAD", "commondir", ".git"})
# Entries that complete one where a `HEAD` is already on disk.
_COMPLETES = frozenset({"config", "objects", "refs"})


def repository_floor(
    finding: Finding,
    base: str | None,
    root: str,
    home: str,
    written: Sequence[tuple[str | None, str]],
    tilde: bool = True,
) -> Floor | None:
    """The floor of a git unit run in ``base`` (``None``: not known) in the project ``root``
    (canonical) whose ``-C`` and ``--git-dir`` the knowledge base read into ``finding``;
    ``home``: the user's home, which ``~/`` names unless ``tilde`` is false (the line may
    reassign it); ``written``: what the line's earlier statements may write."""
    tilde_home = home if tilde else None
    start: str | None = base
    for value in finding.chdirs:
        if value and (start is not None or _anchored(value)):  # git ignores an empty -C
            start = _joined(start or "/", value, tilde_home)
    git_dir = finding.git_dir
    if git_dir is not None:
        if not git_dir:
            return None
        known = start is not None or _anchored(git_dir)
        git_dir = _joined(start or "/", git_dir, tilde_home) if known else None
        if git_dir is None:
            return (NESTED_REPOSITORY, _UNKNOWN)
    elif start is None:
        # `x=../other; cd "$x"; git log -p`: whatever repository git finds there, outside the
        # project or in it, with the programs its configuration names.
        return (NESTED_REPOSITORY, _UNKNOWN)
    start = start or git_dir or "/"
    if written and _writes_layout(start, git_dir, root, written):
        why = (
            "runs git where the line itself may first make a git repository, whose "
            "configuration can make git run programs"
        )
        return (NESTED_REPOSITORY, why)
    found = foreign_repository(start, root, home, git_dir)
    if found is None:
        return None
    shown = found[len(root) + 1 :] if is_within(found, root) and found != root else found
    why = (
        f"would use the git repository {shown or '.'} inside the project, which is not the "
        "project's own: its configuration can make git run programs"
    )
    return (NESTED_REPOSITORY, why)


_UNKNOWN = (
    "runs git in a directory clearance cannot know (after a computed cd): the repository it "
    "uses there, and the programs its configuration names, are not known"
)


def _anchored(value: str) -> bool:
    """Whether a directory value names the same place from anywhere (``/x``, ``~/x``)."""
    return value[:1] == "/" or value == "~" or value[:2] == "~/"


def _joined(base: str, value: str, home: str | None) -> str | None:
    if value[:2] == "~/" or value == "~":
        if home is None:
            return None
        value = home + value[1:]
    path = value if value[:1] == "/" else base.rstrip("/") + "/" + value
    return path


def _writes_layout(
    start: str, git_dir: str | None, root: str, written: Sequence[tuple[str | None, str]]
) -> bool:
    """Whether a write of ``written`` may make a repository that git started in ``start``
    (or given ``git_dir``) finds: the directory itself, or its ``HEAD``, ``commondir`` or
    ``.git`` (and ``config``, ``objects`` or ``refs`` beside a ``HEAD`` on disk), in any
    directory git walks through below the project's top."""
    # Compared with links resolved, as the project's top is spelled.
    walk: list[str] = []
    if git_dir is not None:
        walk.append(canonicalize(git_dir))
    else:
        probe = canonicalize(start)
        for _ in range(_MAX_LEVELS):
            walk.append(probe)
            if probe == root or not is_within(probe, root):
                break
            parent = probe.rpartition("/")[0] or "/"
            if parent == probe:
                break
            probe = parent
    for path, _raw in written:
        if path is None:
            continue  # an unknown path: its write asks on its own
        parent, _, leaf = path.rpartition("/")
        parent = canonicalize(parent or "/")
        path = parent.rstrip("/") + "/" + leaf
        for directory in walk:
            if path == directory:
                if directory != root or git_dir is not None:
                    return True
            elif parent == directory:
                if leaf in _MAKES or (leaf in _COMPLETES and lexists(directory + "/HEAD")):
                    return True
            elif directory != root and is_within(path, directory + "/.git"):
                return True
    return False
