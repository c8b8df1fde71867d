"""A shell's literal script, seen through (ADR 0006, ``docs/shell-analysis.md``).

:func:`literal_script` returns the script of ``bash -c '…'``, ``sh -c``, ``bash -lc``,
``zsh -lc``… when the bash grammar reads it as that shell does, so the assembly parses it as
typed commands; :func:`zsh_reads_as_bash` admits the zsh scripts bash would read alike. Which
commands run a command line at all is :mod:`~clearance.intent.shell.runners`.
"""

from __future__ import annotations

from clearance.intent.shell.launchers import SCRIPT_LAUNCHERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.layer import Layer
    from clearance.intent.shell.word import Word

__all__ = [
    "SCRIPT_SHELLS",
    "literal_script",
    "names_a_word",
    "posix_reads_as_bash",
    "zsh_reads_as_bash",
]

# Shells whose `-c` script the bash grammar reads as they do: the POSIX family, and zsh for the
# subset `zsh_reads_as_bash` admits.
SCRIPT_SHELLS = frozenset({"bash", "sh", "dash", "zsh"})
# The shells that may be dash, whose scripts `posix_reads_as_bash` checks.
_POSIX = frozenset({"sh", "dash"})
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
# and what points a name at another program or defines it (`hash ls=/usr/bin/touch`, and the
# special arrays of zsh/parameter: `functions[ls]='touch x'`, `commands[ls]=…`, `aliases[ls]=…`)
_ZSH_WORDS += ("hash", "unhash", "rehash", "enable", "functions", "commands", "aliases")
_ZSH_WORDS += ("galiases", "saliases", "builtins", "nameddirs", "userdirs", "dis_functions")
# Command words zsh runs as a precommand modifier (`- cmd`) or a history replay (`r`).
_ZSH_COMMANDS = frozenset({"-", "r"})
# The characters that end a word for `_command_word`.
_WORD_STOPS = frozenset(" \t\n;|&()<>'\"`")
# The characters zsh_reads_as_bash looks at (quoting, expansion, grouping, and what _zsh_only
# and the clobbering redirects test); any other character only ends a word or not.
_MARKS = frozenset("\\'\"$`()!*<&=^#~")
_WORD_ENDS = frozenset(" \t\n;|")
# Each character as zsh_reads_as_bash's scan sees it, one for one: a mark \x01, a word end
# \x02, `-` or `r` (a command word of zsh's, at the start of a word) \x03, anything else as it
# is (those three themselves \x00), so `str.find` can skip what no branch looks at.
_KINDS = str.maketrans(
    {"\x01": "\x00", "\x02": "\x00", "\x03": "\x00", "-": "\x03", "r": "\x03"}
    | dict.fromkeys(_MARKS, "\x01")
    | dict.fromkeys(_WORD_ENDS, "\x02")
)
# Reserved words after which the next word is a command word again.
_RESERVED = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"})
# Characters that make a parameter expansion: zsh reads `$name[…]` as a subscript and
# `$name:h` as a modifier where bash reads literal text.
_SPECIAL = frozenset("@*#?$!-0123456789")
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
# Characters of an expanding heredoc body that are text there but quoting or a comment to the
# check of what zsh reads as bash, which reads the body as code.
_BODY_TEXT = str.maketrans({"'": "_", '"': "_", "#": "_"})
# `<<'EOF'` / `<<"EOF"` / `<<\EOF`: a body zsh, like bash, passes on as it is.
_PLAIN = frozenset("\\`$")


def literal_script(name: str, words: Sequence[Word], found: Layer) -> str | None:
    """The script of ``bash -c '…'``, ``sh -c``, ``bash -lc``, ``zsh -lc``… when it can be read
    as typed commands: a literal script, admitted options only, and no operands after the script
    (they would be ``$0``, ``$1``… of a script that may use them). ``None`` otherwise."""
    if name in SCRIPT_LAUNCHERS and found.start is not None and found.payload:
        # hyperfine's one command, nix-shell's one `--run` (of several, one runs: not this one)
        runs = sum(w.value in ("--run", "--command") for w in words) if name == "nix-shell" else 1
        return found.payload if found.payload.strip() and runs == 1 else None
    if name not in SCRIPT_SHELLS or found.payload is None or found.start is None:
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
    if name in _POSIX and not posix_reads_as_bash(script):
        return None
    return script


def posix_reads_as_bash(script: str) -> bool:
    """Whether dash (``sh`` on Debian and its kin) reads ``script`` as bash does, as far as what
    runs: no ``$'…'`` (dash has no such quoting: ``$'\\'`` is a ``$`` and a string that ends
    where bash's goes on), no ``&>`` or ``&>>`` (to dash, ``&`` ends a command that runs in
    the background and the redirection starts the next one), no ``[[`` (a command word to dash,
    so ``||``, ``|``, ``<`` and ``>`` inside it are operators), no brace in a redirection's
    target (:func:`_brace_target`), and no ``((`` but ``$((`` (dash reads ``((x))`` as two
    subshells running ``x``). Checked on the raw text, quoted or not: a string holding one of
    them keeps the shell opaque."""
    if "$'" in script or "&>" in script or "[[" in script or _brace_target(script):
        return False
    at = script.find("((")
    while at >= 0:
        if at == 0 or script[at - 1] != "$":
            return False
        at = script.find("((", at + 2)
    return True


def zsh_reads_as_bash(script: str) -> bool:
    """Whether zsh, with its default options, reads ``script`` as bash does: no construct whose
    meaning differs (glob qualifiers and grouping ``(…)``, ``**``, numeric ranges ``<1-9>``,
    ``=cmd`` and ``=(…)``, parameter flags ``${(…)…}``, ``$~``/``$=``/``$^``, ``&|``/``&!``,
    the extended-glob characters ``^ # ~`` inside a word, ``''`` inside single quotes, and the
    builtins that change the syntax). A deliberately narrow subset: anything else keeps the
    shell opaque."""
    if names_a_word(script, _ZSH_WORDS) or _brace_target(script):
        return False
    if names_a_word(script, ("set",)) and not _zsh_set_ok(script):
        return False
    code = _without_quoted_bodies(script)
    if code is None:
        return False
    script = code
    kinds = script.translate(_KINDS)
    size = len(script)
    i = 0
    double = False
    opened: list[bool] = []  # the quoting around each open `$(`
    start = True  # at the start of a word
    while i < size:
        ch = script[i]
        if ch not in _MARKS:  # a character no branch below looks at (most of them)
            # Up to the next mark, nothing is looked at but a command word `-` or `r`.
            mark = kinds.find("\x01", i)
            if mark < 0:
                mark = size
            if double:
                i = mark
                continue
            if not start or (ch != "-" and ch != "r"):  # not a command word `-` or `r` either
                word = kinds.find("\x02\x03", i, mark)  # a `-` or `r` after a word end
                if word >= 0:
                    i = word + 1
                    start = True
                    continue
                start = kinds[mark - 1] == "\x02"  # whether the last one skipped ends a word
                i = mark
                continue
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
            if nxt == "'" and not double:
                # `$'…'`: a backslash escapes the next character, `\'` among them
                j = i + 2
                while j < size and script[j] != "'":
                    j += 2 if script[j] == "\\" else 1
                if j >= size:
                    return False
                i = j + 1
                start = False
                continue
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
            if (i == 0 or script[i - 1] != "$") and not _subshell(script, i):
                return False  # glob grouping or qualifiers, `=(…)`, arrays, `() {…}`
        elif ch == "*" and nxt == "*" and _recursive_glob(script, i):
            i += 2  # `dir/**/x`: any depth of directories, as bash's globstar reads it
            start = False
            continue
        elif (
            (ch == "!" and i and script[i - 1] in ">&")  # `>!`, `&>!`: zsh's clobbering redirects
            or _zsh_only(ch, nxt, start)
            # (`-` and `r` are words of one character: `rg`, `-n` are not looked up)
            or (
                start
                and (nxt == "" or nxt in _WORD_STOPS)
                and _command_word(script, i) in _ZSH_COMMANDS
            )
        ):
            return False
        elif ch == "#" and start:
            # a comment, to the end of the line (zsh reads them in a script, as bash does)
            end = script.find("\n", i)
            i = size if end < 0 else end
            continue
        start = ch in " \t\n;|&(`"  # `(=rm x)`, `` `=rm x` ``: a command word follows
        i += 1
    return not double and not opened


def _subshell(script: str, at: int) -> bool:
    """Whether the ``(`` at ``at`` opens a subshell, as both shells read it: it stands where a
    command does (the start, or after ``;``, ``&``, ``|`` or a line break) and is not ``((``
    (arithmetic) or ``()`` (an anonymous function to zsh)."""
    if script[at + 1 : at + 2] in ("(", ")"):
        return False
    j = at
    while j > 0 and script[j - 1] in " \t":
        j -= 1
    return j == 0 or script[j - 1] in ";&|\n"


def _recursive_glob(script: str, at: int) -> bool:
    """Whether the ``**`` at ``at`` is a whole path segment followed by ``/`` (``**/x``,
    ``a/**/x``), which zsh reads as bash's ``globstar`` does; ``***/`` follows links."""
    if script[at + 2 : at + 3] != "/":
        return False
    return at == 0 or script[at - 1] in "/ \t\n;|&("


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
    while end < len(script) and script[end] not in _WORD_STOPS:
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
    shells, never read as code); ``None`` when a body or a quote does not end, or where the
    reading is not sure that a ``<<`` is an operator.

    Quoting is followed across lines as both shells follow it: a ``<<`` inside quotes or a
    comment is text (``zsh -lc 'python - <<"PY" …'`` run by another ``zsh -lc "…"``), and the
    body of every heredoc is passed over, so that an apostrophe in it opens no quote. A
    substitution (``$(…)``) nests its own quoting; in arithmetic (``$((…))``, ``((…))``) a ``<<``
    shifts, and in a parameter expansion (``${x:-<<'X'}``) it is text. A backtick, ``$'…'``,
    ``$[…]`` and ``case`` inside a substitution (whose ``x)`` closes no parenthesis) are not
    followed, nor a heredoc operator on a line that goes on after a backslash (its body starts
    a line later)."""
    if "<<" not in script:
        return script
    if any(mark in script for mark in ("`", "$'", "$[")) or (
        "$(" in script and names_a_word(script, ("case",))
    ):
        return None
    out: list[str] = []
    # (delimiter, whether the body is left out, whether leading tabs are stripped: `<<-`)
    pending: list[tuple[str, bool, bool]] = []
    # Open contexts: `"`, `$(`, `(` (in a substitution), `((` (arithmetic), `${`.
    stack: list[str] = []
    single = False  # inside single quotes
    for line in script.split("\n"):
        if pending and not single and stack[-1:] != ['"']:
            delimiter, left_out, tabs = pending[0]
            if (line.lstrip("\t") if tabs else line) == delimiter:  # that line alone ends it
                pending.pop(0)
                out.append("")
            else:
                # An expanding body is checked for what its expansions run; its quotes and
                # `#` are text there, and open no quote or comment for the check (`it's`).
                out.append("" if left_out else line.translate(_BODY_TEXT))
            continue
        if pending:
            return None  # a quote still open where a body would start
        out.append(line)
        i = 0
        size = len(line)
        continued = False  # the line ends in a backslash: the command goes on
        while i < size:
            ch = line[i]
            if single:
                single = ch != "'"
            elif stack[-1:] == ['"']:
                if ch == "\\":
                    continued = i + 1 == size
                    i += 1
                elif ch == '"':
                    stack.pop()
                elif line.startswith("$((", i):
                    stack.append("((")
                    i += 3
                    continue
                elif ch == "$" and line.startswith("$(", i):
                    stack.append("$(")
                    i += 1
                elif ch == "$" and line.startswith("${", i):
                    stack.append("${")
                    i += 1
            elif ch == "\\":
                continued = i + 1 == size
                i += 1
            elif ch == "$" and line.startswith("${", i):
                stack.append("${")
                i += 1
            elif ch == "}" and stack[-1:] == ["${"]:
                stack.pop()
            elif ch == "{" and stack[-1:] == ["${"]:
                return None  # zsh counts braces inside `${…}`, bash ends it at the first `}`
            elif ch == "'":
                single = True
            elif ch == '"':
                stack.append('"')
            elif line.startswith("$((", i) or line.startswith("((", i):
                stack.append("((")  # arithmetic: `<<` in it shifts
                i += 3 if ch == "$" else 2
                continue
            elif ch == "$" and line.startswith("$(", i):
                stack.append("$(")
                i += 1
            elif ch == "(" and stack:
                stack.append("(")
            elif ch == ")" and stack:
                if stack.pop() == "((":
                    i += 1  # `))`
            elif ch == "#" and (i == 0 or line[i - 1] in " \t;&|()"):
                break  # a comment, to the end of the line
            elif line.startswith("<<", i) and (
                "((" in stack or "${" in stack or line.startswith("<<<", i)
            ):
                i += 3 if line.startswith("<<<", i) else 2  # a shift, text, a here-string
                continue
            elif line.startswith("<<", i):
                found = _heredoc_word(line, i)
                if found is None:
                    return None
                pending.append(found)
                i += 2
                continue
            i += 1
        if continued and pending:
            return None  # `cat <<"X" \`: the body starts after the line the command ends on
    return None if pending or single or stack else "\n".join(out)


def _heredoc_word(line: str, at: int) -> tuple[str, bool, bool] | None:
    """The delimiter of the heredoc operator at ``at`` (its whole word, read as the shell reads
    it: ``<<'\\X'`` ends at ``\\X``), whether its body is data to both shells (any quoting in
    the word: ``<<'EOF'``, ``<<\\X-Y``, ``<<"E"OF``; an unquoted one, whose body expands, is
    kept), and whether the operator strips leading tabs (``<<-``). ``None`` for a word with an
    expansion, or a quote that does not close on the line."""
    from clearance.intent.shell.heredoc import delimiter_start, delimiter_word

    j, tabs = delimiter_start(line, at)
    end = j
    while end < len(line) and line[end] not in " \t;&|<>()":
        ch = line[end]
        if ch in "'\"":
            close = line.find(ch, end + 1)
            if close < 0:
                return None
            end = close + 1
        elif ch == "\\":
            end += 2
        elif ch in "$`":
            return None
        else:
            end += 1
    word = line[j:end]
    delimiter = delimiter_word(word)
    if not delimiter:
        return None
    return delimiter, any(c in word for c in "'\"\\"), tabs


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


def _brace_target(script: str) -> bool:
    """Whether a redirection's target holds a brace (`> x{,}.txt`): bash refuses it as an
    ambiguous redirect, so its reading writes nothing, where dash writes the name as typed and
    zsh writes each name the braces make. Read on the raw text, quoted or not."""
    at = script.find("{")
    while at >= 0:
        j = at
        while j > 0 and script[j - 1] not in " \t\n;&|()<>":
            j -= 1  # back to the start of the word the brace is in
        k = j
        while k > 0 and script[k - 1] in " \t":
            k -= 1
        if k > 0 and script[k - 1] in "<>":
            return True
        at = script.find("{", at + 1)
    return False


def names_a_word(script: str, words: tuple[str, ...]) -> bool:
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
