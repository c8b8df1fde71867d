"""The fact of one path a call touches (:class:`PathFact`), and how a recursive read walks the
directory it is given. Built by :func:`clearance.intent.path.path_fact`, which re-exports these
names; kept apart because the value is built without calling its class (ADR 0001), which a
compiled module cannot do (docs/decisions/0058-hot-modules-compiled.md)."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    Direction = Literal["read", "write", "both"]

__all__ = ["WALK_ALL", "WALK_ENTRIES", "WALK_VISIBLE", "PathFact", "wider"]

# How a recursive read walks its directory (``PathFact.walk``): every entry, links beneath
# followed; every entry, no link beneath followed; as ripgrep by default, no hidden entry (unless
# an ignore file whitelists one) and no link beneath (docs/configuration.md, "Recursive reads").
WALK_ALL = ""
WALK_ENTRIES = "entries"
WALK_VISIBLE = "visible"


def wider(one: str, other: str) -> str:
    """Of two walks of one directory, the one that reads more."""
    for walk in (WALK_ALL, WALK_ENTRIES):
        if walk in (one, other):
            return walk
    return WALK_VISIBLE


_new = object.__new__


class _PathFactFields:
    """The fields of a :class:`PathFact`, assignable only while one is being built."""

    __slots__ = (
        "aliases", "boundary", "canonical", "direction", "external", "is_dir", "path", "raw",
        "recursive", "source", "walk",
    )  # fmt: skip
    raw: str
    path: str | None
    canonical: str | None
    aliases: tuple[str, ...]
    direction: Direction
    external: bool
    boundary: str
    is_dir: bool
    source: str
    recursive: bool
    walk: str


class PathFact(_PathFactFields, Frozen):
    """One accessed path.

    ``raw`` is the spelling as written; ``path`` the lexical absolute form (``None`` when the
    base directory is unknown, e.g. after a computed ``cd``); ``canonical`` the symlink-resolved
    form; ``aliases`` every spelling rules match against (lexical, as written, canonical);
    ``direction`` what the access proves (``read``, ``write``, or ``both`` when unproven);
    ``external`` whether it lies outside ``boundary`` (the canonical working directory);
    ``recursive`` whether the access reaches everything beneath a directory (``grep -r``);
    ``walk`` how that walk goes (:data:`WALK_ALL`, :data:`WALK_ENTRIES`, :data:`WALK_VISIBLE`:
    ``rg`` as ripgrep walks).
    """

    __slots__ = ()

    def __new__(
        cls,
        raw: str,
        path: str | None,
        canonical: str | None,
        aliases: tuple[str, ...],
        direction: Direction,
        external: bool,
        boundary: str,
        is_dir: bool = False,
        source: str = "",
        recursive: bool = False,
        walk: str = WALK_ALL,
    ) -> PathFact:
        self = _new(_PathFactFields)  # built on its fields class, then sealed (ADR 0001)
        self.raw = raw
        self.path = path
        self.canonical = canonical
        self.aliases = aliases
        self.direction = direction
        self.external = external
        self.boundary = boundary
        self.is_dir = is_dir
        self.source = source
        self.recursive = recursive
        self.walk = walk
        self.__class__ = cls
        return self  # type: ignore[return-value]

    @property
    def surfaces(self) -> tuple[str, ...]:
        """The ``path_*`` surfaces this access consults (both when unproven)."""
        if self.direction == "read":
            return ("path_read",)
        if self.direction == "write":
            return ("path_write",)
        return ("path_read", "path_write")

    @property
    def surface(self) -> str:
        """The path family member this access proves, or the bare family."""
        return {"read": "path_read", "write": "path_write"}.get(self.direction, "path")

    @property
    def shown(self) -> str:
        return self.path or self.raw

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.shown,
            "raw": self.raw,
            "surface": self.surface,
            "external": self.external,
            "aliases": list(self.aliases),
        }

    def describe(self, holder: str | None = None) -> str:
        """One line for ``explain``; ``holder``: the directory counted as inside that holds
        the path, when it is not the project's (the host's scratch directory)."""
        where = "outside" if self.external else "inside"
        extra = f" → {self.canonical}" if self.canonical and self.canonical != self.path else ""
        place = holder if holder and not self.external else self.boundary or "?"
        return f"{self.direction:5}  {self.shown}{extra}  ({where} {place})"
