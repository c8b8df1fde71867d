"""Whole trees written at once: directories a command removes, and the names a recursive copy,
move, link, sync or extraction makes beneath a directory (docs/shell-analysis.md, "Trees
written at once"; ADR 0045).

A path token names the directory a command is given, and a rule on a file beneath it never
meets that token: ``rm -rf .claude`` removes ``.claude/settings.json``, ``cp -r evil/. .claude/``
writes it. So, for the path gates:

* **removed**: what ``rm -r``, ``rmdir``, ``mv``'s sources and ``rsync --delete``'s destination
  (``--remove-source-files``: its sources) remove is a *write beneath* token: a ``write`` token
  marked ``deep``, which the decide layer judges on the protected files found beneath it on
  disk (``decide/gates/beneath_write.py``);
* **landed**: what ``cp``/``mv``/``ln`` (through :func:`~clearance.intent.shell.line.made`) and
  ``rsync`` make from a source directory lands beneath their destination: the source is walked
  on disk (bounded) and each entry's landing name is a written token; what ``tar -x`` and
  ``unzip`` extract is listed from the archive (bounded) the same way.

Where the names are not known (an archive clearance does not list, a member that is a link or
climbs out, a walk past its bound, a source something earlier in the line writes beneath), the
unit carries the floor :data:`~clearance.intent.sentinel.UNLISTED_NAMES`.
"""

from __future__ import annotations

import functools
import os

from clearance.intent.sentinel import UNLISTED_NAMES
from clearance.intent.shell.line import LINKERS, made
from clearance.intent.shell.names import DERIVED_BY_WORD, DIRECTORY_TOOLS, derived_name
from clearance.intent.shell.options import spells
from clearance.intent.shell.token import absolute

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.derived import Stdin
    from clearance.intent.shell.line import Line
    from clearance.intent.shell.projection import Projection
    from clearance.intent.shell.word import Word

__all__ = ["MAX_LANDED", "emit", "landings"]

MAX_LANDED = 2_000  # landing names of one line (entries walked, members listed)
_TARS = frozenset({"tar", "gtar", "bsdtar"})
_UNLISTED = frozenset({"7z", "7za", "7zz", "7zr", "cpio", "pax", "unrar", "unar"})


def landings(
    paths: Projection,
    pending: list[tuple[str | None, str | None]],
    words: Sequence[Word],
    base: str | None,
    command: str,
    stdin: Stdin = None,
) -> Floor | None:
    """Project the trees ``words`` remove or write beneath a directory, and the names a
    program derives itself (ADR 0052), as path tokens; add the names ``ln``/``cp``/``mv`` make
    to ``pending`` (``Line.record`` records them after the statement); the floor of names not
    known, else ``None``. ``stdin``: what standard input is (a patch may be read from it)."""
    name = (words[0].value or "").rsplit("/", 1)[-1]
    expand = paths.expand
    values = [expand(w, base) if not w.glob else w.value for w in words[1:]]
    if name in LINKERS:
        pairs = made(words, base, lambda w: expand(w, base), paths.line)
        pending.extend(pairs)
        floor = _land(paths, pairs, command)
        if floor is None and name in ("cp", "gcp") and _hard_links(values):
            floor = _linked(paths, pairs, command)
        if name in ("mv", "gmv"):  # a move takes its sources away, trees and all
            for reach in {reach for _, reach in pairs if reach is not None}:
                _removed(paths, reach, base, command)
        return floor
    if (name in ("rm", "grm") and _rm_recursive(values)) or name == "rmdir":
        start = len(paths.tokens)  # each operand as the projection reads it (braces, globs)
        paths.arguments(words[1:], base, command, "write", "unproven")
        paths.tokens[start:] = [t.replace(deep=True) for t in paths.tokens[start:]]
    elif name == "rsync":
        if any(v is None or v.startswith("--link-d") for v in values):
            return _unlisted("hard-links the files of another tree (--link-dest)")
        return _rsync(paths, values, base, command)
    elif name in _TARS or name == "unzip":
        from clearance.intent.shell import archives  # only for the lines that extract

        lister = archives.unzip if name == "unzip" else archives.tar
        found = lister(paths.line, values, base, MAX_LANDED - paths.line.landed)
        if isinstance(found, str):
            return _unlisted(found)
        if found is not None:
            emit(paths, found[0], found[1], command)
    elif name in _UNLISTED and _extracts(name, values):
        return (UNLISTED_NAMES, f"extracts files whose names clearance does not list ({name})")
    else:
        if name in ("node", "nodejs"):  # `node …/npm-cli.js ARGS`: npm's own script, run by node
            words, values, name = _node_script(words, values, name)
        program = derived_name(name)
        if program in DIRECTORY_TOOLS:
            # `npm {i,} -g --prefix D`, `python3 -m venv .claude/{agents,x}`: the words bash
            # passes, where the command or a directory may be one of those it expands
            values = _bash_words(paths, words, values, base)
        if program is not None and (
            program not in DERIVED_BY_WORD
            or None in values
            or _names_a(DERIVED_BY_WORD[program], values)
        ):
            if program not in DIRECTORY_TOOLS:
                values = _alternatives(paths, words, values, base)
            return _derived(paths, program, values, base, command, stdin)
    return None


def _bash_words(
    paths: Projection, words: Sequence[Word], values: list[str | None], base: str | None
) -> list[str | None]:
    """The words bash passes for ``words[1:]``: a brace list expanded (``{i,}`` is ``i``), a
    loop's or a default's values in place, a pattern's matches (``i[n]`` is ``in`` where a file
    of that name is): each may be the command, an option or a directory."""
    from clearance.intent.shell import brace

    out: list[str | None] = []
    for word, value in zip(words[1:], values, strict=True):
        raw = word.raw
        if brace.is_list(raw):  # quoted braces stay one word
            expanded = brace.expanded_words(raw)
            if expanded is None:
                out.append(None)
                continue
            for literal, glob in expanded:
                if literal is None or glob:
                    paths.line.globbed = paths.line.globbed or glob
                    alone = glob and paths.line.alone
                    out.extend(_matched(literal, base) if alone else [None])
                elif literal:
                    out.append(literal)
        elif value is None and word.alts:
            out.extend(paths._join(parts, base) for parts in word.alts)
        elif word.glob:  # what an earlier command of the line makes is not on disk yet
            paths.line.globbed = True  # read again, not alone, when the line has more
            out.extend(_matched(value, base) if paths.line.alone else [None])
        else:
            out.append(value)
    return out


def _matched(pattern: str | None, base: str | None) -> list[str | None]:
    """The words bash passes for ``pattern`` where the line is decided: its matches (relative
    when it is), the pattern itself when none matches; computed when not known."""
    if pattern is None or base is None or pattern[:1] == "~":
        return [None]
    from clearance.intent.glob import pattern_words

    found = pattern_words(pattern, base)
    return [None] if found is None else list(found)


def _node_script(
    words: Sequence[Word], values: list[str | None], name: str
) -> tuple[Sequence[Word], list[str | None], str]:
    """``words``, ``values`` and ``name`` from a package manager's script node runs on (its
    first operand whose name is one: ``node /usr/bin/npm i``), else as they are."""
    for i, value in enumerate(values):
        script = (value or "").rsplit("/", 1)[-1]
        if value is not None and value[:1] != "-" and derived_name(script) is not None:
            return words[i + 1 :], values[i + 1 :], script
    return words, values, name


def _alternatives(
    paths: Projection, words: Sequence[Word], values: list[str | None], base: str | None
) -> list[str | None]:
    """``values``, with a word a loop or a default gives values (``for f in a.gz b.gz; do
    gunzip "$f"``) in place as each of them: what the program derives from any is written."""
    if None not in values:
        return values
    out: list[str | None] = []
    for word, value in zip(words[1:], values, strict=True):
        if value is None and word.alts:
            out.extend(paths._join(parts, base) for parts in word.alts)
        else:
            out.append(value)
    return out


def _names_a(words: frozenset[str], values: Sequence[str | None]) -> bool:
    """Whether a word of ``values`` is one of ``words``, or ends a short option cluster with
    one (``python3 -Im zipfile`` names it in a word of its own, ``-Imzipfile`` in the cluster)."""
    for value in values:
        if value is None:
            continue
        if value in words:
            return True
        if value[:2] == "--":  # `--x=v`, and a prefix getopt or nopt takes (`--logs-d`)
            key = value.partition("=")[0]
            if key in words or any(spells(key, w) for w in _long_options(words)):
                return True
        if value[:1] == "-" and value[:2] != "--" and value.partition("m")[2] in words:
            return True
    return False


@functools.cache
def _long_options(words: frozenset[str]) -> tuple[str, ...]:
    return tuple(w for w in words if w[:2] == "--")


def _derived(
    paths: Projection,
    name: str,
    values: Sequence[str | None],
    base: str | None,
    command: str,
    stdin: Stdin,
) -> Floor | None:
    """The names a decompressor, a download, a patch or a copy from another machine writes
    (:mod:`~clearance.intent.shell.derived`, loaded only for the lines that run one)."""
    from clearance.intent.shell import derived

    found = derived.derive(name, values, base, paths.line, stdin)
    if isinstance(found, str):
        return (UNLISTED_NAMES, f"{found}: the names it writes are not known")
    if isinstance(found, derived.Removed):
        for tree in found:
            _removed(paths, tree, None, command)
        found = found.written
    if found:
        if len(found) + paths.line.landed > MAX_LANDED:
            return _unlisted(f"writes more than {MAX_LANDED:,} names")
        paths.line.landed += len(found)
        for written in found:
            paths.value(written, written, None, command, "write", "unproven", True)
    return None


def _hard_links(values: Sequence[str | None]) -> bool:
    """``cp -l``/``--link`` (``-al``, ``-rl``): the copies are hard links, more names of the
    source's files (``-S``/``-t`` take the rest of their cluster as value)."""
    for value in values:
        if value is None or value == "--":
            return value is None
        if value[:2] == "--":
            if spells(value.partition("=")[0], "--link"):
                return True
        elif value[:1] == "-" and "l" in value[1:].split("S", 1)[0].split("t", 1)[0]:
            return True
    return False


def _linked(
    paths: Projection, pairs: Sequence[tuple[str | None, str | None]], command: str
) -> Floor | None:
    """A tree hard-linked into another place: a later write through a new name writes the
    source's file, so each name beneath the source is written too (`cp -al .claude y`)."""
    for place, reach in pairs:
        if place is None or reach is None or not os.path.isdir(reach):
            continue
        floor = _walk(paths, reach, reach, command, pairs)
        if floor is not None:
            return floor
    return None


def _rm_recursive(values: Sequence[str | None]) -> bool:
    for value in values:
        if value is None or value == "--":
            return value is None  # a computed word may be `-r`
        if value[:2] == "--":
            if spells(value, "--recursive"):  # `rm --r`: getopt's abbreviation
                return True
        elif value[:1] == "-" and ("r" in value or "R" in value):
            return True
    return False


def _removed(paths: Projection, value: str | None, base: str | None, command: str) -> None:
    """A tree removed: a write beneath ``value`` (a computed operand asks already)."""
    if value is None or not value:
        return
    start = len(paths.tokens)
    paths.value(value, value, base, command, "write", "unproven", True)
    paths.tokens[start:] = [t.replace(deep=True) for t in paths.tokens[start:]]


def _land(
    paths: Projection, pairs: Sequence[tuple[str | None, str | None]], command: str
) -> Floor | None:
    """The names a source directory's entries take beneath the place each pair makes. A link
    to a directory above its own place (``ln -s .. up``) makes a cycle of names that only
    re-spell what lies above, at its own path: it is not walked (ADR 0045)."""
    for place, reach in pairs:
        if place is not None and reach is not None and (place + "/").startswith(reach + "/"):
            continue
        if place is not None and reach is not None and _own_repository(paths.line, reach, place):
            continue
        if place is None or reach is None or not os.path.isdir(reach):
            if place is not None and reach is not None and _touched(paths.line, reach, pairs):
                return _unlisted(f"copies {reach}, which the line itself may fill first")
            continue
        floor = _walk(paths, reach, place, command, pairs)
        if floor is not None:
            return floor
    return None


def _own_repository(line: Line, reach: str, place: str) -> bool:
    """A copy of the line's own work tree's ``.git`` out of that work tree (``cp -r .git
    /tmp/backup``): its configuration is the one git already uses here (ADR 0040)."""
    tree, _, leaf = reach.rpartition("/")
    top = line.top
    if leaf != ".git" or top is None or not (top == tree or top.startswith(tree + "/")):
        return False
    return not (place == tree or place.startswith(tree + "/"))


def _touched(line: Line, directory: str, own: Sequence[tuple[str | None, str | None]] = ()) -> bool:
    """Whether an earlier statement may write at or beneath ``directory``, or a statement of
    the line makes a name at, above or beneath it (a file put into a source before the copy
    reads it); ``own``: the names this statement itself makes, which do not count."""
    if line.overflow:
        return True
    inside = directory.rstrip("/") + "/"
    if any(
        known is None or known == directory or known.startswith(inside) for known, _ in line.written
    ):
        return True
    return any(
        (name == directory or inside.startswith(name + "/") or name.startswith(inside))
        and (name, reach) not in own
        for name, reach in line.aliases
    )


def _walk(
    paths: Projection,
    source: str,
    place: str,
    command: str,
    own: Sequence[tuple[str | None, str | None]] = (),
) -> Floor | None:
    """Each entry beneath ``source`` as the written name ``place/rel``, bounded."""
    line = paths.line
    if _touched(line, source, own):
        return _unlisted(f"copies {source}, which the line itself may fill first")
    names: list[str] = []
    stack = [source]
    root = len(source.rstrip("/")) + 1
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    names.append(entry.path[root:])
                    if len(names) + line.landed > MAX_LANDED:
                        return _unlisted(f"copies more than {MAX_LANDED:,} entries")
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            return _unlisted(f"copies {source}, which clearance cannot read")
    emit(paths, place, names, command, own)
    return None


def emit(
    paths: Projection,
    place: str,
    names: Sequence[str],
    command: str,
    own: Sequence[tuple[str | None, str | None]] = (),
) -> None:
    """The written tokens of ``names`` beneath ``place``, and of what they reach through the
    names earlier statements made; not through the names this statement makes (``own``: a
    copy lands beneath its destination, it writes nothing back into its source)."""
    line = paths.line
    line.landed += len(names)
    top = place.rstrip("/")
    kept = line.aliases
    if own and kept:  # the line read again knows its own names from the start
        line.aliases = [alias for alias in kept if alias not in own]
    try:
        for rel in names:
            landed = f"{top}/{rel}"
            paths.value(landed, landed, None, command, "write", "unproven", True)
    finally:
        line.aliases = kept


def _unlisted(why: str) -> Floor:
    return (UNLISTED_NAMES, f"{why}: the names it writes beneath a directory are not known")


def _rsync(
    paths: Projection, values: Sequence[str | None], base: str | None, command: str
) -> Floor | None:
    operands: list[str | None] = []
    deletes = sources_go = False
    options = True
    for value in values:
        if options and value is not None and value[:1] == "-" and len(value) > 1:
            if value == "--":
                options = False
            if value == "--dry-run" or (value[:2] != "--" and "n" in value):
                return None  # writes nothing
            deletes = deletes or value.startswith("--delete") or value == "--del"
            sources_go = sources_go or value == "--remove-source-files"
            if value[:2] != "--" and not set(value[1:]).isdisjoint("efBTM"):
                return _unlisted("passes rsync a short option with a value")
            continue
        operands.append(value)
    if len(operands) < 2:
        return None
    *sources, destination = operands
    if destination is None or any(s is None for s in sources):
        return _unlisted("syncs a computed path")
    if _remote(destination):
        return None
    place = absolute(destination, base)
    if place is None:
        return _unlisted("syncs into a directory not known")
    if deletes:
        _removed(paths, destination, base, command)
    for source in sources:
        assert source is not None
        if _remote(source):
            return _unlisted("syncs a remote tree into a local directory")
        reach = absolute(source, base)
        if reach is None:
            return _unlisted("syncs a directory not known")
        if sources_go:
            _removed(paths, source, base, command)
        leaf = "" if source.endswith("/") else reach.rsplit("/", 1)[-1]
        where = f"{place}/{leaf}" if leaf else place
        floor = None
        if os.path.isdir(reach):
            floor = _walk(paths, reach, where, command)
        elif _touched(paths.line, reach):
            floor = _unlisted(f"syncs {source}, which the line itself may make first")
        else:  # a file: the destination, or its name in the destination directory
            emit(paths, place, [reach.rsplit("/", 1)[-1]], command)
        if floor is not None:
            return floor
    return None


def _remote(value: str) -> bool:
    head = value.split("/", 1)[0]
    return ":" in head


def _extracts(name: str, values: Sequence[str | None]) -> bool:
    first = next((v for v in values if v is None or v[:1] != "-"), "x")
    if name in ("cpio", "pax"):
        return True  # copy-in, or pax -r: members named by the archive
    return first is None or first in ("x", "e") or name in ("unrar", "unar")
