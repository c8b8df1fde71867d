"""What a shell glob or brace expansion in a path reaches, on the real filesystem.

A rule is written for real paths (``~/.ssh/*``) but a command can name them by pattern
(``cat ~/.ss?/id_*``, ``cat ~/{.ssh,x}/id_rsa``); the pattern text itself matches no such rule.
Expanding it as the shell would — braces first, then the glob — gives the paths the rules must
see. Bounded by 64 brace alternatives, 256 matches and a 50 ms deadline: an expansion that
reaches a bound is *incomplete*, and the caller must treat the pattern as unknown (ask), never
judge only the matches found so far.
"""

from __future__ import annotations

__all__ = [
    "GLOB_CHARS",
    "expand_braces",
    "expand_pattern",
    "expand_pattern_bounded",
    "pattern_words",
]

GLOB_CHARS = frozenset("*?[{")
_MAX_ALTERNATIVES = 64
# Inside a bracket expression, what bash reads and Python's glob does not: POSIX classes,
# equivalence classes and collating symbols (`[[:alpha:]]`, `[[=s=]]`, `[[.s.]]`).
_BASH_BRACKETS = ("[:", "[=", "[.")
_MAX_MATCHES = 256
_DEADLINE = 0.05


def expand_braces(text: str) -> list[str]:
    """``a{b,c}d`` → ``[abd, acd]`` (nested braces too); text without a list is itself."""
    out: list[str] = []
    pending = [text]
    while pending and len(out) + len(pending) <= _MAX_ALTERNATIVES:
        current = pending.pop()
        start = current.find("{")
        expanded = False
        while start >= 0:
            depth, parts, last, end = 0, [], start + 1, -1
            for i in range(start + 1, len(current)):
                ch = current[i]
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    if depth == 0:
                        end = i
                        break
                    depth -= 1
                elif ch == "," and depth == 0:
                    parts.append(current[last:i])
                    last = i + 1
            if end > 0 and parts:
                parts.append(current[last:end])
                head, tail = current[:start], current[end + 1 :]
                pending.extend(head + part + tail for part in reversed(parts))
                expanded = True
                break
            start = current.find("{", start + 1)
        if not expanded:
            out.append(current)
    return out + pending


def _with_parents(alternatives: list[str]) -> list[str]:
    """``alternatives`` and, for each segment that is a pattern beginning with ``.`` and
    matching ``..`` (``.*``, ``.?``, ``.[.]``), the alternative with ``..`` in its place:
    bash before 5.2 (and 5.2 with ``globskipdots`` off, or macOS's 3.2) matches ``..`` there,
    so ``cat .*/.ssh/id_rsa`` can reach the parent's ``.ssh``. Python's glob never yields it.
    """
    if not any("/." in a for a in alternatives):
        return alternatives
    from fnmatch import fnmatchcase

    out: list[str] = []
    pending = list(alternatives)
    while pending and len(out) + len(pending) <= _MAX_ALTERNATIVES:
        current = pending.pop()
        out.append(current)
        parts = current.split("/")
        for i, part in enumerate(parts):
            glob = part[:1] == "." and part != ".." and not GLOB_CHARS.isdisjoint(part)
            if glob and fnmatchcase("..", part):
                pending.append("/".join([*parts[:i], "..", *parts[i + 1 :]]))
    return out + pending


def _bash_only(pattern: str) -> bool:
    """Whether ``pattern`` holds a bracket expression that bash reads and Python's glob reads
    otherwise, so expanding it finds less than bash: ``[^…]`` (a negation to bash, a set
    holding ``^`` to Python) or a class, equivalence class or collating symbol inside one."""
    at = pattern.find("[")
    while at >= 0:
        inside = at + 1
        negated = pattern[inside : inside + 1] in ("^", "!")
        if negated:
            inside += 1
        if pattern[inside : inside + 1] == "]":
            inside += 1  # a leading `]` is a member
        end = pattern.find("]", inside)
        if end < 0:
            return False  # no closing bracket: the rest is read as typed
        if negated and pattern[at + 1] == "^":
            return True
        if any(_closed(pattern, at + 1, end, mark) for mark in _BASH_BRACKETS):
            return True
        at = pattern.find("[", end + 1)
    return False


def _closed(pattern: str, start: int, end: int, mark: str) -> bool:
    """Whether a class, equivalence class or collating symbol opens with ``mark`` between
    ``start`` and ``end`` and is closed (``[:…:]``) later in ``pattern``: one left open is read
    as plain members by bash as by Python (``app/[[...slug]]/page.tsx``)."""
    at = pattern.find(mark, start, end)
    return at >= 0 and pattern.find(mark[1] + "]", at + 2) >= 0


def expand_pattern(path: str, *, hidden: bool = False) -> list[str]:
    """The existing paths an absolute shell pattern names (empty when it names none), as far
    as the bounds allow (see :func:`expand_pattern_bounded` for whether that was all).

    ``hidden``: a wildcard matches a leading dot too (a search tool's filter, not the shell).
    """
    return expand_pattern_bounded(path, hidden=hidden)[0]


def expand_pattern_bounded(
    path: str, *, hidden: bool = False, recursive: bool = False
) -> tuple[list[str], bool]:
    """The existing paths an absolute shell pattern names, and whether that is all of them
    (``False``: a bound on alternatives, matches or time was reached).

    ``recursive``: a ``**`` path segment matches any number of directories, as zsh's ``**/``
    and bash's ``globstar`` do. Where bash reads ``**`` as ``*`` that is more than it reaches,
    never less, so the shell lines ask for it whichever shell reads them."""
    if GLOB_CHARS.isdisjoint(path):
        return [], True
    import glob
    import time

    stop = time.monotonic() + _DEADLINE
    found: list[str] = []
    alternatives = expand_braces(path)
    complete = len(alternatives) < _MAX_ALTERNATIVES
    if not hidden:
        alternatives = _with_parents(alternatives)
    for alternative in alternatives:
        if GLOB_CHARS.isdisjoint(alternative.replace("{", "").replace("}", "")):
            if alternative != path:
                found.append(alternative)
            continue
        if "[" in alternative and _bash_only(alternative):
            complete = False  # `cat ~/.[^x]sh/id_rsa` reads the key; Python's glob finds none
        for match in glob.iglob(alternative, include_hidden=hidden, recursive=recursive):
            found.append(match)
            if len(found) >= _MAX_MATCHES or time.monotonic() > stop:
                return found, False
        if time.monotonic() > stop:
            return found, False
    return found, complete


def pattern_words(pattern: str, base: str) -> list[str] | None:
    """The words bash passes for ``pattern`` in the directory ``base``: its matches as the
    pattern spells them (relative when it is), sorted; the pattern itself when nothing
    matches; ``None`` when a bound was reached and the matches are not all known."""
    prefix = base.rstrip("/") + "/"
    relative = pattern[:1] != "/"
    found, complete = expand_pattern_bounded(prefix + pattern if relative else pattern)
    if not complete:
        return None
    if not found:
        return [pattern]
    return [f[len(prefix) :] if relative and f.startswith(prefix) else f for f in sorted(found)]
