"""Path tokens: the paths a command line touches, and in which direction (docs/shell-analysis.md,
"Paths").

Candidacy is decided without policy, by shape: absolute (``/x``), home (``~/x``), parent
traversal (``..`` as a whole segment), separator-bearing (``a/b``), dot-files (``.env``),
Windows drive paths. Flags, URLs, ``NAME=value`` and ``@scope/pkg`` are not paths; neither is a
relative value holding whitespace or a newline (prose such as a commit message) unless it names
an existing entry. A bare name is a candidate only when it names an existing entry and the
base directory is known; redirect targets are candidates by role, whatever their shape.
"""

from __future__ import annotations

from clearance._frozen import Frozen
from clearance.intent.path import WALK_ALL, normal_path, typed_path, wider
from clearance.intent.shell.options import is_assignment

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Literal

    Effect = Literal["read", "write", "unproven"]
    Source = Literal["syntax", "core", "retracted", "unproven", "computed"]

__all__ = [
    "PathToken",
    "absolute",
    "merge",
    "own_cwd",
    "passes_process",
    "path_shaped",
    "reaches_process",
]

_new = object.__new__
_SPACE = frozenset(" \t\r\n\v\f")


class _PathTokenFields:
    """The fields of a :class:`PathToken`, assignable only while one is being built."""

    __slots__ = ("command", "deep", "effect", "path", "raw", "source", "walk")

    raw: str
    path: str | None
    effect: Effect
    source: Source
    command: str
    deep: bool
    walk: str


class PathToken(_PathTokenFields, Frozen):
    """One path a command touches.

    ``raw`` is the token as written (quotes removed); ``path`` its lexical absolute form
    (normalised, ``~``/``$HOME``/``$PWD`` expanded) or ``None`` when the base directory is
    unknown and ``raw`` is relative. ``effect`` is ``read``, ``write`` or ``unproven``;
    ``source`` says what proved it: ``syntax`` (a redirect), ``core`` (an operand of the
    pure-reader core), ``retracted`` (a core command withdrew its claim), ``computed`` (a
    value computed when the command runs: ``path`` is ``None`` and ``raw`` the word as typed)
    or ``unproven``.
    ``command`` is the text of the unit the token belongs to. ``deep``: the command reads a
    directory here recursively (``grep -r``, ``cp -r``: ``effect.reads_recursively``), so what
    lies beneath it is read too; ``walk``: how that recursive read walks (``WALK_ALL``, every
    entry and link beneath, and its kin in ``clearance.intent.path``; ``ripgrep.walk``).
    """

    __slots__ = ()

    def __new__(
        cls,
        raw: str,
        path: str | None,
        effect: Effect,
        source: Source,
        command: str,
        deep: bool = False,
        walk: str = WALK_ALL,
    ) -> PathToken:
        self = _new(_PathTokenFields)  # built on its fields class, then sealed (ADR 0001)
        self.raw = raw
        self.path = path
        self.effect = effect
        self.source = source
        self.command = command
        self.deep = deep
        self.walk = walk
        self.__class__ = cls
        return self  # type: ignore[return-value]


def path_shaped(value: str) -> bool:
    """Whether ``value`` looks like a path on its own (no filesystem access)."""
    if not value:
        return False
    first = value[0]
    if "/" not in value and first != "~" and first != "." and value[1:2] != ":":
        return False  # the usual bare word: nothing below could hold
    if first == "-" or "\n" in value or "\x00" in value:
        return False
    if first == "/" or first == "~":
        return True
    if "://" in value or is_assignment(value):
        return False
    if first == "@" and "/" in value:
        return False
    if not _SPACE.isdisjoint(value):
        return False
    if len(value) > 2 and value[1] == ":" and value[2] in "/\\" and first.isalpha():
        return True
    if "/" in value:
        return True
    return first == "." and value != "."


def absolute(value: str, base: str | None) -> str | None:
    """``value`` made absolute against ``base`` and normalised (``None``: base unknown)."""
    if not value.startswith("/"):
        if base is None:
            return None
        if value and "/" not in value and value != "." and value != "..":
            return base + "/" + value if base != "/" else "/" + value  # already normal
        value = base + "/" + value if base[-1:] != "/" else base + value  # os.path.join
    return normal_path(value)


def own_cwd(path: str) -> str | None:
    """For an absolute ``path`` through the working directory of the process that opens it
    (``/proc/self/cwd/etc``, ``/proc/thread-self/cwd``, ``//proc/./self/cwd/``): the relative
    path that names the same file (``etc``, ``.``, ``./``), ``..`` kept; else ``None``. The
    kernel reads the rest from that directory exactly as it reads a relative path."""
    if path[:1] != "/" or "cwd" not in path:
        return None
    parts = [p for p in path.split("/") if p and p != "."]
    if len(parts) < 3 or parts[0] != "proc" or parts[2] != "cwd":
        return None
    if parts[1] != "self" and parts[1] != "thread-self":
        return None
    rest = "/".join(parts[3:]) or "."
    return rest + "/" if path[-1] == "/" and rest[-1] != "/" else rest


def reaches_process(path: str) -> bool:
    """Whether ``path`` (normalised or not) passes through a per-process link on its way."""
    return path.startswith(("/proc/", "/dev/fd/")) and _per_process(path)


def passes_process(path: str) -> bool:
    """Whether the absolute ``path`` passes through a per-process link on its way, ``..``
    folded step by step (``/proc/self/cwd/..`` does, though it ends at ``/proc/self``)."""
    if "proc" not in path and "fd" not in path:
        return False
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if parts:
                parts.pop()
        elif part and part != ".":
            parts.append(part)
            if reaches_process("/" + "/".join(parts)):
                return True
    return False


_PROCESS_LINKS = frozenset({"cwd", "root", "exe", "fd", "task", "map_files", "fdinfo"})


def _per_process(path: str) -> bool:
    """``/proc/<pid>/{cwd,root,exe,fd/N,task/…}``, ``/proc/self/…``, ``/proc/thread-self/…``
    and ``/dev/fd/N`` (but for 0–2): where they lead depends on the process that opens them,
    so they are unknown paths."""
    parts = path.split("/")
    if parts[1] == "dev":
        return len(parts) > 3 and parts[3] not in ("0", "1", "2")
    if len(parts) < 4:
        return False
    who = parts[2]
    return (who in ("self", "thread-self") or who.isdigit()) and parts[3] in _PROCESS_LINKS


def merge(tokens: Iterable[PathToken]) -> tuple[PathToken, ...]:
    """Deduplicate by path (or raw when unknown), merging effects: disagreement → unproven. A
    path a later command's word reaches elsewhere than it names (through a link an earlier
    statement made: ``ln -s / m; rm -rf /tmp/m/``) stays a token of its own, for the word's
    sake; so does a tree written at once (``write`` and ``deep``: ``rm -rf d``)."""
    seen: dict[str, PathToken] = {}
    for token in tokens:
        path, raw = token.path, token.raw
        if path is None:
            key = "\x00" + raw
        else:
            key = path
            if raw != path and typed_path(raw, path) != path:
                prior = seen.get(path)
                if prior is not None and prior.command != token.command:
                    key = path + "\x00" + raw
        if token.deep and token.effect == "write":
            key += "\x00tree"  # a tree written at once stays a write of its own (ADR 0045)
        prior = seen.get(key)
        if prior is None:
            seen[key] = token
            continue
        if prior.effect != token.effect:
            source = "computed" if prior.source == "computed" else "unproven"
            prior = seen[key] = prior.replace(effect="unproven", source=source)
        if token.deep and not prior.deep:
            seen[key] = prior.replace(deep=True, walk=token.walk)
        elif token.deep and prior.walk != token.walk:
            seen[key] = prior.replace(walk=wider(prior.walk, token.walk))
    return tuple(seen.values())
