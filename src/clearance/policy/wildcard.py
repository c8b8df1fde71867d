"""Wildcard patterns: ``*`` any run of characters (``/``, spaces and newlines included), ``?``
exactly one character, everything else literal, fully anchored; a trailing `` *`` also matches
the bare command (``git *`` matches ``git``).

Patterns are compiled once into a :class:`Wildcard` that matches without regular expressions:
the pattern is split at its stars into segments, the first is anchored at the start, the last at
the end, and each middle segment is placed at its leftmost occurrence (leftmost placement is
always safe because a star absorbs whatever lies between). There is no backtracking, so matching
is linear in the value's length for any pattern — ``*a*a*a*…b`` against 10,000 characters
included.
"""

from __future__ import annotations

__all__ = ["Wildcard", "compile_pattern", "expand_home", "has_wildcard", "is_command_pattern"]


def opens_option_list(word: str) -> bool:
    """``[]``, ``[-…`` or ``[!…``: the word opens the option list of a command rule."""
    return word == "[]" or word.startswith(("[-", "[!"))


def is_command_pattern(pattern: str) -> bool:
    """Whether a ``bash`` pattern is a command rule (``rm [-r -f] *``, ADR 0017): a word after
    the first opens an option list. Any other pattern is a wildcard."""
    if " [" not in pattern and "\t[" not in pattern:
        return False
    words = pattern.split()
    return any(opens_option_list(word) for word in words[1:])


def has_wildcard(pattern: str) -> bool:
    return "*" in pattern or "?" in pattern


def expand_home(pattern: str, home: str) -> str:
    """Expand a leading ``~``, ``$HOME`` or ``${HOME}`` (alone or before ``/``) to ``home``.

    ``~user``, ``$HOMEDIR`` and ``${HOME:-x}`` are left alone.
    """
    for prefix in ("~", "${HOME}", "$HOME"):
        if pattern == prefix:
            return home
        if pattern.startswith(prefix + "/"):
            return home.rstrip("/") + pattern[len(prefix) :]
    return pattern


def _segment_at(value: str, segment: str, pos: int) -> bool:
    """Whether ``segment`` (``?`` = any one character) matches ``value`` at ``pos``."""
    if pos < 0 or pos + len(segment) > len(value):
        return False
    if "?" not in segment:
        return value.startswith(segment, pos)
    for i, ch in enumerate(segment):
        if ch != "?" and value[pos + i] != ch:
            return False
    return True


class _Shift:
    """Shift-And search for a segment holding ``?``: one pass over the value, whatever the
    segment (bit ``i`` of the state says the last ``i + 1`` characters match its prefix)."""

    __slots__ = ("any", "high", "masks", "size")

    def __init__(self, segment: str) -> None:
        self.size = len(segment)
        self.high = 1 << (self.size - 1)
        self.any = 0
        self.masks: dict[str, int] = {}
        for i, ch in enumerate(segment):
            if ch == "?":
                self.any |= 1 << i
            else:
                self.masks[ch] = self.masks.get(ch, 0) | (1 << i)

    def find(self, value: str, start: int, stop: int) -> int:
        masks, any_mask, high = self.masks, self.any, self.high
        state = 0
        for j in range(start, stop):
            state = ((state << 1) | 1) & (masks.get(value[j], 0) | any_mask)
            if state & high:
                return j - self.size + 1
        return -1


def _find(value: str, segment: str | _Shift, start: int, stop: int) -> int:
    """Leftmost position >= start where ``segment`` matches and ends by ``stop``; -1 if none."""
    if isinstance(segment, str):
        return value.find(segment, start, stop)
    return segment.find(value, start, stop)


class _Glob:
    """One glob without the optional-trailing rule."""

    __slots__ = ("exact", "first", "last", "middle", "min_len")

    def __init__(self, pattern: str) -> None:
        parts = pattern.split("*")
        self.exact = len(parts) == 1
        self.first = parts[0]
        self.last = parts[-1] if len(parts) > 1 else ""
        self.middle: tuple[str | _Shift, ...] = tuple(
            _Shift(p) if "?" in p else p for p in parts[1:-1] if p
        )
        self.min_len = sum(len(p) for p in parts)

    def match(self, value: str) -> bool:
        first = self.first
        if self.exact:
            return len(value) == len(first) and _segment_at(value, first, 0)
        if len(value) < self.min_len:
            return False
        if first and not _segment_at(value, first, 0):
            return False
        last = self.last
        end = len(value) - len(last)
        if last and not _segment_at(value, last, end):
            return False
        pos = len(first)
        for segment in self.middle:
            hit = _find(value, segment, pos, end)
            if hit < 0:
                return False
            pos = hit + (segment.size if isinstance(segment, _Shift) else len(segment))
        return True


class Wildcard:
    """A compiled pattern. ``match(value)`` is pure and never backtracks."""

    __slots__ = ("_bare", "_glob", "_kind", "_lit", "_lit2", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self._glob: _Glob | None = None
        self._bare: _Glob | None = None
        self._lit = ""
        self._lit2 = ""
        if "?" not in pattern:
            stars = pattern.count("*")
            if stars == 0:
                self._kind = "exact"
                self._lit = pattern
                return
            if pattern.strip("*") == "":
                self._kind = "any"
                return
            if stars == 1 and pattern.endswith("*") and not pattern.endswith(" *"):
                self._kind = "prefix"
                self._lit = pattern[:-1]
                return
            if stars == 1 and pattern.startswith("*"):
                self._kind = "suffix"
                self._lit = pattern[1:]
                return
            if stars == 1 and pattern.endswith(" *"):
                # `git *`: everything after `git `, or the bare `git`.
                self._kind = "command"
                self._lit = pattern[:-1]
                self._lit2 = pattern[:-2]
                return
        self._kind = "glob"
        self._glob = _Glob(pattern)
        if pattern.endswith(" *"):
            self._bare = _Glob(pattern[:-2])

    @property
    def exact(self) -> str | None:
        """The one value this pattern matches, when it has no wildcard."""
        return self._lit if self._kind == "exact" else None

    def match(self, value: str) -> bool:
        kind = self._kind
        if kind == "command":
            return value.startswith(self._lit) or value == self._lit2
        if kind == "prefix":
            return value.startswith(self._lit)
        if kind == "any":
            return True
        if kind == "exact":
            return value == self._lit
        if kind == "suffix":
            return value.endswith(self._lit)
        glob = self._glob
        assert glob is not None
        if glob.match(value):
            return True
        bare = self._bare
        return bare is not None and bare.match(value)

    def __repr__(self) -> str:
        return f"Wildcard({self.pattern!r})"


_cache: dict[str, Wildcard] = {}


def compile_pattern(pattern: str) -> Wildcard:
    """A compiled, shared :class:`Wildcard` for ``pattern``."""
    hit = _cache.get(pattern)
    if hit is None:
        hit = _cache[pattern] = Wildcard(pattern)
    return hit
