"""Programs that run programs: the knowledge base of code-running options and variables.

Some options and environment variables make an otherwise harmless program run a command, read
a file or write one (``git -c core.pager=CMD log``, ``rg --pre CMD``, ``sed 's/x/y/e'``,
``tar --to-command=CMD``, ``LD_PRELOAD=x ls``). This module is the one home of that knowledge:
:data:`PROGRAMS` maps a command basename to its checker, :data:`VARIABLES` lists the variables,
and every entry cites its source (the program's manual page, or GTFOBins, the public catalogue
of such tricks, https://gtfobins.github.io/).

:func:`inspect` reads one unit's words and returns a :class:`Finding`:

* ``floor`` — the unit asks (:data:`~clearance.intent.sentinel.CODE_RUNNING`), with a
  sentence naming the option and what it does;
* ``payloads`` — literal inner command lines, each parsed into units of its own so a deny
  written for them fires (``git -c core.pager='rm -rf /' log`` is denied by ``rm *``);
* ``writes`` / ``reads`` / ``paths`` — literal files the option writes, reads or names, which
  become path tokens (``sed 'w out' f`` writes ``out``; ``git -C DIR`` names ``DIR``);
* ``folded`` — for git, the unit with its global options removed (``git -C r push`` →
  ``git push``), matched by the gate as the unit's canonical form.

The lookup is one dict hit on the basename; only a program in the table pays for more.
"""

from __future__ import annotations

from clearance.intent.sentinel import CODE_RUNNING
from clearance.intent.shell.layer import basename
from clearance.policy.programs import GIT_GLOBAL_FLAGS, GIT_GLOBAL_VALUED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.word import Word

    Values = Sequence[str | None]
    Checker = Callable[["Finding", Sequence[Word], Values], None]

__all__ = [
    "COMMAND_VARIABLES",
    "PROGRAMS",
    "SOURCES",
    "VARIABLES",
    "Finding",
    "hazardous_variable",
    "inspect",
    "variable_payload",
]


class Finding:
    """What the knowledge base found in one unit (see the module docstring)."""

    __slots__ = ("floor", "folded", "paths", "payloads", "reads", "tree_reads", "writes")

    def __init__(self) -> None:
        self.floor: Floor | None = None
        self.payloads: list[str] = []
        self.writes: list[str] = []
        self.reads: list[str] = []
        self.tree_reads: list[str] = []  # relative to the top of the work tree (`HEAD:path`)
        self.paths: list[str] = []
        self.folded: str | None = None

    def runs(self, why: str, payload: str | None = None) -> None:
        """The option runs a command: floor the unit; a literal command is a payload too."""
        if self.floor is None:
            self.floor = (CODE_RUNNING, why)
        if payload:
            self.payloads.append(payload)

    def write(self, what: str, value: str | None) -> None:
        """The option writes the file ``value`` (a path token when literal, else a floor)."""
        if value:
            self.writes.append(value)
        else:
            self.runs(f"passes {what}, which writes a file clearance cannot name")

    def read(self, what: str, value: str | None) -> None:
        if value:
            self.reads.append(value)
        else:
            self.runs(f"passes {what}, which reads a file clearance cannot name")

    def __bool__(self) -> bool:
        return bool(
            self.floor
            or self.payloads
            or self.writes
            or self.reads
            or self.tree_reads
            or self.paths
            or self.folded
        )


# -- environment variables ------------------------------------------------------------------

# Variables that make a program load or run code, whatever the program (ld.so(8), bash(1)
# INVOCATION and Shell Variables, git(1) ENVIRONMENT, less(1) INPUT PREPROCESSOR, man(1)
# ENVIRONMENT, node(1), python(1), perlrun(1), ruby(1), tar(1) TAR_OPTIONS, rsync(1),
# make(1) MAKEFLAGS; gtfobins: env, git, less, man).
VARIABLES: dict[str, str] = {
    "LD_PRELOAD": "ld.so(8)",
    "LD_LIBRARY_PATH": "ld.so(8)",
    "LD_AUDIT": "ld.so(8)",
    "BASH_ENV": "bash(1) INVOCATION",
    "ENV": "bash(1) INVOCATION, sh(1)",
    "SHELLOPTS": "bash(1) Shell Variables",
    "BASHOPTS": "bash(1) Shell Variables",
    "PROMPT_COMMAND": "bash(1) Shell Variables",
    # PS4 is not here: bash runs it only under `set -x`, and reeval.py reads its value.
    "PAGER": "git-var(1), man(1); gtfobins: git, man",
    "MANPAGER": "man(1) ENVIRONMENT",
    "MANOPT": "man(1) ENVIRONMENT",
    "BROWSER": "man(1) --html",
    "EDITOR": "git-var(1), crontab(1)",
    "VISUAL": "git-var(1), crontab(1)",
    "LESSOPEN": "less(1) INPUT PREPROCESSOR; gtfobins: less",
    "LESSCLOSE": "less(1) INPUT PREPROCESSOR",
    "LESS": "less(1) OPTIONS (+cmd)",
    "LESSKEYIN": "lesskey(1)",
    "NODE_OPTIONS": "node(1) ENVIRONMENT (--require)",
    "PYTHONSTARTUP": "python(1) ENVIRONMENT",
    "PYTHONPATH": "python(1) ENVIRONMENT",
    "PYTHONHOME": "python(1) ENVIRONMENT",
    "PYTHONINSPECT": "python(1) ENVIRONMENT",
    "PERL5OPT": "perlrun(1) ENVIRONMENT",
    "PERL5LIB": "perlrun(1) ENVIRONMENT",
    "PERLLIB": "perlrun(1) ENVIRONMENT",
    "PERL5DB": "perlrun(1) ENVIRONMENT",
    "RUBYOPT": "ruby(1) ENVIRONMENT",
    "RUBYLIB": "ruby(1) ENVIRONMENT",
    "GIT_PAGER": "git(1) ENVIRONMENT",
    "GIT_EDITOR": "git(1) ENVIRONMENT",
    "GIT_SEQUENCE_EDITOR": "git(1) ENVIRONMENT",
    "GIT_EXTERNAL_DIFF": "git(1) ENVIRONMENT",
    "GIT_SSH": "git(1) ENVIRONMENT",
    "GIT_SSH_COMMAND": "git(1) ENVIRONMENT",
    "GIT_ASKPASS": "git(1) ENVIRONMENT",
    "SSH_ASKPASS": "ssh(1) ENVIRONMENT",
    "GIT_PROXY_COMMAND": "git-config(1) core.gitProxy",
    "GIT_EXEC_PATH": "git(1) ENVIRONMENT",
    "GIT_TEMPLATE_DIR": "git-init(1) TEMPLATE DIRECTORY (hooks)",
    "GIT_CONFIG": "git-config(1) ENVIRONMENT",
    "GIT_CONFIG_GLOBAL": "git-config(1) ENVIRONMENT",
    "GIT_CONFIG_SYSTEM": "git-config(1) ENVIRONMENT",
    "GIT_CONFIG_PARAMETERS": "git(1) (how git passes -c to its children)",
    "GIT_CONFIG_COUNT": "git-config(1) ENVIRONMENT",
    "GIT_DIR": "git(1) ENVIRONMENT (the repository's config and hooks)",
    "TAR_OPTIONS": "tar(1) ENVIRONMENT",
    "RSYNC_RSH": "rsync(1) ENVIRONMENT",
    "RSYNC_CONNECT_PROG": "rsync(1) ENVIRONMENT",
    "MAKEFLAGS": "make(1) (--eval)",
    "ZIPOPT": "zip(1) ENVIRONMENT",
    "CURL_HOME": "curl(1) (.curlrc)",
    "XDG_CONFIG_HOME": "git-config(1) FILES",
}
_VARIABLE_PREFIXES = ("LD_", "DYLD_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")

# Variables whose value is a command line (its literal value is parsed as a payload).
COMMAND_VARIABLES = frozenset(
    {
        "PAGER",
        "MANPAGER",
        "EDITOR",
        "VISUAL",
        "PROMPT_COMMAND",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_EXTERNAL_DIFF",
        "GIT_SSH",
        "GIT_SSH_COMMAND",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "GIT_PROXY_COMMAND",
        "LESSOPEN",
        "LESSCLOSE",
        "RSYNC_RSH",
        "RSYNC_CONNECT_PROG",
        "BROWSER",
    }
)


def hazardous_variable(name: str) -> bool:
    return name in VARIABLES or name.startswith(_VARIABLE_PREFIXES)


def variable_payload(name: str, value: str | None) -> str | None:
    """The command line a literal value of a command-valued variable runs, if any."""
    if name not in COMMAND_VARIABLES or not value:
        return None
    if name.startswith("LESS"):
        value = value.lstrip("|-")  # `|cmd %s`, `||cmd %s`, `-cmd`
    return value.strip() or None


# -- helpers ----------------------------------------------------------------------------------


def _option_values(
    values: Values, shorts: str, longs: Sequence[str], *, stop: bool = True
) -> list[tuple[str, str | None]]:
    """``(option, value)`` for each use of a value-taking option: ``-Xv``, ``-X v``, ``--long=v``,
    ``--long v``, and unambiguous-looking abbreviations of ``longs`` (at least ``--`` and four
    letters). ``value`` is ``None`` when computed or missing. ``stop``: ``--`` ends options.
    A computed word among the options is reported as ``("?", None)``."""
    out: list[tuple[str, str | None]] = []
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        nxt = values[i + 1] if i + 1 < count else None
        i += 1
        if value is None:
            out.append(("?", None))
            continue
        if value == "--" and stop:
            break
        if value.startswith("--"):
            name, eq, rest = value.partition("=")
            for long in longs:
                if name == long or (len(name) >= 6 and long.startswith(name)):
                    if eq:
                        out.append((long, rest))
                    else:
                        out.append((long, nxt))
                        i += 1
                    break
            continue
        if value.startswith("-") and len(value) > 1 and shorts:
            for j, letter in enumerate(value[1:], 1):
                if letter in shorts:
                    rest = value[j + 1 :]
                    if rest:
                        out.append(("-" + letter, rest))
                    else:
                        out.append(("-" + letter, nxt))
                        i += 1
                    break
    return out


def _literal_line(values: Values) -> str | None:
    if not values or any(v is None for v in values):
        return None
    return " ".join(values)  # type: ignore[arg-type]


# -- git --------------------------------------------------------------------------------------

# git(1) OPTIONS: global options and whether they take a value (the option table's).
_GIT_VALUED = GIT_GLOBAL_VALUED
_GIT_FLAGS = GIT_GLOBAL_FLAGS
_GIT_PATHS = frozenset({"-C", "--git-dir", "--work-tree"})
# git-config(1): keys whose value is a command git runs (or a file of such keys / hooks).
_GIT_CODE_KEYS = frozenset(
    {
        "core.pager",
        "core.sshcommand",
        "core.fsmonitor",
        "core.editor",
        "core.hookspath",
        "core.askpass",
        "core.gitproxy",
        "core.alternaterefscommand",
        "core.worktree",
        "core.attributesfile",
        "core.excludesfile",
        "sequence.editor",
        "diff.external",
        "credential.helper",
        "gpg.program",
        "uploadpack.packobjectshook",
        "include.path",
        "init.templatedir",
        "protocol.allow",
        "protocol.ext.allow",
        "web.browser",
        "instaweb.httpd",
        "sendemail.sendmailcmd",
        "sendemail.smtpserver",
        "receive.procreceiverefs",
    }
)
_GIT_CODE_SUFFIXES = (
    ".textconv",
    ".command",
    ".cmd",
    ".driver",
    ".helper",
    ".program",
    ".uploadpack",
    ".receivepack",
    ".path",
    ".proxy",
    ".clean",
    ".smudge",
    ".process",
)
_GIT_CODE_PREFIXES = ("alias.", "filter.", "pager.", "includeif.", "url.", "hook.", "remote.")
# Keys known to change only how git formats, names or configures (git-config(1)).
_GIT_SAFE_PREFIXES = (
    "user.",
    "author.",
    "committer.",
    "color.",
    "advice.",
    "log.",
    "format.",
    "status.",
    "i18n.",
    "column.",
    "branch.sort",
    "tag.sort",
    "init.defaultbranch",
    "core.quotepath",
    "core.autocrlf",
    "core.safecrlf",
    "core.filemode",
    "core.ignorecase",
    "core.longpaths",
    "core.abbrev",
    "pull.rebase",
    "pull.ff",
    "push.default",
    "push.autosetupremote",
    "merge.ff",
    "merge.conflictstyle",
    "rebase.autosquash",
    "rebase.autostash",
    "commit.gpgsign",
    "tag.gpgsign",
    "diff.noprefix",
    "diff.renames",
    "diff.algorithm",
    "diff.colormoved",
    "safe.directory",
    "gc.auto",
    "maintenance.auto",
    "fetch.prune",
    "versionsort.",
    "blame.",
    "grep.linenumber",
    "help.autocorrect",
)
# git(1) built-in commands (git help -a): an alias can never shadow one of these.
GIT_BUILTINS = frozenset(
    [
        "add",
        "am",
        "annotate",
        "apply",
        "archive",
        "bisect",
        "blame",
        "branch",
        "bundle",
        "cat-file",
        "check-attr",
        "check-ignore",
        "check-mailmap",
        "check-ref-format",
        "checkout",
        "checkout-index",
        "cherry",
        "cherry-pick",
        "citool",
        "clean",
        "clone",
        "column",
        "commit",
        "commit-graph",
        "commit-tree",
        "config",
        "count-objects",
        "credential",
        "describe",
        "diff",
        "diff-files",
        "diff-index",
        "diff-tree",
        "difftool",
        "fast-export",
        "fast-import",
        "fetch",
        "fetch-pack",
        "filter-branch",
        "for-each-ref",
        "for-each-repo",
        "format-patch",
        "fsck",
        "gc",
        "get-tar-commit-id",
        "gitk",
        "grep",
        "gui",
        "hash-object",
        "help",
        "hook",
        "index-pack",
        "init",
        "instaweb",
        "interpret-trailers",
        "log",
        "ls-files",
        "ls-remote",
        "ls-tree",
        "mailinfo",
        "mailsplit",
        "maintenance",
        "merge",
        "merge-base",
        "merge-file",
        "merge-index",
        "merge-tree",
        "mergetool",
        "mktag",
        "mktree",
        "multi-pack-index",
        "mv",
        "notes",
        "pack-objects",
        "pack-refs",
        "prune",
        "prune-packed",
        "pull",
        "push",
        "range-diff",
        "read-tree",
        "rebase",
        "reflog",
        "remote",
        "repack",
        "replace",
        "request-pull",
        "rerere",
        "reset",
        "restore",
        "rev-list",
        "rev-parse",
        "revert",
        "rm",
        "send-email",
        "shortlog",
        "show",
        "show-branch",
        "show-ref",
        "sparse-checkout",
        "stash",
        "status",
        "stripspace",
        "submodule",
        "switch",
        "symbolic-ref",
        "tag",
        "unpack-file",
        "unpack-objects",
        "update-index",
        "update-ref",
        "verify-commit",
        "verify-pack",
        "verify-tag",
        "version",
        "whatchanged",
        "worktree",
        "write-tree",
        "var",
    ]
)


def _git_key(finding: Finding, option: str, setting: str | None, literal_value: bool) -> None:
    """One ``-c key=value`` (or ``--config-env key=VAR``) setting."""
    if setting is None:
        finding.runs(f"passes {option} with a computed setting, which may run a command")
        return
    key, _, value = setting.partition("=")
    key = key.lower()
    code = (
        key in _GIT_CODE_KEYS
        or key.endswith(_GIT_CODE_SUFFIXES)
        or key.startswith(_GIT_CODE_PREFIXES)
    )
    if code:
        payload = None
        if literal_value and value:
            payload = value[1:] if value.startswith("!") else value
            if key.startswith("alias.") and not value.startswith("!"):
                payload = None  # a git subcommand, not a shell command
            if key in ("core.hookspath", "include.path", "core.worktree", "init.templatedir"):
                payload = None  # a path, not a command
        finding.runs(f"passes {option} {key}, which makes git run a command", payload)
    elif not key.startswith(_GIT_SAFE_PREFIXES):
        finding.runs(f"passes {option} {key}, a git setting clearance does not know to be inert")


# Global options that put git in another work tree or repository.
_GIT_ELSEWHERE = frozenset({"-C", "--git-dir", "--work-tree"})
# git subcommands that print a file named `REV:path` or `:path` (the index).
_GIT_OBJECT_READERS = frozenset({"show", "cat-file", "diff", "archive", "grep", "difftool"})


def _git(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """git(1) OPTIONS and git-config(1); gtfobins: git."""
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        if value is None:
            finding.runs("passes a computed global option to git, which may run a command")
            return
        if not value.startswith("-"):
            break
        name, eq, rest = value.partition("=")
        if name == "--exec-path":
            if eq:
                finding.runs("passes --exec-path, which makes git run its commands from there")
            i += 1
            continue
        if (name in _GIT_VALUED and name not in ("-C", "-c")) or value in ("-C", "-c"):
            if eq:
                arg: str | None = rest
                i += 1
            else:
                arg = values[i + 1] if i + 1 < count else None
                i += 2
            if name == "-c":
                _git_key(finding, "-c", arg, True)
            elif name == "--config-env":
                _git_key(finding, "--config-env", arg, False)
            elif name in _GIT_PATHS:
                word = words[i - 1]
                if arg is None and not eq and word.segs is not None and word.raw[:2] == "~/":
                    finding.paths.append(word.raw)  # `-C ~/x`: the home is expanded later
                elif arg is None:
                    finding.runs(f"passes {name} with a computed directory")
                else:
                    finding.paths.append(arg)
            continue
        if value in _GIT_FLAGS:
            i += 1
            continue
        break  # --version, --help, an unknown option: git itself decides
    moved = any(v in _GIT_ELSEWHERE or (v or "").partition("=")[0] in _GIT_ELSEWHERE
                for v in values[1:i])  # fmt: skip
    # The command with its global options removed (a spelling the gate matches).
    if i > 1 and i < count:
        tail = [w.raw if v is None else v for w, v in zip(words[i:], values[i:], strict=True)]
        finding.folded = "git " + " ".join(tail)
    if i >= count:
        return
    sub = values[i]
    args = values[i:]
    if sub == "difftool":
        for option, arg in _option_values(args, "x", ("--extcmd",)):
            if option != "?":
                finding.runs(f"passes difftool {option}, which runs a command", arg)
    if sub in ("rebase",):
        for option, arg in _option_values(args, "x", ("--exec",)):
            if option != "?":
                finding.runs(f"passes rebase {option}, which runs a command", arg)
    if sub == "bisect" and len(args) > 1 and args[1] == "run":
        finding.runs("runs a command through git bisect run", _literal_line(args[2:]))
    if sub == "submodule" and "foreach" in args:
        finding.runs("runs a command through git submodule foreach")
    if sub in ("filter-branch", "filter-repo", "instaweb", "send-email", "gui", "citool"):
        finding.runs(f"runs git {sub}, which runs commands or programs it is given")
    if sub == "config":
        for arg in args[1:]:
            if arg is None or (not arg.startswith("-") and "." in arg):
                probe = Finding()
                _git_key(probe, "config", arg, False)
                if probe.floor is not None:
                    finding.runs("sets a git configuration key that makes git run a command")
                    break
    for arg in args[1:]:
        if arg is None:
            continue
        if arg == "--ext-diff":
            finding.runs("passes --ext-diff, which runs the configured external diff program")
        elif arg.startswith("--open-files-in-pager") or arg == "-O" or arg.startswith("-O"):
            if sub == "grep":
                finding.runs("passes grep -O, which runs a pager")
        elif arg.startswith("--upload-pack") or arg.startswith("--receive-pack"):
            finding.runs(f"passes {arg.partition('=')[0]}, which runs a command")
        elif arg in ("-u", "--exec") and sub in ("ls-remote", "fetch-pack", "clone", "archive"):
            finding.runs(f"passes {arg}, which names the command git runs remotely or locally")
        elif arg == "--template" or arg.startswith("--template="):
            finding.runs("passes --template, which installs hooks git then runs")
    for option, arg in _option_values(args, "", ("--output",)):
        if option == "--output":
            finding.write("--output", arg)
    if sub in _GIT_OBJECT_READERS:
        for arg in args[1:]:
            # `git show HEAD:.env`, `git cat-file -p :0:.env`: the file as a commit or the index
            # holds it, which is the file's content for a path rule (relative to the top of the
            # work tree; read here from the working directory, as `HEAD:./x` is).
            if arg and ":" in arg and not arg.startswith("-"):
                path = arg.rpartition(":")[2]
                if path and "://" not in arg:
                    # Under -C, --git-dir or --work-tree the path is in another work tree,
                    # whose top is not known here: the file cannot be named.
                    if moved:
                        finding.read(f"{sub} of a file in a commit", None)
                    else:
                        finding.tree_reads.append(path)
    if sub in ("format-patch", "archive"):
        for option, arg in _option_values(args, "o", ()):
            if option == "-o":
                finding.write(f"{sub} -o", arg)


# -- text tools -------------------------------------------------------------------------------


def _rg(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """rg(1) --pre; gtfobins: rg."""
    for option, arg in _option_values(values, "", ("--pre",)):
        if option == "--pre":
            finding.runs("passes --pre, which runs a command on every file searched", arg)


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
            if name in ("--expression", "--file") or (
                len(name) >= 5 and ("--expression".startswith(name) or "--file".startswith(name))
            ):
                arg = rest if eq else (values[i] if i < count else None)
                if not eq:
                    i += 1
                if name.startswith("--f"):
                    from_file = True
                else:
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


def _skip(script: str, i: int, delimiter: str) -> int:
    count = len(script)
    while i < count:
        ch = script[i]
        if ch == "\\":
            i += 2
            continue
        if ch == delimiter:
            return i + 1
        if ch == "\n":
            return -1
        i += 1
    return -1


def _sed_file(script: str, i: int) -> tuple[str, int]:
    """The file name after a ``w``/``r`` command or flag: the rest of the line."""
    end = script.find("\n", i)
    if end < 0:
        end = len(script)
    return script[i:end].strip(), end


def sed_script(finding: Finding, script: str) -> None:
    """GNU sed(1) COMMANDS: ``e`` and ``s///e`` run commands, ``w``/``W`` and ``s///w`` write
    files, ``r``/``R`` read them; gtfobins: sed. A script the scan cannot follow floors."""
    i = 0
    count = len(script)
    while i < count:
        ch = script[i]
        if ch in " \t\n;!,0123456789$~+{}":
            i += 1
            continue
        if ch == "/":
            i = _skip(script, i + 1, "/")
        elif ch == "\\" and i + 1 < count and script[i + 1] not in "\n\\":
            i = _skip(script, i + 2, script[i + 1])
        elif ch in "sy":
            if i + 1 >= count or script[i + 1] in "\n\\":
                i = -1
            else:
                delimiter = script[i + 1]
                i = _skip(script, i + 2, delimiter)
                if i >= 0:
                    i = _skip(script, i, delimiter)
                while 0 <= i < count and script[i] not in ";\n}":
                    flag = script[i]
                    if ch == "s" and flag == "e":
                        finding.runs("runs its pattern space as a command (sed s///e)")
                    if ch == "s" and flag in "wW":
                        name, i = _sed_file(script, i + 1)
                        finding.write("sed s///w", name)
                        break
                    i += 1
        elif ch == "e":
            line, i = _sed_file(script, i + 1)
            finding.runs("runs a command (sed e)", line or None)
        elif ch in "wW":
            name, i = _sed_file(script, i + 1)
            finding.write(f"sed {ch}", name)
        elif ch in "rR":
            name, i = _sed_file(script, i + 1)
            finding.read(f"sed {ch}", name)
        elif ch in "aic":  # text: the rest of the line (GNU one-liner form)
            _, i = _sed_file(script, i + 1)
        elif ch in "bt:T#lLqQ":
            while i < count and script[i] not in ";\n":
                i += 1
        elif ch in "pPnNdDgGhHxz=Fv":
            i += 1
        else:
            i = -1
        if i < 0:
            finding.runs("passes a sed script clearance cannot read, which may run a command")
            return


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


def _awk_tokens(program: str) -> list[tuple[str, str]]:
    """A rough lexer: ``("str", text)``, ``("re", text)``, ``("op", ch)``, ``("name", word)``."""
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
            j = _skip(program, i + 1, "/")
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
    ``getline < file``, gawk ``@`` directives; gtfobins: awk, gawk, mawk, nawk."""
    tokens = _awk_tokens(program)
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


# -- archivers and copiers --------------------------------------------------------------------


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
    for option, arg in _option_values(values, "IF", longs):
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
            finding.paths.append(current.rstrip("/") + "/" + value)


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
    for option, arg in _option_values(values, "e", ("--rsh", "--rsync-path")):
        if option != "?":
            finding.runs(f"passes {option}, which runs a command", arg)
    for option, arg in _option_values(values, "", ("--write-batch", "--only-write-batch")):
        if option != "?":
            finding.write(option, arg)


def _split(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """split(1) --filter; gtfobins: split."""
    for option, arg in _option_values(values, "", ("--filter",)):
        if option != "?":
            finding.runs("passes --filter, which runs a command on every piece", arg)


def _man(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """man(1) -P/--pager, -H/--html, --browser; gtfobins: man."""
    for option, arg in _option_values(values, "P", ("--pager",)):
        if option != "?":
            finding.runs(f"passes {option}, which runs a pager command", arg)
    for value in values[1:]:
        if value is not None and (value.startswith(("--html", "-H")) or value == "--browser"):
            finding.runs("passes -H (--html), which runs a browser command")


def _vim(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """vim(1) -c, +cmd, --cmd, -S, -u; gtfobins: vim."""
    for value in values[1:]:
        if value is None:
            continue
        if value in ("-c", "--cmd", "-S", "-u", "-U", "-s", "-w", "-W") or value.startswith("+"):
            finding.runs(f"passes {value[:5]}, which runs editor commands (:!cmd runs a program)")
            return


def _ssh(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """ssh(1) -o ProxyCommand/LocalCommand/PermitLocalCommand/KnownHostsCommand, -F;
    ssh_config(5); gtfobins: ssh."""
    for option, arg in _option_values(values, "oFS", ()):
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
    for option, _arg in _option_values(values, "Ef", ("--eval", "--file", "--makefile")):
        if option != "?":
            finding.runs(f"passes {option}, which makes make run recipes it is given")
    for value in values[1:]:
        if value is not None and value.startswith(("SHELL=", "MAKESHELL=", ".SHELLFLAGS=")):
            finding.runs(f"sets {value.partition('=')[0]}, which names the shell make runs")


def _find(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """find(1) -delete, -fprint/-fprint0/-fprintf/-fls (writes); gtfobins: find."""
    count = len(values)
    for i, value in enumerate(values[1:], 1):
        if value in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            finding.write(value, values[i + 1] if i + 1 < count else None)
        elif value == "-delete":
            finding.runs("passes -delete, which deletes every file it finds")


def _env(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """env(1) -S/--split-string; gtfobins: env."""
    for option, arg in _option_values(values, "S", ("--split-string",)):
        if option != "?":
            finding.runs(f"passes {option}, which runs the command of a split string", arg)
    for value in values[1:]:
        if value is None or value.startswith("-"):
            continue
        name, eq, rest = value.partition("=")
        if not eq:
            break
        if hazardous_variable(name):
            finding.runs(f"sets {name}, which makes a program run code ({VARIABLES.get(name, '')})",
                         variable_payload(name, rest))  # fmt: skip


def _runs_rest(why: str) -> Checker:
    """A program that runs a command (or a shell) given after its own arguments."""

    def check(finding: Finding, words: Sequence[Word], values: Values) -> None:
        start = 2 if basename(values[0] or "") == "setarch" else 1
        rest = [v for v in values[start:] if v is None or not v.startswith("-")]
        finding.runs(why, _literal_line(rest) if rest else None)

    return check


_STDIN_SCRIPTS = ("/dev/stdin", "/dev/fd/", "/proc/", "-")


def _shell(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """bash(1) INVOCATION: a script operand that is standard input, a descriptor or a process
    substitution is a script clearance cannot read."""
    for word, value in zip(words[1:], values[1:], strict=False):
        if value is not None and value.startswith("-") and value != "-":
            if value in ("-c", "-s") or (value[1:2] != "-" and ("c" in value or "s" in value)):
                return  # the opaque and stdin wrappers handle these
            continue
        if value is None:
            if word.raw.startswith(("<(", ">(")):
                finding.runs("runs a script from a process substitution")
            else:
                finding.runs("runs a script whose name is computed")
            return
        if value == "-" or value.startswith(_STDIN_SCRIPTS[:3]):
            finding.runs(f"runs its script from {value}, which clearance cannot read")
        return


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
    for option, arg in _option_values(values, "oDcdFTKb", writes + data + reads):
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
    """sort(1) --compress-program: runs a program on its temporary files."""
    for option, arg in _option_values(values, "", ("--compress-program",)):
        if option != "?":
            finding.runs("passes --compress-program, which runs a command", arg)


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


PROGRAMS: dict[str, Checker] = {
    "git": _git,
    "rg": _rg,
    "sed": _sed,
    "gsed": _sed,
    "awk": _awk,
    "gawk": _awk,
    "mawk": _awk,
    "nawk": _awk,
    "busybox-awk": _awk,
    "tar": _tar,
    "gtar": _tar,
    "bsdtar": _tar,
    "zip": _zip,
    "rsync": _rsync,
    "split": _split,
    "man": _man,
    "vim": _vim,
    "vi": _vim,
    "nvim": _vim,
    "view": _vim,
    "vimdiff": _vim,
    "rvim": _vim,
    "ex": _vim,
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
    "ed": _ed,
    "less": _less,
    "more": _less,
    "setpriv": _runs_rest("runs a command under setpriv"),
    "dbus-run-session": _runs_rest("runs a command under dbus-run-session"),
    "faketime": _runs_rest("runs a command under faketime"),
    "run-parts": _runs_rest("runs every program in a directory (run-parts)"),
}
for _name in ("bash", "sh", "dash", "zsh", "ksh", "rbash", "mksh", "ksh93", "yash", "posh"):
    PROGRAMS[_name] = _shell

SOURCES: dict[str, str] = {
    "git": "git(1) OPTIONS, git-config(1), git-difftool(1); gtfobins: git",
    "rg": "rg(1) --pre; gtfobins: rg",
    "sed": "sed(1) COMMANDS (e, s///e, w, r); gtfobins: sed",
    "awk": "awk(1) Input/Output, gawk(1); gtfobins: awk, gawk, mawk, nawk",
    "tar": "tar(1) --checkpoint-action, --use-compress-program, --to-command; gtfobins: tar",
    "zip": "zip(1) -TT; gtfobins: zip",
    "rsync": "rsync(1) -e, --rsync-path; gtfobins: rsync",
    "split": "split(1) --filter; gtfobins: split",
    "man": "man(1) -P, -H; gtfobins: man",
    "vim": "vim(1) -c, --cmd, -S; gtfobins: vim",
    "ssh": "ssh(1), ssh_config(5) ProxyCommand, LocalCommand; gtfobins: ssh",
    "make": "make(1) --eval, -f; gtfobins: make",
    "find": "find(1) ACTIONS (-delete, -fprint, -fls); gtfobins: find",
    "env": "env(1) -S; gtfobins: env",
    "setarch": "setarch(8); gtfobins: setarch",
    "newgrp": "newgrp(1)",
    "bash": "bash(1) INVOCATION",
    "curl": "curl(1) -o, -d @file, -T, -K, file://; gtfobins: curl",
    "dd": "dd(1) if=, of=; gtfobins: dd",
    "sort": "sort(1) --compress-program",
    "ed": "ed(1) !command; gtfobins: ed",
    "less": "less(1) +cmd, --cmd, !command; gtfobins: less",
    "more": "more(1) +cmd; gtfobins: more",
    "setpriv": "setpriv(1); gtfobins: setpriv",
    "dbus-run-session": "dbus-run-session(1)",
    "faketime": "faketime(1)",
    "run-parts": "run-parts(8); gtfobins: run-parts",
}


def inspect(words: Sequence[Word]) -> Finding | None:
    """What the knowledge base knows about the unit of ``words`` (``None``: nothing)."""
    first = words[0].value if words else None
    if first is None:
        return None
    check = PROGRAMS.get(basename(first) if "/" in first else first)
    if check is None:
        return None
    finding = Finding()
    check(finding, words, [w.value for w in words])
    return finding if finding else None
