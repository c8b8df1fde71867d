"""``cd``, ``pushd`` and ``popd`` folded into the effective directory of the statement's shell
(docs/shell-analysis.md, "Paths"): a literal target is resolved against the directory so far;
``popd``, a computed target, or a name ``CDPATH`` may be searched for makes it unknown.

A ``cd`` that may not take effect (it may not run: after ``&&`` or ``||``, in a branch, a loop
or a function body; or it may fail: its target is no searchable directory now) leaves the
shell in one of two directories, so the base becomes unknown — except for the rest of its
``&&`` chain, which runs only where it took effect (``cd build && make``). A loop whose body
changes directory runs its body from an unknown base (ADR 0046)."""

from __future__ import annotations

from clearance.intent.path import normal_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.shell.statement import Statement
    from clearance.intent.shell.word import Word

__all__ = [
    "CHANGES_DIRECTORY",
    "base_of",
    "branch",
    "cd_words",
    "fold_cd",
    "normalise_cwd",
    "operand",
]

# zsh's `chdir` is its `cd`; to bash it is no command (the directory stays): either way the
# directory after it is not known.
CHANGES_DIRECTORY = frozenset({"cd", "pushd", "popd", "chdir"})
_IN_THIS_SHELL = ("builtin", "command", "time")  # run the builtin after them in this shell
_NOT_SEARCHED = ("/", "./", "../", "~")  # cd targets CDPATH is never searched for


def cd_words(words: Sequence[Word]) -> Sequence[Word] | None:
    """The words of the ``cd``-like command ``words`` runs in this shell (``builtin cd x``,
    ``command cd x``, ``time cd x`` run ``cd x``), or ``None`` when it runs none."""
    i = 0
    while i < len(words) and words[i].value in _IN_THIS_SHELL:
        i += 1
        while i < len(words) and (value := words[i].value or "")[:1] == "-" and value != "-":
            i += 1
            if value == "--":
                break  # `command -- cd ..`
            if value.strip("p") != "-" or words[i - 2].value == "builtin":
                # `command -v cd`: prints, runs none; another option (and any but `--` to
                # `builtin`): an error
                return None
    if i < len(words) and words[i].value in CHANGES_DIRECTORY:
        return words[i:]
    return None


def operand(
    statements: Sequence[Statement], first: int, chain: object | None, maybe: bool, kind: str
) -> None:
    """Mark the statements walked for one operand of an and-or list, from index ``first``:
    ``maybe`` when it follows ``&&`` or ``||``; a simple command (``kind``) of the list's
    leading ``&&`` chain takes ``chain``, so a ``cd`` in it holds for the rest of the chain."""
    if maybe:
        for stmt in statements[first:]:
            stmt.maybe = True
    if (
        chain is not None
        and kind in ("command", "redirected_statement")
        and first < len(statements)
    ):
        stmt = statements[first]
        if stmt.kind == "simple":
            stmt.chain = chain


def branch(statements: Sequence[Statement], first: int, loop: Statement | None) -> None:
    """Mark the statements of a body that may not run (a branch, a loop or a function body),
    from index ``first``; ``loop``: the loop statement, which makes the base unknown for its
    body when the body changes its own shell's directory (the next pass starts there)."""
    for stmt in statements[first:]:
        stmt.maybe = True
        if loop is not None and stmt.scope is loop.scope and cd_words(stmt.words) is not None:
            loop.unsettles = True


def base_of(stmt: Statement) -> str | None:
    """The directory ``stmt`` runs in (``None``: unknown), as its shell's base stands when the
    statements before it have run."""
    scope = stmt.scope
    if scope.pending is not None and stmt.chain is not scope.pending:
        # Past the `&&` chain of a `cd` that may not have taken effect: either directory.
        scope.pending = None
        scope.ready = True
        scope.base = None
    base = scope.current()
    if stmt.unsettles:
        scope.base = None  # its body runs again after its own `cd`: from either directory
    return None if stmt.salvaged else base


def fold_cd(
    words: Sequence[Word],
    stmt: Statement,
    base: str | None,
    cdpath: bool,
    resolve: Callable[[Word, str | None], str | None],
    exists: Callable[[str], bool],
) -> None:
    """Set the base of ``stmt``'s shell to where the ``cd``-like command ``words`` leaves it,
    from ``base``; ``cdpath``: whether ``CDPATH`` may be set; ``resolve`` reads a word as a
    path; ``exists`` tells whether a path names an existing entry."""
    scope = stmt.scope
    name = words[0].value
    target: Word | None = None
    operands = 0
    stays = False  # `pushd -n DIR` adds DIR to the stack and stays
    for word in words[1:]:
        value = word.value
        if operands == 0 and value is not None and value.startswith("-") and value != "-":
            stays = stays or (name == "pushd" and "n" in value)
            continue  # -P, -L, -e, -@
        target = target or word
        operands += 1
    if (
        name in ("popd", "chdir")
        or target is None
        or operands > 1
        or stays
        or (target.value or "")[:1] == "+"
    ):
        # `cd OLD NEW`: bash refuses it, zsh goes where NEW replaces OLD in $PWD (`cd proj .ssh`
        # from ~/proj is ~/.ssh); `cd +1`, `pushd +1` (and zsh's `cd -1`, read as an option
        # above) pick an entry of the directory stack: either way the base is not known.
        scope.base = None
        return
    value = target.value
    searched = value is not None and not value.startswith(_NOT_SEARCHED)
    if cdpath and searched and value not in (".", ".."):
        scope.base = None  # CDPATH is searched before ./name: the base is unknown
        return
    found = resolve(target, base)
    scope.base = found
    if found is None or (not stmt.maybe and exists(found.rstrip("/") + "/.")):
        return  # `dir/.` exists: a directory whose entries may be searched, so `cd` succeeds
    if stmt.chain is None:
        scope.base = None  # it may not have taken effect: either directory
    else:
        scope.pending = stmt.chain  # certain for the rest of its `&&` chain only


def normalise_cwd(cwd: str | None) -> str | None:
    """The host's working directory as the analysis starts from it: absolute and normal, or
    unknown (``None``)."""
    if cwd is None or not cwd.startswith("/"):
        return None
    return normal_path(cwd)
