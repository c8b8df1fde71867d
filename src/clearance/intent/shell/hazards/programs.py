"""The other programs that run programs: archivers and copiers (tar, zip, rsync, split), editors
and pagers (vim, ed, less, man), ssh, make, find, curl, dd, sort, the command runners (env,
setarch, setpriv, …) and the shells themselves.
"""

from __future__ import annotations

from clearance.intent.sentinel import UNLISTED_NAMES
from clearance.intent.shell.hazards.finding import Finding, literal_line, option_values
from clearance.intent.shell.hazards.variables import (
    VARIABLES,
    hazardous_variable,
    search_path_hazard,
    variable_payload,
)
from clearance.intent.shell.layer import basename
from clearance.intent.shell.names import COMPRESSORS, SEARCH_PATH_VARIABLES, VIM_NAMES
from clearance.intent.shell.runners import FIND_WRITES, options_unsure, script_operand
from clearance.intent.shell.token import own_cwd

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.hazards.finding import Checker, Values
    from clearance.intent.shell.word import Word

__all__ = ["PROGRAMS"]

_PLAIN_HOME = frozenset(
    "~/._-+,:@%" + "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "0123456789"
)


def _tar(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """GNU tar(1) --checkpoint-action, -I/--use-compress-program, --to-command, -F/--info-script
    (--new-volume-script), --rsh-command, --rmt-command; gtfobins: tar."""
    longs = (
        "--checkpoint-action",
        "--use-compress-program",
        "--to-command",
        "--info-script",
        "--new-volume-script",
        "--rsh-command",
        "--rmt-command",
    )
    for option, arg in option_values(values, "IF", longs):
        if option == "?":
            continue  # judged below, word by word
        if option == "--checkpoint-action":
            payload = None
            if arg is not None and arg.startswith(("exec=", "exec")):
                payload = arg.partition("=")[2] or None
                finding.runs("passes --checkpoint-action, which runs a command", payload)
            elif arg is None:
                finding.runs("passes a computed --checkpoint-action, which may run a command")
        else:
            finding.runs(f"passes {option}, which runs a command", arg)
    for word in words[1:]:
        if word.value is None and word.segs is None:
            finding.runs("passes a computed word to tar, which may be a code-running option")
        elif word.glob and word.raw[:1] in "*?[":
            finding.runs("passes a glob whose matches may be options (--checkpoint-action=…)")
    first = values[1] if len(values) > 1 else None
    if first and not first.startswith("-") and ("I" in first or "F" in first):
        finding.runs("passes tar's I or F (old-style), which runs a command")
    # A home directory (`-C ~`, `-C ~/src`) is known: the gate expands `~` like any path.
    _tar_directories(finding, [_home_word(w) for w in words])


def _home_word(word: Word) -> str | None:
    """``word``'s value, or its spelling when it is a plain home path (``~``, ``~/x``)."""
    raw = word.raw
    if word.value is None and (raw == "~" or raw[:2] == "~/") and _PLAIN_HOME.issuperset(raw):
        return raw
    return word.value


def _tar_directories(finding: Finding, values: Values) -> None:
    """tar(1) -C/--directory DIR: the operands after it are files in DIR (``tar -C ~ -cf -
    .ssh`` reads ``~/.ssh``), so each is a path joined to it; a computed DIR floors."""
    current: str | None = None
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        i += 1
        if value is None:
            continue
        directory: str | None = None
        if value in ("-C", "--directory"):
            if i >= count or values[i] is None:
                finding.runs(f"passes {value} with a computed directory to tar")
                return
            directory = values[i]
            i += 1
        elif value.startswith("--directory="):
            directory = value.partition("=")[2]
        elif value.startswith("-C") and value[1:2] != "-":
            directory = value[2:]
        if directory is not None:
            if directory[:1] in ("/", "~") or current is None:
                current = directory
            else:
                current = current.rstrip("/") + "/" + directory
            continue
        if current is not None and value[:1] != "-":
            # `/proc/self/cwd/x` is `x` in DIR, as tar opens it after changing there.
            finding.paths.append(current.rstrip("/") + "/" + (own_cwd(value) or value))


def _zip(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """zip(1) -TT/--unzip-command; gtfobins: zip."""
    for i, value in enumerate(values[1:], 1):
        if value is None:
            continue
        if value == "-TT" or value.startswith("--unzip-command") or value.startswith("-TT"):
            arg = value.partition("=")[2] if "=" in value else None
            if (arg is None and value == "-TT") or value == "--unzip-command":
                arg = values[i + 1] if i + 1 < len(values) else None
            elif value.startswith("-TT") and len(value) > 3:
                arg = value[3:]
            finding.runs("passes -TT (--unzip-command), which runs a command", arg)


def _rsync(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """rsync(1) -e/--rsh, --rsync-path; gtfobins: rsync."""
    for option, arg in option_values(values, "e", ("--rsh", "--rsync-path")):
        if option != "?":
            finding.runs(f"passes {option}, which runs a command", arg)
    for option, arg in option_values(values, "", ("--write-batch", "--only-write-batch")):
        if option != "?":
            finding.write(option, arg)


def _split(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """split(1) --filter; gtfobins: split."""
    for option, arg in option_values(values, "", ("--filter",)):
        if option != "?":
            finding.runs("passes --filter, which runs a command on every piece", arg)


def _man(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """man(1) -P/--pager, -H/--html, --browser; gtfobins: man."""
    for option, arg in option_values(values, "P", ("--pager",)):
        if option != "?":
            finding.runs(f"passes {option}, which runs a pager command", arg)
    for value in values[1:]:
        if value is not None and (value.startswith(("--html", "-H")) or value == "--browser"):
            finding.runs("passes -H (--html), which runs a browser command")


def _vim(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """vim(1) -c, +cmd, --cmd, -S, -u, -s, -e/-E (ex mode); gtfobins: vim. An agent has no
    terminal: vim and ex read their commands (ex's, or normal mode's keys) from standard input,
    which the unit does not show, beside those the options give; any of them may write a file
    or run a program (``:w``, ``:!cmd``). Only a version or help question runs nothing."""
    rest = values[1:]
    if rest and all(v in ("--version", "--help", "-h") for v in rest):
        return
    finding.runs(f"runs {basename(values[0] or 'vim')}, whose editor commands (from its options or "
                 "standard input) may write a file or run a program")  # fmt: skip


def _ssh(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """ssh(1) -o ProxyCommand/LocalCommand/PermitLocalCommand/KnownHostsCommand, -F;
    ssh_config(5); gtfobins: ssh."""
    for option, arg in option_values(values, "oFS", ()):
        if option == "-F":
            finding.runs("passes -F, an ssh configuration file that may run a command")
        elif option == "-o":
            key = (arg or "").replace("=", " ").split(" ", 1)
            name = key[0].lower()
            if arg is None or name in (
                "proxycommand",
                "localcommand",
                "permitlocalcommand",
                "knownhostscommand",
                "include",
                "match",
            ):
                payload = key[1].strip() if arg is not None and len(key) > 1 else None
                if name == "permitlocalcommand":
                    payload = None
                finding.runs(f"passes -o {key[0] if arg else '…'}, which runs a command", payload)


def _make(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """make(1) --eval/-E, -f/--file/--makefile; gtfobins: make."""
    for option, _arg in option_values(values, "Ef", ("--eval", "--file", "--makefile")):
        if option != "?":
            finding.runs(f"passes {option}, which makes make run recipes it is given")
    for value in values[1:]:
        if value is not None and value.startswith(("SHELL=", "MAKESHELL=", ".SHELLFLAGS=")):
            finding.runs(f"sets {value.partition('=')[0]}, which names the shell make runs")


def _find(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """find(1) -delete, -fprint/-fprint0/-fprintf/-fls (writes); gtfobins: find."""
    count = len(values)
    for i, value in enumerate(values[1:], 1):
        if value in FIND_WRITES:
            finding.write(value, values[i + 1] if i + 1 < count else None)
        elif value == "-delete":
            finding.runs("passes -delete, which deletes every file it finds")


def _nowhere(path: str) -> bool:
    return False


def _env(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """env(1) -S/--split-string; gtfobins: env."""
    for option, arg in option_values(values, "S", ("--split-string",)):
        if option != "?":
            finding.runs(f"passes {option}, which runs the command of a split string", arg)
    skip = False
    for value in values[1:]:
        if skip:  # the operand of `-u NAME`, `-C DIR`
            skip = False
            continue
        if value is None or value.startswith("-"):
            skip = value in ("--unset", "--chdir") or (
                value is not None and value[1:2] != "-" and value[-1:] in ("u", "C")
            )
            continue
        name, eq, rest = value.partition("=")
        if not eq:
            break
        if hazardous_variable(name):
            finding.runs(f"sets {name}, which makes a program run code ({VARIABLES.get(name, '')})",
                         variable_payload(name, rest))  # fmt: skip
        elif name in SEARCH_PATH_VARIABLES and search_path_hazard(rest, "", _nowhere):
            # Not knowing the project here, only absolute entries (and $PATH) pass.
            finding.runs(f"sets {name} to a directory the agent may fill, so the command's name "
                         "may run a file there")  # fmt: skip


def _runs_rest(why: str) -> Checker:
    """A program that runs a command (or a shell) given after its own arguments."""

    def check(finding: Finding, words: Sequence[Word], values: Values) -> None:
        start = 2 if basename(values[0] or "") == "setarch" else 1
        rest = [v for v in values[start:] if v is None or not v.startswith("-")]
        finding.runs(why, literal_line(rest) if rest else None)

    return check


_STDIN_SCRIPTS = ("/dev/stdin", "/dev/fd/", "/proc/", "-")


def _shell(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """bash(1) INVOCATION: a script operand that is standard input, a descriptor or a process
    substitution is a script clearance cannot read."""
    name = basename(values[0] or "")
    at = script_operand(name, values)
    if at is None:
        return  # `-c`, `-s`: the opaque and stdin wrappers handle these
    if options_unsure(name, values):
        finding.runs(f"passes {name} options whose reading clearance does not check, so which "
                     "word is the script it runs is not known")  # fmt: skip
        return
    word, value = words[at], values[at]
    if value is None:
        if word.raw.startswith(("<(", ">(")):
            finding.runs("runs a script from a process substitution")
        else:
            finding.runs("runs a script whose name is computed")
        return
    if value == "-" or value.startswith(_STDIN_SCRIPTS[:3]):
        finding.runs(f"runs its script from {value}, which clearance cannot read")


def _curl(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """curl(1) -o/--output, -D, -c, --trace, --stderr, --libcurl write; -d @f, -F x=@f, -T, -K,
    -b f, file:// read; gtfobins: curl."""
    writes: tuple[str, ...] = (
        "--output",
        "--dump-header",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
    )
    writes += ("--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc")
    data: tuple[str, ...] = (
        "--data",
        "--data-binary",
        "--data-urlencode",
        "--data-ascii",
        "--json",
        "--form",
    )
    data += ("--form-string", "--variable")
    reads = ("--upload-file", "--config", "--netrc-file", "--cookie", "--etag-compare")
    for option, arg in option_values(values, "oDcdFTKb", writes + data + reads):
        if option == "?":
            continue
        if option in ("-o", "-D", "-c") or option in writes:
            if arg != "-":
                finding.write(f"curl {option}", arg)
        elif option in ("-d", "-F") or option in data:
            if arg is None:
                continue
            at = arg.find("@") if option not in ("-F", "--form") else -1
            if option in ("-F", "--form"):
                _, _, field = arg.partition("=")
                if field[:1] in "@<":
                    finding.read(f"curl {option}", field[1:].split(";")[0])
            elif at == 0:
                finding.read(f"curl {option}", arg[1:])
        elif option in ("-K", "--config"):
            finding.runs("passes -K, a curl configuration file that may write or read files")
            if arg and arg != "-":
                finding.reads.append(arg)
        elif option in ("-b", "--cookie"):
            if arg and "=" not in arg:
                finding.reads.append(arg)
        elif arg and arg != "-":
            finding.read(f"curl {option}", arg)
    for value in values[1:]:
        if value is not None and value.lower().startswith("file://"):
            finding.read("a file:// URL", value[7:])


def _dd(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """dd(1) if=, of=; gtfobins: dd."""
    for value in values[1:]:
        if value is None:
            continue
        if value.startswith("if="):
            finding.read("if=", value[3:])
        elif value.startswith("of="):
            finding.write("of=", value[3:])


def _sort(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """sort(1) --compress-program: runs a program on its temporary files; --files0-from: reads
    the files a list names (``find . -print0 | sort --files0-from=-`` reads ``.env``)."""
    for option, arg in option_values(values, "", ("--compress-program", "--files0-from")):
        if option == "--compress-program":
            finding.runs("passes --compress-program, which runs a command", arg)
        elif option == "--files0-from":
            finding.listed.append("(the files sort --files0-from reads from its list)")
            if arg and arg != "-":
                finding.reads.append(arg)


def _compressor(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """gzip(1) -S/--suffix: the name beside each file it compresses is the file's with the
    suffix; with -r (each file beneath a directory), or an operand that is a pattern or
    computed, those names are not listed (`gzip -rS .json .claude` makes settings.local.json)."""
    suffix = recursive = False
    for value in values[1:]:
        if value is None or value[:1] != "-" or value == "-":
            continue
        if value == "--":
            break
        if value[:2] == "--":
            name = value[2:].partition("=")[0]
            suffix = suffix or (len(name) > 1 and "suffix".startswith(name))
            recursive = recursive or (len(name) > 2 and "recursive".startswith(name))
            continue
        before, s, _ = value[1:].partition("S")
        suffix = suffix or bool(s)
        recursive = recursive or "r" in before
    if suffix and (recursive or any(w.glob or w.value is None for w in words[1:])):
        finding.floor = (UNLISTED_NAMES, "makes names with the suffix it is given beside files "
                                         "it finds or a pattern names, which clearance does "
                                         "not list")  # fmt: skip


def _date(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """date(1) -f/--file: each line of the file is a date to print, and a line that is not one
    is printed in the error (``date -f ~/.aws/credentials`` shows the key)."""
    longs = ("--date", "--file", "--reference", "--set")
    for option, arg in option_values(values, "dfrs", longs):
        if option in ("-f", "--file", "?") and arg != "-":
            finding.read("-f (a file of dates, each line printed)", arg)


def _response_file(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """binutils(1), gcc(1) ``@file``: the file's words are read as more arguments, so the file
    is read (``strings @../.ssh/id_rsa`` prints each word of the key in an error) and the
    files it names are read too, names the line does not show."""
    for word, value in zip(words[1:], values[1:], strict=False):
        if value is None:
            if word.raw.lstrip("\"'")[:1] == "@":
                finding.read("a computed @file (arguments read from a file)", None)
        elif value[:1] == "@" and len(value) > 1:
            finding.read("@file (arguments read from a file)", value[1:])
            finding.listed.append("(the files a @file names)")


# sqlite3(1) dot-commands that write, read or open a file by name, load code or run a
# program (the CLI takes a dot-command by a prefix of its name: `.sh` is `.shell`), and the SQL
# that does (the CLI builds in `writefile()`, `readfile()`, `edit()`, `.ar` archives).
_SQLITE_DOTS = (
    ".once", ".output", ".shell", ".system", ".save", ".backup", ".clone", ".load", ".read",
    ".open", ".log", ".trace", ".excel", ".import", ".cd", ".ar", ".archive", ".restore",
    ".recover", ".dbinfo", ".sha3sum", ".www",
)  # fmt: skip
_SQLITE_SQL = ("writefile", "readfile", "edit(", "attach", "vacuum", "load_extension", "zipfile")


def _sqlite3(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """sqlite3(1): its commands are the arguments after the database (and ``-cmd``'s), else
    standard input, which the unit does not show. A dot-command or SQL that writes, reads or
    opens a file by name, loads code or runs a program (``.once F``, ``.shell``,
    ``writefile()``, ``ATTACH``, ``VACUUM INTO``), an init script, archive mode (``-A``) or
    commands from standard input: the unit asks."""
    operands: list[str | None] = []
    commands: list[str | None] = []
    i = 1
    while i < len(values):
        value = values[i]
        i += 1
        if value is not None and value[:1] == "-" and value not in ("-", "--"):
            option = value.lstrip("-").partition("=")[0]
            if option in ("cmd",):
                commands.append(value.partition("=")[2] if "=" in value else
                                (values[i] if i < len(values) else None))  # fmt: skip
                i += 0 if "=" in value else 1
            elif option in ("init", "A", "archive", "deserialize", "zip", "safe"):
                if option != "safe":
                    finding.runs(f"passes -{option} to sqlite3, which reads or writes files")
                    return
            elif option in ("separator", "newline", "nullvalue", "vfs", "maxsize", "mmap",
                            "lookaside", "pagecache", "heap", "escape"):  # fmt: skip
                i += 1
            continue
        operands.append(value)
    commands += operands[1:]
    if not commands:
        finding.runs("runs sqlite3 on commands from standard input, which clearance does not read")
        return
    for command in commands:
        if command is None:
            finding.runs("passes sqlite3 a computed command")
            return
        folded = command.lower()
        dots = [row.split(None, 1)[0] for row in folded.splitlines() if row.strip()[:1] == "."]
        if any(
            word != "."
            and any(d.startswith(word.strip()) or word.strip().startswith(d) for d in _SQLITE_DOTS)
            for word in dots
        ) or any(marker in folded for marker in _SQLITE_SQL):
            finding.runs("passes sqlite3 a command that writes, reads or opens a file, loads code "
                         "or runs a program")  # fmt: skip
            return


def _ed(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """ed(1) ``!command`` (its script is standard input, which the unit does not show);
    gtfobins: ed. ``red`` is restricted and runs nothing."""
    finding.runs("runs ed, whose commands (read from standard input) may run a program with !")


def _less(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """less(1) ``+cmd``/``--cmd``: commands run at start, where ``!cmd`` and ``|`` run a program
    and ``s`` saves to a file; gtfobins: less, more."""
    for value in values[1:]:
        if value is None:
            continue
        command = value[1:] if value[:1] == "+" else value[6:] if value[:6] == "--cmd=" else None
        if command is None:
            continue
        if command.lstrip("+0123456789") not in ("", "G", "g", "F") and command[:1] != "/":
            finding.runs(f"passes {value[:12]}, a command less runs at start (!cmd runs a program)")
            return


# apt.conf(5) items an `-o` may set that name no command apt runs, read in lower case (the
# others: DPkg::Pre-Invoke, APT::Update::Post-Invoke, DPkg::Pre-Install-Pkgs, Dir::Bin::dpkg,
# Acquire::http::Proxy-Auto-Detect… run what they name). Dpkg::Options passes options to dpkg,
# whose --pre-invoke runs a command: only the --force-conf* answers are let through.
_APT_QUIET = (
    "apt::get::", "apt::install-recommends", "apt::install-suggests", "apt::color",
    "acquire::retries", "acquire::languages", "acquire::check-valid-until", "dpkg::use-pty",
    "debug::", "quiet",
)  # fmt: skip


def _apt(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """apt(8), apt-get(8), apt-cache(8) -o/--option, -c/--config-file; apt.conf(5): an item
    may name a command apt runs (``-o APT::Update::Pre-Invoke::=CMD``)."""
    for option, arg in option_values(values, "oc", ("--option", "--config-file")):
        if option in ("-c", "--config-file"):
            finding.runs(f"passes {option}, a configuration file whose items may run commands")
            continue
        if option == "?":
            continue
        key, _, value = (arg or "").partition("=")
        folded = key.lower()
        if arg is not None and (
            folded.startswith(_APT_QUIET)
            or (folded.startswith("dpkg::options") and value.startswith("--force-conf"))
        ):
            continue
        finding.runs(f"passes {option} {key[:40]}, an item that may name a command apt runs",
                     value if "invoke" in folded or "pkgs" in folded else None)  # fmt: skip


def _dpkg(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """dpkg(1) --pre-invoke, --post-invoke, --status-logger: commands run through sh -c."""
    longs = ("--pre-invoke", "--post-invoke", "--status-logger")
    for option, arg in option_values(values, "", longs):
        if option != "?":
            finding.runs(f"passes {option}, which runs a command", arg)


def _install(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """install(1) --strip-program: runs a program on each file installed (with -s)."""
    for option, arg in option_values(values, "", ("--strip-program",)):
        if option != "?":
            finding.runs("passes --strip-program, which runs a program", arg)


def _backup(longs: tuple[str, ...], shorts: str = "") -> Checker:
    """restic(1) --password-command and -o sftp.command / rclone.program; rclone(1)
    --password-command, --sftp-ssh; borg(1) --rsh, --remote-path: each runs a command."""

    def check(finding: Finding, words: Sequence[Word], values: Values) -> None:
        for option, arg in option_values(values, shorts, longs):
            if option == "?":
                continue
            if option in ("-o", "--option"):
                key, _, value = (arg or "").partition("=")
                if arg is not None and not key.strip().lower().endswith(
                    (".command", ".program", ".args")
                ):
                    continue
                finding.runs(f"passes {option} {key[:40]}, which runs a command", value or None)
            else:
                finding.runs(f"passes {option}, which runs a command", arg)

    return check


_PSQL_RUNS = (
    "\\!", "\\o |", "\\o|", "\\g |", "\\g|", "\\gx |", "\\gx|", "\\w |", "\\w|", "\\setenv",
)  # fmt: skip
# `COPY … FROM PROGRAM 'cmd'` / `TO PROGRAM`, spelled with any blanks or comments between
# (re is imported for the few statements read: a check's import path stays lean).
_SQL_PROGRAM = r"\b(?:from|to)\s+program\b"
_SQL_COMMENT = r"/\*.*?\*/|--[^\n]*"


# mysql(1) --pager runs a command; --plugin-dir and --default-auth load a library (gtfobins).
_MYSQL = ("--execute", "--pager", "--plugin-dir", "--default-auth")


def _borg(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """borg(1) --rsh, --remote-path; ``borg with-lock REPO CMD``, ``create
    --content-from-command``/``--paths-from-command`` and ``--tar-filter`` run a command."""
    _borg_options(finding, words, values)
    rest = [v for v in values[1:] if v is None or v[:1] != "-"]
    if rest and rest[0] == "with-lock":
        finding.runs("runs a command with the repository locked (borg with-lock)")
    for value in values[1:]:
        if value is not None and value.startswith(
            ("--content-from-command", "--paths-from-command", "--tar-filter")
        ):
            finding.runs(f"passes {value.partition('=')[0]}, which runs a command")


def _sql_client(
    options: tuple[str, ...], shorts: str, anywhere: tuple[str, ...], starts: tuple[str, ...]
) -> Checker:
    """psql(1) -c with ``\\!``, ``\\o |``, ``\\g |``, ``\\setenv``, ``COPY … FROM
    PROGRAM``; mysql(1) -e with a ``system`` or ``\\!`` statement, and --pager: a command the
    client (or the server) runs. A statement read from a file or the input is the database's,
    as a script's is."""

    def check(finding: Finding, words: Sequence[Word], values: Values) -> None:
        for option, arg in option_values(values, shorts, options):
            if option == "?":
                continue
            if option in ("--plugin-dir", "--default-auth"):
                finding.runs(f"passes {option}, which loads a library")
                continue
            if option == "--pager":
                finding.runs("passes --pager, which runs a command", arg)
                continue
            if option in ("-o", "--output"):  # psql: `|cmd` pipes the output to a command
                if arg is None or arg.lstrip()[:1] == "|":
                    finding.runs(f"passes {option}, a command the output is piped to",
                                 arg.lstrip()[1:] if arg else None)  # fmt: skip
                continue
            import re

            lowered = (arg or "").lower()
            folded = " ".join(re.sub(_SQL_COMMENT, " ", lowered, flags=re.DOTALL).split())
            if (
                arg is None
                or any(marker in folded for marker in anywhere)
                or re.search(_SQL_PROGRAM, folded) is not None
                or any(
                    part.lstrip().startswith(starts)
                    for part in lowered.replace("\n", ";").split(";")
                )
            ):
                finding.runs(f"passes {option} a statement that runs a command")

    return check


_borg_options = _backup(("--rsh", "--remote-path"))

PROGRAMS: dict[str, Checker] = {
    "tar": _tar,
    "gtar": _tar,
    "bsdtar": _tar,
    "zip": _zip,
    "rsync": _rsync,
    "split": _split,
    "man": _man,
    **dict.fromkeys(VIM_NAMES, _vim),
    "ssh": _ssh,
    "scp": _ssh,
    "sftp": _ssh,
    "make": _make,
    "gmake": _make,
    "find": _find,
    "env": _env,
    "setarch": _runs_rest("runs a command (or a shell) under setarch"),
    "linux32": _runs_rest("runs a command (or a shell) under linux32"),
    "linux64": _runs_rest("runs a command (or a shell) under linux64"),
    "i386": _runs_rest("runs a command (or a shell) under setarch"),
    "x86_64": _runs_rest("runs a command (or a shell) under setarch"),
    "newgrp": _runs_rest("starts a shell (newgrp)"),
    "curl": _curl,
    "dd": _dd,
    "sort": _sort,
    "date": _date,
    "ed": _ed,
    "sqlite3": _sqlite3,
    "less": _less,
    "more": _less,
    "setpriv": _runs_rest("runs a command under setpriv"),
    "dbus-run-session": _runs_rest("runs a command under dbus-run-session"),
    "faketime": _runs_rest("runs a command under faketime"),
    "run-parts": _runs_rest("runs every program in a directory (run-parts)"),
    "apt": _apt,
    "apt-get": _apt,
    "apt-cache": _apt,
    "dpkg": _dpkg,
    "install": _install,
    "restic": _backup(
        ("--password-command", "--from-password-command", "--password-command2", "--option"), "o"
    ),
    "rclone": _backup(("--password-command", "--sftp-ssh", "--webdav-bearer-token-command")),
    "borg": _borg,
    "psql": _sql_client(("--command", "--output"), "co", _PSQL_RUNS, ()),
    "mysql": _sql_client(_MYSQL, "e", ("\\!",), ("system ",)),
    "mariadb": _sql_client(_MYSQL, "e", ("\\!",), ("system ",)),
}
for _name in ("bash", "sh", "dash", "zsh", "ksh", "rbash", "mksh", "ksh93", "yash", "posh"):
    PROGRAMS[_name] = _shell
for _name in COMPRESSORS:
    PROGRAMS[_name] = _compressor
# Programs that read @file response files (libiberty's expandargv).
_RESPONSE_FILE_PROGRAMS = ("strings", "objdump", "nm", "readelf", "size", "c++filt", "addr2line")
for _name in _RESPONSE_FILE_PROGRAMS:
    PROGRAMS[_name] = _response_file
