"""The files git prints from its store (docs/shell-analysis.md, "Files git prints from its
store"; ADR 0056).

``git show``, ``git log -p``, ``git diff`` and ``git cat-file -p`` print the content of files
as commits, the index or a stash hold them, under names the command never spells: a ``.env``
committed once is printed by ``git log -p`` as ``cat .env`` would print it. As ADR 0051 lists
the names a git command writes, the names these print are listed by git itself (read-only
plumbing, a time bound, nothing configured that runs a program) and each is a read path token
beneath the top of the work tree, which the policy's read rules meet.

:func:`plan` reads the subcommand (no I/O): ``None`` when it prints no stored file's content,
the listing to run, or the floor :data:`~clearance.intent.sentinel.UNLISTED_PRINTED` when the
names cannot be listed ahead (an option clearance does not model, an object read from the
input, a mode that prints every object).
"""

from __future__ import annotations

from clearance.intent.sentinel import UNLISTED_PRINTED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.sentinel import Floor

    Values = Sequence[str | None]

__all__ = ["Plan", "floor", "plan", "raw_format", "tree_path"]

# These print stored files in ways not listed here: their content modes ask.
_UNLISTED = {
    "range-diff": "prints the patches of two ranges of commits",
    "fast-export": "prints every file of the commits it exports",
    "archive": "writes an archive of a tree's files",
    "bundle": "writes the objects of the commits it bundles",
    "diff-tree": "prints the patch of the trees it compares",
    "diff-index": "prints the patch of a tree against the index",
    "diff-files": "prints the patch of the index against the work tree",
    "format-patch": "prints the patches of the commits it formats",
}


class Plan:
    """A listing: the git arguments that print the names (NUL-separated, relative to the top
    of the work tree), the objects whose type must be checked first (a blob's content has no
    name), the words that may name a tree it reads whole (``git grep x HEAD~1``), and, for
    ``git diff`` outside a repository, the two paths it compares; ``stored``: the tracked
    files git reads from the index rather than the work tree (marked assume-unchanged or
    skip-worktree: ``git grep`` of the work tree prints them); ``submodules``: it reads the
    submodules' files too where ``submodule.recurse`` is set (``git grep``)."""

    __slots__ = ("argv", "notes", "objects", "operands", "stored", "submodules", "trees")

    def __init__(
        self,
        argv: tuple[str, ...],
        objects: tuple[str, ...],
        operands: tuple[str, ...] = (),
        trees: tuple[str, ...] = (),
        notes: bool = False,
        stored: bool = False,
        submodules: bool = False,
    ) -> None:
        self.argv = argv
        self.stored = stored
        self.submodules = submodules
        self.objects = objects
        self.operands = operands
        self.trees = trees  # words that may name a tree whose every file is read (`git grep`)
        self.notes = notes  # it shows the notes of the commits it prints (git log, git show)

    @property
    def lists(self) -> bool:
        """Whether git is asked anything beyond what the repository redirects."""
        return bool(self.argv or self.objects or self.trees or self.stored)


def floor(why: str) -> Floor:
    return (UNLISTED_PRINTED, f"{why}: the names of the files git prints are not known")


# Options that shape what is printed, not which files: dropped from the listing. (`=`: the
# option takes its value attached only; a name in _VALUED also takes the next word.)
_FORMAT = frozenset(
    {"--oneline", "--abbrev-commit", "--no-abbrev-commit", "--no-abbrev", "--graph",
     "--no-color", "--stat", "--numstat", "--shortstat", "--name-only", "--name-status", "--raw",
     "--summary", "--compact-summary", "--patch-with-stat", "--patch-with-raw",
     "--relative-date", "--left-right", "--boundary", "--parents", "--children", "--source",
     "--log-size", "--show-signature", "--mailmap", "--no-mailmap", "--use-mailmap",
     "--no-notes", "--no-decorate", "--clear-decorations", "--no-expand-tabs", "--text", "-a",
     "--binary", "--full-index", "--minimal", "--patience", "--histogram", "--no-prefix",
     "--default-prefix", "--exit-code", "--quiet", "--check", "-R", "-w", "-b",
     "--ignore-all-space", "--ignore-space-change", "--ignore-space-at-eol",
     "--ignore-blank-lines", "--ignore-cr-at-eol", "--indent-heuristic",
     "--no-indent-heuristic", "-W", "--function-context", "-p", "-u", "--patch", "-s",
     "--no-patch", "--cc", "-c", "--dd", "-m", "--combined-all-paths", "-t",
     "-r", "--root", "--no-renames", "-M", "-B", "-z", "-q",
     "--no-color-moved", "--no-color-moved-ws", "--no-textconv", "--no-ext-diff",
     "--irreversible-delete", "-D", "--ita-invisible-in-index", "--ita-visible-in-index",
     "--no-relative", "--expand-tabs", "--standard-notes", "--no-standard-notes",
     "--reverse", "--do-walk", "--unified", "--pretty"}
)  # fmt: skip
_FORMAT_PREFIXES = (
    "--format=", "--pretty", "--abbrev=", "--decorate", "--decorate-refs", "--color",
    "--stat=", "--stat-", "--dirstat", "--date=", "--word-diff", "--color-words", "--color-moved",
    "--ws-error-highlight=", "--unified=", "--inter-hunk-context=", "--src-prefix=",
    "--dst-prefix=", "--line-prefix=", "--output-indicator-", "--find-renames",
    "--break-rewrites", "--diff-algorithm=", "--anchored=", "--encoding=",
    "--expand-tabs=", "--show-linear-break", "--output=", "--abbrev", "--cc=",
)  # fmt: skip
# Options that choose which commits, files or lines are printed: given to the listing as the
# command gives them, so it lists what the command prints.
_SELECT = frozenset(
    {"--all", "--branches", "--tags", "--remotes", "--reflog", "-g", "--walk-reflogs", "--not",
     "--merges", "--no-merges", "--first-parent", "--topo-order", "--date-order",
     "--author-date-order", "--full-history", "--dense", "--sparse", "--simplify-merges",
     "--simplify-by-decoration", "--show-pulls", "--ancestry-path", "--cherry-pick",
     "--cherry-mark", "--cherry", "--left-only", "--right-only", "--all-match",
     "--invert-grep", "-i", "--regexp-ignore-case", "-E", "--extended-regexp", "-F",
     "--fixed-strings", "-P", "--perl-regexp", "--no-walk", "--bisect", "--single-worktree",
     "--alternate-refs", "--ignore-missing", "--pickaxe-all", "--pickaxe-regex", "--cached",
     "--staged", "--merge-base", "--ignore-submodules", "--in-commit-order", "--no-min-parents",
     "--no-max-parents", "--exclude-first-parent-only", "--since-as-filter", "--follow",
     "--full-diff", "--include-untracked", "--only-untracked", "--no-include-untracked"}
)  # fmt: skip
_SELECT_PREFIXES = (
    "--branches=", "--tags=", "--remotes=", "--glob=", "--exclude=", "--author=",
    "--committer=", "--grep=", "--grep-reflog=", "--since=", "--after=", "--until=",
    "--before=", "--max-age=", "--min-age=", "--max-count=", "--skip=", "--min-parents=",
    "--max-parents=", "--diff-filter=", "--no-walk=", "--ancestry-path=", "--ignore-submodules=",
    "--since-as-filter=", "--exclude-hidden=",
)  # fmt: skip
# Options whose value may be the next word (`-n 5`, `--author alice`): git reads these with
# `parse_long_opt` or parse-options' required arguments. The others take a value only when it
# is attached (`--pretty=x`, `-U3`, `--notes=ref`): the next word is a revision or a path.
_VALUED = frozenset(
    {"-n", "--max-count", "--skip", "--author", "--committer", "--grep", "--grep-reflog",
     "--since", "--after", "--until", "--before", "--max-age", "--min-age", "-S", "-G", "-O",
     "--glob", "--exclude", "--diff-filter", "--output", "--date", "--decorate-refs",
     "--decorate-refs-exclude", "--src-prefix", "--dst-prefix", "--line-prefix",
     "--inter-hunk-context", "--word-diff-regex", "--color-moved-ws", "--anchored",
     "--diff-algorithm", "--ws-error-highlight"}
)  # fmt: skip
_SELECT_VALUED = frozenset(
    {"-n", "--max-count", "--skip", "--author", "--committer", "--grep", "--grep-reflog",
     "--since", "--after", "--until", "--before", "--max-age", "--min-age", "-S", "-G",
     "--glob", "--exclude", "--diff-filter"}
)  # fmt: skip
# Options that name refs by pattern: `git show --all` prints a tag of a blob as the blob.
_REF_SETS = frozenset(
    {"--all", "--branches", "--tags", "--remotes", "--glob", "--reflog", "--alternate-refs",
     "--exclude-hidden", "--single-worktree", "-g", "--walk-reflogs", "--stdin"}
)  # fmt: skip
# --diff-merges= formats whose files -m lists (not remerge: a conflict's other side).
_DIFF_MERGES = frozenset(
    {"off", "none", "on", "m", "separate", "c", "combined", "cc", "dense-combined",
     "first-parent", "1"}
)  # fmt: skip
# Options that make a command print a patch (the content of files).
_PATCH = frozenset(
    {"-p", "-u", "--patch", "--cc", "-c", "--dd", "--remerge-diff", "--patch-with-stat",
     "--patch-with-raw", "--binary", "-W", "--function-context", "--check", "-m"}
)  # fmt: skip
_PATCH_PREFIXES = ("-U", "--unified", "--word-diff", "--color-words", "--diff-merges=")
# Options after which git diff and git show print no file's content.
_NO_PATCH = frozenset(
    {"-s", "--no-patch", "--name-only", "--name-status", "--stat", "--numstat", "--shortstat",
     "--raw", "--summary", "--compact-summary", "--quiet"}
)  # fmt: skip
_NO_PATCH_PREFIXES = ("--stat=", "--dirstat")


def plan(args: Values) -> Plan | Floor | None:
    """What ``git SUB ARGS…`` (``args[0]`` the subcommand) prints of the stored files."""
    sub = args[0] or ""
    rest = list(args[1:])
    if any(a == "--help" or (a == "-h" and sub != "grep") for a in rest):
        return None  # the usage (grep's -h hides the file names)
    if sub == "grep":
        return _grep(rest)
    if sub in ("log", "whatchanged", "reflog", "show") and _shows_notes(rest):
        return floor("prints notes, whose content clearance does not know")
    if sub in ("log", "whatchanged", "reflog"):
        if sub == "reflog":
            if rest[:1] and rest[0] in ("expire", "delete", "drop", "write", "exists", "list"):
                return None
            if rest[:1] == ["show"]:
                rest = rest[1:]
        notes = "--no-notes" not in rest
        if not _prints_patch(rest, default=False):
            return Plan((), (), notes=True) if notes else None  # notes are any blob
        walk = ("-g",) if sub == "reflog" else ()
        return _listing(rest, ("log", "--format=", "--name-only", "-z", "-m", "--no-renames",
                               "--no-ext-diff", "--no-textconv", *walk), "log", notes)  # fmt: skip
    if sub == "show":
        if any(a is not None and a.partition("=")[0] in _REF_SETS for a in rest):
            return floor("shows every object a set of refs names, blobs among them")
        if not _prints_patch(rest, default=True):
            # no patch, but a blob or a tag of one is still printed whole (`git show -s ID`)
            objects = [e for a in rest if a is not None and a[:1] != "-" and not _tree_path(a)
                       for e in _ends(a)]  # fmt: skip
            return Plan((), tuple(objects), notes="--no-notes" not in rest)
        head = ("log", "--no-walk", "--format=", "--name-only", "-z", "-m", "--no-renames",
                "--no-ext-diff", "--no-textconv")  # fmt: skip
        return _listing(rest, head, "show", "--no-notes" not in rest)
    if sub == "diff":
        if not _prints_patch(rest, default=True):
            return None
        if "--no-index" in rest:
            return None  # two paths compared, each a path operand of the command
        return _listing(rest, ("diff", "--name-only", "-z", "--no-renames", "--no-ext-diff",
                               "--no-textconv"), "diff")  # fmt: skip
    if sub == "cat-file":
        return _cat_file(rest)
    if sub == "stash":
        if rest[:1] == ["list"]:  # takes git log's options: `git stash list -p`
            if not _prints_patch(rest[1:], default=False):
                return None
            listed = ("stash", "list", "--format=", "--name-only", "-z", "-m", "--no-renames",
                      "--no-ext-diff", "--no-textconv")  # fmt: skip
            return _listing(rest[1:], listed, "log")
        if rest[:1] != ["show"]:
            return None
        # (`stash.showPatch` may make a bare `git stash show` print the patch: listed too;
        # its -u is --include-untracked)
        shown = ["--include-untracked" if a == "-u" else a for a in rest[1:]]
        listing = ("stash", "show", "--name-only", "-z", "--no-renames", "--no-ext-diff",
                   "--no-textconv")  # fmt: skip
        return _listing(shown, listing, "stash")
    why = _UNLISTED.get(sub)
    if why is None:
        return None
    if sub in ("diff-tree", "diff-index", "diff-files") and not _prints_patch(rest, False):
        return None  # names and modes only
    if sub == "format-patch" and "--stdout" not in rest:
        return None  # writes patch files: their names are path tokens of their own
    return floor(why)


def _prints_patch(rest: Sequence[str | None], default: bool) -> bool:
    """Whether the options print file content: a patch option, or (``default``) no option
    that prints names or counts only."""
    patch = False
    quiet = False
    for arg in rest:
        if arg is None:
            return True  # computed: may be -p
        if arg == "--":
            break
        if arg in _PATCH or arg.startswith(_PATCH_PREFIXES):
            patch = True
        elif arg.startswith(("-S", "-G", "-I", "--pickaxe", "--ignore-matching-lines")):
            patch = True  # it searches the files' content: an answer tells what they hold
        elif arg in _NO_PATCH or arg.startswith(_NO_PATCH_PREFIXES):
            quiet = True
        elif arg[:1] == "-" and arg[1:2] not in ("", "-"):
            cluster = arg[1:]  # `-pn3`: short options together, a valued one takes the rest
            for i, letter in enumerate(cluster):
                if letter in "puWcULSGI":
                    patch = True
                if letter in "nSGOLUlMCB" and i + 1 < len(cluster):
                    break
                if letter == "s":
                    quiet = True
    return patch or (default and not quiet)


def _shows_notes(rest: Sequence[str | None]) -> bool:
    """Whether the command asks for notes by name or format (``--notes=ref``, ``%N``): a note
    is any blob, a secret's among them."""
    for arg in rest:
        if arg is None or arg == "--":
            return arg is None
        if arg.startswith(("--notes", "--show-notes", "--standard-notes")) or (
            arg.startswith(("--format", "--pretty")) and "%N" in arg
        ):
            return True
    return False


# git grep's options whose value is the next word.
_GREP_VALUED = frozenset(
    {"-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--max-depth", "--threads", "--context",
     "--after-context", "--before-context"}
)  # fmt: skip


def _grep(rest: Sequence[str | None]) -> Plan | Floor | None:
    """``git grep``: the work tree is a recursive read of its own; a revision or tree it is
    given is read whole (every file of it), and so is the index with ``--cached``."""
    words: list[str] = []
    pattern_given = False
    cached = False
    no_index = False
    i = 0
    while i < len(rest):
        arg = rest[i]
        i += 1
        if arg is None:
            return floor("runs with a computed word")
        if arg == "--":
            break
        name = arg.partition("=")[0]
        if arg[:1] != "-" or arg == "-":
            words.append(arg)
        elif arg[:2] == "--":
            # parse-options takes any unique prefix of a long option (`--cach`, `--recurse`)
            if len(name) >= 5 and "--recurse-submodules".startswith(name):
                return floor("reads the submodules' trees")
            if len(name) >= 5 and "--cached".startswith(name):
                cached = True
            elif len(name) >= 6 and "--no-index".startswith(name):
                no_index = True
            elif name in _GREP_VALUED and "=" not in arg:
                i += 1
        else:  # `-ie PATTERN`, `-ieX`, `-iA 3`: a letter that takes a value takes the rest
            for at, letter in enumerate(arg[1:], 1):
                if letter in "efABCm":
                    pattern_given = pattern_given or letter in "ef"
                    if at == len(arg) - 1:
                        i += 1  # the value is the next word
                    break
    trees = tuple(words if pattern_given else words[1:])
    listing = ("ls-files", "-z", "--full-name", "--cached") if cached else ()
    # The work tree (unless a word is a revision): an entry marked assume-unchanged or
    # skip-worktree is read from the index.
    stored = not (cached or no_index)
    return Plan(listing, (), trees=trees, stored=stored, submodules=True)


def _cat_file(rest: Sequence[str | None]) -> Plan | Floor | None:
    if any(a is None for a in rest):
        return floor("prints an object named by a computed word")
    options = [a for a in rest if a is not None and a[:1] == "-"]
    objects = [a for a in rest if a is not None and a[:1] != "-"]
    if any(_batch_prints(o.partition("=")[0]) for o in options):
        return floor("prints the objects named in its input")
    if any(o in ("-t", "-s", "-e") or o.startswith("--batch-ch") for o in options):
        return None  # a type, a size, whether it exists
    if not objects:
        return None
    if len(objects) == 2:
        objects = objects[1:]  # `git cat-file blob OBJ`
    if all(_tree_path(o) for o in objects):
        return Plan((), ())  # `HEAD:.env`: a path token of its own (unless objects are replaced)
    return Plan((), tuple(objects))  # content only for what is not a blob


def tree_path(value: str) -> str | None:
    """The path of ``REV:path``, ``:path`` or ``:N:path`` (the index) as git reads it: after
    the first colon outside braces (``HEAD^{/fix: x}`` and ``main@{1 day ago}`` are
    revisions); ``None`` for a word that names no file of a tree, and for ``:/text`` (the
    newest commit whose message matches)."""
    if value[:2] == ":/":
        return None
    if value[:1] == ":":
        rest = value[1:]
        return rest[2:] if rest[:1] in ("0", "1", "2", "3") and rest[1:2] == ":" else rest
    depth = 0
    for at, char in enumerate(value):
        if char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        elif char == ":" and not depth:
            return value[at + 1 :]
    return None


def _batch_prints(name: str) -> bool:
    """``--batch``, ``--batch-command`` and any abbreviation git takes for one (``--batch-co``):
    not ``--batch-check`` or ``--batch-all-objects``, which print no content."""
    if not name.startswith("--batch"):
        return False
    if len(name) >= 10 and "--batch-check".startswith(name):
        return False
    return not (len(name) >= 9 and "--batch-all-objects".startswith(name))


def _tree_path(value: str) -> bool:
    """A file's path in a tree: already a read path token of its own."""
    return tree_path(value) is not None


def _listing(
    rest: Sequence[str | None], head: tuple[str, ...], sub: str, notes: bool = False
) -> Plan | Floor:
    """The listing of ``git SUB REST`` (``head`` the listing's own start): every option the
    command gives that chooses what is printed, then its revisions and paths as given."""
    kept: list[str] = []
    positional: list[str] = []
    tail: tuple[str, ...] = ()  # `--` and the paths after it, when the command has them
    objects: list[str] = []
    i = 0
    count = len(rest)
    while i < count:
        arg = rest[i]
        i += 1
        if arg is None:
            return floor("runs with a computed word")
        if arg == "--":
            if any(a is None for a in rest[i:]):
                return floor("runs with a computed path")
            tail = ("--", *(a for a in rest[i:] if a is not None))
            break
        if arg == "--stdin":
            return floor("reads its revisions from its input")
        if arg[:1] != "-" or arg == "-":
            positional.append(arg)
            continue
        name = arg.partition("=")[0]
        takes_next = name in _VALUED and "=" not in arg
        short = arg[:2] if arg[1:2] != "-" else None
        if short is not None and len(arg) > 2 and short in _VALUED:
            takes_next = False  # `-n5`, `-Sfoo`: the value attached
        if takes_next:
            if i >= count or rest[i] is None:
                return floor(f"passes {arg} with a computed value")
            value = rest[i]
            i += 1
            if name in _SELECT_VALUED:
                kept += [arg, value]  # type: ignore[list-item]
            continue
        if arg.isdigit() or (arg[1:].isdigit()):  # `-3`: at most three commits
            kept.append(arg)
            continue
        if short in _SELECT_VALUED and len(arg) > 2:
            kept.append(arg)
            continue
        if arg in _SELECT or arg.startswith(_SELECT_PREFIXES):
            kept.append(arg)
            continue
        if name == "--diff-merges" and arg.partition("=")[2] in _DIFF_MERGES:
            continue  # which parents a merge is shown against: -m lists them all
        if (
            arg in _FORMAT
            or arg.startswith(_FORMAT_PREFIXES)
            or (short is not None and short in ("-U", "-l", "-M", "-B", "-O"))
            or (short is not None and _format_cluster(arg))
        ):
            continue
        return floor(f"passes {arg}, an option clearance does not model")
    for value in positional:
        if _tree_path(value):
            continue  # a file of a tree: a read path token already
        objects.extend(_ends(value))
    if sub == "show":
        listed = [v for v in positional if not _tree_path(v)]
        if positional and not listed:
            return Plan((), tuple(objects))  # only files of trees: nothing more printed
        if not listed:
            listed = ["HEAD"]
        return Plan((*head, *kept, *listed, *tail), tuple(objects), notes=notes)
    operands = tuple(positional) if sub == "diff" and len(positional) == 2 else ()
    return Plan((*head, *kept, *positional, *tail), tuple(objects), operands, notes=notes)


def _format_cluster(arg: str) -> bool:
    """``-pz``, ``-pw``: short flags that each only shape the output."""
    return all(f"-{letter}" in _FORMAT for letter in arg[1:])


def _ends(value: str) -> list[str]:
    """The objects a revision names: both ends of ``A..B``/``A...B``, ``A`` of ``^A``, ``A^@``,
    ``A^!``, ``A^-N`` (an empty end is HEAD)."""
    for marker in ("...", ".."):
        if marker in value:
            a, _, b = value.partition(marker)
            return [a or "HEAD", b or "HEAD"]
    value = value.removeprefix("^")
    for suffix in ("^@", "^!"):
        value = value.removesuffix(suffix)
    head, dash, number = value.rpartition("^-")
    if dash and (number.isdigit() or not number):
        value = head
    return [value] if value else []


def raw_format(args: Values) -> Floor | None:
    """The floor for ``git tag``/``branch``/``for-each-ref --format`` with ``%(raw)``: the
    object a ref names printed whole, a blob's content among them (``git tag -l
    --format='%(*raw)'``)."""
    from clearance.intent.shell.hazards.finding import option_values

    for _, value in option_values(args, "", ("--format",)):
        if value is None or "raw" in value:
            return floor("prints the objects refs name (--format with %(raw))")
    return None
