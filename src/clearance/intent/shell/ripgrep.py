"""What ``rg`` reads when it is given no file: ripgrep's default walk, and standard input.

ripgrep (rg(1)) searches the directories it is given, or the working directory, without
entering hidden entries (a name starting with ``.``) or following a symbolic link beneath the
directory; and, given no path while its standard input is a pipe or a file, it searches standard
input instead of the working directory (``ls | rg x``). Options widen the walk (``--hidden``,
``-u``, ``-L``, a ``--glob`` or ``--type`` that admits a hidden name, an ``--ignore-file``) or
take patterns from standard input (``-f -``). This module reads an ``rg`` command by a positive
model: :data:`_SWITCHES` and :data:`_VALUED` are the options that change neither (from
``rg --help``, ripgrep 13 and 14); any other option, a computed word, or ``RIPGREP_CONFIG_PATH``
(a file of further options) in the environment, and nothing is assumed: every entry beneath is
read, and a command given no path searches the working directory (ADR 0057).
"""

from __future__ import annotations

import os

from clearance.intent.path import WALK_ALL, WALK_ENTRIES, WALK_VISIBLE, wider
from clearance.intent.shell.word import may_be_options, one_operand

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.word import Word

__all__ = ["AS_GIVEN", "UNKNOWN", "Walk", "walk"]

# Options that neither widen the walk nor read standard input: switches, in long and short
# form (rg(1) OPTIONS; `--no-…` forms that restore a default). `-h` prints the help.
_SWITCHES = frozenset(
    {"--auto-hybrid-regex", "--no-auto-hybrid-regex", "--binary", "--no-binary",
     "--block-buffered", "--no-block-buffered", "--byte-offset", "--no-byte-offset",
     "--case-sensitive", "--column", "--no-column", "--count", "--count-matches", "--crlf",
     "--no-crlf", "--debug", "--trace", "--files-with-matches", "--files-without-match",
     "--fixed-strings", "--no-fixed-strings", "--heading", "--no-heading", "--help",
     "--ignore-case", "--include-zero", "--no-include-zero", "--invert-match",
     "--no-invert-match", "--json", "--no-json", "--line-buffered", "--no-line-buffered",
     "--line-number", "--no-line-number", "--line-regexp", "--max-columns-preview",
     "--no-max-columns-preview", "--mmap", "--no-mmap", "--multiline", "--no-multiline",
     "--multiline-dotall", "--no-multiline-dotall", "--no-config", "--no-filename",
     "--with-filename", "--no-ignore", "--ignore", "--no-ignore-dot", "--ignore-dot",
     "--no-ignore-exclude", "--ignore-exclude", "--no-ignore-files", "--ignore-files",
     "--no-ignore-global", "--ignore-global", "--no-ignore-messages", "--ignore-messages",
     "--no-ignore-parent", "--ignore-parent", "--no-ignore-vcs", "--ignore-vcs",
     "--no-messages", "--messages", "--no-pcre2-unicode", "--pcre2-unicode",
     "--no-require-git", "--require-git", "--no-unicode", "--unicode", "--null",
     "--null-data", "--one-file-system", "--no-one-file-system", "--only-matching",
     "--passthru", "--passthrough", "--pcre2", "--no-pcre2", "--pretty", "--quiet",
     "--smart-case", "--sort-files", "--no-sort-files", "--stats", "--no-stats", "--text",
     "--no-text", "--trim", "--no-trim", "--version", "--vimgrep", "--word-regexp",
     "--no-hidden", "--no-follow", "--no-search-zip", "--no-pre", "--no-context-separator",
     "--no-encoding", "--ignore-file-case-insensitive", "--no-ignore-file-case-insensitive",
     "--glob-case-insensitive", "--no-glob-case-insensitive"}
)  # fmt: skip
_SHORT_SWITCHES = frozenset("abcFhHiIlnNoPpqsSUvVwx0")
# Options that take a value and neither widen the walk nor read standard input (a pattern, a
# number, a format); the value is the next word unless attached (`-A3`, `--max-count=3`).
_VALUED = frozenset(
    {"--after-context", "--before-context", "--context", "--color", "--colour", "--colors",
     "--context-separator", "--dfa-size-limit", "--encoding", "--engine",
     "--field-context-separator", "--field-match-separator", "--max-columns", "--max-count",
     "--max-depth", "--maxdepth", "--max-filesize", "--path-separator", "--regex-size-limit",
     "--regexp", "--replace", "--sort", "--sortr", "--threads", "--hyperlink-format"}
)  # fmt: skip
_SHORT_VALUED = frozenset("ABCdeEjmMr")
_NOT_DEFAULT = "not-default"  # an option that keeps the walk but is not ripgrep's default use
# Options that change what is walked, by whether they take a value: they admit hidden entries
# (`--hidden`, `-u`, a glob or a type that names one, an ignore file that whitelists one), follow
# links (`-L`), or run programs on what is found (`--pre`, `-z`). Where their values are and
# whether a pattern is given is known all the same, so the paths the command is given still are.
_ENTRIES_SWITCHES = frozenset({"--hidden", "--unrestricted", "--no-require-git"})
_ENTRIES_SHORT = frozenset(".u")
_ENTRIES_VALUED = frozenset(
    {"--glob", "--iglob", "--ignore-file", "--type", "--type-not", "--type-add", "--type-clear"}
)  # fmt: skip
_ENTRIES_SHORT_VALUED = frozenset("gtT")
_ALL_SWITCHES = frozenset({"--follow", "--search-zip"})
_ALL_SHORT = frozenset("Lz")
_ALL_VALUED = frozenset({"--pre", "--pre-glob", "--hostname-bin", "--generate"})
# Options that keep the walk but read standard input (`-f -`) or take no pattern (then the first
# operand is a path: `rg --files src`).
_NO_PATTERN = frozenset({"--files", "--type-list", "--pcre2-version"})
_FILE_VALUED = frozenset({"--file"})
_FILE_SHORT_VALUED = frozenset("f")
# The options that give the pattern: then every operand is a path.
_PATTERN_OPTIONS = frozenset({"--regexp", "-e", "--file", "-f"})
_GLOB_CHARS = frozenset("*?[")  # a word with one of them unquoted may be many
_LONG: dict[str, tuple[str, bool]] = {
    **{o: (WALK_VISIBLE, False) for o in _SWITCHES},
    **{o: (WALK_VISIBLE, True) for o in _VALUED},
    **{o: (WALK_ENTRIES, False) for o in _ENTRIES_SWITCHES},
    **{o: (WALK_ENTRIES, True) for o in _ENTRIES_VALUED},
    **{o: (WALK_ALL, False) for o in _ALL_SWITCHES},
    **{o: (WALK_ALL, True) for o in _ALL_VALUED},
    **{o: (_NOT_DEFAULT, False) for o in _NO_PATTERN},
    **{o: (_NOT_DEFAULT, True) for o in _FILE_VALUED},
}  # (the walk it asks for, whether it takes a value), by long option
_SHORT: dict[str, tuple[str, bool]] = {
    **{o: (WALK_VISIBLE, False) for o in _SHORT_SWITCHES},
    **{o: (WALK_VISIBLE, True) for o in _SHORT_VALUED},
    **{o: (WALK_ENTRIES, False) for o in _ENTRIES_SHORT},
    **{o: (WALK_ENTRIES, True) for o in _ENTRIES_SHORT_VALUED},
    **{o: (WALK_ALL, False) for o in _ALL_SHORT},
    **{o: (_NOT_DEFAULT, True) for o in _FILE_SHORT_VALUED},
}  # the same, by short option letter


class Walk:
    """How one ``rg`` command reads: ``walk`` how it walks a directory (``WALK_VISIBLE``:
    as ripgrep by default, no hidden entry and no link beneath; ``WALK_ENTRIES``: hidden
    entries too; ``WALK_ALL``: links beneath followed too, or not known); ``default`` when
    every option keeps ripgrep's default walk and reads no pattern from standard input;
    ``paths`` the number of path operands it is given (``None``: not known; given none, it
    searches the working directory or its standard input)."""

    __slots__ = ("default", "paths", "walk")

    def __init__(self, walk: str, default: bool, paths: int | None) -> None:
        self.walk = walk
        self.default = default
        self.paths = paths

    def stdin_searched(self) -> bool:
        """Given no path, ripgrep searches its standard input when that is a pipe or a file
        (and the working directory otherwise)."""
        return self.default and self.paths == 0


UNKNOWN = Walk(WALK_ALL, False, None)
# `paths` when a computed word may be any number of words or an option: it is an unknown path of
# its own (asked about), and the paths are those the analysis finds.
AS_GIVEN = -1
_COMPUTED = Walk(WALK_ALL, False, AS_GIVEN)


def walk(words: Sequence[Word]) -> Walk:
    """How the ``rg`` command ``words`` reads (any other program: nothing is assumed)."""
    if not words or (words[0].value or "").rpartition("/")[2] != "rg":
        return UNKNOWN
    if "RIPGREP_CONFIG_PATH" in os.environ:
        return UNKNOWN  # its options come first, whatever they are
    how = WALK_VISIBLE
    default = True
    positional = 0
    pattern_given = False
    i = 1
    count = len(words)
    while i < count:
        word = words[i]
        value = word.value
        i += 1
        if may_be_options(word):
            return UNKNOWN  # it may expand to an option (a file the agent named `-uu`)
        if value is None:
            if not one_operand(word):
                return _COMPUTED
            positional += 1
            continue
        if value == "--":
            rest = words[i:]
            if any(may_be_options(w) or (w.value is None and not one_operand(w)) for w in rest):
                return _COMPUTED
            positional += len(rest)
            break
        if value[:1] != "-" or value == "-":
            positional += 1
            continue
        if value[:2] == "--":
            name, eq, _ = value.partition("=")
            found = _LONG.get(name)
            if found is None or (eq and not found[1]):
                return UNKNOWN
            if found[1] and not eq:
                if i >= count or (words[i].value or "")[:1] == "-":
                    return UNKNOWN  # no value, or one rg may read as an option
                if not _one_word(words[i]):
                    return _COMPUTED
                i += 1
            how, default = _joined(how, default, found[0])
            options: tuple[str, ...] = (name,)
        else:
            options = ()
            for j, letter in enumerate(value[1:], 1):
                found = _SHORT.get(letter)
                if found is None:
                    return UNKNOWN
                options += ("-" + letter,)
                how, default = _joined(how, default, found[0])
                if found[1]:
                    if j == len(value) - 1:  # the value is the next word
                        if i >= count or (words[i].value or "")[:1] == "-":
                            return UNKNOWN
                        if not _one_word(words[i]):
                            return _COMPUTED
                        i += 1
                    break
        pattern_given = pattern_given or not _PATTERN_OPTIONS.isdisjoint(options)
        pattern_given = pattern_given or not _NO_PATTERN.isdisjoint(options)
    return Walk(how, default, positional if pattern_given else max(positional - 1, 0))


def _joined(how: str, default: bool, asked: str) -> tuple[str, bool]:
    """The walk and default-ness after an option that asks for ``asked``."""
    if asked == _NOT_DEFAULT:
        return how, False
    return wider(how, asked), default and asked == WALK_VISIBLE


def _one_word(word: Word) -> bool:
    """Whether ``word`` is exactly one word, as an option's value: literal, or quoted."""
    value = word.value
    if value is None:
        return word.raw[:1] == '"'
    return not (word.glob and not _GLOB_CHARS.isdisjoint(value)) and not may_be_options(word)
