"""``cd``, ``pushd`` and ``popd`` folded into the effective directory of the statement's shell
(docs/shell-analysis.md, "Paths"): a literal target is resolved against the directory so far;
``popd``, a computed target, or a name ``CDPATH`` may be searched for makes it unknown."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from clearance.intent.shell.statement import Scope
    from clearance.intent.shell.word import Word

__all__ = ["CHANGES_DIRECTORY", "fold_cd"]

CHANGES_DIRECTORY = frozenset({"cd", "pushd", "popd"})
_NOT_SEARCHED = ("/", "./", "../", "~")  # cd targets CDPATH is never searched for


def fold_cd(
    words: Sequence[Word],
    scope: Scope,
    base: str | None,
    cdpath: bool,
    resolve: Callable[[Word, str | None], str | None],
) -> None:
    """Set ``scope.base`` to where the ``cd``-like command ``words`` leaves the shell, from
    ``base``; ``cdpath``: whether ``CDPATH`` may be set; ``resolve`` reads a word as a path."""
    name = words[0].value
    target: Word | None = None
    for word in words[1:]:
        value = word.value
        if value is not None and value.startswith("-") and value != "-":
            continue  # -P, -L, -e, -@
        target = word
        break
    if name == "popd" or target is None:
        scope.base = None
        return
    value = target.value
    searched = value is not None and not value.startswith(_NOT_SEARCHED)
    if cdpath and searched and value not in (".", ".."):
        scope.base = None  # CDPATH is searched before ./name: the base is unknown
        return
    scope.base = resolve(target, base)
