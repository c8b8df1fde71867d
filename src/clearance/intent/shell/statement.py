"""What the tree walk hands to the assembly: statements, their redirects, their shell scope.

These are internal records (mutable, slotted, cheap), not the public values: :mod:`assembly`
turns each :class:`Statement` into :class:`~clearance.intent.shell.unit.Unit` values and
:class:`~clearance.intent.shell.token.PathToken` values.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.loop import Waiting
    from clearance.intent.shell.word import Word

    Kind = Literal["simple", "compound", "plain", "test", "error", "redirects", "nested"]

__all__ = ["WRITE_OPERATORS", "Redirect", "Scope", "Statement", "stdin_source", "stdin_text"]

# Operators whose target the shell opens for writing (docs/shell-analysis.md, "The facts").
WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>"})
_DISCARD = "/dev/null"


class Redirect:
    """One redirect: its operator and, when it names one, its target word.

    ``op`` is the operator as written (``>``, ``>>``, ``>|``, ``&>``, ``&>>``, ``<``, ``<<<``,
    ``>&``, ``<&``, ``<<``, ``<<-``, ``>&-``, ``<&-``) or ``?`` when the parse found none;
    ``broken`` when the redirect did not parse cleanly (e.g. ``<>``, which the grammar does not
    know); ``body`` the text of a heredoc; ``fd`` the descriptor written before the operator
    (``2`` in ``2>/dev/null``), ``None`` when none is; ``at`` where the redirect starts in the
    parsed text (a byte offset; ``-1``: not known).
    """

    __slots__ = ("at", "body", "broken", "fd", "op", "target")

    op: str
    target: Word | None
    broken: bool
    body: str | None
    fd: str | None
    at: int

    def __init__(
        self,
        op: str,
        target: Word | None,
        broken: bool = False,
        body: str | None = None,
        fd: str | None = None,
        at: int = -1,
    ) -> None:
        self.op = op
        self.target = target
        self.broken = broken  # the parse could not resolve it: it proves nothing (#814)
        self.body = body
        self.fd = fd
        self.at = at

    @property
    def keeps_stdin(self) -> bool:
        """Whether the command's standard input is left as it is: an output redirect of
        descriptor 1 or 2 (``>f``, ``2>/dev/null``, ``2>&1``, ``&>f``)."""
        if self.broken or self.fd not in (None, "1", "2"):
            return False
        return self.op[:1] == ">" or self.op[:2] == "&>"

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
        """Whether this redirect may write a file (withholds the core-reader exemption).

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


def stdin_text(redirects: list[Redirect]) -> str | None:
    """The literal text a statement reads on standard input: its last input redirect's
    here-string (a literal word) or heredoc body; ``None`` for a file, a pipe, a computed word."""
    for redirect in reversed(redirects):
        if redirect.op == "<<<":
            target = redirect.target
            return target.value if target is not None else None
        if redirect.op in ("<<", "<<-"):
            return redirect.body
        if redirect.op in ("<", "<&"):
            return None
    return None


def stdin_source(redirects: list[Redirect]) -> tuple[str, str] | None:
    """What a statement reads on standard input: ``("file", WORD)`` for ``< WORD``,
    ``("text", TEXT)`` for a heredoc or a literal here-string, ``None`` otherwise (a pipe,
    a descriptor, a computed word, or what the line inherits)."""
    for redirect in reversed(redirects):
        op = redirect.op
        if op == "<":
            value = redirect.target.value if redirect.target is not None else None
            return ("file", value) if value and not redirect.broken else None
        if op in ("<<", "<<-", "<<<"):
            text = stdin_text([redirect])
            return ("text", text) if text is not None and not redirect.broken else None
        if op == "<&" or op == "?":
            return None
    return None


class Scope:
    """One shell (the top level, a subshell, a substitution, a pipeline element).

    ``cd`` moves the base of its own scope only. A child scope starts from its parent's base at
    the moment it is first consulted, which in source order is where the child shell starts.
    ``pipeline`` is the same object for every element of one pipeline (each element is a scope
    of its own), ``None`` for a shell that is no pipeline element: the elements run at once.
    ``detached``: a background job or a process substitution, which runs on beside what follows.
    ``fed``: a pipeline element after the first that is one simple command, whose standard input
    is the pipe from the element before it.
    ``pending``: the ``&&`` chain a ``cd`` that may not have taken effect holds ``base`` for
    (``cd build && make``); the first statement of this shell outside it makes ``base``
    unknown (:func:`clearance.intent.shell.cd.base_of`).
    """

    __slots__ = ("base", "detached", "fed", "parent", "pending", "pipeline", "ready")

    parent: Scope | None
    base: str | None
    ready: bool
    pipeline: object | None
    detached: bool
    fed: bool
    pending: object | None

    def __init__(
        self, parent: Scope | None, base: str | None = None, pipeline: object | None = None
    ) -> None:
        self.parent = parent
        self.base = base
        self.ready = parent is None
        self.pipeline = pipeline
        self.detached = False
        self.fed = False
        self.pending = None

    def current(self) -> str | None:
        """The effective directory of this shell now (``None``: unknown)."""
        if not self.ready:
            self.ready = True
            self.base = self.parent.current() if self.parent is not None else None
        return self.base


class Statement:
    """One statement the walk found, in source order (enclosing before nested).

    A ``nested`` statement is program text found outside the tree (a substitution the grammar
    left inside a heredoc body): the assembly parses ``text`` as a program of its own.
    """

    __slots__ = (
        "assigns",
        "bound",
        "chain",
        "context",
        "floor",
        "kind",
        "maybe",
        "operands",
        "redirects",
        "salvaged",
        "scope",
        "text",
        "time_subshell",
        "unresolved",
        "unsettles",
        "waiting",
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
    floor: Floor | None
    assigns: list[tuple[str, str | None]] | None
    bound: bool
    waiting: Waiting | None
    chain: object | None
    maybe: bool
    unsettles: bool

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
        self.floor = None  # what the analysis could not prove about it (its first floor)
        self.assigns = None  # leading `NAME=value` assignments: (name, literal value or None)
        self.bound = False  # a `for` whose variable's uses were given the list's values
        self.waiting = None  # a `for` whose unquoted uses wait for the whole line (`loop`)
        self.chain = None  # the `&&` chain it is an operand of (`cd build && make`), if any
        self.maybe = False  # it may not run: after `&&`/`||`, in a branch, loop or function
        self.unsettles = False  # a loop whose body changes directory (docs/shell-analysis.md)

    def __repr__(self) -> str:
        return f"Statement({self.kind}, {self.text!r}, {self.context!r})"
