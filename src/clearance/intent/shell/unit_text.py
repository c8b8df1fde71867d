"""A unit's words as bash reads them, and the commands a unit's text stands for.

:func:`keywordless` drops the keywords the grammar took for a command name; :func:`canonical_text`
and :func:`argv` give the unit as bash runs it (quotes removed, continuations joined, the
command word by its basename); :func:`brace_command`, :func:`brace_arguments` and
:func:`dotdot_arguments` give the command a brace expansion or a ``.*`` pattern turns it into,
matched as a unit of its own; :func:`names_only` tells an ``xargs`` inner command that prints
only names. The :class:`~clearance.intent.shell.assembly.Assembly` calls them for each unit.
"""

from __future__ import annotations

from clearance.intent.shell import brace
from clearance.intent.shell.projection import GLOB_MARKS
from clearance.intent.shell.wrapper import basename

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.word import Word

__all__ = [
    "XARGS_INPUT",
    "argv",
    "brace_arguments",
    "brace_command",
    "canonical_text",
    "dotdot_arguments",
    "expanded_canonical",
    "keywordless",
    "names_only",
]

_KEYWORDS = frozenset(
    {"!", "{", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "case", "esac"}
    | {"for", "select", "in", "function", "}"}
)


def canonical_text(words: Sequence[Word], text: str) -> str:
    """The unit as bash sees it: each literal word unquoted and unescaped, line continuations
    gone, single spaces between words, the command word by its basename (``\\rm  '-rf'  x`` →
    ``rm -rf x``, ``git  "push"`` → ``git push``). A computed word stays as typed. ``text`` is
    the words as typed."""
    if "\\\n" not in text:  # no word is glued to the next by a line continuation
        out = [(w.raw if w.value is None else w.value).replace("\\\n", "") for w in words]
        if out and words[0].value is not None:
            out[0] = basename(out[0])
        return " ".join(out)
    out = []
    for i, word in enumerate(words):
        value = word.value
        part = (word.raw if value is None else value).replace("\\\n", "")
        if i and word.sep == "\\\n":
            out[-1] += part  # `r\<newline>m`: bash joins the two halves into one word
        else:
            out.append(part)
    if out and words[0].value is not None:
        out[0] = basename(out[0])
    return " ".join(out)


XARGS_INPUT = "(the operands xargs reads from its input)"
# Inner commands of xargs that print only names, counts or nothing of the files they are given,
# or whose operands are not files at all.
_NAME_PRINTERS = frozenset({"wc", "ls", "stat", "du", "test", "[", "echo", "printf", "true",
                            "false", "basename", "dirname", "sleep", "expr", "seq"})  # fmt: skip
_GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})
_GREP_NAME_OPTIONS = frozenset(
    {"--files-with-matches", "--files-without-match", "--count", "--quiet", "--silent"}
)


def names_only(words: Sequence[Word]) -> bool:
    """Whether the command ``words`` prints only names or counts of the files it is given
    (``wc``, ``ls``, ``stat``, ``du``, ``test``, a grep with ``-l``/``-L``/``-c``/``-q``) or takes
    no file operands (``echo``, ``printf``, ``true`` …)."""
    head = words[0].value
    if head is None or words[0].raw != head:
        return False
    if head in _NAME_PRINTERS:
        return True
    if head not in _GREPS:
        return False
    skip = False
    for word in words[1:]:
        value = word.value
        if value is None:
            return False
        if skip:  # the value of the option before (`-e PATTERN`)
            skip = False
            continue
        if value == "--" or value[:1] != "-" or value == "-":
            continue
        if value in _GREP_NAME_OPTIONS:
            return True
        if value[:2] == "--":
            skip = "=" not in value and value in _GREP_LONG_VALUES
            continue
        for j, letter in enumerate(value[1:], 1):
            if letter in _LETTERS_WITH_VALUES:
                skip = j == len(value) - 1  # the rest of the cluster, or the next word
                break
            if letter in "lLcq":
                return True
    return False


# grep/rg options whose value follows (in a cluster, the rest of the cluster is the value).
_LETTERS_WITH_VALUES = frozenset("efmABCdDgtTMEj")
_GREP_LONG_VALUES = frozenset({"--regexp", "--file", "--max-count", "--after-context",
                               "--before-context", "--context", "--glob", "--type",
                               "--type-not", "--max-depth", "--threads"})  # fmt: skip


def argv(words: Sequence[Word], text: str) -> tuple[str | None, ...]:
    """The words as bash passes them to the program (``None`` for a computed one), with
    halves joined by a line continuation rejoined, as :func:`canonical_text` reads them."""
    if "\\\n" not in text:
        return tuple([w.value for w in words])
    out: list[str | None] = []
    for i, word in enumerate(words):
        value = word.value
        part = None if value is None else value.replace("\\\n", "")
        if i and word.sep == "\\\n":
            last = out[-1]
            out[-1] = None if last is None or part is None else last + part
        else:
            out.append(part)
    return tuple(out)


def keywordless(words: Sequence[Word]) -> tuple[Sequence[Word], bool]:
    """Drop leading keywords the grammar took for a command name (``! ! rm x``,
    ``! { rm x; }``, ``! if …; then rm x; fi``): bash reads them as keywords and runs what
    follows. A structural keyword there means the grammar lost the statement's shape, so the
    unit is reported unresolved."""
    start = 0
    lost = False
    while start < len(words) and words[start].raw in _KEYWORDS:
        lost = lost or words[start].raw not in ("!", "{")
        if start + 1 == len(words):
            break
        start += 1
    return (words[start:] if start else words), lost


def brace_command(words: Sequence[Word]) -> str | None:
    """When the command word brace-expands: the command bash runs, its words joined (``""``
    when a word is not known or the expansion passed its cap); else ``None``."""
    first = brace.expand(words[0].raw)
    if first is not None and len(first) == 1 and first[0] == words[0].raw:
        return None
    out: list[str] = []
    for word in words:
        expanded = brace.expand(word.raw) if "{" in word.raw else [word.raw]
        if expanded is None or len(out) + len(expanded) > brace.MAX_ALTERNATIVES:
            return ""
        for text in expanded:
            value, glob = brace.literal(text)
            if value is None or glob:
                return ""
            if value:
                out.append(value)
    return " ".join(out)


def brace_arguments(words: Sequence[Word]) -> str | None:
    """When an argument brace-expands: the command bash runs, its words joined; ``None`` when
    no word expands or one is not known (a computed word is an unknown path of its own, a
    brace past its cap floors the unit)."""
    out: list[str] = []
    changed = False
    for word in words:
        raw = word.raw
        expanded = brace.expand(raw) if "{" in raw else None
        if expanded is None or (len(expanded) == 1 and expanded[0] == raw):
            if word.value is None:
                return None
            out.append(word.value)
            continue
        if len(out) + len(expanded) > brace.MAX_ALTERNATIVES:
            return None
        changed = True
        for text in expanded:
            value, _glob = brace.literal(text)
            if value is None:
                return None
            if value:
                out.append(value)
    return " ".join(out) if changed else None


def dotdot_arguments(words: Sequence[Word]) -> str | None:
    """When a pattern segment that starts with ``.`` may match ``..`` (``rm -rf /tmp/.*/etc``):
    the command with that segment read as ``..``, which bash before 5.2 (macOS ships 3.2)
    matches, so a rule written for ``*/../*`` meets it; else ``None``."""
    from fnmatch import fnmatchcase  # only for the lines that need it

    out: list[str] = []
    changed = False
    for word in words:
        value = word.value
        if value is None:
            return None
        if word.glob and not word.quoted and "." in value:
            segments = value.split("/")
            for i, segment in enumerate(segments):
                if (
                    segment[:1] == "."
                    and not GLOB_MARKS.isdisjoint(segment)
                    and fnmatchcase("..", segment)
                ):
                    segments[i] = ".."
                    changed = True
            value = "/".join(segments)
        out.append(value)
    return " ".join(out) if changed else None


def expanded_canonical(text: str) -> str:
    name, sep, rest = text.partition(" ")
    return basename(name) + sep + rest
