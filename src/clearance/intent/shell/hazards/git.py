"""git's code-running global options and configuration keys (git(1), git-config(1)).

Its checker floors a unit that sets a key whose value is a command, names the files git reads
or writes for it, and folds the global options away (``git -C r push`` → ``git push``).
"""

from __future__ import annotations

from clearance.intent.shell.hazards.finding import Finding, literal_line, option_values
from clearance.intent.shell.names import GIT_PRINTERS, GIT_WORK_TREE_WRITERS
from clearance.intent.shell.options import spells
from clearance.policy.programs import GIT_GLOBAL_FLAGS, GIT_GLOBAL_VALUED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.hazards.finding import Checker, Values
    from clearance.intent.shell.word import Word

__all__ = ["GIT_BUILTINS", "PROGRAMS", "git_key_runs_code", "inert_setting"]

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
    ".sshcommand",
    ".editor",
    ".pager",
)
# Whole sections that hold commands, programs, hooks, included files or transports (the
# core section among them: core.* keys not listed as inert below count as code-running).
_GIT_CODE_PREFIXES = (
    "alias.", "filter.", "pager.", "include.", "includeif.", "url.", "hook.", "remote.",
    "core.", "credential.", "uploadpack.", "receive.", "instaweb.", "sendemail.", "gpg.",
    "browser.", "man.", "difftool.", "mergetool.", "sequence.", "ssh.",
)  # fmt: skip
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
    # blame's display settings; not blame.ignoreRevsFile, a file whose first line that is not
    # a commit is printed in git's error (`-c blame.ignoreRevsFile=.env blame x`)
    "blame.blankboundary",
    "blame.coloring",
    "blame.date",
    "blame.showemail",
    "blame.showroot",
    "blame.markunblamablelines",
    "blame.markignoredlines",
    "grep.linenumber",
)  # not help.autocorrect: `-c help.autocorrect=immediate pussh` runs `git push`


def git_key_runs_code(key: str) -> bool:
    """Whether git runs the value of configuration ``key`` (lower-cased) as a command, or
    loads code, hooks or more configuration from it (git-config(1)), unless the key is known to
    be inert. The one table of such keys: the ``-c`` hazard here and the protected gate's
    ``git config`` floor both read it."""
    if key.startswith(_GIT_SAFE_PREFIXES):
        return False
    return (
        key in _GIT_CODE_KEYS
        or key.endswith(_GIT_CODE_SUFFIXES)
        or key.startswith(_GIT_CODE_PREFIXES)
    )


def inert_setting(key: str, value: str | None) -> bool:
    """Whether setting ``key`` (lower-cased) to the literal ``value`` runs nothing, though the
    key may: ``core.hooksPath=/dev/null`` points git's hooks at a path that is no directory, so
    git finds no hook (how hooks are turned off for one command)."""
    return key == "core.hookspath" and value == "/dev/null"


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
    if literal_value and inert_setting(key, value):
        return
    if git_key_runs_code(key):
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
# git subcommands that print what refs name by a --format (`%(raw)`: a blob whole; ADR 0056).
_REF_FORMATTERS = frozenset({"tag", "branch", "for-each-ref", "verify-tag"})
# git subcommands that print a file named `REV:path` or `:path` (the index).
_GIT_OBJECT_READERS = frozenset({"show", "cat-file", "diff", "archive", "grep", "difftool"})


def _git(finding: Finding, words: Sequence[Word], values: Values) -> None:
    """git(1) OPTIONS and git-config(1); gtfobins: git."""
    finding.discovers = True
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
                    if name == "-C":
                        finding.chdirs.append(word.raw)
                elif arg is None:
                    finding.runs(f"passes {name} with a computed directory")
                else:
                    finding.paths.append(arg)
                    if name == "-C":
                        finding.chdirs.append(arg)
                    elif name == "--git-dir":
                        finding.git_dir = arg
            continue
        if value == "--bare" and finding.git_dir is None:
            finding.git_dir = "."  # git uses the directory it runs in as its repository
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
    finding.git_sub = sub
    if sub in GIT_WORK_TREE_WRITERS or ((sub or "-")[:1] != "-" and sub not in GIT_BUILTINS):
        # A writer, or a command git does not build in (an alias, an internal helper such as
        # `checkout--worker`, a `git-*` program): what it writes is not known (ADR 0051).
        finding.work_tree = (tuple(args), _relocated(values[1:i]))
    if sub in GIT_PRINTERS:  # it may print files from git's store (ADR 0056)
        finding.printed = (tuple(args), _relocated(values[1:i]))
    if sub in _REF_FORMATTERS and finding.floor is None:
        from clearance.intent.shell.git_printed import raw_format

        finding.floor = raw_format(args)
    if sub == "difftool":
        for option, arg in option_values(args, "x", ("--extcmd",)):
            if option != "?":
                finding.runs(f"passes difftool {option}, which runs a command", arg)
    if sub in ("rebase",):
        for option, arg in option_values(args, "x", ("--exec",)):
            if option != "?":
                finding.runs(f"passes rebase {option}, which runs a command", arg)
    if sub == "bisect" and len(args) > 1 and args[1] == "run":
        finding.runs("runs a command through git bisect run", literal_line(args[2:]))
    if sub == "submodule" and "foreach" in args:
        finding.runs("runs a command through git submodule foreach")
    if sub in ("filter-branch", "filter-repo", "instaweb", "send-email", "gui", "citool"):
        finding.runs(f"runs git {sub}, which runs commands or programs it is given")
    if sub == "merge-index":  # `git merge-index PROGRAM -a`: runs PROGRAM on each entry
        finding.runs("runs git merge-index, which runs the program it is given")
    if sub == "hook" and "run" in args[1:]:
        finding.runs("runs git hook run, which runs a hook")
    if sub == "config":
        unsets = any(a is not None and a.startswith(("--unset", "unset")) for a in args[1:])
        for at, arg in enumerate(args[1:], 2):
            if arg is None or (not arg.startswith("-") and "." in arg):
                given = args[at] if at < len(args) and at + 1 == len(args) else None
                if arg is not None and not unsets and inert_setting(arg.lower(), given):
                    break  # `git config core.hooksPath /dev/null`
                probe = Finding()
                _git_key(probe, "config", arg, False)
                if probe.floor is not None:
                    finding.runs("sets a git configuration key that makes git run a command")
                    break
    for arg in args[1:]:
        if arg is None:
            continue
        # parse-options takes any unique prefix of a long option (`git grep --op=CMD`)
        long = _abbreviates(arg.partition("=")[0], _GIT_RUNNING_LONGS)
        if arg == "--ext-diff":
            finding.runs("passes --ext-diff, which runs the configured external diff program")
        elif long == "--open-files-in-pager" or (
            arg[:1] == "-" and arg[1:2] not in ("", "-") and "O" in arg  # `-nO`, `-Ocmd`
        ):
            if sub == "grep":
                pager = arg.partition("=")[2] if long else arg[arg.index("O") + 1 :]
                finding.runs("passes grep -O, which runs a pager", pager or None)
        elif long in ("--upload-pack", "--receive-pack", "--exec"):
            # `--exec=CMD` is --upload-pack or --receive-pack for the transports (push,
            # send-pack, fetch-pack, archive --remote, ls-remote), and rebase's command
            finding.runs(f"passes {long}, which names the command git runs locally or remotely")
        elif arg[:2] == "-u" and sub in ("ls-remote", "fetch-pack", "clone", "archive"):
            finding.runs(f"passes {arg}, which names the command git runs remotely or locally")
        elif long == "--template":
            finding.runs("passes --template, which installs hooks git then runs")
    for option, arg in option_values(args, "", ("--output",)):
        if option == "--output":
            finding.write("--output", arg)
    if sub in _GIT_OBJECT_READERS:
        for arg in args[1:]:
            # `git show HEAD:.env`, `git cat-file -p :0:.env`: the file as a commit or the index
            # holds it, which is the file's content for a path rule (relative to the top of the
            # work tree; read here from the working directory, as `HEAD:./x` is).
            if arg and ":" in arg and not arg.startswith("-"):
                from clearance.intent.shell.git_printed import tree_path  # the lines with one

                path = tree_path(arg)
                if path and "://" not in arg:
                    # Under -C, --git-dir or --work-tree the path is in another work tree,
                    # whose top is not known here: the file cannot be named.
                    if moved:
                        finding.read(f"{sub} of a file in a commit", None)
                    else:
                        finding.tree_reads.append(path)
    if sub == "archive":
        for option, arg in option_values(args, "o", ()):
            if option == "-o":
                finding.write(f"{sub} -o", arg)
    if sub in ("init", "clone"):
        _repository_heads(finding, sub, args)
    if sub == "format-patch":  # `-o DIR`: a file for each commit in DIR, made if missing
        for option, arg in option_values(args, "o", ("--output-directory",)):
            if option in ("-o", "--output-directory"):
                finding.write(f"{sub} {option}", arg and arg.rstrip("/") + "/*")


def _repository_heads(finding: Finding, sub: str, args: Values) -> None:
    """A repository ``git init``/``clone`` keeps in another directory (``--separate-git-dir=gd``,
    ``--bare``, ``--git-dir=gd``): its ``HEAD`` is written, so a hook the same line puts into
    its ``hooks`` asks (the gate asks for a write in the hooks of any directory holding a
    HEAD). The directory is taken after ``-C`` (parse-options takes any unique prefix)."""
    here = "/".join(d.rstrip("/") for d in finding.chdirs) if finding.chdirs else "."

    def head(directory: str | None) -> str | None:
        if directory is None:
            return None
        where = directory if directory.startswith(("/", "~")) else f"{here}/{directory}"
        return where.rstrip("/") + "/HEAD"

    if finding.git_dir not in (None, "."):
        finding.write(f"{sub} --git-dir", head(finding.git_dir))
    for option, arg in option_values(args, "", ("--separate-git-dir",)):
        if option == "--separate-git-dir":
            finding.write(f"{sub} {option}", head(arg))
    bare = any(a is not None and (spells(a, "--bare") or spells(a, "--mirror")) for a in args[1:])
    operands = [a for a in args[1:] if a is None or a[:1] != "-"]
    if bare or finding.git_dir == ".":
        if sub == "init":
            finding.write(f"{sub} --bare", head(operands[-1] if operands else "."))
        elif len(operands) > 1:
            finding.write(f"{sub} --bare", head(operands[-1]))
    elif sub == "init" and operands and operands[-1] not in (None, ".", "./"):
        # `git init DIR` writes DIR/.git (a protected directory's pattern meets it; a computed
        # DIR is an unknown path of its own)
        finding.writes.append((operands[-1] or "").rstrip("/") + "/.git/HEAD")


def _relocated(options: Values) -> tuple[str, ...]:
    """The global options a listing of what git writes runs with, as the command gives them
    (``--git-dir``, ``--work-tree``, ``--icase-pathspecs``, ``-c k=v``…); not ``-C`` (the
    listing runs in that directory) nor a pager. A computed one floors the unit already."""
    out: list[str] = []
    skip = False
    for k, value in enumerate(options):
        if skip:
            skip = False
            continue
        if value is None:
            continue
        name = value.partition("=")[0]
        if value in ("-C", "-p", "--paginate", "-P", "--no-pager") or name == "--exec-path":
            skip = value == "-C"
            continue
        out.append(value)
        if value in _GIT_VALUED and k + 1 < len(options):  # `--git-dir D`, `-c k=v`
            out.append(options[k + 1] or "")
            skip = True
    return tuple(out)


_GIT_RUNNING_LONGS = (
    "--open-files-in-pager",
    "--upload-pack",
    "--receive-pack",
    "--template",
    "--exec",
)


def _abbreviates(name: str, longs: Sequence[str]) -> str | None:
    """The long option of ``longs`` that ``name`` is or abbreviates (``--op``: at least two
    letters, since one is taken by a shorter option of most subcommands)."""
    if len(name) < 4 or name[:2] != "--":
        return None
    return next((long for long in longs if long.startswith(name)), None)


PROGRAMS: dict[str, Checker] = {"git": _git}
