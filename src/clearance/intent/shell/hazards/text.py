"""Text tools that run code: rg's preprocessor, sed scripts (``e``, ``w``, ``r``), awk programs."""

from __future__ import annotations

from clearance.intent.sentinel import CODE_RUNNING, PROTECTED
from clearance.intent.shell import sed
from clearance.intent.shell.code_files import JQ_ONE, JQ_TWO, jq_program_file
from clearance.intent.shell.delimited import UNPLACED
from clearance.intent.shell.hazards.finding import Finding, option_values
from clearance.intent.shell.layer import basename
from clearance.policy.protected import HOOK_TOKEN_VARIABLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.hazards.finding import Checker, Values
    from clearance.intent.shell.word import Word

__all__ = ["PROGRAMS", "awk_program", "sed_script"]


def _rg(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """rg(1) --pre (a command run on every file searched), --hostname-bin (a program run for
    the host name of hyperlinks); gtfobins: rg."""
    for option, arg in option_values(values, "", ("--pre", "--hostname-bin")):
        if option == "--pre":
            finding.runs("passes --pre, which runs a command on every file searched", arg)
        elif option == "--hostname-bin":
            finding.runs("passes --hostname-bin, which runs a program", arg)


def _sed_scripts(values: Values) -> tuple[list[str | None], bool]:
    """The scripts of a sed command line, and whether one comes from a file (``-f``)."""
    scripts: list[str | None] = []
    from_file = False
    explicit = False
    positional: str | bool | None = False
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        i += 1
        if value is None:
            if not explicit and positional is False:
                scripts.append(None)
                positional = True
            continue
        if value == "--":
            if not explicit and positional is False and i < count:
                scripts.append(values[i])
            break
        if value.startswith("--"):
            name, eq, rest = value.partition("=")
            option = _sed_long(name)
            if option in _SED_VALUED:
                arg = rest if eq else (values[i] if i < count else None)
                if not eq:
                    i += 1
                if option == "--file":
                    from_file = True
                    explicit = True
                elif option == "--expression":
                    scripts.append(arg)
                    explicit = True
            continue
        if value.startswith("-") and len(value) > 1:
            for j, letter in enumerate(value[1:], 1):
                if letter in "ef":
                    rest = value[j + 1 :]
                    arg = rest if rest else (values[i] if i < count else None)
                    if not rest:
                        i += 1
                    if letter == "f":
                        from_file = True
                    else:
                        scripts.append(arg)
                    explicit = True
                    break
                if letter in "lE":  # -l N takes a value
                    if letter == "l" and not value[j + 1 :]:
                        i += 1
                    if letter == "l":
                        break
            continue
        if not explicit and positional is False:
            scripts.append(value)
            positional = True
    return scripts, from_file


# GNU sed(1)'s long options, those taking a value first; getopt takes a unique prefix.
_SED_VALUED = ("--expression", "--file", "--line-length")
_SED_FLAGS = ("--debug", "--follow-symlinks", "--in-place", "--null-data", "--zero-terminated",
              "--quiet", "--silent", "--regexp-extended", "--separate", "--sandbox",
              "--unbuffered", "--posix", "--binary", "--help", "--version")  # fmt: skip


def _sed_long(name: str) -> str | None:
    """The long option ``name`` is or abbreviates; a prefix shared with a value-taking option
    counts as that option (sed refuses an ambiguous one, so this only widens)."""
    if name in _SED_VALUED or name in _SED_FLAGS or len(name) < 3:
        return name
    valued = [option for option in _SED_VALUED if option.startswith(name)]
    if valued:
        return valued[0]
    return next((option for option in _SED_FLAGS if option.startswith(name)), None)


def sed_script(finding: Finding, script: str) -> None:
    """GNU sed(1) COMMANDS: ``e`` and ``s///e`` run commands, ``w``/``W`` and ``s///w`` write
    files, ``r``/``R`` read them; gtfobins: sed. A script the scan cannot follow floors. The
    script is read with and without bracket expressions (``clearance.intent.shell.delimited``),
    and what either reading finds counts."""
    for brackets in (True, False):
        _sed_reading(finding, script, brackets)


def _sed_reading(finding: Finding, script: str, brackets: bool) -> None:
    found, complete = sed.commands(script, brackets)
    for letter, flags, name in found:
        if letter == "s":
            for flag in flags:
                if flag == "e":
                    finding.runs("runs its pattern space as a command (sed s///e)")
                elif flag in "wW":
                    finding.write("sed s///w", name)
        elif letter == "e":
            finding.runs("runs a command (sed e)", name or None)
        elif letter in "wW":
            finding.write(f"sed {letter}", name)
        elif letter in "rR":
            finding.read(f"sed {letter}", name)
    if not complete:
        finding.runs("passes a sed script clearance cannot read, which may run a command")


def _sed(finding: Finding, words: Sequence[Word], values: Values) -> None:
    scripts, from_file = _sed_scripts(values)
    if from_file:
        finding.runs("reads its sed script from a file, which may run a command (e, s///e)")
    for script in scripts:
        if script is None:
            finding.runs("passes a computed sed script, which may run a command (e, s///e)")
        else:
            sed_script(finding, script)


_AWK_VALUED = "fvF"


def _awk_program(values: Values, gawk: bool) -> tuple[str | None, bool]:
    """The program text and whether it comes from elsewhere (``-f``, ``-e``, ``-i``…)."""
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        i += 1
        if value is None:
            return None, False
        if value == "--":
            return (values[i] if i < count else None), False
        if value.startswith("--"):
            name = value.partition("=")[0]
            if name in ("--file", "--source", "--include", "--load", "--exec"):
                return None, True
            if "=" not in value and name in ("--assign", "--field-separator"):
                i += 1
            continue
        if value.startswith("-") and len(value) > 1:
            letter = value[1]
            if letter in "fEeil":
                return None, True
            if letter in _AWK_VALUED and len(value) == 2:
                i += 1
            continue
        return value, False
    return None, False


def _awk_tokens(program: str, brackets: bool) -> list[tuple[str, str]] | None:
    """A rough lexer: ``("str", text)``, ``("re", text)``, ``("op", ch)``, ``("name", word)``,
    reading a regex's bracket expressions when ``brackets`` (``None``: a regex whose end the
    implementations place differently)."""
    out: list[tuple[str, str]] = []
    i = 0
    count = len(program)
    while i < count:
        ch = program[i]
        if ch == '"':
            j = i + 1
            buf = []
            while j < count and program[j] != '"':
                if program[j] == "\\" and j + 1 < count:
                    buf.append(program[j + 1])
                    j += 2
                    continue
                buf.append(program[j])
                j += 1
            out.append(("str", "".join(buf)))
            i = j + 1
            continue
        if ch == "/" and (not out or (out[-1][0] == "op" and out[-1][1] in "(,;{}!~&|=\n:?")):
            j = sed.skip_regex(program, i + 1, "/", brackets)
            if j == UNPLACED:
                return None
            if j > 0:
                out.append(("re", program[i + 1 : j - 1]))
                i = j
                continue
        if ch == "#":
            while i < count and program[i] != "\n":
                i += 1
            continue
        if ch.isalnum() or ch in "_$":
            j = i
            while j < count and (program[j].isalnum() or program[j] in "_$"):
                j += 1
            out.append(("name", program[i:j]))
            i = j
            continue
        if ch in " \t":
            i += 1
            continue
        out.append(("op", ch))
        i += 1
    return out


def awk_program(finding: Finding, program: str) -> None:
    """awk(1), gawk(1) I/O: ``system()``, ``print | cmd``, ``cmd | getline``, ``print > file``,
    ``getline < file``, gawk ``@`` directives; gtfobins: awk, gawk, mawk, nawk. The program is
    read with and without bracket expressions in its regexes (``/[/]/`` is one regex to awk),
    and what either reading finds counts."""
    for brackets in (True, False):
        tokens = _awk_tokens(program, brackets)
        if tokens is None:
            finding.runs("passes an awk regex whose end clearance cannot place (it may hide code)")
            return
        _awk_reading(finding, tokens)


def _awk_reading(finding: Finding, tokens: list[tuple[str, str]]) -> None:
    in_print = False
    depth = 0
    for k, (kind, text) in enumerate(tokens):
        nxt = tokens[k + 1] if k + 1 < len(tokens) else ("", "")
        prev = tokens[k - 1] if k else ("", "")
        if kind == "name":
            if text in ("print", "printf"):
                in_print, depth = True, 0
            elif text == "system":
                arg = tokens[k + 2] if k + 2 < len(tokens) else ("", "")
                after = tokens[k + 3] if k + 3 < len(tokens) else ("", "")
                literal = arg[0] == "str" and after == ("op", ")")
                finding.runs("calls system(), which runs a command", arg[1] if literal else None)
            elif text == "getline" and ("op", "<") in tokens[k + 1 : k + 3]:
                at = k + 2 if nxt == ("op", "<") else k + 3
                target = tokens[at] if at < len(tokens) else ("", "")
                finding.read("getline <", target[1] if target[0] == "str" else None)
            elif text in ("ENVIRON",) or text.startswith("PROCINFO"):
                continue
            continue
        if kind != "op":
            continue
        if text == "@":
            finding.runs("uses a gawk @ directive or indirect call, which may run code")
        elif text == "|":
            if nxt == ("op", "|") or prev == ("op", "|") or nxt == ("op", "&"):
                if nxt == ("op", "&"):
                    finding.runs("opens a gawk coprocess (|&), which runs a command")
                continue
            if prev[0] == "str" and nxt == ("name", "getline"):
                finding.runs('reads from a command ("cmd" | getline)', prev[1])
            elif in_print and nxt[0] == "str":
                finding.runs("pipes its output to a command (print | cmd)", nxt[1])
            else:
                finding.runs("pipes to or from a command it computes")
        elif text in "({[":
            depth += 1
        elif text in ")}]":
            depth -= 1
            if depth < 0:
                in_print = False
        elif text in ";\n":
            in_print = False
        elif text == ">" and in_print and depth <= 0:
            if prev == ("op", ">"):
                continue
            target = nxt if nxt != ("op", ">") else (tokens[k + 2] if k + 2 < len(tokens) else nxt)
            finding.write("print >", target[1] if target[0] == "str" else None)


def _awk(finding: Finding, words: Sequence[Word], values: Values) -> None:
    name = basename(values[0] or "")
    program, elsewhere = _awk_program(values, name == "gawk")
    if elsewhere:
        finding.runs("reads its awk program from elsewhere (-f, -e, -i, -l), which may run code")
    elif program is None:
        finding.runs("passes a computed awk program, which may run a command")
    else:
        awk_program(finding, program)


_JQ_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")
# A program file larger than this is not read: its unit asks.
_JQ_FILE_BYTES = 1 << 18


def _jq(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """jq(1) MODULES: ``import "p" as $x;`` reads ``p.json`` and ``include "p";`` ``p.jq``,
    from the working directory or a ``-L`` directory, ``..`` and absolute paths allowed
    (``import "../.docker/config" as $c; $c`` prints ``~/.docker/config.json``): a file no
    operand names. A computed program may hold one too, and so may a program file (``-f``),
    which :func:`jq_file_floor` reads. ``env`` and ``$ENV`` print the environment."""
    program = jq_program_file(words)
    if program is not None:
        if program.value is None:
            finding.read("a computed jq program file (a module import reads a file)", None)
        else:
            finding.program_files.append(program.value)
        return
    i = 1
    count = len(values)
    options = True
    while i < count:
        value = values[i]
        i += 1
        if value is None:
            if words[i - 1].raw.lstrip("\"'")[:1] in ("$", "`"):
                finding.read("a computed jq program (a module import reads a file)", None)
            return
        if not options:
            _jq_program(finding, value)
            return
        if value == "--":  # the options end; the program is still the first operand
            options = False
            continue
        if value in ("--args", "--jsonargs"):  # later operands are arguments, not the program
            continue
        if value in JQ_TWO:
            i += 2
            continue
        if value.partition("=")[0] in JQ_ONE:
            i += "=" not in value
            continue
        if value.startswith("-") and len(value) > 1:
            if value[1] != "-" and value[-1:] == "L":
                i += 1
            continue
        _jq_program(finding, value)
        return


def _jq_program(finding: Finding, program: str) -> None:
    if _jq_imports(program):
        finding.read("a jq module import or include", None)
    if (_jq_word(program, "env") or _jq_dollar_env(program)) and finding.floor is None:
        finding.floor = (PROTECTED, _JQ_ENV)


def jq_file_floor(files: Sequence[str], base: str | None) -> Floor | None:
    """The floor of ``jq -f FILE`` run in ``base``: the file's program is read as a literal one
    is (an import, an include, ``env``); one that cannot be read whole, or in a directory not
    known, floors. A file that does not exist yet is jq's error, unless the line writes it
    (``code_files.script``: ``<runs-written-file>``)."""
    for value in files:
        path = value if value[:1] == "/" else None if base is None else base + "/" + value
        if path is None:
            return (CODE_RUNNING, f"reads its jq program from {value!r}, in a directory not known")
        data = _regular_file_head(path, _JQ_FILE_BYTES + 1)
        if data is None:
            continue  # none there: jq fails
        if not isinstance(data, bytes) or len(data) > _JQ_FILE_BYTES:
            why = f"reads its jq program from {value!r}, which is not a file clearance can read"
            return (CODE_RUNNING, why)
        probe = Finding()
        _jq_program(probe, data.decode("utf-8", "replace"))
        if probe.floor is not None:
            return probe.floor
    return None


def _regular_file_head(path: str, size: int) -> bytes | bool | None:
    """The first ``size`` bytes of the regular file ``path``; ``None`` when there is nothing to
    open, ``False`` when it is no regular file (``/dev/stdin``, a FIFO: never waited on)."""
    import os

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if os.fstat(fd).st_mode & 0o170000 != 0o100000:
            return False
        return os.read(fd, size)
    except OSError:
        return False
    finally:
        os.close(fd)


# jq's `env` and `$ENV` print the environment, which may hold clearance's hook token.
_JQ_ENV = f"reads the environment (jq's env, $ENV), which holds {HOOK_TOKEN_VARIABLE}"


def _jq_word(program: str, word: str) -> bool:
    """Whether ``program`` holds ``word`` as a name of its own (``env.X``; not ``.env`` nor
    ``envx``)."""
    start = program.find(word)
    while start >= 0:
        end = start + len(word)
        before = program[start - 1] if start else " "
        after = program[end] if end < len(program) else " "
        if before not in _JQ_NAME and (after not in _JQ_NAME or after == "."):
            return True
        start = program.find(word, end)
    return False


def _jq_dollar_env(program: str) -> bool:
    """Whether the jq program names the variable ``$ENV``: jq reads ``$`` and the name as two
    tokens, so blanks and comments may stand between them (``$ ENV``, ``$#…`` newline ``ENV``)."""
    at = program.find("$")
    while at >= 0:
        i = at + 1
        while i < len(program):
            if program[i].isspace():
                i += 1
            elif program[i] == "#":  # a comment, to the end of its line
                end = program.find("\n", i)
                i = len(program) if end < 0 else end + 1
            else:
                break
        if program.startswith("ENV", i) and (
            i + 3 == len(program) or program[i + 3] not in _JQ_NAME or program[i + 3] == "."
        ):
            return True
        at = program.find("$", at + 1)
    return False


def _jq_imports(program: str) -> bool:
    """Whether the jq program holds the keyword ``import`` or ``include`` (not a field or a key
    of that name): followed by a blank, a string or a comment (``import#…`` newline ``"p"``)."""
    for keyword in ("import", "include"):
        start = program.find(keyword)
        while start >= 0:
            end = start + len(keyword)
            before = program[start - 1] if start else " "
            after = program[end] if end < len(program) else ""
            if before not in _JQ_NAME and before != '"' and (after.isspace() or after in '"#'):
                return True
            start = program.find(keyword, end)
    return False


PROGRAMS: dict[str, Checker] = {
    "jq": _jq,
    "rg": _rg,
    "sed": _sed,
    "gsed": _sed,
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "nawk": _awk,
    "busybox-awk": _awk,
}
