"""What earlier statements of one command line leave behind for later ones: the links and copies
they make, and the files they write (docs/shell-analysis.md, "Links and files made in the
line").

The path gates judge a path by what it reaches on disk *now*. A line can change that before a
later statement opens the path: ``ln -s .. up; cat up/.ssh/id_rsa`` reads the home's key
through a link that does not exist yet, and ``echo 'rm x' > f; . ./f`` runs code written a
moment before. So the assembly records, statement by statement:

* **aliases**: a name that ``ln`` (symbolic or hard), ``cp`` or ``mv`` makes, and what it
  reaches (``None`` when that is computed). A later path under the name is judged as the path
  it reaches too; under a name with an unknown target it is an unknown path.
* **written**: the paths a statement may write (write redirects, and every path token that is
  not a proven read). A later statement that runs one of them as code (``. f``, ``source f``,
  ``bash f``, ``./f``) carries a floor.

One :class:`Line` is shared by every assembly of an analysis (payloads and nested programs
too), so a link made inside ``bash -c '…'`` or a substitution still counts.
"""

from __future__ import annotations

import os

from clearance.intent.shell.options import spells
from clearance.intent.shell.token import PathToken, absolute, own_cwd, passes_process

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.shell.word import Word

__all__ = ["LINKERS", "Line", "made"]

# Commands that make a name reach an existing entry: links, copies, moves (GNU coreutils and
# their `g`-prefixed BSD installs; busybox is a wrapper of its own).
LINKERS = frozenset({"ln", "cp", "mv", "gln", "gcp", "gmv", "link"})
MAX_ALIASES = 64  # past it, every later path is unknown
_GLOB = frozenset("*?[")
# Options of ln/cp/mv that take the next word as their value (short, and long without `=`).
_VALUED_SHORT = frozenset("St")
_MAX_TREE = 4096  # entries of a directory a recursive copy lays into another


class Line:
    """The shared record of one command line's earlier statements."""

    __slots__ = (
        "aliases",
        "alone",
        "git_changed",
        "globbed",
        "landed",
        "makes",
        "overflow",
        "printed",
        "reals",
        "top",
        "written",
    )

    def __init__(self) -> None:
        # The line is one command and nothing else runs in it, so a glob it copies, or the
        # entries `find -exec` runs a command on, are what is on disk when it is decided (no
        # statement of the line makes one first); ``globbed``: something was read so (the
        # line is read again if it was not alone).
        self.alone = False
        self.globbed = False
        self.top: str | None = None  # the line's own working directory
        # (name made, what it reaches): absolute paths; a reach of None is computed.
        self.aliases: list[tuple[str, str | None]] = []
        self.overflow = False  # a name was made whose place is not known: all paths unknown
        # (absolute path or None, value as written) of what earlier statements may write.
        self.written: list[tuple[str | None, str]] = []
        # (absolute path, as written, the command) of the names a command is given that are
        # no file yet and that it may make (`uniq - opencode.json`): the protected-path gate
        # judges them (ADR 0060).
        self.makes: list[tuple[str, str, str]] = []
        # Where a directory leads (its real path), read once for the line (`real`).
        self.reals: dict[str, str] = {}
        # Landing names projected so far (``trees.MAX_LANDED`` bounds them).
        self.landed = 0
        # An earlier git command may have changed what git holds (refs, index, objects), so
        # what a later one writes into the work tree is not what git lists now (ADR 0051).
        self.git_changed = False
        # The texts of the units whose printed files git listed (ADR 0056): a git command
        # that changes what git holds anywhere in the line (later, or at once) floors them.
        self.printed: list[str] = []

    def record(self, made: list[tuple[str | None, str | None]], command: str) -> list[PathToken]:
        """Record the names a statement's ``ln``/``cp``/``mv`` made, for later statements; the
        path tokens they are: the name made is written (``cp f .claude/`` writes
        ``.claude/f``), and what a symbolic link reaches (from the link's own directory) is a
        path too."""
        tokens = []
        for place, reach in made:
            self.alias(place, reach)
            if place is not None:
                self.written.append((place, place))
                tokens.append(PathToken(place, place, "unproven", "unproven", command))
            if reach is not None:
                tokens.append(PathToken(reach, reach, "unproven", "unproven", command))
        made.clear()
        return tokens

    def alias(self, name: str | None, reach: str | None) -> None:
        if name is not None and (name, reach) in self.aliases:
            return  # known from the start (a second reading of the line)
        if name is None or len(self.aliases) >= MAX_ALIASES:
            self.overflow = True
            return
        self.aliases.append((name, reach))

    def through(self, path: str) -> list[str | None]:
        """What ``path`` may reach through the names made earlier in the line, besides itself
        (``None``: an unknown path). Chains are followed a few steps."""
        out: list[str | None] = []
        pending = [path]
        seen = {path}
        steps = 0
        while pending and steps < 8:
            steps += 1
            current = pending.pop()
            pattern = not _GLOB.isdisjoint(current)
            for name, reach in self.aliases:
                if pattern:  # `ln -s .. up; cat u*/x`: a pattern may match the name
                    rest = _matched(current, name)
                    if rest is None:
                        continue
                    current_rest = rest
                elif current != name and not current.startswith(name + "/"):
                    continue
                else:
                    current_rest = current[len(name) :]
                if reach is None:
                    out.append(None)
                    continue
                found = absolute(reach + current_rest, None)
                if found is not None and found not in seen:
                    seen.add(found)
                    out.append(found)
                    pending.append(found)
        return out

    def under(self, path: str) -> bool:
        """Whether ``path`` is a name made earlier in the line, or lies under one."""
        return any(path == name or path.startswith(name + "/") for name, _ in self.aliases)

    def wrote(
        self, path: str | None, value: str, written: Sequence[tuple[str | None, str]] | None = None
    ) -> bool:
        """Whether an earlier statement may have written the file ``value`` (``path``: its
        absolute form, ``None`` when not known); of ``written`` only, when given."""
        if written is None:
            written = self.written
        if not written:
            return False
        leaf = value.rstrip("/").rsplit("/", 1)[-1]
        real: str | None = None
        for known, raw in written:
            if path is not None and known is not None:
                if path == known:
                    return True
                # The same file through a link (`bash lnk` beside `lnk -> b.sh`, or a write
                # through one): compared where each leads now.
                if real is None:
                    real = self.real(path)
                if self.real(known) == real:
                    return True
            elif raw.rstrip("/").rsplit("/", 1)[-1] == leaf:
                return True  # one side's directory is not known: the same name may be it
        return False

    def real(self, path: str) -> str:
        """Where the absolute ``path`` leads now (:func:`os.path.realpath`), its directory's
        real path read once for the line: most files the line runs and writes share one."""
        import os

        head, _, leaf = path.rpartition("/")
        try:
            if os.readlink(path):
                return os.path.realpath(path)  # the file itself is a link
        except OSError:  # no link (EINVAL), or nothing there
            pass
        directory = self.reals.get(head)
        if directory is None:
            directory = self.reals[head] = os.path.realpath(head or "/")
        return (
            directory.rstrip("/") + "/" + leaf
            if leaf not in ("", ".", "..")
            else (os.path.realpath(path))
        )


def _matched(pattern: str, name: str) -> str | None:
    """The rest of ``pattern`` after its leading segments, when they match the path ``name``
    segment by segment as bash's glob would (a leading dot only by a leading dot)."""
    from fnmatch import fnmatchcase

    parts = pattern.split("/")
    names = name.split("/")
    if len(parts) < len(names):
        return None
    for part, segment in zip(parts, names, strict=False):
        if part == segment:
            continue
        if segment[:1] == "." and part[:1] != ".":
            return None
        if _GLOB.isdisjoint(part) or not fnmatchcase(segment, part):
            return None
    rest = "/".join(parts[len(names) :])
    return "/" + rest if rest else ""


def made(
    words: Sequence[Word],
    base: str | None,
    expand: Callable[[Word], str | None],
    line: Line | None = None,
) -> list[tuple[str | None, str | None]]:
    """The names ``ln``/``cp``/``mv`` ``words`` make and what each reaches, as absolute paths
    (``None``: computed or relative to a directory not known). A symbolic link's target is
    relative to the link's directory (unless ``-r``); everything else to the current one. When
    the last operand may be an existing directory, both readings are returned. ``expand``
    gives a word's value with ``~``/``$HOME``/``$PWD`` expanded (``None``: computed).
    In a ``line`` that is this command alone, a glob operand names the files on disk now
    (:func:`glob_files`), each of which lands by its own name in a target directory; else it
    makes a name not known.
    ``cp --parents`` makes the source's whole path beneath the directory."""
    name = words[0].value or ""
    name = name.rsplit("/", 1)[-1]
    symbolic = relative = parents = False
    target_dir: Word | None = None
    no_target_dir = backup = tree = False
    suffix: str | None = "~"
    operands: list[Word] = []
    options = True
    i = 1
    count = len(words)
    while i < count:
        word = words[i]
        value = word.value
        i += 1
        if options and value is not None and value[:1] == "-" and len(value) > 1:
            if value == "--":
                options = False
                continue
            if value[:2] == "--":
                # getopt takes any unambiguous prefix of a long option (`--t DIR`, `--suf=X`);
                # a prefix two options share makes the program refuse the line
                key, eq, rest = value.partition("=")
                if spells(key, "--symbolic") or spells(key, "--symbolic-link"):
                    symbolic = True
                elif spells(key, "--relative"):
                    relative = True
                elif spells(key, "--no-target-directory"):
                    no_target_dir = True
                elif spells(key, "--recursive") or spells(key, "--archive"):
                    tree = True
                elif spells(key, "--backup"):
                    backup = True
                elif spells(key, "--suffix"):
                    backup = True
                    suffix = rest if eq else (words[i].value if i < count else None)
                    i += 0 if eq else 1
                elif spells(key, "--parents") and name in ("cp", "gcp"):
                    parents = True
                elif spells(key, "--target-directory"):
                    if eq:
                        target_dir = _text(word, rest)
                    elif i < count:
                        target_dir = words[i]
                        i += 1
                continue
            letters = value[1:]
            for j, letter in enumerate(letters):
                if letter == "s":
                    symbolic = True
                elif letter == "r" and name in ("ln", "gln"):
                    relative = True
                elif letter == "T":
                    no_target_dir = True
                elif letter in "rRa" and name in ("cp", "gcp"):
                    tree = True
                elif letter == "b":
                    backup = True
                elif letter in _VALUED_SHORT:
                    rest = letters[j + 1 :]
                    if letter == "t":
                        target_dir = (
                            _text(word, rest) if rest else (words[i] if i < count else None)
                        )
                    else:  # `-S SUFFIX`: the backup of a name replaced is that name + SUFFIX
                        backup = True
                        suffix = rest if rest else (words[i].value if i < count else None)
                    if not rest:
                        i += 1
                    break
            continue
        operands.append(word)
    if name == "mv" or name == "gmv":
        symbolic = False  # a move keeps a link's own target; what it reaches is the source's
    if symbolic and name in ("cp", "gcp"):
        relative = True  # `cp -s` wants an absolute source; a relative one is from here
    pairs: list[tuple[Word, Word | None, bool]] = []  # (source, destination, into a directory)
    if target_dir is not None:
        pairs = [(w, target_dir, True) for w in operands]
    elif len(operands) == 1:
        pairs = [(operands[0], None, True)]  # `ln -s ../x`: ./x in the current directory
    elif len(operands) == 2:
        pairs = [(operands[0], operands[1], False)]
        if not no_target_dir and not _file_now(operands[1], base, expand, line):
            pairs.append((operands[0], operands[1], True))
    elif operands:
        pairs = [(w, operands[-1], True) for w in operands[:-1]]
    out: list[tuple[str | None, str | None]] = []
    for source, destination, into in pairs:
        src = _value(source, expand)
        dst = _value(destination, expand) if destination is not None else "."
        if dst is None:
            out.append((None, None))
            continue
        found = None
        if line is not None and line.alone and source.glob and not parents and not symbolic:
            found = glob_files(source, base)
        if found is not None:
            line.globbed = True  # type: ignore[union-attr]
            if not into:
                # `cp src/*.py new.py` copies into the file only if the pattern names one.
                if len(found) == 1:
                    out.append((absolute(dst, base), found[0]))
                continue
            # `cp src/*.py dst/`: each file the pattern names, by its own name in dst.
            for match in found:
                own = match.rsplit("/", 1)[-1]
                out.append((absolute(dst.rstrip("/") + "/" + own, base), match))
            continue
        if parents and into and src is not None:
            # `cp --parents a/b d` makes d/a/b (and `/a/b`, d/a/b).
            out.append((absolute(dst.rstrip("/") + "/" + src.lstrip("/"), base),
                        absolute(src, base)))  # fmt: skip
            continue
        leaf = src.rstrip("/").rsplit("/", 1)[-1] if src is not None else None
        if (
            tree
            and not symbolic
            and src is not None
            and (leaf in ("", ".", "..") if into else no_target_dir)
        ):
            # `cp -r tpl/. .git/`, `cp -rT tpl .git`: the source's tree lands in the directory.
            out.extend(_tree(absolute(src, base), absolute(dst, base), line))
        if into:
            if leaf is None:
                out.append((absolute(dst, base), None))  # under it, a name not known
                continue
            if leaf not in ("", ".", ".."):  # `cp -r . d`: what lands in d is the source
                dst = dst.rstrip("/") + "/" + leaf
        place = absolute(dst, base)
        if src is not None and symbolic:
            # A link's text is read by whichever process follows it: through `/proc/self/…`
            # it leads wherever that process is, which is not known here.
            here = base if relative or place is None else place.rsplit("/", 1)[0]
            if passes_process(src if src[:1] == "/" else f"{here}/{src}"):
                src = None
        elif src is not None:
            src = own_cwd(src) or src  # `cp /proc/self/cwd/x y` copies x from here
        if src is None:
            out.append((place, None))
        elif symbolic and not relative and src[:1] != "/" and place is not None:
            out.append((place, absolute(place.rsplit("/", 1)[0] + "/" + src, None)))
        else:
            out.append((place, absolute(src, base)))
    if backup:
        # `cp -b -S .json f .claude/settings` renames the old file to `.claude/settings.json`.
        out.extend((None if suffix is None or p is None else p + suffix, p) for p, _ in list(out))
    return out


def _tree(
    src: str | None, dst: str | None, line: Line | None
) -> list[tuple[str | None, str | None]]:
    """The names a recursive copy of the directory ``src`` makes in ``dst``: each entry
    beneath it now, for a line of this command alone (bounded); else every name in ``dst``
    (a pattern, which the gate expands)."""
    if src is None or dst is None:
        return [(None, None)]
    if line is None or not line.alone or os.path.islink(src) or not os.path.isdir(src):
        return [] if os.path.lexists(src) and not os.path.isdir(src) else [(dst + "/*", None)]
    line.globbed = True
    out: list[tuple[str | None, str | None]] = []
    for top, dirs, files in os.walk(src):
        for entry in (*dirs, *files):
            rel = os.path.relpath(os.path.join(top, entry), src)
            out.append((dst + "/" + rel, None))  # the source is read recursively already
            if len(out) > _MAX_TREE:
                return [(dst + "/*", None)]
    return out


def glob_files(word: Word, base: str | None) -> list[str] | None:
    """The files an unquoted glob operand names on disk now (``None``: not known: a quoted or
    braced pattern, a bound reached, or a directory among them, whose tree a copy or a move
    would carry along)."""
    value = word.value
    if value is None or value != word.raw or "{" in value:
        return None
    pattern = absolute(value, base)
    if pattern is None:
        return None
    import os

    from clearance.intent.glob import expand_pattern_bounded

    found, complete = expand_pattern_bounded(pattern)
    if not complete or any(os.path.isdir(match) for match in found):
        return None
    return found


def _file_now(word: Word, base: str | None, expand: Callable[[Word], str | None],
              line: Line | None) -> bool:  # fmt: skip
    """Whether the last of two operands is surely no directory: the line is this command
    alone (nothing in it makes the directory first) and no directory is there now."""
    if line is None or not line.alone:
        return False
    value = _value(word, expand)
    place = absolute(value, base) if value is not None else None
    if place is None or value is None or value.endswith("/"):
        return False
    import os

    return not os.path.isdir(place)


def _text(word: Word, rest: str) -> Word:
    """An option's embedded value as a word of its own (``-tDIR``, ``--target-directory=D``)."""
    from clearance.intent.shell.word import Word

    return Word(word.start, word.end, rest, rest if word.value is not None else None)


def _value(word: Word, expand: Callable[[Word], str | None]) -> str | None:
    """An operand's value (``None``: computed, a glob, or a ``~`` form not expanded)."""
    if word.glob:
        return None
    value = expand(word)
    if value is None or value[:1] == "~":
        return None
    return value
