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

__all__ = ["RUNNERS", "SHELLS", "fd_layer", "literal_script", "runner", "zsh_reads_as_bash"]

SHELLS = frozenset(
    {"bash", "sh", "dash", "zsh", "ksh", "rbash", "mksh", "ksh93", "fish", "tcsh", "csh", "yash"}
    | {"posh"}
)
# Short option letters that take the next word as their value, per shell family.
_SHELL_VALUES = {"fish": "Cdop", "tcsh": "", "csh": ""}
_SHELL_LONG_VALUES = frozenset({"--rcfile", "--init-file", "--init-command", "--command"})
_NO_RUN = frozenset({"--version", "--help", "-version"})
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
    takes = _SHELL_VALUES.get(name, "oO")
    command = stdin = False
    payload: int | None = None  # the index of an option's command value (fish -c, -C)
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        if value is None:
            break
        if value in ("--", "-"):
            i += 1
            break
        if value in _NO_RUN:
            return None
        if value.startswith("--"):
            option, eq, _ = value.partition("=")
            if option in ("--command", "--init-command"):
                command = True
                if not eq and name == "fish":
                    payload = i + 1
            i += 1 if eq or option not in _SHELL_LONG_VALUES else 2
            continue
        if value[:1] in "-+" and len(value) > 1:
            letters = value[1:]
            step = 1
            for j, letter in enumerate(letters):
                if value[0] == "-" and (letter == "c" or (name == "fish" and letter == "C")):
                    command = True
                    if name == "fish" and j + 1 == len(letters):
                        payload = i + step
                if value[0] == "-" and letter == "s":
                    stdin = True
                if letter in takes:
                    if name == "fish" and j + 1 < len(letters):
                        break  # the rest of the cluster is the value
                    step += 1
            i += step
            continue
        break
    if command:
        at = payload if payload is not None else i
        if at >= count:
            return Layer("opaque", name, None, count)
        return Layer("opaque", name, at, at + 1, values[at])
    if stdin or i >= count:
        return Layer("opaque", name, None, count, stdin=True)
    return None


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


_FD_EXEC = ("-x", "--exec", "-X", "--exec-batch")
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
        if text in _FD_EXEC:
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


# -- shells whose script is a literal, seen through (docs/shell-analysis.md) ----------------

# Shells whose `-c` script the bash grammar reads as they do: the POSIX family, and zsh for the
# subset `zsh_reads_as_bash` admits.
_SCRIPT_SHELLS = frozenset({"bash", "sh", "dash", "zsh"})
# Option letters admitted before the script: -c, a login shell (-l: the user's own profile),
# -e, -u, -v; `-o NAME` for the options below. Anything else keeps the shell opaque: -x (its
# trace expands PS4, which may run code), -i (reads an rc file), -s (reads standard input),
# +letters, --rcfile FILE.
_SCRIPT_LETTERS = frozenset("celuv")
_SCRIPT_LONGS = frozenset({"--login", "--noprofile", "--norc"})
_SCRIPT_SET_O = frozenset({"pipefail", "errexit", "nounset"})
# Words that change how zsh reads the rest of the script, or run a command bash would not:
# the precommand modifiers `noglob` and `nocorrect`, the reserved word `repeat`, `sched`, and
# the variables naming the program zsh runs for a statement of redirections only.
_ZSH_WORDS: tuple[str, ...] = ("setopt", "unsetopt", "emulate", "alias", "autoload", "zmodload")
_ZSH_WORDS += ("disable", "noglob", "nocorrect", "repeat", "sched", "NULLCMD", "READNULLCMD")
# Command words zsh runs as a precommand modifier (`- cmd`) or a history replay (`r`).
_ZSH_COMMANDS = frozenset({"-", "r"})
# Reserved words after which the next word is a command word again.
_RESERVED = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"})
# Characters that make a parameter expansion: zsh reads `$name[…]` as a subscript and
# `$name:h` as a modifier where bash reads literal text.
_SPECIAL = frozenset("@*#?$!-0123456789")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# `<<'EOF'` / `<<"EOF"` / `<<\EOF`: a body zsh, like bash, passes on as it is.
_PLAIN = frozenset("\\`$")


def literal_script(name: str, words: Sequence[Word], found: Layer) -> str | None:
    """The script of ``bash -c '…'``, ``sh -c``, ``bash -lc``, ``zsh -lc``… when it can be read
    as typed commands: a literal script, admitted options only, and no operands after the script
    (they would be ``$0``, ``$1``… of a script that may use them). ``None`` otherwise."""
    if name not in _SCRIPT_SHELLS or found.payload is None or found.start is None:
        return None
    if found.end != len(words) or not found.payload.strip():
        return None
    i = 1
    while i < found.start:
        word = words[i]
        value = word.value
        if value is None or word.glob:
            return None
        if value in _SCRIPT_LONGS:
            i += 1
            continue
        if value == "-o" and i + 1 < found.start and words[i + 1].value in _SCRIPT_SET_O:
            i += 2
            continue
        if value[:1] != "-" or len(value) < 2 or not _SCRIPT_LETTERS.issuperset(value[1:]):
            return None
        i += 1
    script = found.payload
    if name == "zsh" and not zsh_reads_as_bash(script):
        return None
    return script


def zsh_reads_as_bash(script: str) -> bool:
    """Whether zsh, with its default options, reads ``script`` as bash does: no construct whose
    meaning differs (glob qualifiers and grouping ``(…)``, ``**``, numeric ranges ``<1-9>``,
    ``=cmd`` and ``=(…)``, parameter flags ``${(…)…}``, ``$~``/``$=``/``$^``, ``&|``/``&!``,
    the extended-glob characters ``^ # ~`` inside a word, ``''`` inside single quotes, and the
    builtins that change the syntax). A deliberately narrow subset: anything else keeps the
    shell opaque."""
    if _names_a_word(script, _ZSH_WORDS):
        return False
    if _names_a_word(script, ("set",)) and not _zsh_set_ok(script):
        return False
    code = _without_quoted_bodies(script)
    if code is None:
        return False
    script = code
    size = len(script)
    i = 0
    double = False
    opened: list[bool] = []  # the quoting around each open `$(`
    start = True  # at the start of a word
    while i < size:
        ch = script[i]
        nxt = script[i + 1] if i + 1 < size else ""
        if ch == "\\":
            i += 2
            start = False
            continue
        if ch == "'" and not double:
            end = script.find("'", i + 1)
            if end < 0 or script[end + 1 : end + 2] == "'":
                return False  # unterminated, or `''` (rc_quotes reads it as one quote)
            i = end + 1
            start = False
            continue
        if ch == '"':
            double = not double
            i += 1
            start = False
            continue
        if ch == "$":
            if nxt in "~=^+" or (nxt == "{" and script[i + 2 : i + 3] in "(~=^+"):
                return False
            if _subscripted(script, i + 1):
                return False  # `$HOME[1,-1]`, `$PWD:h`: a subscript or modifier to zsh only
            if nxt == "(":
                # `$(…)`: code again, read by the unquoted rules even inside double quotes.
                opened.append(double)
                double = False
                i += 3 if script[i + 2 : i + 3] == "(" else 2
                start = True
                continue
            i += 1
            start = False
            continue
        if ch == "`" and double:
            return False  # code inside double quotes: keep it simple, stay opaque
        if double:
            i += 1
            continue
        if ch == ")" and opened:
            double = opened.pop()
            i += 1
            start = False
            continue
        if ch == "(":
            if i == 0 or script[i - 1] != "$":
                return False  # glob grouping or qualifiers, subshells, `=(…)`, arrays
        elif (
            (ch == "!" and i and script[i - 1] in ">&")  # `>!`, `&>!`: zsh's clobbering redirects
            or _zsh_only(ch, nxt, start)
            or (start and _command_word(script, i) in _ZSH_COMMANDS)
        ):
            return False
        start = ch in " \t\n;|&"
        i += 1
    return not double and not opened


def _subscripted(script: str, at: int) -> bool:
    """Whether the unbraced parameter starting at ``at`` (after its ``$``) is followed by ``[``
    or by ``:`` and a letter, which zsh reads as a subscript or a modifier."""
    end = at
    if script[at : at + 1] in _SPECIAL and script[at : at + 1] != "":
        end = at + 1
    else:
        while end < len(script) and script[end] in _NAME_CHARS:
            end += 1
    if end == at:
        return False
    after = script[end : end + 1]
    return after == "[" or (after == ":" and script[end + 1 : end + 2].isalpha())


def _command_word(script: str, at: int) -> str | None:
    """The word starting at ``at`` when it stands where a command word does (after a separator,
    an opening ``$(``, or a reserved word), else ``None``."""
    end = at
    while end < len(script) and script[end] not in " \t\n;|&()<>'\"`":
        end += 1
    word = script[at:end]
    if word not in _ZSH_COMMANDS:
        return None
    j = at
    while True:
        while j > 0 and script[j - 1] in " \t":
            j -= 1
        if j == 0 or script[j - 1] in ";|&\n(":
            return word
        k = j
        while k > 0 and script[k - 1] not in " \t\n;|&(":
            k -= 1
        if script[k:j] not in _RESERVED:
            return None
        j = k


def _zsh_only(ch: str, nxt: str, start: bool) -> bool:
    """Whether an unquoted ``ch`` (followed by ``nxt``; ``start``: at the start of a word) means
    something to zsh that bash does not read: ``**``, ``<1-9>``/``<->``, ``&|``/``&!``, ``=cmd``,
    ``^``, and ``#``/``~`` inside a word (extended globbing)."""
    if ch == "*":
        return nxt == "*"
    if ch == "<":
        return nxt.isdigit() or nxt in "->"
    if ch == "&":
        return nxt in "|!"
    if ch == "=":
        return start
    if ch == "^":
        return True
    return ch in "#~" and not start


def _without_quoted_bodies(script: str) -> str | None:
    """``script`` with the bodies of its quoted-delimiter heredocs left out (data to both
    shells, never read as code); ``None`` when a body does not end."""
    if "<<" not in script:
        return script
    out: list[str] = []
    pending: list[str] = []
    for line in script.split("\n"):
        if pending:
            if line.lstrip("\t") == pending[0]:
                pending.pop(0)
                out.append("")
            continue
        out.append(line)
        at = line.find("<<")
        while at >= 0:
            found = _quoted_delimiter(line, at)
            if found is not None:
                before = line[:at]
                if before.count("'") % 2 or before.count('"') % 2 or not _PLAIN.isdisjoint(before):
                    return None  # perhaps inside quotes or a substitution: not understood
                pending.append(found)
            at = line.find("<<", at + 2)
    return None if pending else "\n".join(out)


# What `set` may be given in the subset: options that mean the same to zsh and bash. zsh's own
# letters differ (`set -4` is GLOB_DOTS: `?env` then matches `.env`), and `set -o` names any
# zsh option.
_ZSH_SET_NAMES = frozenset({"pipefail", "errexit", "nounset"})


def _zsh_set_ok(script: str) -> bool:
    """Whether every ``set`` word in ``script`` is given only options zsh and bash agree on."""
    at = script.find("set")
    while at >= 0:
        end = at + 3
        if (at == 0 or script[at - 1] not in _NAME_CHARS) and (
            end >= len(script) or script[end] not in _NAME_CHARS
        ):
            stop = end
            while stop < len(script) and script[stop] not in ";&|\n)":
                stop += 1
            for word in script[end:stop].split():
                if word not in _ZSH_SET_NAMES and not (
                    word[:1] in ("-", "+") and len(word) > 1 and set(word[1:]) <= set("euo")
                ):
                    return False
        at = script.find("set", end)
    return True


def _names_a_word(script: str, words: tuple[str, ...]) -> bool:
    """Whether any of ``words`` appears in ``script`` as a whole word (not inside a name)."""
    for word in words:
        at = script.find(word)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or script[at - 1] not in _NAME_CHARS) and (
                end >= len(script) or script[end] not in _NAME_CHARS
            ):
                return True
            at = script.find(word, at + 1)
    return False


def _quoted_delimiter(line: str, at: int) -> str | None:
    """The delimiter of a quoted-delimiter heredoc operator at ``at`` (``<<'EOF'``,
    ``<<"EOF"``, ``<<\\EOF``, with ``-`` and blanks allowed after ``<<``), else ``None``."""
    j = at + 2
    if line[j : j + 1] == "-":
        j += 1
    while line[j : j + 1] in (" ", "\t") and j < len(line):
        j += 1
    quote = line[j : j + 1]
    if quote in ("'", '"'):
        end = line.find(quote, j + 1)
        word = line[j + 1 : end] if end > j + 1 else ""
        if not word or (any(c in word for c in "\n$`\\") and quote == '"'):
            return None
        return word
    if quote == "\\":
        end = j + 1
        while end < len(line) and line[end] in _NAME_CHARS:
            end += 1
        return line[j + 1 : end] or None
    return None
