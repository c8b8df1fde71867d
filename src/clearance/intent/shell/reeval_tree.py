"""Strings bash evaluates again as code, found in the walk's tree (see :mod:`reeval`).

:func:`tree` reads one statement's nodes: strings in arithmetic and array subscripts,
assignments that store code for later (``PS4``, a subscript in a value), and the operands of the
declaration builtins and ``unset``, which the grammar gives no words. The findings, their floor
and the code they run are :mod:`~clearance.intent.shell.reeval`'s; like it, this module is
imported only for a line that may re-read a string.
"""

from __future__ import annotations

import re

from clearance.intent.shell.grammar import KIND
from clearance.intent.shell.reeval import (
    CODE_VARIABLES,
    NUMERIC_SPECIALS,
    REREAD_FLAGS,
    TABLES,
    code,
    computed_arithmetic,
    computed_operator,
    declared,
    named,
    names_in,
    numeric_names,
    subscript_name,
    unknown_name,
    why,
)
from clearance.intent.shell.word import SUBSTITUTIONS, literal_word
from clearance.intent.shell.word_build import build_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.shell.reeval import Finding
    from clearance.intent.shell.source import Source
    from clearance.intent.shell.word import Word

__all__ = ["tree"]

# Nodes whose strings are arithmetic, or an array subscript.
_ARITH = frozenset({"arithmetic_expansion", "subscript", "c_style_for_statement"})
_TEST_ARITH = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
_STRINGS = frozenset({"raw_string", "ansi_c_string", "string", "word", "concatenation"})
_EXPANSIONS = frozenset({"simple_expansion", "expansion"})
# Nodes whose `variable_name` child is not read as arithmetic: the expansion's own name (judged
# with the expansion), an array's name before its subscript, the name an assignment sets.
_NAMED = frozenset({"simple_expansion", "expansion", "subscript", "variable_assignment"})


def tree(node: Node, src: Source, arith: bool = False) -> list[Finding]:
    """Findings in the tree of one statement: strings in arithmetic and array subscripts,
    assignments that store code for later (``PS4``, a subscript in a value), and the operands of
    the declaration builtins and ``unset``, which the grammar gives no words. Substitutions are
    statements of their own and are not entered."""
    out: list[Finding] = []
    _scan(node, src, arith, False, out, _numbers(node, src))
    return out


def sweep(root: Node, src: Source) -> list[Finding]:
    """The values read as arithmetic that a line does not show, anywhere in its tree: the
    statements' own scans (:func:`tree`) do not reach every place bash evaluates arithmetic (a
    redirect's target ``2>$((x))``, a ``case`` word or pattern, …), so the whole line is read
    once more for that alone, substitutions entered, heredoc bodies left to the walk (which
    reads them as text)."""
    out: list[Finding] = []
    _scan(root, src, False, False, out, _numbers(root, src), whole=True)
    return out


def _scan(
    root: Node,
    src: Source,
    arith: bool,
    declared: bool,
    out: list[Finding],
    numbers: _Numbers,
    whole: bool = False,
) -> None:
    # Iterative: an arithmetic expression of thousands of terms nests as deep.
    stack = [(root, arith, declared)]
    while stack:
        node, arith, declared = stack.pop()
        kind = KIND[node.kind_id]
        if kind in SUBSTITUTIONS:
            if arith:  # `$(( $(cmd) ))`: its output is read as arithmetic
                _computed(node, src, out)
            if whole:  # its own commands, not arithmetic
                stack.extend((child, False, False) for child in node.children if child.child_count)
            continue
        if whole and kind in _NOT_TEXT | {"heredoc_body"}:
            continue
        if (arith and kind in _EXPANSIONS) or kind == "variable_name":
            text = src.slice(node.start_byte, node.end_byte)
            if numbers.unknown(text, node.start_byte) is not None:  # `(( x ))`, `${a[$i]}`
                out.append((text, computed_arithmetic(text), None))
            if kind != "expansion":
                continue
        parent = node.parent
        if (
            arith
            and kind == "subscript"
            and parent is not None
            and KIND[parent.kind_id] not in ("variable_assignment", "expansion")
        ):
            # `(( a[1] + 2 ))`: the element's value is read as arithmetic again (not so for
            # the element an assignment sets, `(( a[1] = 2 ))`)
            _computed(node, src, out)
        _node(node, kind, src, arith, declared, out, numbers, whole)
        if kind == "expansion":
            _substring(node, src, out, numbers)
        outer = arith
        if not arith:
            arith = _opens_arithmetic(node, kind, src)
        inside = kind == "declaration_command"  # its assignments were read with its flags
        body = node.child_by_field_name("body") if kind == "c_style_for_statement" else None
        for child in reversed(node.children):
            ckind = KIND[child.kind_id]
            reads = outer if body is not None and child.id == body.id else arith  # (the body
            if child.child_count or (  # of a `for (( ))` is no arithmetic)
                reads and (ckind in _STRINGS or (ckind == "variable_name" and kind not in _NAMED))
            ):
                stack.append((child, reads, inside))


def _computed(node: Node, src: Source, out: list[Finding]) -> None:
    text = src.slice(node.start_byte, node.end_byte)
    out.append((text, computed_arithmetic(text), None))


def _substring(node: Node, src: Source, out: list[Finding], numbers: _Numbers) -> None:
    """``${s:OFFSET:LENGTH}``: the offset and length are arithmetic (``${PWD:$(…)}``,
    ``${s:x}``); ``${s:-word}`` and its kin are not."""
    after = False
    for child in node.children:
        if not child.is_named:
            after = after or child.type == ":"
            continue
        if not after:
            continue
        ckind = KIND[child.kind_id]
        if ckind in SUBSTITUTIONS:
            _computed(child, src, out)
            continue
        text = src.slice(child.start_byte, child.end_byte)
        if numbers.unknown(text, child.start_byte) is not None:
            out.append((text, computed_arithmetic(text), None))


def _node(
    node: Node,
    kind: str,
    src: Source,
    arith: bool,
    declared: bool,
    out: list[Finding],
    numbers: _Numbers,
    whole: bool = False,
) -> None:
    """The findings of one node (its descendants are the caller's); with ``whole``, those of
    arithmetic only."""
    if arith and kind in _STRINGS:
        value = _value(node, src)
        if value is not None and code(value):
            out.append((value, why(value, "in arithmetic or an array subscript"), False))
        elif value is not None and numbers.unknown(value, node.start_byte) is not None:
            out.append((value, computed_arithmetic(value), None))  # `(( x ))`, `${a[i]}`
    elif kind == "unary_expression":
        _name_test(node, src, out)
    elif kind == "test_command" and node.children[0].type == "[":
        # `[ $(cat f) ]`: a word bash splits or expands may be test's operator -v
        operator = computed_operator(_test_words(node, src))
        if operator is not None:
            out.append((operator.raw, computed_arithmetic(operator.raw), None))
    if whole and kind != "array":
        return
    if kind == "variable_assignment" and not declared:
        _assignment(node, src, set(), "", out)
    elif kind == "declaration_command":
        _declaration(node, src, out)
    elif kind == "unset_command":
        for child in node.named_children:
            if KIND[child.kind_id] == "variable_name":
                value = src.slice(child.start_byte, child.end_byte)
            else:
                value = _value(child, src)
            if value is not None:  # `unset 'a[$(id)]'`, `unset PATH`
                named(value, "as an array subscript of unset", out)
    elif kind == "array":
        assoc = _associative(node, src)
        for child in node.named_children:
            value = _value(child, src)  # `(['$(id)']=1)`: the subscript is arithmetic
            if value is not None and value.startswith("[") and code(value.split("]=", 1)[0]):
                out.append((value, why(value, "as an array subscript"), False))
            elif value is not None and value.startswith("[") and "]" in value and not assoc:
                # `([x]=1)`: the subscript reads x as arithmetic
                inner = value[1 : value.index("]")]
                if numbers.unknown(inner, child.start_byte) is not None:
                    out.append((value, computed_arithmetic(inner), None))
            elif value is None and src.slice(child.start_byte, child.end_byte)[:1] == "[":
                raw = src.slice(child.start_byte, child.end_byte)  # `(["$x"]=1)`
                out.append((raw, computed_arithmetic(raw), None))


_TEST_NESTING = frozenset(
    {"unary_expression", "binary_expression", "parenthesized_expression", "negated_expression"}
)


def _test_words(node: Node, src: Source) -> list[Word]:
    """The words of a ``[ … ]`` test in order, its operators as literal words."""
    out: list[Word] = []
    stack = list(reversed(node.children[1:-1]))
    while stack:
        child = stack.pop()
        kind = KIND[child.kind_id]
        if kind in _TEST_NESTING:
            stack.extend(reversed(child.children))
        elif kind == "test_operator" or not child.is_named:
            text = src.slice(child.start_byte, child.end_byte)
            out.append(literal_word(child.start_byte, child.end_byte, text))
        else:
            out.append(build_word(child, src, [], True, True))
    return out


def _associative(array: Node, src: Source) -> bool:
    """Whether ``array`` is the value of a ``declare -A`` (and kin): its keys are strings, not
    arithmetic."""
    assignment = array.parent
    declaration = assignment.parent if assignment is not None else None
    if declaration is None or KIND[declaration.kind_id] != "declaration_command":
        return False
    for child in declaration.children:
        text = src.slice(child.start_byte, child.end_byte)
        if text[:1] == "-" and "A" in text:
            return True
    return False


def _name_test(node: Node, src: Source, out: list[Finding]) -> None:
    """``[[ -v NAME ]]``: the operand is a variable's name, whose subscript is arithmetic. A
    computed one (``[[ -v $x ]]``) may hold a subscript with code."""
    operator = None
    for child in node.children:
        if KIND[child.kind_id] == "test_operator":
            operator = src.slice(child.start_byte, child.end_byte)
        elif operator == "-v" and child.is_named:
            value = _value(child, src)
            if value is None:
                _computed(child, src, out)
            elif code(value):
                out.append((value, why(value, "as an array subscript in a -v test"), False))
            elif (read := subscript_name(value)) is not None:
                out.append((value, computed_arithmetic(read), None))
            return


def _opens_arithmetic(node: Node, kind: str, src: Source) -> bool:
    """Whether ``node``'s strings are arithmetic: ``$(( ))``, ``(( ))``, a subscript, a
    ``for (( ))`` header, a ``[[ ]]`` operand of ``-v`` or of an arithmetic comparison."""
    if kind in _ARITH or (kind == "compound_statement" and node.children[0].type == "(("):
        return True
    if kind in ("unary_expression", "binary_expression"):
        for child in node.children:
            operator = KIND[child.kind_id] == "test_operator"
            if operator and src.slice(child.start_byte, child.end_byte) in _TEST_ARITH:
                return _double_bracket(node)
    return False


def _double_bracket(node: Node) -> bool:
    """Whether ``node`` is in a ``[[ ]]`` test, whose comparisons are arithmetic (those of
    ``[ ]`` and ``test`` take integers only)."""
    parent = node.parent
    while parent is not None and KIND[parent.kind_id] != "test_command":
        parent = parent.parent
    return parent is None or parent.children[0].type != "["


def _value(node: Node, src: Source) -> str | None:
    """The literal value of a word node; for a computed one, its text when it holds an escaped
    substitution (``"a[\\$(id)]$x"``), else ``None``."""
    word = build_word(node, src, [], True, True)
    if word.value is not None:
        return word.value
    raw = word.raw
    return raw if "\\$" in raw or "\\`" in raw else None


def _assignment(node: Node, src: Source, flags: set[str], name: str, out: list[Finding]) -> None:
    target = node.child_by_field_name("name")
    value_node = node.child_by_field_name("value")
    if target is None:
        return
    base = src.slice(target.start_byte, target.end_byte).split("[", 1)[0]
    if KIND[target.kind_id] == "subscript":
        named = target.child_by_field_name("name")
        if named is not None:
            base = src.slice(named.start_byte, named.end_byte)
    if value_node is None:
        if base in CODE_VARIABLES and name:
            out.append((base, f"sets {base}, which bash runs as code", False))
        return
    value = _value(value_node, src)
    whole = src.slice(node.start_byte, node.end_byte)
    if base in CODE_VARIABLES:
        if value is None or code(value) or "\\" in value or base in TABLES:
            literal = value is not None
            text = value if value is not None else whole
            out.append((text, f"sets {base}, which bash runs as code", False if literal else None))
        return
    if value is None:
        if name and _rereads_computed(value_node, src, flags):
            raw = src.slice(value_node.start_byte, value_node.end_byte)
            out.append((raw, f"lets {name} re-read the computed value {raw} as code", None))
        return
    declared(base, value, flags, whole, name or "an assignment", out)


def _rereads_computed(node: Node, src: Source, flags: set[str]) -> bool:
    """Whether a declaration re-reads a computed value: under an array, integer or nameref
    attribute, or when it opens with ``(`` (``declare -a a="$v"`` runs the ``$(…)`` that ``v``
    holds). A compound array, a number and an arithmetic expansion yield no code."""
    kind = KIND[node.kind_id]
    if kind in ("array", "number", "arithmetic_expansion"):
        return False
    if flags & REREAD_FLAGS:
        return True
    return src.slice(node.start_byte, node.start_byte + 2).lstrip('"').startswith("(")


def _declaration(node: Node, src: Source, out: list[Finding]) -> None:
    flags: set[str] = set()
    name = ""
    for child in node.children:
        kind = KIND[child.kind_id]
        if not child.is_named:
            name = name or src.slice(child.start_byte, child.end_byte)
            continue
        if kind == "variable_assignment":
            continue  # scanned on its own, below, with the flags
        value = _value(child, src)
        if value is None:
            continue
        if value[:1] in ("-", "+") and "=" not in value:
            flags.update(value[1:])
            continue
        target, eq, rhs = value.partition("=")
        declared(target, rhs if eq else None, flags, value, name, out)
    for child in node.named_children:
        if KIND[child.kind_id] == "variable_assignment":
            _assignment(child, src, flags, name or "declare", out)


# -- the numbers a line gives its own variables ---------------------------------------------

_INTEGER = frozenset("0123456789")
_NOT_TEXT = frozenset({"comment", "heredoc_start", "heredoc_end"})
_RANGE = re.compile(r"\{-?[0-9]+\.\.-?[0-9]+(\.\.-?[0-9]+)?\}")
_ASSIGNING = frozenset({"=", ":="})  # `${x=v}`, `${x:=v}` assign x


class _Numbers:
    """The variables arithmetic in one line may read as numbers: bash's dynamic ones
    (:func:`~clearance.intent.shell.reeval.numeric_names`), and those the line itself made
    numbers before the read, where nothing else in the line may set them:

    * ``N=5`` as a statement of its own at the top of the line (not a command's prefix, not in
      the background, not after ``&&``/``||``), from its end on;
    * ``for N in 1 2 3`` (integer words only), within the loop and, at the top, after it;
    * ``for (( N = … ; … ))``, within the loop (arithmetic assigns numbers) and, at the top,
      after it.

    Any other place the name appears outside arithmetic — a word (``read N``, ``printf -v N``,
    ``declare N``, even ``echo N``), another assignment, ``${N:=…}`` — makes it unknown: the
    line may have set it to anything. Arithmetic itself only stores numbers."""

    __slots__ = ("dynamic", "loops", "since", "taint")

    def __init__(self, dynamic: frozenset[str]) -> None:
        self.dynamic = dynamic
        self.taint: set[str] = set()
        self.since: dict[str, int] = {}
        self.loops: list[tuple[str, int, int]] = []

    def number_from(self, name: str, at: int) -> None:
        """``name`` holds a number from byte ``at`` on (the earliest such place counts: the
        tree is read in no particular order)."""
        since = self.since.get(name)
        if since is None or at < since:
            self.since[name] = at

    def known(self, name: str, at: int) -> bool:
        if name in self.taint:
            return False
        if name in self.dynamic:
            return True
        since = self.since.get(name)
        if since is not None and since <= at:
            return True
        return any(n == name and start <= at < end for n, start, end in self.loops)

    def unknown(self, text: str, at: int) -> str | None:
        """:func:`~clearance.intent.shell.reeval.unknown_name` of ``text`` read at byte
        ``at``."""
        return unknown_name(text, _Known(self, at))


class _Known:
    """The names known as numbers at one place of the line (a set's ``in``, for
    :func:`~clearance.intent.shell.reeval.unknown_name`)."""

    __slots__ = ("at", "numbers")

    def __init__(self, numbers: _Numbers, at: int) -> None:
        self.numbers = numbers
        self.at = at

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.numbers.known(name, self.at)


# The numbers of the last line read: its statements are scanned one by one. The root node is
# kept (it keeps its tree alive, so no other tree's root can take its id while it is here); a
# thread reads and replaces the whole entry at once.
_LAST: list[tuple[Source, Node, _Numbers] | None] = [None]


def _numbers(node: Node, src: Source) -> _Numbers:
    """The :class:`_Numbers` of the line ``node`` belongs to (read once per line)."""
    root = node
    while root.parent is not None:
        root = root.parent
    cached = _LAST[0]
    if cached is not None and cached[0] is src and cached[1].id == root.id:
        return cached[2]
    found = _Numbers(numeric_names(src.text))
    _read_numbers(root, src, found)
    _LAST[0] = (src, root, found)
    return found


def _integer(node: Node, src: Source, dynamic: frozenset[str] = frozenset()) -> bool:
    """Whether ``node`` is a number, an arithmetic expansion, a range of integers (``{1..5}``,
    which expands to numbers only), or a known number's expansion (``$?``, ``$SECONDS``)."""
    kind = KIND[node.kind_id]
    if kind in ("number", "arithmetic_expansion"):
        return True
    if kind == "simple_expansion" or kind == "expansion":
        name = src.slice(node.start_byte, node.end_byte).lstrip("$").strip("{}")
        return name in NUMERIC_SPECIALS or name in dynamic
    if kind == "brace_expression":
        return _RANGE.fullmatch(src.slice(node.start_byte, node.end_byte)) is not None
    if kind != "word":
        return False
    text = src.slice(node.start_byte, node.end_byte).removeprefix("-")
    return bool(text) and _INTEGER.issuperset(text)


def _at_top(node: Node) -> bool:
    """Whether ``node`` runs unconditionally in the line's own shell: a statement of the
    program, or the first of a top-level ``&&``/``||`` list; not followed by ``&``."""
    parent = node.parent
    if parent is not None and KIND[parent.kind_id] == "variable_assignments":
        node, parent = parent, parent.parent
    if parent is not None and KIND[parent.kind_id] == "list" and parent.children[0].id == node.id:
        node, parent = parent, parent.parent
    if parent is None or KIND[parent.kind_id] != "program":
        return False
    after = node.next_sibling
    return after is None or after.type != "&"


def _read_numbers(root: Node, src: Source, found: _Numbers) -> None:
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, arith = stack.pop()
        kind = KIND[node.kind_id]
        if kind in _NOT_TEXT or kind == "simple_expansion":  # `$N` reads N
            continue
        skip = _assignments(node, kind, arith, src, found)
        if not arith and node.child_count == 0 and kind != "number" and node.is_named:
            found.taint.update(names_in(src.slice(node.start_byte, node.end_byte)))
        if not arith and kind in _STRINGS:  # `$'\x4e'`, `$'RAND'OM`: the value as bash reads it
            value = _value(node, src)
            if value is not None:
                found.taint.update(names_in(value))
        inner = (
            arith
            or kind in _ARITH
            or (kind == "compound_statement" and node.children[0].type == "((")
        )
        body = node.child_by_field_name("body") if kind == "c_style_for_statement" else None
        offset = False  # past the `:` of `${s:OFFSET:LENGTH}`
        for child in node.children:
            if kind == "expansion" and not child.is_named and child.type == ":":
                offset = True
            if child.id != skip:  # (a loop's body is not its arithmetic header)
                reads = arith if body is not None and child.id == body.id else inner
                stack.append((child, reads or offset))


def _assignments(node: Node, kind: str, arith: bool, src: Source, found: _Numbers) -> int | None:
    """What ``node`` assigns, into ``found``; the id of the child naming the variable it
    assigns (read here, not as a word), if any."""
    if kind == "variable_assignment" and not arith:
        target = node.child_by_field_name("name")
        if target is None:
            return None
        value = node.child_by_field_name("value")
        name = src.slice(target.start_byte, target.end_byte).split("[", 1)[0].rstrip("+")
        numeric = value is not None and _integer(value, src, found.dynamic)
        appends = src.slice(target.end_byte, target.end_byte + 2).startswith("+")  # `N+=5`
        if KIND[target.kind_id] == "subscript" or not numeric or appends:
            found.taint.add(name)
        elif _at_top(node):
            found.number_from(name, node.end_byte)
        return target.id
    if kind == "for_statement":
        variable = node.child_by_field_name("variable")
        if variable is None:
            return None
        name = src.slice(variable.start_byte, variable.end_byte)
        values = [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "value"]
        body = node.child_by_field_name("body")
        if not values or body is None or not all(_integer(v, src) for v in values):
            found.taint.add(name)
        else:
            found.loops.append((name, body.start_byte, node.end_byte))
            if _at_top(node):
                found.number_from(name, node.end_byte)
        return variable.id
    if kind == "c_style_for_statement":
        for child in node.named_children:
            if KIND[child.kind_id] != "variable_assignment":
                continue
            target = child.child_by_field_name("name")
            if target is not None and KIND[target.kind_id] == "variable_name":
                name = src.slice(target.start_byte, target.end_byte)
                found.loops.append((name, child.end_byte, node.end_byte))
                if _at_top(node):
                    found.number_from(name, node.end_byte)
            break
        return None
    if kind == "expansion" and not arith:
        named = next((c for c in node.children if KIND[c.kind_id] == "variable_name"), None)
        if named is None:
            return None
        operator = node.child_by_field_name("operator")
        if operator is not None and operator.type in _ASSIGNING:
            found.taint.add(src.slice(named.start_byte, named.end_byte))
        return named.id
    return None
