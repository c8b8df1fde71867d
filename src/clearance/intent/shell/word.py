"""A word of a command line: where it is, what it says, and what the shell would make of it.

A :class:`Word` keeps its source span and text (``raw``), the value after quote removal when the
shell would produce it without running anything (``value``; ``None`` when computed), and the few
facts the rest of the analyzer asks about: was it quoted, does it glob, may it start with ``-``.
``$HOME``/``${HOME}``/``~`` and ``$PWD``/``${PWD}`` stay symbolic (``segs``) so the projection can
expand them against the home and the effective directory. Substitutions met inside the word are
appended to the caller's ``subs`` list so the walk can descend into them.

This module holds the :class:`Word`, :func:`literal_word` (a word that is its own text) and the
scans for substitutions and unmodelled expansions; any other word is built from its tree node
by :func:`~clearance.intent.shell.word_build.build_word`.
"""

from __future__ import annotations

from clearance.intent.shell.brace import is_list
from clearance.intent.shell.expansion import parameter_expansion
from clearance.intent.shell.grammar import KIND

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.source import Source

__all__ = [
    "BACKTICK_ESCAPABLE",
    "DYN",
    "EXPANDING",
    "HOME",
    "PWD",
    "SUBSTITUTIONS",
    "Word",
    "abutting",
    "collect_substitutions",
    "expansion_floor",
    "literal_word",
    "may_be_options",
    "one_operand",
    "scan_substitutions",
]

DYN = 0
HOME = 1
PWD = 2

SUBSTITUTIONS = frozenset({"command_substitution", "process_substitution"})
EXPANDING = frozenset("*?[{\\~")  # a bare word without these is its own value
# Inside backticks a backslash is dropped before these (then the text runs as a program).
BACKTICK_ESCAPABLE = frozenset("\\`$")


class Word:
    """One word. Mutable only while the walk builds it (``sep`` is set by the command builder)."""

    __slots__ = (
        "alts",
        "dq_dyn",
        "end",
        "floor",
        "glob",
        "lead_dyn",
        "quoted",
        "raw",
        "segs",
        "sep",
        "start",
        "unknown",
        "value",
    )

    start: int
    end: int
    raw: str
    value: str | None
    segs: tuple[str | int, ...] | None
    quoted: bool
    glob: bool
    lead_dyn: bool
    dq_dyn: bool
    sep: str
    floor: Floor | None
    unknown: bool
    alts: tuple[tuple[str | int, ...], ...] | None

    def __init__(self, start: int, end: int, raw: str, value: str | None = None) -> None:
        self.start = start
        self.end = end
        self.raw = raw
        self.value = value
        self.segs = None
        self.quoted = False
        self.glob = False
        self.lead_dyn = False
        self.dq_dyn = False
        self.sep = " "
        self.floor = None
        self.unknown = False
        self.alts = None

    def __repr__(self) -> str:
        return f"Word({self.raw!r}, value={self.value!r})"

    def copy(self) -> Word:
        """A word of the same fields, to change without changing this one."""
        new = Word(self.start, self.end, self.raw, self.value)
        new.segs = self.segs
        new.quoted = self.quoted
        new.glob = self.glob
        new.lead_dyn = self.lead_dyn
        new.dq_dyn = self.dq_dyn
        new.sep = self.sep
        new.floor = self.floor
        new.unknown = self.unknown
        new.alts = self.alts
        return new

    @property
    def computed(self) -> bool:
        """The shell computes this word (variables, substitutions, arithmetic)."""
        return self.value is None


def literal_word(start: int, end: int, raw: str) -> Word:
    """The :class:`Word` whose value is its own text."""
    return Word(start, end, raw, raw)


def may_be_options(word: Word) -> bool:
    """Whether bash may expand ``word`` to words that start with ``-``: an unquoted pattern
    that starts with one (``*`` beside a file the agent named ``-R``), or a brace list
    (``{-i,-n}``)."""
    value = word.value
    if word.glob and value is not None and value[:1] in "*?[":
        return True
    return "{" in word.raw and is_list(word.raw)


def one_operand(word: Word) -> bool:
    """Whether the computed ``word`` is one word that is no option: a quoted expansion
    (``"$f"``) whose every value the analysis knows (``alts``: a loop's items) starts with a
    character other than ``-``."""
    if word.value is not None or word.alts is None or word.raw[:1] != '"':
        return False
    for parts in word.alts:
        first = parts[0] if parts else ""
        if first != HOME and first != PWD and (not isinstance(first, str) or first[:1] in "-"):
            return False
    return True


def abutting(first: Word, second: Word) -> Word | None:
    """The one word bash reads where the grammar ended ``first`` and ``second`` begins with no
    blank between (bash ends a word only at a blank or an operator, and the grammar's split
    falls before a backslash). Quote removal is local to each piece, so the value is the two
    values joined; the raw text is the whole word, from which brace expansion and globbing are
    read again. ``None`` unless both pieces are known text (no expansion, home or working
    directory, floor or alternatives): a computed piece leaves the word unknown."""
    if not (_known(first) and _known(second)):
        return None
    word = Word(first.start, second.end, first.raw + second.raw, first.value + second.value)  # type: ignore[operator]
    word.quoted = first.quoted or second.quoted
    word.glob = first.glob or second.glob
    word.sep = first.sep
    return word


def _known(word: Word) -> bool:
    return (
        word.value is not None
        and word.segs is None
        and word.floor is None
        and word.alts is None
        and not word.unknown
        and not word.lead_dyn
        and not word.dq_dyn
    )


def collect_substitutions(node: Node, subs: list[Node]) -> None:
    """Append ``node`` if it is a substitution, else every substitution beneath it."""
    if KIND[node.kind_id] in SUBSTITUTIONS:
        subs.append(node)
    elif node.child_count:
        scan_substitutions(node, subs)


def expansion_floor(node: Node, src: Source) -> Floor | None:
    """The floor of the first parameter expansion under ``node`` that is not modelled (not
    descending into substitutions, which are walked as programs of their own): for text the
    walk does not build as words (assignment values, declarations, arithmetic)."""
    if b"${" not in src.data[node.start_byte : node.end_byte]:
        return None
    for child in node.children:
        kind = KIND[child.kind_id]
        if kind in SUBSTITUTIONS:
            continue
        if kind == "expansion":
            floor = parameter_expansion(child, src)[0]
            if floor is not None:
                return floor
        if child.child_count:
            floor = expansion_floor(child, src)
            if floor is not None:
                return floor
    return None


def scan_substitutions(node: Node, subs: list[Node]) -> None:
    """Append every substitution under ``node`` (not descending into the substitutions)."""
    for child in node.children:
        if KIND[child.kind_id] in SUBSTITUTIONS:
            subs.append(child)
        elif child.child_count:
            scan_substitutions(child, subs)
