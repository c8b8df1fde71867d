"""Argument roles: which words of a command may name a path (docs/shell-analysis.md, "Paths").

Position decides, not spelling. Pattern-first commands (``grep``, ``rg``, ``sed``, ``awk``,
``sd``, ``jq``) take a pattern or script as their first positional(s) unless a flag supplied it;
interpreters take an inline script after ``-c``/``-e``. Neither the pattern nor the script is a
path candidate; a file flag's value (``grep -f FILE``) is. For any other command, flags are
skipped, a ``--opt=value`` / ``-o=value`` yields its value, and every other word is a candidate.

This module says which words are *candidates*; :mod:`token` decides whether a candidate looks
like a path.
"""

from __future__ import annotations

from clearance.intent.shell.names import COMPRESSORS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.word import Word

__all__ = ["candidates", "known_options", "made_operands"]


class _Spec:
    __slots__ = (
        "files",
        "long_optional",
        "long_pairs",
        "long_values",
        "pattern_flags",
        "positional_patterns",
        "short_values",
        "stop_after_script",
    )

    def __init__(
        self,
        short_values: str,
        long_values: str,
        *,
        pattern_flags: str = "",
        files: str = "",
        positional_patterns: int = 0,
        long_optional: str = "",
        long_pairs: str = "",
        stop_after_script: bool = False,
    ) -> None:
        self.short_values = frozenset(short_values)
        self.long_values = frozenset(long_values.split())
        self.long_pairs = frozenset(long_pairs.split())  # a name, then a value (or a file)
        self.long_optional = frozenset(long_optional.split())
        self.pattern_flags = frozenset(pattern_flags.split())  # supply the pattern or script
        self.files = frozenset(files.split())  # their value is a path candidate
        self.positional_patterns = positional_patterns
        self.stop_after_script = stop_after_script


_GREP = _Spec(
    "efmABCdD",
    "regexp file max-count after-context before-context label include exclude exclude-from "
    "exclude-dir binary-files devices directories group-separator",
    pattern_flags="e f regexp file",
    files="f file exclude-from",
    positional_patterns=1,
    long_optional="context color colour",
)
_RG = _Spec(
    "efgtTmABCMjErd",
    "regexp file glob iglob type type-not type-add type-clear max-count after-context "
    "before-context context max-columns threads encoding replace max-depth max-filesize sort "
    "sortr colors color path-separator pre pre-glob ignore-file engine dfa-size-limit "
    "regex-size-limit context-separator field-context-separator field-match-separator",
    pattern_flags="e f regexp file",
    files="f file ignore-file",
    positional_patterns=1,
)
_SED = _Spec(
    "efl",
    "expression file line-length",
    pattern_flags="e f expression file",
    files="f file",
    positional_patterns=1,
    long_optional="in-place",
)
_AWK = _Spec("fvF", "", pattern_flags="f", files="f", positional_patterns=1)
_GAWK = _Spec(
    "fvFeiEl",
    "file assign field-separator source include exec load",
    pattern_flags="f e file source exec E",
    files="f file i include E exec",
    positional_patterns=1,
)
_SD = _Spec("fn", "flags max-replacements", positional_patterns=2)
# jq: the filter first; `--arg NAME VALUE`, `--rawfile NAME FILE` take two words.
_JQ = _Spec(
    "fL",
    "from-file library-path indent",
    pattern_flags="f from-file",
    files="f from-file L library-path slurpfile rawfile",
    positional_patterns=1,
    long_pairs="arg argjson slurpfile rawfile",
)
# Text filters whose option values are separators, fields, keys or sizes, never paths
# (`cut -d/ -f1`, `sort -t/ -k2`, `paste -d/`): their files are named only where listed.
# A letter is listed as taking a value only where every common implementation (GNU, BSD)
# agrees: one listed wrongly would hide the word after it.
_CUT = _Spec("bcdf", "bytes characters delimiter fields output-delimiter")
_SORT = _Spec(
    "kotST",
    "key output field-separator buffer-size temporary-directory parallel batch-size "
    "compress-program files0-from random-source sort",
    files="o T output temporary-directory compress-program files0-from random-source",
)
_PASTE = _Spec("d", "delimiters")
_JOIN = _Spec("aejotv12", "")
_COLUMN = _Spec("cos", "output-width output-separator separator")
# Operands that are sets, numbers or a format, never files: `tr / _`, `seq -s/ 3`,
# `date +%Y/%m/%d` (a date's later operands stay candidates).
_TR = _Spec("", "", positional_patterns=2)
_SEQ = _Spec("fst", "format separator", positional_patterns=3)
_DATE = _Spec("dfrsv", "date file reference set", files="f r file reference",
              positional_patterns=1, long_optional="iso-8601")  # fmt: skip
_PYTHON = _Spec("cmWXQ", "", pattern_flags="c m", stop_after_script=True)
_NODE = _Spec("eprC", "eval print require conditions", pattern_flags="e p eval print")
_PERL = _Spec("eEIlmMx", "", pattern_flags="e E")
_RUBY = _Spec("eIrCEF", "", pattern_flags="e")

_SPECS: dict[str, _Spec] = {
    "grep": _GREP,
    "egrep": _GREP,
    "fgrep": _GREP,
    "rg": _RG,
    "sed": _SED,
    "awk": _AWK,
    "nawk": _AWK,
    "gawk": _GAWK,
    "sd": _SD,
    "jq": _JQ,
    "python": _PYTHON,
    "python2": _PYTHON,
    "python3": _PYTHON,
    "node": _NODE,
    "nodejs": _NODE,
    "perl": _PERL,
    "ruby": _RUBY,
    "cut": _CUT,
    "sort": _SORT,
    "paste": _PASTE,
    "join": _JOIN,
    "column": _COLUMN,
    "tr": _TR,
    "seq": _SEQ,
    "date": _DATE,
}


def _spec_for(name: str | None) -> _Spec | None:
    if name is None:
        return None
    base = name.rsplit("/", 1)[-1]
    spec = _SPECS.get(base)
    if spec is None and base.startswith("python3."):
        spec = _PYTHON
    return spec


def known_options(name: str | None) -> bool:
    """Whether the options of the program ``name`` are known here (which take a value)."""
    return _spec_for(name) is not None


def candidates(words: Sequence[Word]) -> list[Word | str]:
    """The words after the command name that may name a path, in order.

    A ``str`` item is a value embedded in an option (``--file=/tmp/p`` yields ``/tmp/p``).
    """
    spec = _spec_for(words[0].value)
    if spec is None:
        return _generic(words)
    return _specific(words, spec)


def _embedded(value: str) -> str | None:
    if value.startswith("--"):
        _, eq, rest = value.partition("=")
        return rest if eq and rest else None
    if len(value) > 3 and value[2] == "=":
        return value[3:]
    return None


def _generic(words: Sequence[Word]) -> list[Word | str]:
    out: list[Word | str] = []
    options = True
    for word in words[1:]:
        value = word.value
        if options and value is not None and value.startswith("-") and len(value) > 1:
            if value == "--":
                options = False
                continue
            embedded = _embedded(value)
            if embedded is not None:
                out.append(embedded)
            elif value[1] != "-":
                out.extend(_glued(value))
            continue
        out.append(_operand(word, not options))
    return out


def _glued(value: str) -> list[str]:
    """The values a short-option cluster may hold glued to a letter, for a program whose
    options are not known (``xargs -a.env``, ``jq -f~/.ssh/key``): the rest after the first
    letter, and the first rest after it that starts like a path (``-xa~/f``)."""
    out = [value[2:]] if len(value) > 2 else []
    for j in range(3, len(value) - 1):
        if value[j] in "./~":
            out.append(value[j:])
            break
    return out


def _specific(words: Sequence[Word], spec: _Spec) -> list[Word | str]:
    out: list[Word | str] = []
    supplied = False
    positionals = 0
    options = True
    ended = False  # a literal `--` was read (not the end of a script's own options)
    sed = spec is _SED
    i = 1
    count = len(words)
    while i < count:
        word = words[i]
        value = word.value
        if options and value is not None and value.startswith("-") and len(value) > 1:
            if value == "--":
                options = False
                ended = True
                i += 1
                continue
            if value.startswith("--"):
                name, eq, rest = value[2:].partition("=")
                if name in spec.long_pairs and not eq:
                    if name in spec.files and i + 2 < count:
                        out.append(words[i + 2])
                    i += 3
                    continue
                if name in spec.long_values:
                    supplied = supplied or name in spec.pattern_flags
                    target: Word | str | None = rest if eq else None
                    if not eq:
                        i += 1
                        target = words[i] if i < count else None
                    if target is not None and name in spec.files:
                        out.append(target)
                elif name and any(long.startswith(name) for long in spec.long_values):
                    # An abbreviation (getopt takes a unique prefix: `grep --reg=x f`): the
                    # pattern may come from it, so every later word stays a candidate.
                    supplied = True
                    if eq and rest:
                        out.append(rest)
                elif eq and rest and name not in spec.long_optional:
                    out.append(rest)
                i += 1
                continue
            for j in range(1, len(value)):
                letter = value[j]
                if sed and letter == "i":
                    if j + 1 == len(value) and i + 1 < count and words[i + 1].value == "":
                        i += 1
                    break
                if letter in spec.short_values:
                    supplied = supplied or letter in spec.pattern_flags
                    attached = value[j + 1 :]
                    short: Word | str | None = attached
                    if not attached:
                        i += 1
                        short = words[i] if i < count else None
                    if short is not None and letter in spec.files:
                        out.append(short)
                    break
            i += 1
            if supplied and spec.stop_after_script:
                options = False
            continue
        if positionals < spec.positional_patterns and not supplied:
            positionals += 1
        else:
            out.append(_operand(word, ended))
        i += 1
    return out


def _operand(word: Word, ended: bool) -> Word | str:
    """``word`` as an operand: after ``--`` one that begins with ``-`` is a path all the same
    (``tee -- --x/../.claude/settings.json``), spelled ``./`` so it is read as one."""
    value = word.value
    if ended and value is not None and value[:1] == "-":
        return "./" + value
    return word


# Programs that write a file they are given, making it if it is not there: tee's operands,
# uniq's second, sort's -o, and the archive tar creates or adds to (GNU coreutils, GNU and BSD
# tar). Their options that take the next word as their value, short and long.
_UNIQ_VALUES = ("fsw", ("skip-fields", "skip-chars", "check-chars"))
_TAR_VALUES = "bCfFgHIKLNTVX"
_TAR_CREATES = frozenset("cruA")
_TAR_CREATE_LONG = ("create", "append", "update", "catenate", "concatenate")


def made_operands(words: Sequence[Word]) -> list[Word | str]:
    """The operands of ``words`` the program writes by their place, whether or not they exist
    yet, as :func:`candidates` yields them (``tee a b``, ``uniq in out``, ``sort -o f``,
    ``sort --output=f``, ``tar -cf a.tar``)."""
    name = words[0].value if words else None
    name = name.rpartition("/")[2] if name else None
    if name == "tee":
        return _operands(words, "", ())
    if name == "uniq":
        return _operands(words, *_UNIQ_VALUES)[1:2]
    if name == "sort":
        return _sort_outputs(words)
    if name == "tar":
        return _tar_archive(words)
    if name in COMPRESSORS:
        return _compressed(words, COMPRESSORS[name])
    return []


# A compressor's letters that make no file beside its operand (`-d`, `-c`, `-t`, `-l` …).
_COMPRESS_NONE = frozenset("dctlL")


def _compressed(words: Sequence[Word], suffix: str) -> list[Word | str]:
    """The names ``gzip -S .json f`` and its kin make: each operand's, with the suffix."""
    operands: list[Word] = []
    options = True
    i = 1
    while i < len(words):
        value = words[i].value
        i += 1
        if value is None:
            continue
        if options and value[:1] == "-" and len(value) > 1:
            if value == "--":
                options = False
            elif value[:2] == "--":
                name, eq, rest = value[2:].partition("=")
                if name in ("decompress", "uncompress", "stdout", "to-stdout", "test", "list"):
                    return []
                if name and "suffix".startswith(name) and len(name) > 1:
                    suffix = rest if eq else (words[i].value or "") if i < len(words) else ""
                    i += 0 if eq else 1
            elif not _COMPRESS_NONE.isdisjoint(value[1:].partition("S")[0]):
                return []  # decompresses, writes to standard output, tests or lists
            elif "S" in value:
                rest = value[value.index("S") + 1 :]
                suffix = rest if rest else (words[i].value or "") if i < len(words) else ""
                i += 0 if rest else 1
            continue
        operands.append(words[i - 1])
    return [op.value + suffix for op in operands if op.value and op.value != "-" and suffix]


def _operands(words: Sequence[Word], short: str, long: tuple[str, ...]) -> list[Word | str]:
    """The operands after the options (``short`` letters and ``long`` names take a value)."""
    out: list[Word | str] = []
    options = True
    i = 1
    while i < len(words):
        word = words[i]
        value = word.value
        i += 1
        if options and value is not None and value[:1] == "-" and len(value) > 1:
            if value == "--":
                options = False
            elif value[:2] == "--":
                name, eq, _ = value[2:].partition("=")
                if not eq and name and any(n.startswith(name) for n in long):
                    i += 1
            else:
                for j, letter in enumerate(value[1:], 2):
                    if letter in short:
                        i += 0 if j < len(value) else 1
                        break
            continue
        out.append(_operand(word, not options))
    return out


def _sort_outputs(words: Sequence[Word]) -> list[Word | str]:
    """sort's ``-o FILE``, ``-oFILE``, ``-no FILE``, ``--output=FILE``, ``--out FILE``."""
    out: list[Word | str] = []
    i = 1
    while i < len(words):
        value = words[i].value
        i += 1
        if value is None or value[:1] != "-" or value == "-":
            continue
        if value == "--":
            break
        if value[:2] == "--":
            name, eq, rest = value[2:].partition("=")
            takes = name and any(n.startswith(name) for n in _SORT.long_values)
            if takes and "output".startswith(name):
                if eq:
                    out.append(rest)
                elif i < len(words):
                    out.append(words[i])
            i += 1 if takes and not eq else 0
            continue
        for j, letter in enumerate(value[1:], 2):
            if letter in _SORT.short_values:
                if letter == "o":
                    if j < len(value):
                        out.append(value[j:])
                    elif i < len(words):
                        out.append(words[i])
                i += 0 if j < len(value) else 1
                break
    return out


def _tar_archive(words: Sequence[Word]) -> list[Word | str]:
    """The archive of a tar that creates or adds to one (``-c``, ``-r``, ``-u``, ``-A`` and
    their long names, or the old ``tar cf a.tar``): ``-f FILE``, ``-cfFILE``, ``--file=FILE``."""
    creates = False
    found: list[Word | str] = []
    i = 1
    while i < len(words):
        value = words[i].value
        old = i == 1 and value is not None and value[:1] not in ("-", "")
        i += 1
        if value is None or (value[:1] != "-" and not old):
            continue
        if value == "--":
            break
        if value[:2] == "--":
            name, eq, rest = value[2:].partition("=")
            creates = creates or any(n.startswith(name) for n in _TAR_CREATE_LONG if name)
            if name and "file".startswith(name) and len(name) > 1:
                if eq:
                    found.append(rest)
                elif i < len(words):
                    found.append(words[i])
                    i += 1
            continue
        letters = value if old else value[1:]
        creates = creates or not _TAR_CREATES.isdisjoint(letters)
        taken = 0  # values the old form takes from the next words, in its letters' order
        for j, letter in enumerate(letters):
            if letter not in _TAR_VALUES:
                continue
            if old:
                if letter == "f" and i + taken < len(words):
                    found.append(words[i + taken])
                taken += 1
                continue
            rest = letters[j + 1 :]
            if letter == "f":
                found.append(rest if rest else words[i] if i < len(words) else "")
            taken = 0 if rest else 1
            break
        i += taken
    return [f for f in found if f != ""] if creates else []
