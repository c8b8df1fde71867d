"""What the tree walk hands to the assembly: statements, their redirects, their shell scope.

These are internal records (mutable, slotted, cheap), not the public values: :mod:`assembly`
turns each :class:`Statement` into :class:`~clearance.intent.shell.unit.Unit` values and
:class:`~clearance.intent.shell.token.PathToken` values.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from clearance.intent.shell.word import Word

    Kind = Literal["simple", "compound", "plain", "test", "error", "redirects"]

__all__ = ["WRITE_OPERATORS", "Redirect", "Scope", "Statement"]

# Operators whose target the shell opens for writing (notes §5.7).
WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>"})
_DISCARD = "/dev/null"


class Redirect:
    """One redirect: its operator and, when it names one, its target word.

    ``op`` is the operator as written (``>``, ``>>``, ``>|``, ``&>``, ``&>>``, ``<``, ``<<<``,
    ``>&``, ``<&``, ``<<``, ``<<-``, ``>&-``, ``<&-``) or ``?`` when the parse found none;
    ``broken`` when the redirect did not parse cleanly (e.g. ``<>``, which the grammar does not
    know).
    """

    __slots__ = ("broken", "op", "target")

    op: str
    target: Word | None
    broken: bool

    def __init__(self, op: str, target: Word | None, broken: bool = False) -> None:
        self.op = op
        self.target = target
        self.broken = broken  # the parse could not resolve it: it proves nothing (#814)

    @property
    def duplicates(self) -> bool:
        """A descriptor duplication or close (``2>&1``, ``>&2``, ``<&3``, ``>&-``)."""
        if self.op in (">&-", "<&-"):
            return True
        if self.op not in (">&", "<&") or self.target is None:
            return False
        value = self.target.value
        return value is not None and (value == "-" or value.isdigit())

    @property
    def writes(self) -> bool:
        """Whether this redirect may write a file (withholds the core-reader exemption, §5.5).

        The discard device written literally and unquoted does not count; ``2>/dev/stdout``,
        a quoted ``"/dev/null"`` and any computed destination do.
        """
        op = self.op
        if op == "?" or self.broken:
            return True
        if op not in WRITE_OPERATORS and op != ">&":
            return False
        if self.duplicates:
            return False
        target = self.target
        if target is None:
            return op != ">&"
        return not (target.value == _DISCARD and not target.quoted)


class Scope:
    """One shell (the top level, a subshell, a substitution, a pipeline element).

    ``cd`` moves the base of its own scope only. A child scope starts from its parent's base at
    the moment it is first consulted, which in source order is where the child shell starts.
    """

    __slots__ = ("base", "parent", "ready")

    parent: Scope | None
    base: str | None
    ready: bool

    def __init__(self, parent: Scope | None, base: str | None = None) -> None:
        self.parent = parent
        self.base = base
        self.ready = parent is None

    def current(self) -> str | None:
        """The effective directory of this shell now (``None``: unknown)."""
        if not self.ready:
            self.ready = True
            self.base = self.parent.current() if self.parent is not None else None
        return self.base


class Statement:
    """One statement the walk found, in source order (enclosing before nested)."""

    __slots__ = (
        "context",
        "kind",
        "operands",
        "redirects",
        "salvaged",
        "scope",
        "text",
        "time_subshell",
        "unresolved",
        "words",
        "writes",
    )

    kind: Kind
    text: str
    words: list[Word]
    redirects: list[Redirect]
    operands: list[Word]
    context: str
    unresolved: bool
    salvaged: bool
    scope: Scope
    writes: bool
    time_subshell: bool

    def __init__(
        self,
        kind: Kind,
        text: str,
        context: str,
        scope: Scope,
        unresolved: bool,
        writes: bool = False,
    ) -> None:
        self.kind = kind
        self.text = text
        self.context = context
        self.scope = scope
        self.unresolved = unresolved
        self.writes = writes
        self.words = []
        self.redirects = []
        self.operands = []
        self.salvaged = False
        self.time_subshell = False

    def __repr__(self) -> str:
        return f"Statement({self.kind}, {self.text!r}, {self.context!r})"
