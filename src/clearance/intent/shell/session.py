"""The reading of one bash command line behind :func:`clearance.intent.shell.analyze`: the
session of one analysis (its payloads, nested programs and salvage parses) and the facts of the
whole line (globs, history expansion, the hook's token, git's store changed).

Compiled with the rest of the shell analysis (docs/decisions/0058-hot-modules-compiled.md);
:mod:`clearance.intent.shell.analysis` holds the entry point, which turns any failure here into
the fail-closed analysis.
"""

from __future__ import annotations

import os

from clearance.intent.sentinel import PROTECTED, REPLAYED, UNLISTED_PRINTED, UNMODELLED
from clearance.intent.shell.analyzed import Analysis
from clearance.intent.shell.assembly import MAX_LAYERS, Assembly
from clearance.intent.shell.cd import normalise_cwd
from clearance.intent.shell.continuation import joined, touches_expansion
from clearance.intent.shell.line import Line
from clearance.intent.shell.literal import literal_line
from clearance.intent.shell.source import Source
from clearance.intent.shell.statement import Scope
from clearance.intent.shell.token import PathToken, merge
from clearance.intent.shell.unit import Unit
from clearance.policy.protected import HOOK_TOKEN_VARIABLE, STATE_REASON

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from types import ModuleType

    from tree_sitter import Node

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.hazards import Finding
    from clearance.intent.shell.statement import Statement
    from clearance.intent.shell.walk import Walk

__all__ = ["analyze_line", "reassigns"]

# os.environ's own table (names encoded as the OS keeps them): a name absent from it is looked
# up without the two KeyErrors `os.environ.get` raises and catches on the way.
_ENVIRON_OF = os.environ
_ENVIRON: dict[object, object] | None = getattr(os.environ, "_data", None)
_CDPATH = os.fsencode("CDPATH") if os.name == "posix" else "CDPATH"
MAX_SALVAGE = 16
# Lines of literal words are read without the parser; the tests turn that off to compare.
PLAIN_READER = True
MAX_NESTED = 32  # programs parsed out of heredoc bodies, per analysis
_IDENT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_USE = frozenset("${#!")
_GLOB_CHANGED = ("shopt", "GLOBIGNORE", "set -f", "set +f", "noglob", "set -o", "set +o")
_GLOB_OPTIONS = (
    UNMODELLED,
    "runs in a line that changes how bash expands globs (shopt, GLOBIGNORE, set -f), which "
    "clearance does not follow",
)
_GLOB_MARKS = frozenset("*?[")
# `set -H` / `set -o histexpand`: bash expands `!!`, `!$`, `^old^new` in the lines it reads
# afterwards, replaying (and rewriting) earlier commands: `echo -rf x` then `^echo^rm`.
_HISTORY_MARKS = frozenset("!^")
_HISTORY = (
    REPLAYED,
    "runs in a line that turns on history expansion (set -H), which replays and rewrites "
    "earlier commands where a later line holds ! or ^",
)


_PRINTED = (
    UNLISTED_PRINTED,
    "prints files from git's store beside a git command that changes what it holds: "
    "the names of the files git prints are not known",
)
# Clearance's hook token is in the environment of every command a host whose settings' `env`
# holds it runs: a line that names the variable (`echo $CLEARANCE_HOOK_TOKEN`, `[[ $… == a* ]]`, a
# continuation inside the name) reads it. Textual and over-approximate, like `reassigns`.
_TOKEN = (PROTECTED, f"names {HOOK_TOKEN_VARIABLE}: {STATE_REASON}")


def _names_token(command: str) -> bool:
    return HOOK_TOKEN_VARIABLE in command.replace("\\\n", "")  # a continuation joins words


def _histexpand(command: str) -> bool:
    """Whether ``command`` may turn on history expansion: it names ``histexpand``, or a ``set``
    word is followed (before a separator) by an option cluster holding ``H``. Over-approximate:
    quoting is not looked at."""
    if "histexpand" in command:
        return True
    at = command.find("set")
    while at >= 0:
        if at == 0 or not (command[at - 1].isalnum() or command[at - 1] == "_"):
            end = at + 3
            while end < len(command) and command[end] not in ";&|\n":
                end += 1
            for word in command[at + 3 : end].split():
                if word[:1] == "-" and word[1:2] != "-" and "H" in word:
                    return True
        at = command.find("set", at + 3)
    return False


def _globs(command: str) -> bool:
    return not _GLOB_MARKS.isdisjoint(command) or "@(" in command or "!(" in command


_UNJOINED = (
    UNMODELLED,
    "continues a line inside an expansion, in a line with a here-document, which clearance "
    "does not join",
)


# Builtins that assign the variables their words name, after the words are expanded
# (`export {H,}OME=x` sets HOME; `read "HO"ME` reads into it).
_NAMING = ("export", "declare", "typeset", "local", "readonly", "read", "mapfile", "readarray",
           "printf", "getopts", "let", "unset")  # fmt: skip


def reassigns(command: str, name: str) -> bool:
    """Whether ``name`` may be assigned anywhere in ``command``: it appears as a bare word or
    before ``=``/``+=``/``[`` rather than only as ``$NAME``/``${NAME}``, also once quotes and
    backslashes are removed (``export "HO"ME=x``); or a builtin that names variables by its
    words stands beside a brace list or ``$'…'``, which may spell any name (``export
    {H,}OME=x``). Deliberately over-approximate (``echo HOME`` counts): the cost is a missed
    expansion, never a wrong one."""
    if _names(command, name):
        return True
    if not any(mark in command for mark in "'\"\\{"):
        return False
    plain = command.replace("'", "").replace('"', "").replace("\\", "")
    if plain != command and _names(plain, name):
        return True
    if "$'" not in command and not _brace_list(command):
        return False
    from clearance.intent.shell.script import names_a_word  # only for such a line

    return names_a_word(command, _NAMING)


def _brace_list(command: str) -> bool:
    """Whether ``command`` may hold a brace expansion: a ``{`` not after ``$`` with a ``,`` or
    ``..`` before the next ``}``."""
    at = command.find("{")
    while at >= 0:
        end = command.find("}", at)
        if end < 0:
            return False
        inner = command[at + 1 : end]
        if (at == 0 or command[at - 1] != "$") and ("," in inner or ".." in inner):
            return True
        at = command.find("{", at + 1)
    return False


def _names(command: str, name: str) -> bool:
    start = command.find(name)
    size = len(name)
    while start >= 0:
        before = command[start - 1] if start else " "
        end = start + size
        after = command[end] if end < len(command) else " "
        free = before not in _IDENT and before not in _USE and before != "/"
        if free and after not in _IDENT and after not in "/}:":
            return True
        start = command.find(name, end)
    return False


def analyze_line(
    command: str, cwd: str | None, home: str, exists: Callable[[str], bool]
) -> Analysis:
    """The analysis of ``command`` (see :func:`clearance.intent.shell.analyze`); may raise."""
    if not command.strip():
        return Analysis(command, (), (), False, False)
    home_reassigned = reassigns(command, "HOME")
    pwd_ok = not reassigns(command, "PWD")
    home = home.rstrip("/") or "/"
    session = _Session(home, not home_reassigned, pwd_ok, _memo(exists))
    session.cwd = cwd
    # `cd name` searches CDPATH first when it is set, in the line or inherited.
    session.cdpath = _sets_cdpath(command) or _inherits_cdpath()
    # A line of one command copies by a glob what is on disk now; else another statement may
    # make a file the glob matches first (``Line.alone``), and the line is read again.
    top = session.line.top = normalise_cwd(cwd)
    session.line.alone = True
    asm, comments_only, _ = session.run(command, "", Scope(None, top), 0, False)
    if session.line.globbed and not _alone(asm.units, asm.tokens):
        session = _Session(home, not home_reassigned, pwd_ok, session.exists)
        session.cwd = cwd
        session.cdpath = _sets_cdpath(command) or _inherits_cdpath()
        asm, comments_only, _ = session.run(command, "", Scope(None, top), 0, False)
    made = session.line
    if made.aliases or made.overflow:
        # A name made anywhere in the line may exist before a path typed earlier is opened: the
        # elements of a pipeline, a process substitution and a background job run at once
        # (`(sleep 1; cat up/.ssh/id_rsa) | ln -s .. up`). So the line is read again with every
        # name it makes known from its start.
        again = _Session(home, not home_reassigned, pwd_ok, session.exists)
        again.cdpath = session.cdpath
        again.cwd = cwd
        again.line.aliases = list(made.aliases)
        again.line.overflow = made.overflow
        again.line.alone = made.alone
        again.line.top = top
        asm, comments_only, _ = again.run(command, "", Scope(None, normalise_cwd(cwd)), 0, False)
        made = again.line
    units = tuple(asm.units)
    if made.printed and made.git_changed:
        # A git command of the line changes what git holds, later or at once: what the git
        # commands that print its files print is not what git listed (ADR 0056).
        printed = set(made.printed)
        units = tuple(u.replace(floor=_PRINTED) if u.text in printed and not u.floor else u
                      for u in units)  # fmt: skip
    if _globs(command) and any(mark in command for mark in _GLOB_CHANGED):
        # The line changes how bash expands globs (dotglob, nocaseglob, extglob, globstar,
        # GLOBIGNORE, set -f …): its globbed words are not read as bash will read them.
        units = tuple(u if u.floor else u.replace(floor=_GLOB_OPTIONS) for u in units)
    if "set" in command and not _HISTORY_MARKS.isdisjoint(command) and _histexpand(command):
        units = tuple(u if u.floor else u.replace(floor=_HISTORY) for u in units)
    if _names_token(command):
        units = tuple(u if u.floor else u.replace(floor=_TOKEN) for u in units)
    unparseable = not units and not comments_only
    makes = {path: PathToken(raw, path, "unproven", "unproven", text)
             for path, raw, text in made.makes}  # fmt: skip
    return Analysis(command, units, merge(asm.tokens), unparseable, home_reassigned,
                    tuple(makes.values()))  # fmt: skip


def _misread(root: Node, data: bytes) -> bool:
    from clearance.intent.shell.misread import misread  # with the tree, as walk is

    return misread(root, data)


def _alone(units: Sequence[Unit], tokens: Sequence[PathToken]) -> bool:
    """Whether the line is one command: every unit after the first is one its wrappers run.
    A plain ``cd`` before it counts for nothing (``cd docs && git mv *.jpg ui/``): changing
    directory makes no file a glob could match. Not one with a redirect that may write
    (``cd . 2>'-f.txt'`` makes the very name)."""
    writes = {t.command for t in tokens if t.effect != "read" and t.path != "/dev/null"}
    rest = [u for u in units if not _makes_nothing(u, writes)]
    return all(u.context == "wrapped" for u in rest[1:])


def _makes_nothing(unit: Unit, writes: set[str]) -> bool:
    """Whether ``unit`` makes no file of its own before the command after it runs: a plain
    ``cd``, at the top of the line or of a shell's literal script, and a shell whose literal
    script was read as typed commands (``zsh -lc 'rg x *.py'``: the script's commands are units
    of their own). Not one with a redirect that may write, and not a script with ``**``, which
    zsh reads as any depth of directories where this reading of the disk takes one."""
    if unit.text in writes or unit.context not in ("", "opaque_payload"):
        return False
    if unit.argv[:1] == ("cd",):
        return True
    return unit.exemption == "shell-script" and "**" not in unit.text


def _sets_cdpath(command: str) -> bool:
    """Whether ``command`` may set the directories ``cd`` searches: bash's ``CDPATH``, or zsh's
    ``cdpath`` array tied to it, by any spelling :func:`reassigns` reads (``export CD"PATH"=…``)."""
    return "CDPATH" in command or "cdpath" in command or reassigns(command, "CDPATH")


def _inherits_cdpath() -> bool:
    """Whether the environment sets ``CDPATH`` (to anything but the empty string)."""
    if _ENVIRON is not None and os.environ is _ENVIRON_OF and _CDPATH not in _ENVIRON:
        return False
    return bool(os.environ.get("CDPATH"))


def _memo(exists: Callable[[str], bool]) -> Callable[[str], bool]:
    """``exists`` asked at most once per path in one analysis (spelling and projection share);
    any failure (bad bytes, NUL, a raising callback) means no."""
    known: dict[str, bool] = {}

    def cached(path: str) -> bool:
        hit = known.get(path)
        if hit is None:
            try:
                hit = bool(exists(path))
            except Exception:
                hit = False
            known[path] = hit
        return hit

    return cached


# The parser module and the tree walk, imported on the first line that needs them.
_TREE: list[tuple[ModuleType, type[Walk]]] = []


def _load_tree() -> tuple[ModuleType, type[Walk]]:
    from clearance.intent.shell import parser
    from clearance.intent.shell.walk import Walk

    _TREE[:] = [(parser, Walk)]
    return _TREE[0]


# git's repository discovery and the project's top, imported on the first git unit.
_GIT: list[tuple[Callable[..., Floor | None], Callable[[str, str], str]]] = []


def _load_git() -> tuple[Callable[..., Floor | None], Callable[[str, str], str]]:
    from clearance.intent.boundary import project_root
    from clearance.intent.shell.git_discovery import repository_floor

    _GIT[:] = [(repository_floor, project_root)]
    return _GIT[0]


class _Session:
    """Shared settings of one analysis, including recursive payload and salvage parses."""

    __slots__ = ("cdpath", "cwd", "exists", "home", "home_ok", "line", "nests", "pwd_ok", "root",
                 "salvages", "settles")  # fmt: skip

    def __init__(self, home: str, home_ok: bool, pwd_ok: bool, exists: Callable[[str], bool]):
        self.cdpath = False  # CDPATH may be set: `cd name` may go elsewhere than ./name
        self.home = home
        self.home_ok = home_ok
        self.pwd_ok = pwd_ok
        self.exists = exists
        self.salvages = 0
        self.nests = 0
        self.line = Line()  # what earlier statements made or wrote, for later ones
        self.cwd: str | None = None  # the line's own working directory
        self.root: str | None = None  # its project's top, found on the first git unit
        # The depth of literal scripts whose loops are settled (0: the line's own; 1: the
        # script of the one shell the line runs, `loop.one_shell`; and so on).
        self.settles = 0

    def run(
        self,
        text: str,
        context: str,
        scope: Scope,
        depth: int,
        payload: bool,
        script: bool = False,
    ) -> tuple[Assembly, bool, bool]:
        """Read and assemble ``text`` (``script``: a shell's literal script, read whole):
        (assembly, only comments?, parsed cleanly?)."""
        # The line itself, or a literal script whose loops are settled (`_settle`).
        settles = depth == self.settles and not payload and (script if depth else not context)
        unjoined = False
        if "\\\n" in text:
            flat = joined(text)  # bash removes line continuations before it reads words
            if flat is not None:
                text = flat
            else:
                unjoined = touches_expansion(text)
        simple = literal_line(text, context, scope) if PLAIN_READER else None
        if simple is not None:
            # Commands of literal words: bash's reading is fixed without a tree.
            if settles and "sh" in text:
                self._settle(simple, text, scope, depth)
            asm = self._assembly(depth, payload)
            for stmt in simple:
                asm.add(stmt)
            asm.finish()
            return asm, False, True
        # Anything else takes the parser (tree-sitter loads on the first such line).
        parser, Walk = _TREE[0] if _TREE else _load_tree()
        src = Source(text)
        root = parser.parse(src.parsed)
        if "<<" in text or " - " in text:
            # Shapes the grammar misreads (a heredoc followed by redirects and a pipe on its
            # line, a bare `-` before a redirect), respelled as bash reads them.
            from clearance.intent.shell.respell import respell  # only for the lines that may

            again = respell(text)
            if again is not None:
                other = Source(again)
                tree = parser.parse(other.parsed)
                if not tree.has_error or root.has_error:
                    text, src, root = again, other, tree
        walk = Walk(src, self.home_ok, self.pwd_ok)
        walk.run(root, context, scope)
        if settles:
            self._settle(walk.statements, text, scope, depth)
        asm = self._assembly(depth, payload)
        for stmt in walk.statements:
            asm.add(stmt)
        asm.finish()
        if walk.salvage and depth == 0:
            self._salvage(src, walk, asm)
        if unjoined:
            asm.units[:] = [u if u.floor else u.replace(floor=_UNJOINED) for u in asm.units]
        clean = not root.has_error
        if _misread(root, src.parsed):
            # The grammar read the line otherwise than bash (`echo \ #; rm x`, `$'\\'; rm x
            # #'`): what it hides is not known, so the whole line is unresolved.
            asm.units[:] = [u.replace(unresolved=True) for u in asm.units]
            clean = False
        return asm, not walk.statements and clean, clean

    def _settle(self, statements: list[Statement], text: str, scope: Scope, depth: int) -> None:
        """Settle the loops of the line, or of the literal script of the one shell it runs
        beside statements that make nothing (`zsh -lc '…'`, and a shell that script runs so):
        the whole text is known, and so are a loop's unquoted uses of a pattern's values."""
        if any(stmt.waiting is not None for stmt in statements):
            from clearance.intent.shell.loop import settle  # only for the loops that need it

            settle(statements, scope.base)
        if "sh" in text:  # (every shell whose script is read is named so)
            from clearance.intent.shell.loop import one_shell

            if one_shell(statements):
                self.settles = depth + 1

    def _assembly(self, depth: int, payload: bool) -> Assembly:
        return Assembly(
            self.home,
            self.home_ok,
            self.exists,
            self.payload,
            self.nested,
            project=not payload,
            depth=depth,
            cdpath=self.cdpath,
            scripts=None if payload else self.script,
            line=self.line,
            repository=None if payload else self.repository,
        )

    def repository(
        self, finding: Finding, base: str | None, tokens: Sequence[PathToken]
    ) -> Floor | None:
        """The floor of a git unit run in ``base`` after the path ``tokens`` of its line: a
        repository it would use inside the project that is not the project's own (ADR 0040)."""
        cwd = self.cwd
        if cwd is None or cwd[:1] != "/":
            return None
        repository_floor, project_root = _GIT[0] if _GIT else _load_git()
        if self.root is None:
            self.root = project_root(cwd, self.home)
        # What earlier statements write, and every path they name but do not only read (a
        # directory `mkdir` makes is no file written, but it makes a repository's layout).
        made = [(t.path, t.raw) for t in tokens if t.effect != "read"]
        written = [*self.line.written, *made] if made else self.line.written
        return repository_floor(finding, base, self.root, self.home, written, self.home_ok)

    def script(
        self, text: str, base: str | None, depth: int
    ) -> tuple[list[Unit], list[PathToken]] | None:
        """A shell's literal script (``bash -lc 'cmd'``) read as typed commands in a fresh shell
        started in ``base``: its units and path tokens, or ``None`` when any of it is not
        understood (a parse error, an unresolved unit), which keeps the shell opaque."""
        if depth > MAX_LAYERS:
            return None
        asm, _, clean = self.run(text, "opaque_payload", Scope(None, base), depth, False, True)
        if not clean or not asm.units or any(u.unresolved for u in asm.units):
            return None
        return asm.units, asm.tokens

    def payload(self, text: str, stmt: Statement, depth: int) -> list[Unit]:
        """Units of a literal opaque payload (``bash -c '…'``, ``eval …``)."""
        if depth > MAX_LAYERS or not text.strip():
            return []
        asm, _, _ = self.run(text, "opaque_payload", Scope(None), depth, True)
        if not stmt.unresolved:
            return asm.units
        return [u.replace(unresolved=True) for u in asm.units]

    def nested(
        self, stmt: Statement, depth: int, project: bool
    ) -> tuple[list[Unit], list[PathToken]]:
        """Units and tokens of program text the walk found outside the tree (a substitution in
        a heredoc body), parsed in the statement's own shell and context."""
        if self.nests >= MAX_NESTED:
            return [Unit(stmt.text, context=stmt.context, unresolved=True)], []  # type: ignore[arg-type]
        self.nests += 1
        asm, _, _ = self.run(stmt.text, stmt.context, stmt.scope, depth, not project)
        if not stmt.unresolved:
            return asm.units, asm.tokens
        return [u.replace(unresolved=True) for u in asm.units], asm.tokens

    def _salvage(self, src: Source, walk: Walk, asm: Assembly) -> None:
        """Re-parse error regions; commands of a region that parses cleanly are kept."""
        seen: set[tuple[str, str]] = {(u.text, u.context) for u in asm.units}
        whole = (0, len(src.data))
        tried: set[tuple[int, int]] = set()
        for start, end, context in walk.salvage:
            if (start, end) in tried or (start, end) == whole or self.salvages >= MAX_SALVAGE:
                continue
            tried.add((start, end))
            text = src.slice(start, end)
            if not text.strip():
                continue
            self.salvages += 1
            inner, _, clean = self.run(text, context, Scope(None), 1, False)
            if not clean:
                continue
            for unit in inner.units:
                if (unit.text, unit.context) in seen:
                    continue
                seen.add((unit.text, unit.context))
                asm.units.append(unit.replace(unresolved=True, salvaged=True))
            asm.tokens.extend(inner.tokens)
