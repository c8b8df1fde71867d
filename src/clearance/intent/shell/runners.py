"""Commands that run a command line of their own (ADR 0006): shells, ``su -c``, ``source``,
``trap``, ``at``, ``expect``, ``nix-shell``, and the indirections whose command is found by
their own grammar (``tmux``, ``gdb --args``, ``fd -xCMD``).

Each classifier takes the words of one command and its word values and returns the
:class:`~clearance.intent.shell.layer.Layer` of that command, or ``None`` when it runs nothing.
A shell that reads its script from standard input (no script operand, or ``-s``) is ``opaque``
with ``stdin`` set: the assembly parses a literal here-string or heredoc as its payload.
"""

from __future__ import annotations

from clearance.intent.shell.layer import Layer, glued
from clearance.intent.shell.options import Grammar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.word import Word

__all__ = [
    "FD_EXEC",
    "FIND_EXEC",
    "FIND_WRITES",
    "RUNNERS",
    "SHELLS",
    "fd_layer",
    "home_file",
    "options_unsure",
    "runner",
    "script_operand",
]

# find(1) ACTIONS that run a command (it ends at `;` or `+`), and those that write the file they
# are given; fd(1)'s options that run a command for each result (`-x`) or for all (`-X`).
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
FD_EXEC = frozenset({"-x", "--exec", "-X", "--exec-batch"})

SHELLS = frozenset(
    {"bash", "sh", "dash", "zsh", "ksh", "rbash", "mksh", "ksh93", "fish", "tcsh", "csh", "yash"}
    | {"posh"}
)
# How each shell reads the options before its script or command (checked against bash, dash
# and zsh in tests/decide/test_code_from_streams.py): the option letters whose value is the next
# word, in the order they stand in a cluster (`bash -oO posix extglob f`; zsh's `-o` takes the
# rest of its word instead when there is one, `-onoglob`). bash, dash and zsh end their options
# at `--` and at a lone `-` alike, the script being the next word; zsh also at a lone `+` (an
# empty option word to bash and dash) and after a word holding `b` (`zsh -b -c x` runs the file
# `-c`; under `--emulate sh` only in some places, so the script of `zsh --emulate` after options
# is not placed for sure). `sh` may be bash or dash: `-O` takes a value in bash and is an error
# in dash.
_SHELL_VALUES = {"bash": "oO", "rbash": "oO", "sh": "oO", "dash": "o", "zsh": "o"}
# Shells whose options are read from a table no real shell checks (they are not installed
# with clearance's tests): a script operand after options of theirs is not placed for sure.
_UNCHECKED_VALUES = {"fish": "Cdop", "tcsh": "", "csh": ""}
# Long options that take the next word as their value (zsh's `--emulate sh`, too).
_SHELL_LONG_VALUES = frozenset(
    {"--rcfile", "--init-file", "--init-command", "--command", "--emulate"}
)
# What makes bash and zsh print and exit, running nothing: `--version`, `--help` (and bash's
# one-dash spellings while its long options lead). dash skips a long option it does not know.
_NO_RUN = frozenset({"--version", "--help"})
_NO_RUN_SHELLS = frozenset({"bash", "rbash", "zsh"})
# bash's long options, which it also takes after one dash while they lead (`bash -login x`,
# `bash -init-file f x`; shell.c, parse_long_options): the two with a value, and the others.
_BASH_LONG_VALUES = frozenset({"init-file", "rcfile"})
_BASH_LONG = _BASH_LONG_VALUES | frozenset(
    {"debug", "debugger", "dump-po-strings", "dump-strings", "login", "noediting", "noprofile"}
    | {"norc", "posix", "pretty-print", "protected", "restricted", "verbose", "wordexp"}
)
_BASHES = frozenset({"bash", "rbash", "sh"})
# Devices and spellings through which `source` reads standard input or a pipe.
_STDIN = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_COMMAND_OPTION = {"su": "command session-command", "runuser": "command session-command",
                   "script": "command"}  # fmt: skip
# tmux subcommands that run a shell command, with their option grammars.
_TMUX_RUN = {
    "new-session": Grammar("AdDEPX", "cefFnstxy"),
    "new-window": Grammar("abdkPS", "cenFt"),
    "split-window": Grammar("bdfhIvPZ", "celFpt"),
    "respawn-pane": Grammar("k", "cet"),
    "respawn-window": Grammar("k", "cet"),
    "run-shell": Grammar("bCE", "cdt"),
}
_TMUX_ALIAS = {
    "new": "new-session",
    "neww": "new-window",
    "splitw": "split-window",
    "respawnp": "respawn-pane",
    "respawnw": "respawn-window",
    "run": "run-shell",
}
# tmux subcommands that run nothing of the caller's (listing, attaching, killing).
_QUIET = (
    "ls list-sessions list-windows lsw list-panes lsp list-clients lsc list-buffers lsb "
    "list-commands lscm list-keys lsk has-session has attach-session attach a detach-client "
    "detach kill-session kill-server kill-window killw kill-pane killp display-message "
    "display capture-pane capturep show-options show show-environment showenv select-window "
    "selectw select-pane selectp rename-session rename rename-window renamew resize-pane "
    "resizep"
)
_TMUX_QUIET = frozenset(_QUIET.split())
_TMUX_GLOBAL = Grammar("2CDlNuvV", "fLST")
RUNNERS = frozenset(
    {"eval", "source", ".", "trap", "sg", "su", "runuser", "script", "at", "batch", "expect"}
    | {"nix-shell", "tmux", "gdb"}
)


def runner(name: str, words: Sequence[Word], values: Sequence[str | None]) -> Layer | None:
    """The layer of an opaque runner or a grammar-located indirection named ``name``."""
    count = len(values)
    if name == "eval":
        literal = [v for v in values[1:] if v is not None]
        payload = " ".join(literal) if len(literal) == count - 1 and literal else None
        return Layer("opaque", name, 1 if count > 1 else None, count, payload)
    if name in SHELLS:
        return _shell(name, values)
    if name in _COMMAND_OPTION:
        return _command_option(name, values)
    if name == "sg":
        return Layer("opaque", name, 2, 3, values[2]) if count >= 3 else None
    if name == "trap":
        return _trap(values)
    if name == "source" or name == ".":
        return _source(name, words, values)
    if name == "at" or name == "batch":
        if any(v in ("-l", "-r", "-d", "-c", "-V") for v in values[1:]):
            return None  # listing, removing or printing jobs
        return Layer("opaque", name, None, count, stdin="-f" not in values)
    if name == "expect":
        return _expect(values)
    if name == "nix-shell":
        for i, value in enumerate(values):
            if i and value in ("--run", "--command"):
                payload = values[i + 1] if i + 1 < count else None
                return Layer("opaque", name, i + 1 if payload else None, i + 2, payload)
        return Layer("opaque", name, None, count, stdin=True)  # an interactive shell
    if name == "tmux":
        return _tmux(values)
    if name == "gdb":
        for i, value in enumerate(values):
            if i and value == "--args":
                return Layer("indirection", name, i + 1 if i + 1 < count else None, count)
        return Layer("indirection", name, None, count)  # commands from stdin or -ex
    return None


def _shell(name: str, values: Sequence[str | None]) -> Layer | None:
    """``bash -c CMD`` (opaque, payload ``CMD``); ``bash``, ``bash -s``, ``bash -i`` (opaque,
    reading standard input); ``bash script.sh`` (not a wrapper)."""
    read = _shell_options(name, values)
    if read is None:
        return None  # --version, --help
    count = len(values)
    if read.command:
        at = read.payload if read.payload is not None else read.end
        if at >= count:
            return Layer("opaque", name, None, count)
        return Layer("opaque", name, at, at + 1, values[at])
    if read.stdin or read.end >= count:
        return Layer("opaque", name, None, count, stdin=True)
    return None


def script_operand(name: str, values: Sequence[str | None]) -> int | None:
    """The index of the script operand of the shell ``name`` (``values``: its words), past its
    options and their values (``bash -O extglob f``, ``bash --rcfile r f``): the file it runs,
    ``-`` (standard input, to a shell whose options clearance does not check) or a computed
    word; ``None`` where it runs a string or standard input by an option (``-c``, ``-s``), or
    has no operand. :func:`options_unsure` says whether the operand is placed for sure."""
    read = _shell_options(name, values)
    if read is None or read.command or read.stdin:
        return None
    if read.dash:
        return read.end - 1  # `ksh -`: standard input, or the next word
    return read.end if read.end < len(values) else None


def options_unsure(name: str, values: Sequence[str | None]) -> bool:
    """Whether the shell ``name`` is given options whose reading no real shell checks, so that
    which word is its script is not known for sure (``ksh -T x f``)."""
    read = _shell_options(name, values)
    return read is not None and not read.sure


def _option_named(option: str) -> str:
    """The option name ``option`` as zsh reads it, either way round: any case, `_` and `-`
    ignored, a leading `no` (which turns it round) dropped."""
    name = option.lower().replace("_", "").replace("-", "")
    return name[2:] if name.startswith("no") else name


def _letters_named(option: str) -> bool:
    """Whether the option name ``option`` is zsh's SH_OPTION_LETTERS, under which `-b` is an
    option letter and ends nothing."""
    return _option_named(option) == "shoptionletters"


def _reads_stdin(option: str) -> bool:
    """Whether the option name ``option`` is zsh's SHIN_STDIN or dash's `stdin`, which make the
    shell read its commands from standard input: either way round, since `+o no_shin_stdin`
    sets it."""
    return _option_named(option) in ("shinstdin", "stdin")


class _Options:
    """How a shell reads its words: where its options end (past ``--`` or ``-``; at a computed
    word), whether one of them gives a command (``-c``, fish's ``-C``, ``--command``) or
    standard input (``-s``), the index of fish's command value, whether they ended at ``-`` of a
    shell whose options are not checked, and whether they are read for sure."""

    __slots__ = ("command", "dash", "end", "payload", "stdin", "sure")

    def __init__(self, end: int, command: bool, stdin: bool, payload: int | None, dash: bool,
                 sure: bool) -> None:  # fmt: skip
        self.end = end
        self.command = command
        self.stdin = stdin
        self.payload = payload
        self.dash = dash
        self.sure = sure


def _shell_options(name: str, values: Sequence[str | None]) -> _Options | None:
    """How the shell ``name`` reads its words ``values`` (:class:`_Options`); ``None`` for
    ``--version`` and ``--help``, which run nothing."""
    checked = name in _SHELL_VALUES
    takes = _SHELL_VALUES[name] if checked else _UNCHECKED_VALUES.get(name, "oO")
    zsh = name == "zsh"
    lettered = True  # zsh's `b` ends the options (unless SH_OPTION_LETTERS is set)
    command = stdin = False
    payload: int | None = None  # the index of an option's command value (fish -c, -C)
    i = 1
    count = len(values)
    leading = name in _BASHES  # bash's long options lead, after one dash or two
    while i < count:
        value = values[i]
        if value is None:
            break
        if leading and value[:1] == "-" and value[2:3] != "" and value[1:2] != "-":
            if value[1:] in ("help", "version") and name != "sh":
                return None  # `bash -help`, only while long options lead (else letters)
            if value[1:] in _BASH_LONG:
                if name == "sh":
                    checked = False  # dash reads `-login` as letters: `-o` takes a value
                i += 2 if value[1:] in _BASH_LONG_VALUES else 1
                continue
            leading = False
        elif leading and value[:2] != "--":
            leading = False
        if value in ("--", "-") or (zsh and value == "+"):
            dash = value == "-" and not checked
            return _Options(i + 1, command, stdin, payload, dash, checked or i == 1)
        if value == "+":
            i += 1  # an empty option word, to bash and dash alike
            continue
        if value in _NO_RUN and name in _NO_RUN_SHELLS:
            return None
        if value.startswith("--") or (zsh and value.startswith("+-") and len(value) > 2):
            # (zsh's `+-NAME` is the long option NAME turned off: `+-bareglobqual`)
            option, eq, _ = value.partition("=")
            option = "--" + option[2:]
            if zsh and _reads_stdin(option[2:]):
                stdin = True  # `zsh --shin-stdin q`: standard input, `q` is `$0`
            if zsh and _letters_named(option[2:]):
                checked = lettered = False  # `-b` is then a letter like the others
            if option in ("--command", "--init-command"):
                command = True
                if not eq and name == "fish":
                    payload = i + 1
            if zsh and option == "--emulate":
                # whether `b` then ends the options depends on where it stands (it does in the
                # first option word, before zsh sets the emulation up): read on, not sure
                checked = lettered = False
            i += 1 if eq or option not in _SHELL_LONG_VALUES else 2
            continue
        if value[:1] in "-+" and len(value) > 1:
            letters = value[1:]
            step = 1
            minus = value[0] == "-"
            for j, letter in enumerate(letters):
                # `bash +c CMD` runs CMD as `-c` does (so do dash and zsh); `bash +s` reads
                # standard input as `-s` does, where dash and zsh take `+s` for the opposite.
                if (letter == "c" and (minus or name != "fish")) or (
                    name == "fish" and letter == "C" and minus
                ):
                    command = True
                    if name == "fish" and j + 1 == len(letters):
                        payload = i + step
                if letter == "s" and (minus or (name != "dash" and not zsh)):
                    stdin = True
                if letter in takes:
                    if (zsh or name == "fish") and j + 1 < len(letters):
                        if letter == "o" and zsh and _reads_stdin(letters[j + 1 :]):
                            stdin = True  # `zsh -oshinstdin q`
                        if letter == "o" and zsh and _letters_named(letters[j + 1 :]):
                            checked = lettered = False
                        break  # the rest of the cluster is the value
                    if letter == "o" and name not in ("bash", "rbash", "fish"):
                        # `zsh -o SHIN_STDIN q`, `dash -o stdin q`: standard input by name
                        named = values[i + step] if i + step < count else ""
                        if named is None or _reads_stdin(named):
                            stdin = True
                        if zsh and (named is None or _letters_named(named)):
                            checked = lettered = False
                    step += 1
            i += step
            if zsh and (("b" in letters.partition("o")[0] and lettered) or value[-1] == "-"):
                # `zsh -b f`, `zsh +- -o f`: the options end after this word
                return _Options(i, command, stdin, payload, False, checked)
            continue
        break
    return _Options(i, command, stdin, payload, False, checked or i == 1)


def _command_option(name: str, values: Sequence[str | None]) -> Layer | None:
    """``su -c CMD``, ``su -lc CMD``, ``script -qc CMD``, ``--command=CMD``, ``--comm CMD``;
    without a command ``su``/``script`` start an interactive shell (opaque, standard input),
    ``runuser`` is an indirection."""
    longs = _COMMAND_OPTION[name].split()
    count = len(values)
    for i, value in enumerate(values):
        if value is None or i == 0 or value[:1] != "-" or value == "-":
            continue
        if value == "--":
            break
        if value.startswith("--"):
            option, eq, rest = value[2:].partition("=")
            if option and any(long.startswith(option) for long in longs):
                if eq:
                    return Layer("opaque", name, i, i + 1, rest)
                return _payload_at(name, values, i + 1)
            continue
        letters = value[1:]
        if "c" in letters:
            after = letters[letters.index("c") + 1 :]
            if after:
                return Layer("opaque", name, i, i + 1, after)
            return _payload_at(name, values, i + 1)
    if name == "runuser":
        return None
    return Layer("opaque", name, None, count, stdin=True)


def _payload_at(name: str, values: Sequence[str | None], at: int) -> Layer:
    if at < len(values):
        return Layer("opaque", name, at, at + 1, values[at])
    return Layer("opaque", name, None, len(values))


def _trap(values: Sequence[str | None]) -> Layer | None:
    """``trap CMD SIGNAL…`` and ``trap -- CMD SIGNAL…`` run ``CMD`` (opaque)."""
    first = 2 if len(values) > 1 and values[1] == "--" else 1
    if len(values) < first + 2:
        return None
    value = values[first]
    if first == 1 and (value or "-")[:1] == "-":
        return None  # `trap - EXIT` resets, `trap -p`/`-l` list
    return Layer("opaque", "trap", first, first + 1, value)


def _source(name: str, words: Sequence[Word], values: Sequence[str | None]) -> Layer | None:
    """``source FILE`` reads a file (not a wrapper); from a process substitution, standard
    input, a descriptor or a computed name it runs text clearance cannot read (opaque)."""
    i = 1
    if i < len(values) and values[i] == "--":
        i += 1
    if i >= len(values):
        return None
    value = values[i]
    if value is None:
        return Layer("opaque", name, None, len(values), stdin=words[i].raw in _STDIN)
    if value in _STDIN or value.startswith(("/dev/fd/", "/proc/")):
        return Layer("opaque", name, None, len(values), stdin=True)
    return None


def home_file(words: Sequence[Word]) -> bool:
    """Whether the file ``source``/``.`` reads (``words``: the command's) is spelled as one
    under the home, ``~/…``, ``$HOME/…`` or ``${HOME}/…``, with a literal rest and no ``..``:
    a file like any typed path where the home is the user's (``source ~/.nvm/nvm.sh``), not
    a computed name that may be a descriptor."""
    at = 2 if len(words) > 2 and words[1].value == "--" else 1
    if at >= len(words):
        return False
    raw = words[at].raw
    for prefix in ("~/", "$HOME/", "${HOME}/"):
        if raw.startswith(prefix):
            rest = raw[len(prefix) :]
            return (
                bool(rest)
                and all(c.isalnum() or c in "._-+/" for c in rest)
                and ".." not in rest.split("/")
            )
    return False


def _expect(values: Sequence[str | None]) -> Layer | None:
    """``expect -c CMDS`` (opaque, payload); ``expect`` with no script reads standard input."""
    count = len(values)
    i = 1
    while i < count:
        value = values[i]
        if value is None:
            return None
        if value == "-c":
            return _payload_at("expect", values, i + 1)
        if value in ("-f", "-b", "-D"):
            return None if value != "-D" else _expect([None, *values[i + 2 :]])
        if value in ("--", "-") or not value.startswith("-"):
            return None if value != "-" else Layer("opaque", "expect", None, count, stdin=True)
        i += 1
    return Layer("opaque", "expect", None, count, stdin=True)


def _tmux(values: Sequence[str | None]) -> Layer | None:
    """``tmux new-session CMD``, ``tmux new-window CMD``, ``tmux run-shell CMD`` … run ``CMD``
    through a shell (an indirection whose arguments are re-read as one line); ``tmux -c CMD``
    is opaque; ``tmux ls``/``attach``/``kill-session`` run nothing; anything else (such as
    ``send-keys``) is an indirection whose command clearance cannot locate."""
    count = len(values)
    for i, value in enumerate(values[1:], 1):
        if value == "-c":
            return _payload_at("tmux", values, i + 1)
    at = _TMUX_GLOBAL.inner(values)
    if at is None:
        return Layer("indirection", "tmux", None, count)  # bare `tmux`: a new shell
    sub = values[at]
    sub = _TMUX_ALIAS.get(sub or "", sub)
    if sub in _TMUX_QUIET:
        return None
    grammar = _TMUX_RUN.get(sub or "")
    if grammar is None:
        return Layer("indirection", "tmux", None, count)
    start = grammar.inner(values, at + 1)
    if start is None or values[start] == ";":
        return Layer("indirection", "tmux", None, count)
    end = count
    for j in range(start, count):
        if values[j] == ";":
            end = j
            break
    return Layer("indirection", "tmux", start, end)


# fd's short options that take a value: in a cluster, the rest of it is that value.
_FD_VALUES = frozenset("etdEcjSoCgb")


def fd_layer(words: Sequence[Word], values: Sequence[str | None]) -> Layer | None:
    """``fd … -x CMD``, ``--exec CMD``, ``--exec=CMD``, ``-xCMD``, ``-Hx CMD`` (an
    indirection whose inner command ends at ``;``)."""
    count = len(values)
    for i in range(1, count):
        value = values[i]
        text = value if value is not None else words[i].raw
        if text == "--":
            return None
        head: Word | None = None
        if text in FD_EXEC:
            pass
        elif text.startswith(("--exec=", "--exec-batch=")):
            head = glued(words[i], text[: text.index("=") + 1])
        elif text[:1] == "-" and text[1:2] != "-":
            cut = _fd_cluster(text)
            if cut is None:
                continue
            if cut < len(text):
                head = glued(words[i], text[:cut])
        else:
            continue
        end = count
        for j in range(i + 1, count):
            if values[j] == ";":
                end = j
                break
        if head is not None:
            return Layer("indirection", "fd", i + 1, end, head=head)
        return Layer("indirection", "fd", i + 1 if i + 1 < end else None, end)
    return None


def _fd_cluster(text: str) -> int | None:
    """Where the command starts in a short cluster holding ``x``/``X`` (``None``: no exec)."""
    for j in range(1, len(text)):
        letter = text[j]
        if letter in "xX":
            return j + 1
        if letter in _FD_VALUES:
            return None
    return None
