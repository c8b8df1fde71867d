"""Effect attribution: does a command prove it only reads? (docs/shell-analysis.md, "The facts")

The pure-reader core is a frozen roster of commands whose operands are read, never written.
A core word counts only as a bare, unquoted basename (``./grep``, ``/usr/bin/grep``,
``bin\\grep`` prove nothing). A core command withdraws its claim (``retracted``) when an option
that writes or runs something appears (``find -delete``, ``fd -x``, ``sort -o``), when a computed
argument may begin with ``-``, or when ``sed``/``awk`` cannot be proven read-only.
"""

from __future__ import annotations

from clearance.intent.path import WALK_ALL, WALK_ENTRIES
from clearance.intent.shell.brace import expanded_words, is_list
from clearance.intent.shell.layer import basename
from clearance.intent.shell.names import PACKAGE_MANAGERS
from clearance.intent.shell.runners import FD_EXEC, FIND_EXEC, FIND_WRITES
from clearance.intent.shell.word import may_be_options, one_operand

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from clearance.intent.shell.line import Line
    from clearance.intent.shell.word import Word

    Claim = Literal["read", "retracted"]

__all__ = [
    "CORE",
    "INJECTABLE",
    "PATHSPEC_MAGIC",
    "RECURSIVE",
    "option_glob",
    "reader_claim",
    "reads_recursively",
    "search_operands",
    "search_walk",
    "searches_cwd",
]

CORE = frozenset(
    {":", "awk", "basename", "cat", "cd", "diff", "dirname", "echo", "egrep", "false", "fd"}
    | {"fgrep", "find", "grep", "head", "jq", "ls", "pwd", "realpath", "rg", "sed", "sort"}
    | {"stat", "tail", "true", "wc", "which"}
    # readers with no option that writes or runs (the built-in policy allows them outright)
    | {"cut", "nl", "cmp", "comm", "readlink", "column", "od", "hexdump", "strings", "du"}
    | {"md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "b2sum", "cksum", "test", "["}
)
_FIND_GUARDS = FIND_EXEC | FIND_WRITES | {"-delete"}
# fd's options that run a command, as a short letter in any cluster or a long option's stem.
_FD_EXEC_LETTERS = frozenset(o[1] for o in FD_EXEC if o[1] != "-")
_FD_EXEC_LONG = tuple(o[2:] for o in FD_EXEC if o[:2] == "--")
_SED_SHORT = frozenset("nErsuz")
_SED_LONG = frozenset(
    {
        "--quiet",
        "--silent",
        "--regexp-extended",
        "--separate",
        "--unbuffered",
        "--null-data",
        "--posix",
        "--debug",
        "--sandbox",
    }
)
_LEADING_GLOB = frozenset("*?[")
# Core commands an option can make write or run something (`sort -o`, `sed -i`, `find -delete`,
# `fd -x`, `rg --pre`, `awk -f`). A glob that may expand to a name starting with `-` (a file the
# agent made, named `-i` or `--pre=sh`) could hand them such an option, so for these a leading
# glob withdraws the read claim; for strings, one starting with `@` (a file of arguments). The
# other core commands have no option that writes or runs.
INJECTABLE = frozenset({"awk", "fd", "find", "rg", "sed", "sort", "strings"})


def reader_claim(words: Sequence[Word]) -> Claim | None:
    """``read`` when the command proves a read, ``retracted`` when a core command withdrew the
    claim, ``None`` when the command is not in the core at all."""
    head = words[0]
    name = head.value
    if name == "git" and head.raw == name:
        return _git_claim(words)
    if name is None or name not in CORE or head.raw != name:
        return None
    values: list[str | None] = []
    for word in words[1:]:
        if word.lead_dyn or word.dq_dyn:
            return "retracted"
        value = word.value
        if value is not None and word.glob and value[:1] in _LEADING_GLOB and name in INJECTABLE:
            return "retracted"
        values.append(value)
    literal = [v for v in values if v is not None]
    if name == "find":
        if any(v in _FIND_GUARDS for v in literal):
            return "retracted"
    elif name == "fd":
        if any(_fd_exec(v) for v in literal):
            return "retracted"
    elif name == "sort":
        if any(_sort_output(v) for v in literal):
            return "retracted"
    elif name == "sed":
        if not _sed_reads(values):
            return "retracted"
    elif name == "awk" and not _awk_reads(values):
        return "retracted"
    return "read"


# git subcommands typed right after `git` whose path operands git only reads (the worktree files
# they name are read, never written): `git add` stages a file, `git diff` and `git log` read it.
_GIT_READERS = frozenset({"add", "blame", "diff", "grep", "log", "ls-files", "show", "status"})
# Their options that write a file or hand the files to an editor: the claim is withdrawn.
# (`git add -p` edits hunks; `git log -p`, `git diff -p` only print a patch.)
_GIT_WRITING = ("--output", "-o", "--edit", "-e", "--patch", "-p", "--interactive", "-i")
_GIT_PRINTING = ("--output",)
# git's own options that change neither the repository nor the files it reads (git(1)).
_GIT_QUIET = frozenset({"--no-pager", "-P", "--no-optional-locks"})


def _git_claim(words: Sequence[Word]) -> Claim | None:
    """``read`` for ``git add|blame|diff|log|ls-files|show|status`` with literal words and no
    writing option, after none but git's options that only silence it (``--no-pager``);
    ``None`` otherwise (another global option, another subcommand: unproven). What git runs of
    its own (hooks, filters, a pager) is judged by the knowledge base."""
    at = 1
    while at < len(words) and words[at].value in _GIT_QUIET and not words[at].glob:
        at += 1
    if len(words) <= at or words[at].value not in _GIT_READERS:
        return None
    writing = _GIT_WRITING if words[at].value == "add" else _GIT_PRINTING
    for word in words[at + 1 :]:
        value = word.value
        if value is None or word.glob:
            return None
        if value.startswith("-") and value.partition("=")[0] in writing:
            return None
    return "read"


def _long_prefix(value: str, *names: str) -> bool:
    stem = value[2:].partition("=")[0]
    return bool(stem) and any(name.startswith(stem) for name in names)


def _fd_exec(value: str) -> bool:
    if value.startswith("--"):
        return _long_prefix(value, *_FD_EXEC_LONG)
    return value.startswith("-") and not _FD_EXEC_LETTERS.isdisjoint(value)


def _sort_output(value: str) -> bool:
    if value.startswith("--"):
        return _long_prefix(value, "output")
    return value.startswith("-") and "o" in value


def _sed_reads(values: Sequence[str | None]) -> bool:
    scripts: list[str | None] = []  # None: a script option without its value
    positional = False
    explicit = False
    i = 0
    count = len(values)
    while i < count:
        value = values[i]
        if value is None:
            return False
        if value == "--":
            if not explicit and i + 1 < count:
                scripts.append(values[i + 1])
            break
        if value.startswith("--"):
            name, eq, rest = value.partition("=")
            if name != "--expression":
                if value not in _SED_LONG:
                    return False
            elif positional:
                return False
            else:
                if not eq:
                    i += 1  # `--expression S`: the script is the next word
                scripts.append(rest if eq else _at(values, i))
                explicit = True
        elif value.startswith("-") and len(value) > 1:
            for j, letter in enumerate(value[1:], 1):
                if letter in _SED_SHORT:
                    continue
                if letter != "e" or positional:
                    return False
                rest = value[j + 1 :]
                if not rest:
                    i += 1  # `-e S`: the script is the next word
                scripts.append(rest or _at(values, i))
                explicit = True
                break
        elif not explicit and not positional:
            scripts.append(value)
            positional = True
        else:
            positional = True
        i += 1
    if not scripts or None in scripts:
        return False
    from clearance.intent.shell.sed import reads_only

    return all(reads_only(s) for s in scripts)  # type: ignore[arg-type]


def _at(values: Sequence[str | None], i: int) -> str | None:
    return values[i] if i < len(values) else None


def _awk_reads(values: Sequence[str | None]) -> bool:
    program: str | None = None
    i = 0
    count = len(values)
    while i < count:
        value = values[i]
        if value is None:
            return False
        if program is None:
            if value == "--":
                i += 1
                continue
            if value in ("-F", "-v"):
                i += 2
                continue
            if value.startswith(("-F", "-v")):
                i += 1
                continue
            if value.startswith("-") and len(value) > 1:
                return False
            program = value
        i += 1
    if program is None:
        return False
    return not any(mark in program for mark in (">", "|", "system", "@"))


# Programs that read a directory operand recursively: every file beneath it is read (or copied,
# archived, sent) — so a rule on a file beneath it applies (``grep -r x ~`` reads
# ``~/.ssh/id_rsa``). Each entry: always, or the options that make it recurse, with the short
# options that take a value (a cluster stops at one: ``-rA3``), from each program's manual.
_ALWAYS = frozenset({"rg", "ag", "ack", "ack-grep"})
# name -> (recursion letters in a short cluster, long options, short options taking a value)
_BY_OPTION: dict[str, tuple[str, frozenset[str], str]] = {
    "grep": ("rR", frozenset({"--recursive", "--dereference-recursive", "--directories=recurse"}),
             "ABCDdefm"),
    "cp": ("rRa", frozenset({"--recursive", "--archive"}), "StT"),
    "scp": ("r", frozenset(), "cFiJlloPSDX"),
    "rsync": ("ra", frozenset({"--recursive", "--archive"}), "efBTM"),
    "zip": ("rR", frozenset({"--recurse-paths", "--recurse-patterns"}), "bnPtx"),
}  # fmt: skip
# diff compares two directories file by file, printing what differs (with -N every file of
# either): a directory operand is read, beneath it too with -r; read as a recursive read always.
_DIRECTORY_READERS = frozenset({"diff"})
for _alias in ("egrep", "fgrep", "rgrep"):
    _BY_OPTION[_alias] = _BY_OPTION["grep"]
RECURSIVE = frozenset(
    {*_ALWAYS, *_BY_OPTION, *_DIRECTORY_READERS, "find", "fd", "fdfind", "tar", "7z", "7za",
     "rgrep", "git"}
)  # fmt: skip
# git subcommands that read every file of the tree they are given (the working tree by default):
# `git grep KEY` searches the tracked files (with --untracked, the others too), `git archive`
# writes them all out; `git diff --no-index A B` (below) prints every file of two directories.
_GIT_RECURSIVE = frozenset({"grep", "archive"})
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"})
# Recursive readers that search the working directory when given no directory.
_CWD_BY_DEFAULT = frozenset(
    {*_ALWAYS, "grep", "egrep", "fgrep", "rgrep", "find", "fd", "fdfind", "git"}
)


def _git_subcommand(values: Sequence[str | None]) -> str | None:
    """git's subcommand, after its global options (``None`` when computed)."""
    i = 0
    while i < len(values):
        v = values[i]
        if v is None or not v.startswith("-"):
            return v
        i += 2 if v in _GIT_VALUED else 1
    return None


# grep's long options that take a value (grep(1)), and those that give the pattern (then every
# operand is a file); `--color`/`--colour` take one only when attached.
_GREP_VALUED = frozenset(
    {"--regexp", "--file", "--exclude", "--include", "--exclude-from", "--exclude-dir",
     "--max-count", "--after-context", "--before-context", "--context", "--label",
     "--binary-files", "--devices", "--directories", "--group-separator"}
)  # fmt: skip
_GREP_SWITCHES = frozenset(
    {"--recursive", "--dereference-recursive", "--ignore-case", "--no-ignore-case",
     "--invert-match", "--word-regexp", "--line-regexp", "--count", "--files-with-matches",
     "--files-without-match", "--only-matching", "--quiet", "--silent", "--no-messages",
     "--byte-offset", "--with-filename", "--no-filename", "--line-number", "--initial-tab",
     "--null", "--null-data", "--text", "--extended-regexp", "--fixed-strings",
     "--basic-regexp", "--perl-regexp", "--line-buffered", "--no-group-separator",
     "--color", "--colour", "--help", "--version"}
)  # fmt: skip
_GREP_SWITCH_LETTERS = frozenset("abcEFGHhIiLlnoPqRrsTUuVvwxyZz")
# git grep (git-grep(1)): its switches, short and long, and the options that take a value.
_GIT_GREP_LETTERS = frozenset("aiIwvEGPFnlLzocpWqhHr")
_GIT_GREP_SWITCHES = frozenset(
    {"--cached", "--no-index", "--untracked", "--no-exclude-standard", "--exclude-standard",
     "--recurse-submodules", "--text", "--textconv", "--no-textconv", "--ignore-case",
     "--word-regexp", "--invert-match", "--full-name", "--extended-regexp", "--basic-regexp",
     "--perl-regexp", "--fixed-strings", "--line-number", "--column", "--files-with-matches",
     "--name-only", "--files-without-match", "--null", "--only-matching", "--count",
     "--color", "--no-color", "--break", "--heading", "--show-function",
     "--function-context", "--and", "--or", "--not", "--all-match", "--quiet", "--recursive",
     "--no-recursive", "--help", "--open-files-in-pager"}
)  # fmt: skip
_GIT_GREP_LONG_VALUED = frozenset(
    {"--max-depth", "--threads", "--context", "--after-context", "--before-context",
     "--max-count"}
)  # fmt: skip
# (switch letters, valued letters, letters whose value is only attached (`-Oless`), long
# switches, long valued, the options giving the pattern)
_Tables = tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str], frozenset[str],
                frozenset[str]]  # fmt: skip
_GREP_TABLES: _Tables = (
    _GREP_SWITCH_LETTERS, frozenset(_BY_OPTION["grep"][2]), frozenset(), _GREP_SWITCHES,
    _GREP_VALUED, frozenset({"--regexp", "--file", "-e", "-f"}),
)  # fmt: skip
_GIT_GREP_TABLES: _Tables = (
    _GIT_GREP_LETTERS, frozenset("efABCm"), frozenset("O"), _GIT_GREP_SWITCHES,
    _GIT_GREP_LONG_VALUED, frozenset({"-e", "-f"}),
)  # fmt: skip


def search_walk(words: Sequence[Word]) -> str:
    """How a recursive ``grep`` walks a directory: every entry, but no link beneath it
    (``WALK_ENTRIES``: GNU and BSD ``grep -r`` follow only links named on the command line);
    ``grep -R``/``--dereference-recursive``, a computed word, a brace list or a glob that may
    expand to an option (a file named ``-R``), and every other program: ``WALK_ALL`` (``git
    grep`` opens each tracked path, through a directory that is now a link too)."""
    name = (words[0].value or "").rpartition("/")[2] if words else ""
    if name not in ("grep", "egrep", "fgrep", "rgrep"):
        return WALK_ALL
    valued = _BY_OPTION["grep"][2]
    for word in words[1:]:
        v = word.value
        if v is None or may_be_options(word):
            return WALK_ALL  # it may be -R (`grep x *` beside a file named -R)
        if v == "--":
            break
        if v[:2] == "--":
            option = v.partition("=")[0]
            if len(option) > 2 and "--dereference-recursive".startswith(option):
                return WALK_ALL  # (getopt takes a prefix: `--deref`)
        elif v[:1] == "-":
            for letter in v[1:]:
                if letter == "R":
                    return WALK_ALL
                if letter in valued:
                    break
    return WALK_ENTRIES


# `search_operands` of a git grep given a pathspec with magic (`:/`, `:(top)`, `:!x`), which may
# name more than the working directory holds: the unit asks about a path not known.
PATHSPEC_MAGIC = -2


def search_operands(words: Sequence[Word], given: bool) -> int | None:
    """How many operands a searching reader that searches the working directory when given
    none is given (``grep -r``, ``git grep``; ``rg``: ``ripgrep.walk``): an option's value is
    none (``grep -r -f pats`` searches the working directory). ``None`` when not known (an
    option not modelled, a pattern that may expand to one). A computed word, which may be any
    number of words, is an unknown path of its own: then, as for other programs, whether
    ``given`` a path."""
    as_given = 1 if given else 0
    name = (words[0].value or "").rpartition("/")[2] if words else ""
    args = list(words[1:])
    if name in ("grep", "egrep", "fgrep", "rgrep"):
        tables = _GREP_TABLES
    elif name == "git" and _git_subcommand([w.value for w in args]) == "grep":
        while args and args[0].value is not None and args[0].value.startswith("-"):
            args = args[2:] if args[0].value in _GIT_VALUED else args[1:]
        args = args[1:]  # git grep, after git's own options
        tables = _GIT_GREP_TABLES
    else:
        return as_given
    letters, valued, attached, switches, long_valued, pattern_options = tables
    git = name == "git"
    positional = 0
    pattern = False
    i = 0
    count = len(args)
    operands = False  # past `--`
    while i < count:
        word = args[i]
        v = word.value
        i += 1
        if may_be_options(word):
            return None  # it may expand to an option
        if v is None:
            if not one_operand(word):
                return as_given
            positional += 1
            continue
        if git and (v == "(" or v == ")") and not operands:
            continue  # git grep's grouping of patterns
        if operands or v[:1] != "-" or v == "-":
            if git and positional >= (0 if pattern else 1):
                if v[:1] == ":":
                    return PATHSPEC_MAGIC  # `:/`, `:(top)`, `:!x`: not a path of the tree
                if not _LEADING_GLOB.isdisjoint(v):
                    return None  # a pathspec git matches as a pattern
            positional += 1
            continue
        if v == "--":
            operands = True
            continue
        if v[:2] == "--":
            option, eq, _ = v.partition("=")
            if option in long_valued:
                i += 0 if eq else 1
                pattern = pattern or option in pattern_options
            elif option not in switches:
                return None  # not known (an abbreviation too)
            continue
        for j, letter in enumerate(v[1:], 1):
            if letter in valued:
                i += 1 if j == len(v) - 1 else 0
                pattern = pattern or "-" + letter in pattern_options
                break
            if letter in attached:
                break
            if letter not in letters:
                return None
    if i > count:
        return None  # an option's value is missing
    return positional if pattern else max(positional - 1, 0)


def searches_cwd(words: Sequence[Word]) -> bool:
    """Whether a recursive reader given no path operand searches the working directory
    (``grep -r x``, ``rg x``, ``find -exec …``): call only when :func:`reads_recursively`."""
    value = words[0].value if words else None
    return value is not None and value.rsplit("/", 1)[-1] in _CWD_BY_DEFAULT


def reads_recursively(words: Sequence[Word]) -> bool:
    """Whether the command reads its directory operands recursively: ``grep -r``, ``rg``,
    ``cp -r``, ``rsync -a``, ``zip -r``, ``diff`` (of directories), ``tar c``, ``7z a``, and
    ``find``/``fd`` handing every file to a program (``-exec``, ``-x``). Listing names only
    (``ls -R``, ``find`` without ``-exec``, ``du``) is not reading. A computed option counts as
    recursing (it may be ``-r``)."""
    if not words:
        return False
    value = words[0].value
    if value is None:
        return False
    name = value.rsplit("/", 1)[-1]
    if name not in RECURSIVE:
        return False
    if name in _ALWAYS or name == "rgrep" or name in _DIRECTORY_READERS:
        return True
    values = [w.value for w in words[1:]]
    if name == "find":
        return any(v in FIND_EXEC for v in values)
    if name in ("fd", "fdfind"):
        return any(v is not None and _fd_exec(v) for v in values)
    if name == "tar":
        return _tar_creates(values)
    if name in ("7z", "7za"):
        return bool(values) and values[0] in ("a", "u")
    if name == "git":
        sub = _git_subcommand(values)
        return sub in _GIT_RECURSIVE or (sub == "diff" and "--no-index" in values)
    letters, longs, valued = _BY_OPTION[name]
    i = 0
    while i < len(values):
        v = values[i]
        i += 1
        if may_be_options(words[i]):
            return True  # `grep x {-r,}`, `grep x *` beside a file named -r
        if v is None:
            if words[i].raw.lstrip("\"'")[:1] in ("$", "`"):
                return True  # `grep $flags x ~`: it may be -r
            continue  # `~`, `$HOME/x`… spelled with a known head: an operand
        if v == "--":
            break
        if v.startswith("--"):
            if _recursive_long(name, v, values[i] if i < len(values) else None, longs):
                return True
            continue
        if v.startswith("-") and len(v) > 1:
            for j, letter in enumerate(v[1:], 1):
                if letter in letters:
                    return True
                if letter in valued:
                    if letter == "d" and name in ("grep", "egrep", "fgrep"):
                        rest = v[j + 1 :] or (values[i] if i < len(values) else "")
                        # argmatch takes a unique prefix of the action (`-d rec`)
                        if rest is None or (rest and "recurse".startswith(rest)):
                            return True
                    if j == len(v) - 1:
                        i += 1  # the value is the next word
                    break
    return False


def _recursive_long(name: str, v: str, following: str | None, longs: frozenset[str]) -> bool:
    """Whether the long option ``v`` (``following``: the next word) may turn recursion on.
    getopt takes any unique prefix of a long option and argmatch any unique prefix of its value
    (``grep --recur``, ``grep --dir=rec``); a prefix that may abbreviate a recursing option
    counts (an ambiguous one makes the program refuse the line)."""
    option, eq, value = v.partition("=")
    if len(option) > 2:
        for long in longs:
            head, _, wanted = long.partition("=")
            if head.startswith(option) and (not wanted or (value and wanted.startswith(value))):
                return True
    if (
        name in ("grep", "egrep", "fgrep")
        and len(option) > 3
        and "--directories".startswith(option)
    ):
        given = value if eq else following
        return bool(given) and "recurse".startswith(given or "")
    return False


def _tar_creates(values: Sequence[str | None]) -> bool:
    """``tar`` writing an archive from files (create, append, update): it recurses into each
    directory operand unless ``--no-recursion``."""
    if "--no-recursion" in values:
        return False
    for i, v in enumerate(values):
        if v is None:
            return True
        if v in ("--create", "--append", "--update", "--catenate"):
            return True
        if v.startswith("--"):
            continue
        if v.startswith("-") or i == 0:  # `tar cf x .` and `tar -cf x .`: the mode is a letter
            if any(c in "cru" for c in v.lstrip("-")) and not v.startswith("--"):
                return True
            if i == 0 and not v.startswith("-"):
                return False
    return False


# Commands outside the core whose options choose where they write: `cp *=.. f` beside a file
# named `--target-directory=..` copies f out of the project, `git diff *` beside one named
# `--output=.envrc` writes the diff there.
# The package managers' options name where they write too (ADR 0053).
_OPTION_WRITERS = (
    frozenset({"cp", "mv", "ln", "gcp", "gmv", "gln", "install", "git"}) | PACKAGE_MANAGERS
)


def _brace_patterns(raw: str) -> list[str] | None:
    """The patterns among the words a brace list expands to (``None``: not known)."""
    found = expanded_words(raw)
    if found is None or any(value is None for value, _ in found):
        return None
    return [value for value, glob in found if glob and value]


def option_glob(words: Sequence[Word], base: str | None, line: Line) -> bool:
    """Whether a pattern handed to a command an option can make write or run
    (:data:`INJECTABLE`, :data:`_OPTION_WRITERS`) may expand to such an option: a name on
    disk now beginning with ``-`` (``@`` for strings: a file of arguments), or one not known
    (the directory, a bound, or a line of more commands, one of which may make the name
    first). ``sed -n p *.txt`` beside a file named ``-f.txt`` reads its script from ``.txt``,
    whose ``e`` runs a command. A loop variable's pattern values count as the pattern."""
    name = words[0].value
    if name is None:
        return False
    name = basename(name)  # `/usr/bin/sed`, `\sed`, `'sed'` run sed too
    if name not in INJECTABLE and name not in _OPTION_WRITERS:
        return False
    lead = "@" if name == "strings" else "-"
    for word in words[1:]:
        value = word.value
        if value == "--" and name != "find":
            return False  # no option after it
        # A typed pattern, the words of a brace list (`{*,}.txt`), or the values a loop
        # variable takes (`for f in *.txt; … "$f"`).
        patterns = [value] if value is not None and word.glob else []
        if is_list(word.raw):
            listed = _brace_patterns(word.raw)
            if listed is None:
                return True  # past the bound, or an expansion inside: any word
            patterns = listed
        if value is None and word.alts:
            patterns = [str(alt[0]) for alt in word.alts if len(alt) == 1]
        for pattern in patterns:
            if pattern[:1] == lead:
                return True  # `sed -n p -*`: every word it may pass is an option
            if pattern[:1] not in _LEADING_GLOB:
                continue
            if base is None or not line.alone:
                return True
            from clearance.intent.glob import pattern_words

            line.globbed = True
            # The word bash passes is the match as the pattern spells it: its first name
            # (`*/*` beside a directory `--target=.claude` is `--target=.claude/agents`).
            found = pattern_words(pattern, base)
            if found is None or any(m[:1] in ("-", lead) for m in found):
                return True
    return False
