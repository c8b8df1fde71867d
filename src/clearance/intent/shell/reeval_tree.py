"""Strings bash evaluates again as code, found in the walk's tree (see :mod:`reeval`).

:func:`tree` reads one statement's nodes: strings in arithmetic and array subscripts,
assignments that store code for later (``PS4``, a subscript in a value), and the operands of the
declaration builtins and ``unset``, which the grammar gives no words. The findings, their floor
and the code they run are :mod:`~clearance.intent.shell.reeval`'s; like it, this module is
imported only for a line that may re-read a string.
"""

from __future__ import annotations

from clearance.intent.shell.grammar import KIND
from clearance.intent.shell.reeval import (
    CODE_VARIABLES,
    REREAD_FLAGS,
    TABLES,
    code,
    declared,
    named,
    why,
)
from clearance.intent.shell.word import SUBSTITUTIONS
from clearance.intent.shell.word_build import build_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.shell.reeval import Finding
    from clearance.intent.shell.source import Source

__all__ = ["tree"]

# Nodes whose strings are arithmetic, or an array subscript.
_ARITH = frozenset({"arithmetic_expansion", "subscript", "c_style_for_statement"})
_TEST_ARITH = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v"})
_STRINGS = frozenset({"raw_string", "ansi_c_string", "string", "word", "concatenation"})


def tree(node: Node, src: Source, arith: bool = False) -> list[Finding]:
    """Findings in the tree of one statement: strings in arithmetic and array subscripts,
    assignments that store code for later (``PS4``, a subscript in a value), and the operands of
    the declaration builtins and ``unset``, which the grammar gives no words. Substitutions are
    statements of their own and are not entered."""
    out: list[Finding] = []
    _scan(node, src, arith, False, out)
    return out


def _scan(root: Node, src: Source, arith: bool, declared: bool, out: list[Finding]) -> None:
    # Iterative: an arithmetic expression of thousands of terms nests as deep.
    stack = [(root, arith, declared)]
    while stack:
        node, arith, declared = stack.pop()
        kind = KIND[node.kind_id]
        if kind in SUBSTITUTIONS:
            continue
        _node(node, kind, src, arith, declared, out)
        if not arith:
            arith = _opens_arithmetic(node, kind, src)
        inside = kind == "declaration_command"  # its assignments were read with its flags
        for child in reversed(node.children):
            if child.child_count or (arith and KIND[child.kind_id] in _STRINGS):
                stack.append((child, arith, inside))


def _node(
    node: Node, kind: str, src: Source, arith: bool, declared: bool, out: list[Finding]
) -> None:
    """The findings of one node (its descendants are the caller's)."""
    if arith and kind in _STRINGS:
        value = _value(node, src)
        if value is not None and code(value):
            out.append((value, why(value, "in arithmetic or an array subscript"), False))
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
        for child in node.named_children:
            value = _value(child, src)  # `(['$(id)']=1)`: the subscript is arithmetic
            if value is not None and value.startswith("[") and code(value.split("]=", 1)[0]):
                out.append((value, why(value, "as an array subscript"), False))


def _opens_arithmetic(node: Node, kind: str, src: Source) -> bool:
    """Whether ``node``'s strings are arithmetic: ``$(( ))``, ``(( ))``, a subscript, a
    ``for (( ))`` header, a ``[[ ]]`` operand of ``-v`` or of an arithmetic comparison."""
    if kind in _ARITH or (kind == "compound_statement" and node.children[0].type == "(("):
        return True
    if kind in ("unary_expression", "binary_expression"):
        for child in node.children:
            operator = KIND[child.kind_id] == "test_operator"
            if operator and src.slice(child.start_byte, child.end_byte) in _TEST_ARITH:
                return True
    return False


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
