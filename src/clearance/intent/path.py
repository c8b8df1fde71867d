"""Path facts: for each path a call touches, every spelling a rule might be written against.

A path is matched as written, as a lexical absolute path (relative paths resolved against the
call's working directory), and as its canonical symlink-resolved form — so a symlink can never
alias past a deny (docs/configuration.md, "Paths"). "Outside the working directory" is judged on
the canonical form
against the canonical working directory; the standard streams and ``/dev/null`` are never
outside.

Symlink resolution is the only I/O here; it never raises (missing, looping and unreadable paths
resolve as far as they can).
"""

from __future__ import annotations

import os
from stat import S_ISDIR, S_ISLNK

from clearance.intent.fact import WALK_ALL, WALK_ENTRIES, WALK_VISIBLE, PathFact, wider

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.intent.fact import Direction

__all__ = [
    "SAFE_DEVICES", "SYSTEM_PROGRAMS", "WALK_ALL", "WALK_ENTRIES", "WALK_VISIBLE", "PathFact",
    "canonical_cwd", "canonicalize", "is_within", "lexists", "normal_path", "opened", "path_fact",
    "through_plantable_links", "typed_path", "wider",
]  # fmt: skip

# Directories of the system's own programs, which the agent cannot write: `/bin/ls` is ls,
# where `./ls` or `bin/ls` is a file of the project.
SYSTEM_PROGRAMS = (
    "/bin/", "/usr/bin/", "/sbin/", "/usr/sbin/", "/usr/local/bin/", "/opt/homebrew/bin/",
)  # fmt: skip
SAFE_DEVICES = frozenset({"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr"})
_O_PATH = getattr(os, "O_PATH", 0)
_PROC_FD = "/proc/self/fd/"
_DOT_PARTS = frozenset({".", ".."})
_normpath = os.path.normpath


def _kernel_resolved(path: str, probe: bool) -> tuple[str, bool] | None:
    """Where the kernel resolves an existing ``path`` (``O_PATH`` + ``/proc/self/fd``): three
    system calls instead of one ``lstat`` per component, and with ``probe`` a fourth, an
    ``fstat`` of the same descriptor, telling whether it is a directory. ``None`` when it cannot
    say."""
    try:
        fd = os.open(path, _O_PATH | os.O_CLOEXEC)
    except (OSError, ValueError):
        return None
    try:
        target = os.readlink(_PROC_FD + str(fd))
        if not probe:
            is_dir = False
        else:
            try:
                is_dir = S_ISDIR(os.fstat(fd).st_mode)
            except OSError:
                is_dir = os.path.isdir(target)
    except OSError:
        return None
    finally:
        os.close(fd)
    return (target, is_dir) if target.startswith("/") else None


if os.access in os.supports_follow_symlinks:

    def lexists(path: str) -> bool:
        """``os.path.lexists``, asked without raising on a missing path (a Python exception
        costs more than the system call)."""
        try:
            return os.access(path, os.F_OK, follow_symlinks=False)
        except ValueError:  # a NUL byte
            return False

else:  # pragma: no cover - platforms without faccessat
    lexists = os.path.lexists


def _resolve(path: str, probe: bool) -> tuple[str, bool]:
    """:func:`canonicalize` of ``path``, and with ``probe`` whether that names a directory
    (``False`` without ``probe``)."""
    if _O_PATH and path[:1] == "/" and ("/." not in path or _DOT_PARTS.isdisjoint(path.split("/"))):
        current = path.rstrip("/") or "/"
        found = _kernel_resolved(current, probe)
        if found is not None:
            return found
        # Walk up to the longest existing ancestor (a missing name is kept as written — unless
        # it is itself a dangling symlink, which only the careful walk below follows). One
        # system call a missing level: a name with no entry at all is asked once, without
        # raising (a failed open costs a Python exception).
        tail: list[str] = []
        present = lexists(current)
        while not present:
            head, name = os.path.split(current)
            if not name or not head:
                break
            tail.append(name)
            current = head
            present = lexists(current)
            if present:  # an entry: it resolves, or it is a dangling link (the walk below)
                found = _kernel_resolved(current, False)
                if found is not None:
                    # Below an existing ancestor, a name just found missing: no directory there.
                    return os.path.join(found[0], *reversed(tail)), False
    try:
        canonical = os.path.realpath(path)
    except (OSError, ValueError, RuntimeError):
        canonical = os.path.normpath(path)
    return canonical, probe and os.path.isdir(canonical)


_last_base = ("", ".")  # the last working directory normalised, and its normal form


def _normalised(cwd: str) -> str:
    """``os.path.normpath(cwd)``, remembered for the last ``cwd`` (every path of a call shares
    it)."""
    global _last_base
    last = _last_base
    if cwd == last[0]:
        return last[1]
    base = _normpath(cwd)
    _last_base = (cwd, base)
    return base


def opened(path: str) -> str | None:
    """Where opening ``path`` leads, as the kernel resolves it (``O_PATH``); ``None`` when it
    cannot be opened (a link that dangles, or a loop: the program cannot read it either).
    Without ``O_PATH``, :func:`os.path.realpath` of an existing path."""
    if _O_PATH:
        found = _kernel_resolved(path, False)
        return found[0] if found is not None else None
    try:  # pragma: no cover - platforms without O_PATH
        return os.path.realpath(path) if os.path.exists(path) else None
    except (OSError, ValueError):  # pragma: no cover
        return None


def canonicalize(path: str) -> str:
    """The symlink-resolved form of an absolute ``path``: the realpath of its longest existing
    ancestor plus the missing tail. Never raises."""
    return _resolve(path, False)[0]


def canonical_cwd(cwd: str) -> str:
    """:func:`canonicalize` of the absolute working directory ``cwd``. When ``cwd`` is spelled
    exactly as the process's own working directory, ``os.getcwd()`` (the kernel's name for that
    directory, symlink-free) already is its canonical form: one system call instead of three."""
    try:
        if cwd == os.getcwd():
            return cwd
    except OSError:
        pass
    return canonicalize(cwd)


def normal_path(path: str) -> str:
    """``os.path.normpath`` of an absolute ``path``, with a leading ``//`` read as ``/`` (as
    Linux does). A path without an empty, ``.`` or ``..`` segment and without a trailing slash
    is already normal and is returned as it is."""
    if "//" not in path and "/." not in path and (path[-1:] != "/" or path == "/"):
        return path
    normal = _normpath(path)
    return "/" + normal.lstrip("/") if normal[:2] == "//" else normal


def through_plantable_links(path: str, *, follow_last: bool) -> str:
    """The absolute, normal ``path`` with every symbolic link on it that its user could have
    made resolved, the final one only with ``follow_last``; the links no user could have planted
    (owned by another user, in a directory the user cannot write: macOS's ``/tmp`` ->
    ``/private/tmp``) are kept as typed. A command rule meets this spelling too, so a link
    planted before the line (``/tmp/l -> /``) cannot make ``rm -rf /tmp/l/etc`` look like a
    scratch path (docs/configuration.md, "Command rules"). Never raises: past 40 links, or on
    an error, the kernel's resolution stands."""
    pending = path.split("/")[::-1]
    current = ""
    hops = 0
    uid = os.geteuid()
    while pending:
        name = pending.pop()
        if not name or name == ".":
            continue
        if name == "..":
            current = current.rpartition("/")[0]
            continue
        candidate = current + "/" + name
        try:
            st = os.lstat(candidate)
        except (OSError, ValueError):
            current = candidate  # a missing name: what follows is kept as typed
            continue
        if (
            S_ISLNK(st.st_mode)
            and (follow_last or any(pending))
            and (st.st_uid == uid or os.access(current or "/", os.W_OK))
        ):
            hops += 1
            try:
                target = os.readlink(candidate)
            except (OSError, ValueError):
                target = ""
            if hops > 40 or not target:
                return canonicalize(path)
            if target[:1] == "/":
                current = ""
            pending.extend(target.split("/")[::-1])
            continue
        current = candidate
    return current or "/"


def typed_path(raw: str, path: str) -> str | None:
    """The absolute path the word ``raw`` names as typed, given ``path``, where the analysis
    found it to lead: ``path`` itself, unless that is another place (a name an earlier statement
    of the line made leads there: ``ln -s / m; rm -rf m/etc``), then the typed path (``None``
    for a relative word). A word the shell expands (``~/x``, ``$HOME/x``) names ``path``."""
    if raw[:1] == "/":
        return normal_path(raw)
    if raw[:1] in ("~", "$"):
        return path
    tail = normal_path("/" + raw)
    return path if tail == "/" or path.endswith(tail) else None


def is_within(path: str, root: str) -> bool:
    if root == "/":
        return path.startswith("/")
    return path == root or path.startswith(root + "/")


def expand_user(raw: str, home: str) -> str:
    if raw == "~":
        return home
    if raw.startswith("~/"):
        return home.rstrip("/") + raw[1:]
    return raw


# The slot descriptors' own setters: a field written through its descriptor skips the attribute
# lookup ``object.__setattr__`` makes, about half of the construction cost.
def path_fact(
    raw: str,
    *,
    cwd: str | None,
    home: str,
    direction: Direction,
    boundary: str | None = None,
    source: str = "",
    written: str | None = None,
    extra: tuple[str, ...] = (),
    recursive: bool = False,
    walk: str = WALK_ALL,
) -> PathFact:
    """The fact for ``raw`` accessed from ``cwd`` (``None``: the base directory is unknown).

    ``boundary`` is the canonical project directory the call is confined to (the working
    directory when not given), ``extra`` further directories that count as inside; ``written``
    the spelling as the user wrote it, when ``raw`` is already resolved (a shell token after
    ``cd`` folding); ``recursive``: the access reads everything beneath ``raw`` when it is a
    directory (``walk``: how, :data:`WALK_ALL` and its kin).
    """
    expanded = expand_user(raw, home) if raw[:1] == "~" else raw
    if boundary is None:
        boundary = canonicalize(cwd) if cwd else ""
    if expanded[:1] == "/":
        joined = expanded
    elif cwd is None:
        # Unknown base: only the spelling as written can match, and it counts as outside.
        return PathFact(raw, None, None, (raw,), direction, True, boundary, False, source)
    elif not cwd:
        joined = "/" + expanded
    else:
        joined = cwd + expanded if cwd[-1] == "/" else cwd + "/" + expanded  # os.path.join
    lexical = normal_path(joined)
    trailing = raw[-1:] == "/"
    canonical, is_dir = _resolve(joined, not trailing)
    aliases = [lexical]
    if raw not in aliases:
        aliases.append(raw)
    if expanded not in aliases:
        aliases.append(expanded)
    if canonical not in aliases:
        aliases.append(canonical)
    if written is not None and written not in aliases:
        aliases.append(written)
    if cwd:
        base = _normalised(cwd)
        if base != "/" and lexical.startswith(base + "/"):
            # The cwd-relative spelling, so a pattern written `.env` or `src/*` matches
            # `./.env` and `/abs/project/src/a` alike (docs/configuration.md, "Which rule wins").
            relative = lexical[len(base) + 1 :]
            if relative not in aliases:
                aliases.append(relative)
    if trailing or is_dir:
        is_dir = True
        # A directory reaches everything inside it: `cp -r ~/.ssh x` meets a `~/.ssh/*` rule.
        for form in (lexical, canonical):
            inside = form.rstrip("/") + "/"
            if inside not in aliases:
                aliases.append(inside)
    if lexical in SAFE_DEVICES or canonical in SAFE_DEVICES:
        external = False
    else:
        external = not (boundary and is_within(canonical, boundary))
        if external and extra:  # the host's scratch and extra directories (intent/boundary.py)
            external = not any(is_within(canonical, other) for other in extra)
    if written is not None:
        raw = written
    recursive = recursive and is_dir
    return PathFact(raw, lexical, canonical, tuple(aliases), direction, external, boundary,
                    is_dir, source, recursive, walk if recursive else WALK_ALL)  # fmt: skip
