"""The names git writes into the work tree from its own store (docs/shell-analysis.md, "Trees
written at once"; ADR 0051).

``git checkout main``, ``git checkout -- .``, ``git reset --hard``, ``git stash pop``: git writes
files whose content comes from its object store, its index or a patch, which the agent can fill
with anything (``git update-index --cacheinfo``, ``git commit-tree``), so a protected file
(``.claude/settings.json``) could be written by a command that names none. As ADR 0045 lists an
archive, the names are listed here, by asking git itself (read-only plumbing, run with a time
bound and nothing configured that runs a program), and each lands as a written path token
beneath the top of the work tree, which the protected paths and the policy's write rules meet.

:func:`plan` reads the subcommand (no I/O): the listings to run, ``None`` when it writes no file
of the work tree, or the floor :data:`~clearance.intent.sentinel.UNLISTED_NAMES` when the names
cannot be listed ahead (``git pull`` fetches them, ``git rebase`` replays commits one by one, an
option clearance does not model). :func:`land` runs the listings and emits the names.
"""

from __future__ import annotations

import _thread
import os

from clearance.intent.sentinel import UNLISTED_NAMES
from clearance.intent.shell.names import GIT_WORK_TREE_WRITERS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Sequence

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.git_printed import Plan
    from clearance.intent.shell.projection import Projection

    Values = Sequence[str | None]
    Git = tuple[str, ...]  # the program, then the command's own --git-dir / --work-tree

__all__ = ["confirm", "floor", "land", "not_here", "plan", "printed"]

# A listing: how to read git's output, and git's arguments (after `git`).
#   "names": NUL-separated names relative to the top of the work tree;
#   "raw": `--raw -z` records (diff, diff-tree, log); "tree": `ls-tree -r -z` entries;
#   "flagged": `ls-files -v -z` entries git diff passes over; "given": names already known;
#   "numstat": `git apply --numstat -z` (names relative to the top and to the directory);
#   "mv": `git mv`'s operands; and the kinds of _COMPOUND, which ask git before they list.
Listing = tuple[str, tuple[str, ...]]

# (each a verb phrase: the ask reads `bash command "git pull" fetches what it then writes…`)
_UNLISTED = {
    "pull": "fetches what it then writes",
    "am": "applies a mailbox of patches in turn",
    "clone": "writes a whole repository's files",
    "checkout-index": "writes files from the index",
    "worktree": "writes another work tree",
    "submodule": "writes the submodules' files",
    "sparse-checkout": "writes the files it brings back into the work tree",
    "bisect": "checks out the commits it visits",
    "mergetool": "runs the merge tool on conflicted files",
    "merge-recursive": "merges trees into the work tree by a strategy",
    "merge-resolve": "merges trees into the work tree by a strategy",
    "merge-octopus": "merges trees into the work tree by a strategy",
    "merge-subtree": "merges trees into the work tree by a strategy",
    "merge-ours": "merges trees into the work tree by a strategy",
}
_QUIET_SUBS = {
    # subcommands of these that write nothing
    # (`worktree remove` and `submodule deinit` remove a tree as `rm -r` would: a residual,
    # docs/shell-analysis.md)
    "worktree": frozenset({"list", "lock", "unlock", "prune", "repair", "remove"}),
    "submodule": frozenset(
        {
            "status",
            "summary",
            "foreach",
            "init",
            "deinit",
            "sync",
            "absorbgitdirs",
            "set-branch",
            "set-url",
        }
    ),
    "sparse-checkout": frozenset({"list", "check-rules"}),
    "bisect": frozenset({"log", "visualize", "view", "terms", "help"}),
}
_COMMON_FLAGS = frozenset({"-q", "--quiet", "--progress", "--no-progress"})
_HEAD = "HEAD"
MAX_OUTPUT = 4 << 20  # bytes of one listing; more: not listed
_TIMEOUT = 1.0  # seconds for one git run (the analysis has its own deadline)
# Threads that must not wait on git: the service's event loop (ADR 0049), where the bash
# deadline's exception would arrive only once git answered. There a writing git command is
# not listed; its ask sends the call to a worker thread, which lists it.
_REFUSED: set[int] = set()


class not_here:
    """No git runs on this thread for the duration (the line asks instead)."""

    __slots__ = ("ident",)

    def __enter__(self) -> None:
        self.ident = _thread.get_ident()
        _REFUSED.add(self.ident)

    def __exit__(self, *exc: object) -> None:
        _REFUSED.discard(self.ident)


class _Unlisted(Exception):
    pass


class _NoRepository(Exception):
    """git finds no repository where the command runs: the command fails, writing nothing."""


def plan(args: Values) -> list[Listing] | Floor | None:
    """The listings for ``git SUB ARGS…`` (``args[0]`` is the subcommand)."""
    sub = args[0] or ""
    if sub not in GIT_WORK_TREE_WRITERS:
        return floor("runs a git command clearance does not know (an alias, an internal "
                     "helper, a git-* program), which may write anything")  # fmt: skip
    if any(a in ("--help", "-h") for a in args[1:]):
        return None  # prints the manual
    try:
        if sub in _UNLISTED:
            rest = [a for a in args[1:] if a is None or not a.startswith("-")]
            quiet = _QUIET_SUBS.get(sub)
            if quiet is not None and rest and rest[0] in quiet:
                return None
            if not rest and sub in _QUIET_SUBS:
                return None  # `git bisect`, `git submodule`: usage or status
            return floor(_UNLISTED[sub])
        reader = _READERS.get(sub)
        if reader is None:
            if sub == "read-tree":
                updates = any(
                    a is None or a == "-u" or (a[:1] == "-" and a[1:2] != "-" and "u" in a)
                    for a in args[1:]
                )
                return floor("reads a tree into the work tree (-u)") if updates else None
            return None
        return reader(args)
    except _Unlisted as why:
        return floor(str(why))


def floor(why: str) -> Floor:
    return (UNLISTED_NAMES, f"{why}: the names git writes into the work tree are not known")


def _split(
    args: Values,
    flags: frozenset[str],
    valued: frozenset[str],
    sub: str,
    optional: frozenset[str] = frozenset(),
) -> tuple[dict[str, str | None], list[str], list[str] | None]:
    """``(options, operands before --, operands after -- or None)``; ``optional``: long
    options whose value, if any, follows ``=`` (``--track[=direct]``). An option clearance does
    not model, or a computed word, is not listed."""
    flags = flags | _COMMON_FLAGS
    short_valued = {o[1] for o in valued if o[:2] != "--"}
    options: dict[str, str | None] = {}
    before: list[str] = []
    after: list[str] | None = None
    i = 1
    while i < len(args):
        value = args[i]
        i += 1
        if value is None:
            raise _Unlisted("is given a computed word")
        if after is not None:
            after.append(value)
            continue
        if value == "--":
            after = []
            continue
        if value[:1] != "-" or value == "-":
            before.append(value)
            continue
        name, eq, rest = value.partition("=")
        if name in optional:
            options[name] = rest if eq else None
        elif name in valued and name[:2] == "--":
            if not eq:
                if i >= len(args) or args[i] is None:
                    raise _Unlisted(f"is given a computed value for {name}")
                rest = args[i] or ""
                i += 1
            options[name] = rest
        elif value[:2] != "--" and value[1:2] in short_valued:
            letter = value[:2]
            attached = value[2:]
            if not attached:
                if i >= len(args) or args[i] is None:
                    raise _Unlisted(f"is given a computed value for {letter}")
                attached = args[i] or ""
                i += 1
            options[letter] = attached
        elif value in flags:
            options[value] = None
        elif value[:2] != "--" and len(value) > 2 and all("-" + c in flags for c in value[1:]):
            for c in value[1:]:  # `-fq`: a cluster of flags
                options["-" + c] = None
        else:
            raise _Unlisted(f"is given an option clearance does not model ({value})")
    return options, before, after


def _revision(value: str, sub: str) -> str:
    """A revision passed to git as an argument of its own (never an option); ``-`` is the
    branch checked out before (``@{-1}``)."""
    if value == "-" and sub in ("checkout", "switch", "merge", "cherry-pick", "revert"):
        return "@{-1}"
    if not value or value[:1] == "-" or not _PASSABLE.isdisjoint(value):
        raise _Unlisted(f"names a revision clearance cannot pass on ({value!r})")
    if ":" in value:  # `:/message`, `REV:path`, `:N:path`: a suffix added would change them
        raise _Unlisted(f"names a revision by a search or a path ({value!r})")
    return _mark(value)


# Characters no revision clearance passes on holds (the markers below, NUL).
_PASSABLE = frozenset("\x00\x01\x02")
# What makes a revision more than a name (`HEAD~1`, `main^{tree}`, `:/fix`, `@{-1}`, globs).
_NOT_A_NAME = frozenset("~^:@{}*?[\\ ")


def _mark(value: str) -> str:
    """A plain name (``evil``, ``HEAD``) as a marked token: git may read it as any of several
    refs (a tag, a branch, ``$GIT_DIR/evil``, a remote's branch a checkout creates), and the
    subcommands do not agree on which wins, so every one is listed (:func:`_candidates`)."""
    if _NOT_A_NAME.isdisjoint(value) and ".." not in value:
        return f"\x01{value}\x02"
    return value


def _diff_tree(a: str, b: str) -> Listing:
    return ("raw", ("diff-tree", "-r", "--raw", "-z", "--no-renames", "--end-of-options",
                    a, b, "--"))  # fmt: skip


def _work_tree(source: str | None, pathspecs: Sequence[str] = ()) -> Listing:
    """The names where the work tree differs from ``source`` (``None``: the index)."""
    return ("worktree", (source or "", *pathspecs))


def _work_tree_kind(run: _Runner, argv: Sequence[str]) -> list[Listing]:
    """What ``git diff`` says differs, and the index entries it passes over (assume-unchanged,
    skip-worktree), which a checkout from the index or a commit still writes."""
    source, *pathspecs = argv
    head = ("diff", "--raw", "-z", "--no-renames", "--no-ext-diff", "--no-textconv")
    tail = ("--end-of-options", source) if source else ()
    return [("raw", (*head, *tail, "--", *pathspecs)),
            ("flagged", ("ls-files", "-v", "-z", "--full-name", "--", *pathspecs))]  # fmt: skip


def _checkout(args: Values) -> list[Listing] | None:
    flags = frozenset({"-f", "--force", "--ours", "--theirs", "-m", "--merge", "--detach",
                       "--no-track", "--guess", "--no-guess", "--overlay", "--no-overlay",
                       "--ignore-skip-worktree-bits", "--ignore-other-worktrees", "-l", "-p",
                       "--patch", "--no-recurse-submodules", "-t"})  # fmt: skip
    options, before, after = _split(args, flags, frozenset({"-b", "-B", "--orphan", "--conflict"}),
                                    "checkout", frozenset({"--track"}))  # fmt: skip
    forced = "-f" in options or "--force" in options
    if "-b" in options or "-B" in options or "--orphan" in options:
        if after or len(before) > 1:
            raise _Unlisted("is given paths beside -b")
        if not before:
            return [_work_tree(_HEAD)] if forced else None  # a new branch where HEAD is
        return _switching(_revision(before[0], "checkout"), forced)
    if after:  # `git checkout [TREE] -- PATHS`: the paths, from TREE or the index
        if len(before) > 1:
            raise _Unlisted("is given more than one tree before --")
        source = _revision(before[0], "checkout") if before else None
        return [_work_tree(source, after)]
    if not before:
        return [_work_tree(_HEAD)] if forced else None
    if after is not None:  # `git checkout X --`: X is a commit
        if len(before) > 1:
            raise _Unlisted("is given more than one tree before --")
        return _switching(_revision(before[0], "checkout"), forced)
    # `git checkout X [PATHS…]`: X is a commit (a branch to switch to, or the tree the paths
    # come from) when git resolves it as one, else every word is a path from the index.
    first = _revision(before[0], "checkout")
    return [("checkout", ("1" if forced else "0", first, *before[1:]))]


def _switching(target: str, forced: bool) -> list[Listing]:
    """A switch of HEAD to ``target``: what differs between the two commits, and when local
    changes are thrown away (``-f``), whatever differs from ``target`` in the work tree."""
    out = [_diff_tree(_HEAD, target)]
    if forced:
        out.append(_work_tree(target))
    return out


def _switch(args: Values) -> list[Listing] | None:
    flags = frozenset({"-d", "--detach", "-f", "--force", "--discard-changes", "-m", "--merge",
                       "--no-track", "--guess", "--no-guess", "--ignore-other-worktrees",
                       "--no-recurse-submodules", "-t"})  # fmt: skip
    valued = frozenset({"-c", "-C", "--create", "--force-create", "--orphan", "--conflict"})
    options, before, after = _split(args, flags, valued, "switch",
                                    frozenset({"--track"}))  # fmt: skip
    forced = any(o in options for o in ("-f", "--force", "--discard-changes"))
    if "--orphan" in options:  # an empty branch: every tracked file is removed
        if before or after:
            raise _Unlisted("is given a start point beside --orphan")
        return [("names", ("ls-files", "-z", "--full-name"))]
    if after:
        raise _Unlisted("is given words after --")
    created = any(o in options for o in ("-c", "-C", "--create", "--force-create"))
    if len(before) > 1:
        raise _Unlisted("is given more than one start point")
    if not before:
        if created:
            return [_work_tree(_HEAD)] if forced else None  # a new branch where HEAD is
        raise _Unlisted("names no branch")
    if created:
        return _switching(_revision(before[0], "switch"), forced)
    return [("switch", ("1" if forced else "0", _revision(before[0], "switch")))]


def _restore(args: Values) -> list[Listing] | None:
    flags = frozenset({"-S", "--staged", "-W", "--worktree", "-p", "--patch", "--ours",
                       "--theirs", "-m", "--merge", "--ignore-unmerged", "--overlay",
                       "--no-overlay", "--no-recurse-submodules",
                       "--ignore-skip-worktree-bits"})  # fmt: skip
    options, before, after = _split(args, flags, frozenset({"-s", "--source", "--conflict"}),
                                    "restore")  # fmt: skip
    staged = "-S" in options or "--staged" in options
    worktree = "-W" in options or "--worktree" in options
    if staged and not worktree:
        return None  # the index only
    source = options.get("-s") or options.get("--source")
    if source is not None:
        source = _revision(source, "restore")
    elif staged:
        source = _HEAD
    paths = [*before, *(after or [])]
    return [_work_tree(source, paths)] if paths else None


def _reset(args: Values) -> list[Listing] | None:
    flags = frozenset({"--hard", "--merge", "--keep", "--soft", "--mixed", "-N", "-p", "--patch",
                       "--no-recurse-submodules", "--no-refresh", "--refresh"})  # fmt: skip
    options, before, after = _split(args, flags, frozenset(), "reset")
    if not any(m in options for m in ("--hard", "--merge", "--keep")):
        return None  # the index and HEAD only
    if after or len(before) > 1:
        raise _Unlisted("is given paths with a mode that writes the work tree")
    target = _revision(before[0], "reset") if before else _HEAD
    return [_work_tree(target), _diff_tree(_HEAD, target)]


def _stash(args: Values) -> list[Listing] | None:
    action = args[1] if len(args) > 1 else None
    if action is None or action[:1] == "-":
        action, rest = "push", [args[0], *args[1:]]
    else:
        rest = [args[0], *args[2:]]
    if action in ("list", "show", "drop", "clear", "create", "store"):
        return None
    if action in ("push", "save"):
        flags = frozenset({"-k", "--keep-index", "--no-keep-index", "-p", "--patch", "-S",
                           "--staged"})  # fmt: skip
        options, before, after = _split(rest, flags, frozenset({"-m", "--message"}), "stash")
        paths = [*(before if action == "push" else []), *(after or [])]
        if "-S" in options or "--staged" in options:
            # stashes the index, and takes the staged change back out of the work tree too
            return [("raw", ("diff-index", "--cached", "--raw", "-z", "--no-renames", _HEAD,
                             "--", *paths))]  # fmt: skip
        return [_work_tree(_HEAD, paths), _work_tree(None, paths)]
    if action in ("pop", "apply"):
        _, before, after = _split(rest, frozenset({"--index"}), frozenset(), "stash")
        if after or len(before) > 1:
            raise _Unlisted("is given more than one stash")
        named = before[0] if before else "0"
        stash = f"stash@{{{named}}}" if named.isdigit() else _revision(named, "stash")
        return [("stash", (stash,))]  # a 3-way merge of the stash onto HEAD, once it exists
    raise _Unlisted(f"runs git stash {action}, which clearance does not model")


def _merge(args: Values) -> list[Listing] | None:
    flags = frozenset({"--no-ff", "--ff", "--ff-only", "--squash", "--no-squash", "--commit",
                       "--no-commit", "-e", "--edit", "--no-edit", "--stat", "-n", "--no-stat",
                       "--summary", "--no-summary", "--verify", "--no-verify", "-v", "--verbose",
                       "--autostash", "--no-autostash", "--allow-unrelated-histories",
                       "--signoff", "--no-signoff", "--rerere-autoupdate",
                       "--no-rerere-autoupdate", "--overwrite-ignore", "--no-overwrite-ignore",
                       "--verify-signatures", "--no-verify-signatures", "--log", "--no-log",
                       "--no-gpg-sign"})  # fmt: skip
    valued = frozenset({"-m", "-F", "--file", "-s", "--strategy", "-X", "--strategy-option",
                        "--cleanup", "--into-name"})  # fmt: skip
    options, before, after = _split(args, flags, valued, "merge")
    _strategy(options)
    named = _one(before, after, "merges what was fetched (no commit named)",
                 "merges more than one commit at once (an octopus merge)")  # fmt: skip
    out: list[Listing] = [("merge", (_revision(named, "merge"),))]
    if "--autostash" in options:
        out.append(_work_tree(_HEAD))
    return out


def _pick(args: Values) -> list[Listing] | None:
    sub = args[0] or ""
    flags = frozenset({"-e", "--edit", "--no-edit", "-x", "-r", "-n", "--no-commit", "-s",
                       "--signoff", "--ff", "--allow-empty", "--allow-empty-message",
                       "--keep-redundant-commits", "--rerere-autoupdate",
                       "--no-rerere-autoupdate", "--no-gpg-sign", "--reference"})  # fmt: skip
    # (`-s` is --signoff here, not a strategy)
    valued = frozenset({"-X", "--strategy-option", "--strategy", "--cleanup", "--empty"})
    options, before, after = _split(args, flags, valued, sub)
    _strategy(options)
    commit = _one(before, after, "names no commit",
                  "picks more than one commit (each one onto the last)")  # fmt: skip
    if ".." in commit or commit[:1] == "^" or commit.endswith(("^!", "^@")) or "^-" in commit:
        raise _Unlisted("is given a range of commits")
    picked = _revision(commit, sub)
    # cherry-pick C: merge C's change (C^ → C) onto HEAD; revert C: the change C → C^
    if sub == "revert":
        return [("merge3", (picked, _HEAD, picked + "^"))]
    return [("merge3", (picked + "^", _HEAD, picked))]


def _one(before: list[str], after: list[str] | None, none: str, several: str) -> str:
    """The one commit a merge or a pick names (the reasons it is not listed otherwise)."""
    if after:
        raise _Unlisted("is given words after --")
    if not before:
        raise _Unlisted(none)
    if len(before) > 1:
        raise _Unlisted(several)
    return before[0]


def _strategy(options: dict[str, str | None]) -> None:
    """A merge strategy or its options (`-X subtree=…`) move changes to paths the listing
    does not follow."""
    for name in ("-s", "--strategy", "-X", "--strategy-option"):
        if name in options:
            raise _Unlisted(f"is given a merge strategy or its option ({name})")


def _clean(args: Values) -> list[Listing] | None:
    flags = frozenset({"-f", "--force", "-d", "-x", "-X", "-n", "--dry-run"})
    options, before, after = _split(args, flags, frozenset({"-e", "--exclude"}), "clean")
    if "-n" in options or "--dry-run" in options:
        return None
    if "-e" in options or "--exclude" in options:  # `-X -e x`, `-e '!x'`: more is removed
        raise _Unlisted("is given patterns that change what it removes (-e)")
    paths = [*before, *(after or [])]
    which: tuple[str, ...] = ("--others",)
    if "-X" in options:
        which = ("--others", "--ignored", "--exclude-standard")
    elif "-x" not in options:
        which = ("--others", "--exclude-standard")
    return [("names", ("ls-files", "-z", "--full-name", *which, "--", *paths))]


def _rm(args: Values) -> list[Listing] | None:
    flags = frozenset({"-f", "--force", "-n", "--dry-run", "-r", "--cached", "--ignore-unmatch",
                       "--sparse"})  # fmt: skip
    options, before, after = _split(args, flags, frozenset(), "rm")
    if any(o in options for o in ("-n", "--dry-run", "--cached")):
        return None
    paths = [*before, *(after or [])]
    if not paths:
        return None
    return [("names", ("ls-files", "-z", "--full-name", "--", *paths))]


def _apply(args: Values) -> list[Listing] | None:
    flags = frozenset({"-R", "--reverse", "--check", "--stat", "--numstat", "--summary",
                       "--apply", "--index", "--3way", "-3", "--cached", "--reject", "-v",
                       "--verbose", "--allow-empty", "--recount", "--no-add",
                       "--ignore-space-change", "--ignore-whitespace", "--inaccurate-eof",
                       "--allow-binary-replacement", "--binary", "--unidiff-zero"})  # fmt: skip
    valued = frozenset({"-p", "-C", "--whitespace", "--build-fake-ancestor"})
    options, before, after = _split(args, flags, valued, "apply")
    files = [*before, *(after or [])]
    if "--cached" in options:
        return None  # the index only
    reports = any(o in options for o in ("--check", "--stat", "--numstat", "--summary"))
    if reports and "--apply" not in options:
        return None
    if not files or "-" in files:
        raise _Unlisted("reads its patch from standard input")
    extra: list[str] = []
    if "-p" in options:
        extra.append("-p" + (options["-p"] or ""))
    if "-R" in options or "--reverse" in options:
        extra.append("-R")
    return [("numstat", ("apply", "--numstat", "-z", *extra, "--", *files))]


def _rebase(args: Values) -> list[Listing] | None:
    """``git rebase [--onto NEW] [UPSTREAM [BRANCH]]``: it checks out BRANCH, then NEW (or
    UPSTREAM), then writes what each replayed commit changes."""
    flags = frozenset({"-i", "--interactive", "--autostash", "--no-autostash", "--keep-empty",
                       "--no-keep-empty", "-f", "--force-rebase", "--no-ff",
                       "--fork-point", "--no-fork-point", "--ignore-whitespace",
                       "--ignore-date", "--committer-date-is-author-date", "--reset-author-date",
                       "--signoff", "-m", "--merge", "-n", "--no-stat", "--stat", "-v",
                       "--verbose", "--no-verify", "--verify", "--autosquash", "--no-autosquash",
                       "--update-refs", "--no-update-refs", "--reapply-cherry-picks",
                       "--no-reapply-cherry-picks", "--no-gpg-sign",
                       "--no-rerere-autoupdate", "--rerere-autoupdate"})  # fmt: skip
    valued = frozenset({"--onto", "-s", "--strategy", "-X", "--strategy-option", "-C",
                        "--whitespace", "--empty"})  # fmt: skip
    options, before, after = _split(args, flags, valued, "rebase",
                                    frozenset({"--rebase-merges"}))  # fmt: skip
    _strategy(options)
    if after is not None or len(before) > 2:
        raise _Unlisted("is given more words than an upstream and a branch")
    upstream = _revision(before[0], "rebase") if before else "@{upstream}"
    branch = _revision(before[1], "rebase") if len(before) > 1 else _HEAD
    onto = options.get("--onto")
    start = _revision(onto, "rebase") if onto else upstream
    out: list[Listing] = [("rebase", (upstream, branch, start))]
    if "--autostash" in options:
        out.append(_work_tree(_HEAD))
    return out


def _mv(args: Values) -> list[Listing] | None:
    """``git mv [-f] SRC… DST``: the tracked files beneath each source go, and land beneath
    the destination (inside it when it is a directory or there are several sources)."""
    flags = frozenset({"-f", "--force", "-k", "-n", "--dry-run", "-v", "--verbose", "--sparse"})
    options, before, after = _split(args, flags, frozenset(), "mv")
    if "-n" in options or "--dry-run" in options:
        return None
    operands = [*before, *(after or [])]
    if len(operands) < 2:
        return None
    return [("mv", tuple(operands))]


_READERS = {
    "mv": _mv,
    "rebase": _rebase,
    "checkout": _checkout,
    "switch": _switch,
    "restore": _restore,
    "reset": _reset,
    "stash": _stash,
    "merge": _merge,
    "cherry-pick": _pick,
    "revert": _pick,
    "clean": _clean,
    "rm": _rm,
    "apply": _apply,
}


def land(
    paths: Projection,
    listings: Sequence[Listing],
    base: str,
    top: str,
    command: str,
    options: Sequence[str] = (),
    avoid: Sequence[str] = (),
) -> Floor | None:
    """Run ``listings`` in ``base`` (within the work tree at ``top``, as clearance finds it)
    and emit each name as a written token beneath the top git finds; the floor when git could
    not list them. ``options``: the command's own global options (``--git-dir``,
    ``--icase-pathspecs``, ``-c k=v``…), given to git as the command gives them; ``avoid``:
    directories (the project's) whose ``git`` is never run."""
    from clearance.intent.shell.trees import MAX_LANDED, emit

    if _thread.get_ident() in _REFUSED:
        return floor("is not listed on the service's event loop")
    found_git = _trusted_git((top, base, *avoid))
    if found_git is None:
        return floor("needs git to list them, and no git was found outside the project")
    run = _Runner((found_git, *options), base)
    names: list[str] = []
    relative: list[str] = []  # a patch's names, also read from the directory
    absolute: list[str] = []  # names `git mv` makes
    try:
        # The top git itself finds from there (a linked work tree, core.worktree); outside a
        # repository the command fails and writes nothing.
        try:
            told = run(("rev-parse", "--show-toplevel", "--git-path", "info/sparse-checkout"))
            top, _, sparse = told.decode("utf-8", "surrogateescape").partition("\n")
            if os.path.exists(os.path.join(base, sparse.rstrip("\n"))):
                raise _Unlisted("runs where sparse-checkout patterns decide what is written")
        except _NoRepository:
            if any(kind != "numstat" for kind, _ in listings):
                raise
            top = base  # `git apply` with no repository patches as `patch` does, from here
        queue = list(listings)
        while queue:
            kind, argv = queue.pop(0)
            if any("\x01" in a for a in argv):  # a plain name: every ref it may be
                queue[:0] = [(kind, tuple(a)) for a in run.expanded(argv)]
                continue
            if kind == "mv":
                absolute += _moved(run, argv, base, top)
                continue
            if kind == "given":  # names already known (a merge's conflicted files)
                names += argv
                continue
            if kind in _COMPOUND:
                queue[:0] = _COMPOUND[kind](run, argv)
                continue
            found = run(argv)
            if kind == "numstat":
                for name in _numstat(found):
                    names.append(name)
                    relative.append(name)
            elif kind == "flagged":
                names += _flagged(found)
            elif kind == "raw":
                names += _raw(found)
            elif kind == "tree":
                names += _tree(found)
            else:
                names += _names(found)
            if len(names) + paths.line.landed > MAX_LANDED:
                return floor(f"writes more than {MAX_LANDED:,} names")
    except _Unlisted as why:
        return floor(str(why))
    except _NoRepository:
        return None
    start = len(paths.tokens)
    if names:
        emit(paths, top, sorted(set(names)), command)
    if relative and base.rstrip("/") != top.rstrip("/"):
        emit(paths, base, sorted(set(relative)), command)
    if absolute:
        emit(paths, "", sorted({a.lstrip("/") for a in absolute}), command)
    # A name that is a directory now (an ignored `.claude/`, a nested repository `git clean`
    # names as one) is replaced or removed whole: judged on what lies beneath it (ADR 0045).
    paths.tokens[start:] = [
        t.replace(deep=True)
        if t.path and os.path.isdir(t.path) and not os.path.islink(t.path)
        else t
        for t in paths.tokens[start:]
    ]
    return None


# git's answers when there is nothing to print: the command fails the same way, printing nothing.
_NOTHING_TO_PRINT = (b"does not have any commits yet", b"No stash entries found")


def printed(
    paths: Projection,
    planned: Plan,
    base: str,
    top: str,
    command: str,
    options: Sequence[str] = (),
    avoid: Sequence[str] = (),
) -> Floor | None:
    """Run the listing of the files ``git show``/``log -p``/``diff``/``cat-file`` prints (ADR
    0056) in ``base`` and emit each as a read token beneath the top git finds; the floor when
    git could not list them or an object it prints is a blob (a file's content without its
    name). Outside a repository ``git diff A B`` compares the two paths: each is read."""
    from clearance.intent.shell.git_printed import floor as unlisted
    from clearance.intent.shell.git_printed import tree_path
    from clearance.intent.shell.trees import MAX_LANDED

    if _thread.get_ident() in _REFUSED:
        return unlisted("is not listed on the service's event loop")
    if not planned.lists and not options:
        common = _common_dir(top)  # nothing to list: only what the repository redirects
        if common is not None:
            why = _redirected(common, planned.notes, False, planned.submodules)
            return None if why is None else unlisted(why)
    found_git = _trusted_git((top, base, *avoid))
    if found_git is None:
        return unlisted("needs git to list them, and no git was found outside the project")
    git = (found_git, *options)
    try:
        try:
            where = ("rev-parse", "--git-common-dir", "--show-toplevel")
            status, told, errors = _exited(git, base, where)
        except _NoRepository:
            for operand in planned.operands:  # `git diff a b` with no repository: `diff a b`
                paths.value(operand, operand, base, command, "read", "syntax", True)
            return None
        common, _, told_top = told.decode("utf-8", "surrogateescape").partition("\n")
        if status == 0:
            top = told_top.rstrip("\n")
        elif b"must be run in a work tree" in errors:
            top = base  # a bare repository: its files are named from here
        else:
            raise _Unlisted(f"could not be listed by git ({_first_line(errors)})")
        why = _redirected(
            os.path.join(base, common), planned.notes, planned.lists, planned.submodules
        )
        if why is not None:
            return unlisted(why)
        if any(kind == "blob" for _, kind in _kinds(git, base, planned.objects)):
            return unlisted("prints a stored file by its object's name")
        names: list[str] = []
        revision = False  # a word names a tree: the work tree is not searched
        for word in planned.trees:  # `git grep x HEAD~1`, `HEAD:src`: whole trees
            inside = tree_path(word)  # `HEAD:src` names src's tree: its files are beneath src
            for oid, kind in _kinds(git, base, (word,), peel=inside is None):
                if kind == "blob":  # grep searches a blob given by its id
                    return unlisted("searches a stored file by its object's name")
                if kind in ("tree", "commit"):
                    revision = True
                    argv = ("ls-tree", "-r", "--name-only", "-z", "--full-tree", oid)
                    found = _names(_run(git, base, argv))
                    if inside:
                        # `HEAD:./src` is read from the working directory, `HEAD:src` from the top
                        relative = inside[:2] == "./" or inside[:3] == "../"
                        under = os.path.join(base if relative else top, inside)
                        under = os.path.relpath(os.path.normpath(under), top)
                        found = [os.path.join(under, n) for n in found]
                    names += found
        if planned.stored and not revision:
            # `ls-files -v`: a lower-case tag is assume-unchanged, `S` skip-worktree
            tagged = _names(_run(git, base, ("ls-files", "-v", "-z", "--full-name")))
            names += [t[2:] for t in tagged if t[:1].islower() or t[:1] == "S"]
        if planned.argv:
            status, output, errors = _exited(git, base, planned.argv)
            if status != 0 and not any(quiet in errors for quiet in _NOTHING_TO_PRINT):
                raise _Unlisted(f"could not be listed by git ({_first_line(errors)})")
            names += _names(output)
    except _Unlisted as why:
        return unlisted(str(why))
    except _NoRepository:
        return None
    listed = sorted({n.lstrip("\n") for n in names} - {""})
    if len(listed) > MAX_LANDED:
        return unlisted(f"prints more than {MAX_LANDED:,} files")
    for rel in listed:
        landed = f"{top.rstrip('/')}/{rel}"
        paths.value(landed, landed, None, command, "read", "syntax", True)
    return None


def _kinds(git: Git, base: str, words: Sequence[str], peel: bool = True) -> list[tuple[str, str]]:
    """``(object, type)`` of what each word names once tags are peeled (``git cat-file
    --batch-check``; not with ``peel`` false: a ``REV:path`` holds no tag to peel, and
    ``REV:path^{}`` would name another path); a word git cannot resolve (a path) is left
    out."""
    if not words:
        return []
    if any("\n" in w for w in words):
        raise _Unlisted("names an object across lines")
    suffix = "^{}" if peel else ""
    given = "".join(f"{w}{suffix}\n" for w in words).encode()
    _, kinds, _ = _exited(git, base, ("cat-file", "--batch-check"), given=given)
    out = []
    for line in kinds.decode("utf-8", "surrogateescape").splitlines():
        oid, _, rest = line.partition(" ")
        kind = rest.partition(" ")[0]
        if kind not in ("missing", "ambiguous"):
            out.append((oid, kind))
    return out


def _common_dir(top: str) -> str | None:
    """The git directory shared by the work tree at ``top`` and its linked worktrees, read
    from disk (``.git``, a gitfile, a ``commondir``); a bare repository is ``top`` itself;
    ``None`` when it cannot be told."""
    dot = os.path.join(top, ".git")
    try:
        if os.path.isfile(dot):
            with open(dot, encoding="utf-8") as handle:
                text = handle.read(4096)
            if not text.startswith("gitdir: "):
                return None
            dot = os.path.join(top, text[8:].strip())
        elif not os.path.isdir(dot):
            return None  # a bare repository, or none here: git tells
        shared = os.path.join(dot, "commondir")
        if os.path.exists(shared):
            with open(shared, encoding="utf-8") as handle:
                return os.path.join(dot, handle.read(4096).strip())
    except (OSError, ValueError):
        return None
    # git takes a directory holding HEAD, objects/ and refs/; else it looks further up
    if not all(os.path.isdir(os.path.join(dot, d)) for d in ("objects", "refs")):
        return None
    return dot if os.path.isfile(os.path.join(dot, "HEAD")) else None


def _redirected(common: str, notes: bool, listing: bool, submodules: bool = False) -> str | None:
    """Why what git prints under a file's name may be another object, a note any blob, or a
    submodule's file unlisted: replace refs or grafts, (``notes``: the command shows them)
    notes, (``listing``: it prints patches) ``diff.submodule``, (``submodules``: it recurses
    into them when told, `git grep`) ``submodule.recurse``; or a work tree elsewhere
    (``core.worktree``); ``None`` when none holds."""
    if "GIT_REPLACE_REF_BASE" in os.environ or (
        notes and ("GIT_NOTES_REF" in os.environ or "GIT_NOTES_DISPLAY_REF" in os.environ)
    ):
        return "runs git where the environment names replace refs or notes"
    if os.path.isdir(os.path.join(common, "reftable")):
        return "runs git on refs kept in a reftable, which clearance does not read"
    try:
        with open(os.path.join(common, "packed-refs"), "rb") as handle:
            packed = handle.read()
    except FileNotFoundError:
        packed = b""
    except OSError:
        return "runs git on refs clearance cannot read"
    if (
        _has_refs(os.path.join(common, "refs", "replace"))
        or b" refs/replace/" in packed
        or os.path.lexists(os.path.join(common, "info", "grafts"))
    ):
        return (
            "runs git where objects are replaced (refs/replace, grafts), so a file's name "
            "may print another object"
        )
    configured = _configured(os.path.join(common, "config"))
    if "worktree" in configured:
        return "runs git where core.worktree names the work tree, which clearance does not follow"
    if submodules and "recurse" in configured:
        return "runs git where submodule.recurse makes it read the submodules' files, unlisted"
    if listing and "submodule" in configured:
        return "runs git where diff.submodule may print the submodules' files, unlisted"
    if listing and "copies" in configured:
        return "runs git where diff.renames finds copies, whose unchanged sources print unlisted"
    if notes and (
        _has_refs(os.path.join(common, "refs", "notes"))
        or b" refs/notes/" in packed
        or "notes" in configured
    ):
        return "shows notes (refs/notes, or refs a notes setting names), which may hold any blob"
    return None


def _configured(config: str) -> set[str]:
    """What the repository's configuration (or the user's) sets that widens what git prints:
    ``"submodule"`` (``diff.submodule=diff``: the submodules' own patches), ``"copies"``
    (``diff.renames=copies``: a copy's unchanged source), ``"notes"`` (notes refs of its own:
    ``core.notesRef``, ``notes.displayRef``), ``"worktree"`` (``core.worktree``: the work tree
    is elsewhere), ``"recurse"`` (``submodule.recurse``: git grep reads the submodules); an
    include in the repository's, or an unreadable file, may set any of them."""
    import re

    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    found: set[str] = set()
    for path in (config, os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config")):
        try:
            with open(path, "rb") as handle:
                text = handle.read().lower()
        except FileNotFoundError:
            continue
        except OSError:
            return set(_SETTINGS)
        if path == config and b"include" in text:
            return set(_SETTINGS)
        if re.search(rb"\[\s*diff\s*\][^\[]*\bsubmodule\s*=\s*diff\b", text):
            found.add("submodule")
        if re.search(rb"\[\s*diff\s*\][^\[]*\brenames\s*=\s*cop", text):
            found.add("copies")
        if b"notesref" in text or b"displayref" in text:
            found.add("notes")
        if re.search(rb"\[\s*core\s*\][^\[]*\bworktree\s*=", text):
            found.add("worktree")
        if re.search(rb"\[\s*submodule\s*\][^\[]*\brecurse\b(?!\s*=\s*(?:false|no|off|0)\b)", text):
            found.add("recurse")
    return found


_SETTINGS = ("submodule", "notes", "copies", "worktree", "recurse")


def _has_refs(directory: str) -> bool:
    """Whether any file lies beneath ``directory`` (a ref), or it cannot be read."""
    try:
        for _, _, files in os.walk(directory, onerror=_raise):
            if files:
                return True
    except OSError as error:
        return not isinstance(error, FileNotFoundError)
    return False


def _raise(error: OSError) -> None:
    raise error


def _moved(run: _Runner, argv: Sequence[str], base: str, top: str) -> list[str]:
    """The absolute names ``git mv SOURCES… DEST`` takes away and makes."""
    *sources, dest = argv
    target = os.path.normpath(os.path.join(base, dest))
    into = len(sources) > 1 or os.path.isdir(target)
    out: list[str] = []
    for source in sources:
        where = os.path.normpath(os.path.join(base, source))
        prefix = os.path.relpath(where, top)
        landing = os.path.join(target, os.path.basename(where)) if into else target
        out.append(where)
        out.append(landing)
        for name in _names(run(("ls-files", "-z", "--full-name", "--", source))):
            out.append(os.path.join(top, name))
            rest = name[len(prefix) :].lstrip("/") if name.startswith(prefix) else ""
            out.append(os.path.join(landing, rest) if rest else landing)
    from clearance.intent.shell.trees import MAX_LANDED

    if len(out) > 2 * MAX_LANDED:
        raise _Unlisted("moves more names than clearance lists")
    return out


def confirm(
    found: Floor,
    base: str,
    top: str,
    options: Sequence[str] = (),
    avoid: Sequence[str] = (),
    sub: str | None = None,
) -> Floor | None:
    """``found`` (a floor :func:`plan` gave), unless git finds no repository from ``base``:
    then the command fails and writes nothing (not ``git apply``, which then patches as
    ``patch`` does)."""
    program = _trusted_git((top, base, *avoid))
    if program is None or _thread.get_ident() in _REFUSED or sub == "apply":
        return found
    try:
        _run((program, *options), base, ("rev-parse", "--show-toplevel"))
    except _NoRepository:
        return None
    except _Unlisted:
        return found
    return found


class _Runner:
    """git, run read-only in one directory, with what it resolved remembered."""

    __slots__ = ("base", "git", "refs")

    def __init__(self, git: Git, base: str) -> None:
        self.git = git
        self.base = base
        self.refs: dict[str, list[str]] = {}

    def __call__(self, argv: Sequence[str], *, conflicts: bool = False) -> bytes:
        return _run(self.git, self.base, argv, conflicts=conflicts)

    def drivers(self) -> bool:
        """Whether the configuration names a merge driver (a program a merge runs)."""
        argv = ("config", "--get-regexp", r"^merge\..*\.driver$")
        return _found(self.git, self.base, argv) is not None

    def commit(self, tree: str, parent: str) -> str:
        """A commit of ``tree`` on ``parent``, made in the store only (no ref, unsigned)."""
        made = _run(self.git, self.base, ("commit-tree", "--no-gpg-sign", "-m", "clearance",
                                          "-p", parent, tree), extra=_IDENTITY)  # fmt: skip
        return made.decode().strip()

    def resolves(self, revision: str) -> str | None:
        """The object ``revision`` names (``None``: none)."""
        found = _found(self.git, self.base, ("rev-parse", "--verify", "-q", revision))
        return None if found is None else found.decode().strip()

    def candidates(self, name: str) -> list[str]:
        """Every object the plain name may stand for: what git resolves it to, and each ref of
        that name (``refs/NAME``, a tag, a branch, a remote's, a remote's branch of that name
        a checkout would create), peeled to what they point at; none: ``name`` itself (git
        will fail on it)."""
        known = self.refs.get(name)
        if known is not None:
            return known
        found: list[str] = []
        own = self.resolves(name)
        if own is not None:
            found.append(own)
        listing = self(("for-each-ref", "--format=%(objectname) %(*objectname)",
                        f"refs/{name}", f"refs/tags/{name}", f"refs/heads/{name}",
                        f"refs/remotes/{name}", f"refs/remotes/{name}/HEAD",
                        f"refs/remotes/*/{name}"))  # fmt: skip
        for line in listing.decode("utf-8", "surrogateescape").splitlines():
            oid, _, peeled = line.partition(" ")
            found.append(peeled.strip() or oid)
        out = list(dict.fromkeys(found)) or [name]
        self.refs[name] = out
        return out

    def expanded(self, argv: Sequence[str]) -> list[list[str]]:
        """``argv`` once for each combination of what its marked names stand for."""
        import itertools
        import re

        marked = re.compile("\x01([^\x02]*)\x02")
        names = list(dict.fromkeys(marked.findall("\x00".join(argv))))
        choices = [self.candidates(n) for n in names]
        out = []
        for combination in itertools.product(*choices):
            chosen = dict(zip(names, combination, strict=True))
            out.append([marked.sub(_chosen(chosen), a) for a in argv])
            if len(out) > 64:
                raise _Unlisted("names refs git may read in too many ways")
        return out

    def deletes(self, a: str, b: str) -> bool:
        """Whether ``b`` lacks a file ``a`` has (what a rename needs)."""
        removed = self(("diff-tree", "-r", "--name-only", "-z", "--no-renames",
                        "--diff-filter=D", "--end-of-options", a, b, "--"))  # fmt: skip
        return bool(removed.strip(b"\x00"))


def _chosen(chosen: dict[str, str]) -> Callable[[re.Match[str]], str]:
    return lambda match: chosen[match[1]]


def _checkout_kind(run: _Runner, argv: Sequence[str]) -> list[Listing]:
    """``git checkout X [PATHS…]`` once git says what X is: a tree the paths come from, a
    commit to switch to (or a branch of a remote a checkout creates, among the candidates),
    else a path restored from the index."""
    forced, first, *paths = argv
    named = run.resolves(first)  # the word alone, then peeled (never `WORD^{…}` as text)
    if paths:
        tree = run.resolves(named + "^{tree}") if named else None
        if tree is not None:
            return [_work_tree(tree, paths)]
        return [_work_tree(None, [first, *paths])]
    commit = run.resolves(named + "^{commit}") if named else None
    if commit is not None:
        return _switching(commit, forced == "1")
    return [_work_tree(None, [first])]


def _switch_kind(run: _Runner, argv: Sequence[str]) -> list[Listing]:
    forced, first = argv
    named = run.resolves(first)
    commit = run.resolves(named + "^{commit}") if named else None
    if commit is None:
        raise _Unlisted(f"names {first!r}, which git does not resolve here")
    return _switching(commit, forced == "1")


def _stash_kind(run: _Runner, argv: Sequence[str]) -> list[Listing]:
    """A stash applied: a 3-way merge of its work tree onto HEAD, and its untracked files; a
    stash that is not there applies nothing."""
    (named,) = argv
    found = run.resolves(named)
    stash = run.resolves(found + "^{commit}") if found else None
    if stash is None:
        return []
    out: list[Listing] = [("merge3", (stash + "^1", _HEAD, stash))]
    parents = run(("rev-parse", stash + "^@")).split()
    if len(parents) > 2:  # the stash's untracked files
        out.append(("tree", ("ls-tree", "-r", "-z", "--full-name",
                              "--end-of-options", stash + "^3")))  # fmt: skip
    return out


def _merge_kind(run: _Runner, argv: Sequence[str]) -> list[Listing]:
    (theirs,) = argv
    bases = run(("merge-base", "--all", _HEAD, theirs)).split()
    if len(bases) != 1:
        raise _Unlisted("merges histories with no single merge base")
    return [("merge3", (bases[0].decode(), _HEAD, theirs))]


def _merge3_kind(run: _Runner, argv: Sequence[str]) -> list[Listing]:
    """A 3-way merge of ``theirs`` onto ``ours`` from ``base`` writes what ``theirs`` changes
    — unless both sides changed and one of them removed a file: then git's rename detection
    (of files and of directories) may carry a change onto a path neither side names, and the
    merge itself is done, in git's object store only (:func:`_merged`)."""
    base, ours, theirs = argv
    if run(("diff-index", "--cached", "--name-only", "-z", _HEAD, "--")).strip(b"\x00"):
        # git merges a stash, and `cherry-pick -n`, onto the index, not HEAD: what it renames
        # there is not listed
        raise _Unlisted("merges onto an index that differs from HEAD")
    ours_tree = run.resolves(ours + "^{tree}")
    if ours_tree is None:
        raise _Unlisted("merges onto a commit git does not resolve")
    if run.resolves(base + "^{tree}") != ours_tree and (
        run.deletes(base, ours) or run.deletes(base, theirs)
    ):
        return _merged(run, base, ours_tree, theirs)
    return [_diff_tree(base, theirs)]


# The fixed identity and date of the commits a merge is done on: the same inputs make the same
# objects, so deciding a line again adds nothing to the store.
_IDENTITY = {
    "GIT_AUTHOR_NAME": "clearance", "GIT_AUTHOR_EMAIL": "clearance@localhost",
    "GIT_COMMITTER_NAME": "clearance", "GIT_COMMITTER_EMAIL": "clearance@localhost",
    "GIT_AUTHOR_DATE": "@0 +0000", "GIT_COMMITTER_DATE": "@0 +0000",
}  # fmt: skip


def _merged(run: _Runner, base: str, ours_tree: str, theirs: str) -> list[Listing]:
    """What git's own merge (``merge-tree --write-tree``, the merge ``git merge``,
    ``cherry-pick``, ``revert`` and ``stash apply`` do) writes: the names where its result
    differs from ``ours``, and the conflicted ones. It writes objects into the store (two
    commits of no branch, the result's trees and blobs), never a ref, the index or the work
    tree. Not where a merge driver is configured (a program git would run) or git is older
    than 2.38."""
    result, conflicted = _merge_result(run, base, ours_tree, theirs)
    return [_diff_tree(ours_tree, result), ("given", tuple(conflicted))]


def _merge_result(run: _Runner, base: str, ours_tree: str, theirs: str) -> tuple[str, list[str]]:
    """The tree git's merge of ``theirs`` onto ``ours_tree`` from ``base`` makes, and the
    files it leaves conflicted (see :func:`_merged`)."""
    if run.drivers():
        raise _Unlisted("merges where a merge driver is configured (a program git runs)")
    theirs_tree = run.resolves(theirs + "^{tree}")
    if theirs_tree is None:
        raise _Unlisted("merges a commit git does not resolve")
    ours_commit = run.commit(ours_tree, base)
    theirs_commit = run.commit(theirs_tree, base)
    found = run(("merge-tree", "--write-tree", "--name-only", "--no-messages",
                 ours_commit, theirs_commit), conflicts=True)  # fmt: skip
    lines = found.decode("utf-8", "surrogateescape").split("\n")
    result = lines[0].strip()
    if len(result) not in (40, 64):
        raise _Unlisted("merges in a way git could not work out ahead")
    return result, [line for line in lines[1:] if line]


def _rebase_kind(run: _Runner, argv: Sequence[str]) -> list[Listing]:
    """It checks out BRANCH, then START, then replays the commits UPSTREAM..BRANCH: each a
    3-way merge, so the same rename rule holds over the range as a whole."""
    upstream, branch, start = argv
    bases = run(("merge-base", "--all", upstream, branch)).split()
    if len(bases) != 1:
        raise _Unlisted("rebases histories with no single merge base")
    fork = bases[0].decode()
    replayed = ("raw", ("log", "--no-merges", "--raw", "-z", "--format=", "--no-renames",
                          "--end-of-options", f"{upstream}..{branch}", "--"))  # fmt: skip
    moved = run.resolves(fork + "^{tree}") != run.resolves(start + "^{tree}")
    checkouts = [_diff_tree(_HEAD, branch), _diff_tree(branch, start)]
    if moved and run(replayed[1]).strip(b"\x00"):
        removes = run(("log", "--no-merges", "--name-only", "-z", "--format=", "--no-renames",
                       "--diff-filter=D", "--end-of-options", f"{upstream}..{branch}",
                       "--"))  # fmt: skip
        if removes.strip(b"\x00") or run.deletes(fork, start):
            return checkouts + _replayed(run, upstream, branch, start)
    return [*checkouts, replayed]


_MAX_REPLAYED = 20  # commits a rebase's listing replays itself


def _replayed(run: _Runner, upstream: str, branch: str, start: str) -> list[Listing]:
    """Each commit of ``upstream..branch`` picked in turn onto ``start`` by git's merge (in
    the store only): what each step writes; a conflict stops the rebase there."""
    commits = run(("rev-list", "--reverse", "--no-merges", "--end-of-options",
                   f"{upstream}..{branch}", "--")).decode().split()  # fmt: skip
    if len(commits) > _MAX_REPLAYED:
        raise _Unlisted(f"replays more than {_MAX_REPLAYED} commits onto a moved base")
    ours = run.resolves(start + "^{tree}")
    if ours is None:
        raise _Unlisted("rebases onto a commit git does not resolve")
    out: list[Listing] = []
    for commit in commits:
        result, conflicted = _merge_result(run, commit + "^", ours, commit)
        out.append(_diff_tree(ours, result))
        if conflicted:
            out.append(("given", tuple(conflicted)))
            break
        ours = result
    return out


_COMPOUND = {
    "worktree": _work_tree_kind,
    "checkout": _checkout_kind,
    "switch": _switch_kind,
    "stash": _stash_kind,
    "merge": _merge_kind,
    "merge3": _merge3_kind,
    "rebase": _rebase_kind,
}


def _flagged(output: bytes) -> list[str]:
    """The entries of ``git ls-files -v`` that ``git diff`` passes over and a checkout from
    the index still writes: assume-unchanged (a lowercase tag) and skip-worktree (``S``)."""
    out = []
    for entry in output.split(b"\x00"):
        if len(entry) > 2 and (entry[:1].islower() or entry[:1] == b"S"):
            out.append(entry[2:].decode("utf-8", "surrogateescape"))
    return out


def _raw(output: bytes) -> list[str]:
    """The names of ``--raw -z`` records (``:old new oid oid status\\0name\\0``). A symbolic
    link written or replaced is not listed: through it, names beneath it lead elsewhere."""
    out: list[str] = []
    fields = output.split(b"\x00")
    i = 0
    while i < len(fields):
        field = fields[i].lstrip(b"\n")
        i += 1
        if not field.startswith(b":"):
            continue
        modes = field[1:].split(b" ")[:2]
        if b"120000" in modes:
            raise _Unlisted("writes a symbolic link into the work tree")
        if i < len(fields):
            out.append(fields[i].decode("utf-8", "surrogateescape"))
            i += 1
    return out


def _tree(output: bytes) -> list[str]:
    """The names of ``ls-tree -r -z`` entries (``mode type oid\\tname``)."""
    out = []
    for entry in output.split(b"\x00"):
        head, _, name = entry.partition(b"\t")
        if not name:
            continue
        if head.startswith(b"120000"):
            raise _Unlisted("writes a symbolic link into the work tree")
        out.append(name.decode("utf-8", "surrogateescape"))
    return out


def _names(output: bytes) -> list[str]:
    return [n.decode("utf-8", "surrogateescape") for n in output.split(b"\x00") if n]


def _numstat(output: bytes) -> list[str]:
    """The names of ``git apply --numstat -z``: ``A\\tD\\tNAME\\0``, or for a rename or copy
    ``A\\tD\\t\\0OLD\\0NEW\\0``."""
    out: list[str] = []
    fields = output.split(b"\x00")
    i = 0
    while i < len(fields):
        field = fields[i]
        i += 1
        if not field:
            continue
        parts = field.split(b"\t", 2)
        if len(parts) != 3:
            raise _Unlisted("applies a patch whose names clearance cannot read")
        if parts[2]:
            out.append(parts[2].decode("utf-8", "surrogateescape"))
        else:
            out += [f.decode("utf-8", "surrogateescape") for f in fields[i : i + 2] if f]
            i += 2
    return out


def _run(
    git: Git,
    base: str,
    argv: Sequence[str],
    *,
    conflicts: bool = False,
    extra: dict[str, str] | None = None,
) -> bytes:
    """git's output; a failure, a time-out or more than :data:`MAX_OUTPUT` bytes is not
    listed (``conflicts``: exit status 1 is a merge's conflicts, not a failure)."""
    status, output, errors = _exited(git, base, argv, extra)
    if status != 0 and not (conflicts and status == 1):
        raise _Unlisted(f"could not be listed by git ({_first_line(errors)})")
    return output


def _found(git: Git, base: str, argv: Sequence[str]) -> bytes | None:
    """git's output, ``None`` for its exit status 1 (nothing found: `rev-parse --verify -q`,
    `config --get-regexp`); any other failure is not listed."""
    status, output, errors = _exited(git, base, argv)
    if status not in (0, 1):
        raise _Unlisted(f"could not be listed by git ({_first_line(errors)})")
    return output if status == 0 else None


def _exited(
    git: Git,
    base: str,
    argv: Sequence[str],
    extra: dict[str, str] | None = None,
    given: bytes = b"",
) -> tuple[int, bytes, bytes]:
    """git's exit status, output and error output (``given``: its input); no repository there
    raises :class:`_NoRepository`, a time-out or more than :data:`MAX_OUTPUT` bytes is not
    listed."""
    import subprocess

    env = _env()
    if extra:
        env.update(extra)
    try:
        done = subprocess.run(_command(git, base, argv), input=given, capture_output=True,
                              timeout=_TIMEOUT, env=env, check=False)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        raise _Unlisted("could not be listed: git did not run") from None
    if done.returncode != 0:
        _no_repository(done.stderr)
    if len(done.stdout) > MAX_OUTPUT:
        raise _Unlisted("writes more names than clearance lists")
    return done.returncode, done.stdout, done.stderr


def _command(git: Git, base: str, argv: Sequence[str]) -> list[str]:
    """git run read-only in ``base`` (with the command's ``--git-dir``/``--work-tree``, which
    git reads relative to it): no fsmonitor hook, no pager, names as they are."""
    program, *relocated = git
    return [program, "-C", base, *relocated, "-c", "core.fsmonitor=false", "-c",
            "core.quotePath=false", "--no-pager", *argv]  # fmt: skip


def _env() -> dict[str, str]:
    """The environment git runs in: the host's (so it finds the repository the command will),
    with no optional locks, no lazy fetch from a promisor remote, no prompt and no external
    diff program."""
    env = dict(os.environ)
    env.update(GIT_OPTIONAL_LOCKS="0", GIT_NO_LAZY_FETCH="1", GIT_TERMINAL_PROMPT="0",
               GIT_PAGER="cat", PAGER="cat", LC_ALL="C")  # fmt: skip
    env.pop("GIT_EXTERNAL_DIFF", None)
    return env


def _no_repository(stderr: bytes) -> None:
    """No repository there (or no such directory for ``-C``): the command fails as well."""
    if stderr.startswith((b"fatal: not a git repository", b"fatal: cannot change to")):
        raise _NoRepository


def _first_line(stderr: bytes) -> str:
    text = stderr.decode("utf-8", "replace").strip().splitlines()
    return text[0][:160] if text else "no reason given"


def _trusted_git(avoid: Sequence[str]) -> str | None:
    """The ``git`` on ``PATH`` in an absolute directory outside each of ``avoid`` (the work
    tree, the working directory, the project: never a program the agent could have put
    there)."""
    inside = [a.rstrip("/") + "/" for a in avoid if a]
    for entry in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not entry.startswith("/"):
            continue
        real = os.path.realpath(entry) + "/"
        if any(real.startswith(place) for place in inside):
            continue
        candidate = os.path.join(real, "git")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None
