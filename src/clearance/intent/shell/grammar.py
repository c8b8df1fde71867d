"""The tree-sitter-bash node vocabulary the walk dispatches on, and one tree helper.

Node type names are those of tree-sitter-bash 0.25 (docs/shell-analysis.md, "Where the grammar is
wrong, and what we do"). The walk reads a node's kind
as ``KIND[node.kind_id]``: the binding's ``node.type`` builds a new string on every access, while
``KIND`` maps each kind id of the loaded grammar to its interned name once (:func:`bind`, called
when the parser is built). The names are the very objects of the literals below, so comparing
and hashing them costs next to nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Language, Node

__all__ = [
    "CLAUSES",
    "COMPOUNDS",
    "CONTAINERS",
    "EXPRESSION_FIELDS",
    "KIND",
    "PLAIN",
    "REDIRECTS",
    "STATEMENTS",
    "SUB_CONTEXT",
    "WORDLIKE",
    "bind",
    "flatten",
]

# tree-sitter's symbol for an error node; it lies outside the grammar's own symbol range.
_ERROR_ID = 0xFFFF

KIND: dict[int, str] = {}
"""Node kind id -> type name, for every kind the loaded grammar can produce (see :func:`bind`)."""

CONTAINERS = frozenset({"program", "list", "pipeline"})
COMPOUNDS = frozenset(
    {
        "if_statement",
        "while_statement",
        "for_statement",
        "c_style_for_statement",
        "case_statement",
        "compound_statement",
        "function_definition",
        "negated_command",
        "subshell",
    }
)
PLAIN = frozenset(
    {"variable_assignment", "variable_assignments", "declaration_command", "unset_command"}
)
STATEMENTS = (
    CONTAINERS | COMPOUNDS | PLAIN | {"command", "redirected_statement", "test_command", "ERROR"}
)
REDIRECTS = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
CLAUSES = frozenset({"do_group", "elif_clause", "else_clause", "case_item"})
EXPRESSION_FIELDS = frozenset({"initializer", "condition", "update"})
SUB_CONTEXT = {
    "command_substitution": "command_substitution",
    "process_substitution": "process_substitution",
}
WORDLIKE = frozenset(
    {
        "word",
        "string",
        "raw_string",
        "ansi_c_string",
        "translated_string",
        "concatenation",
        "number",
        "simple_expansion",
        "expansion",
        "command_substitution",
        "process_substitution",
        "extglob_pattern",
        "regex",
    }
)


def bind(language: Language) -> None:
    """Fill :data:`KIND` from ``language`` (the parser's; every node a parse produces has one of
    its symbols, or the error symbol)."""
    from sys import intern

    kinds = {i: intern(language.node_kind_for_id(i) or "") for i in range(language.node_kind_count)}
    kinds[_ERROR_ID] = "ERROR"
    KIND.clear()
    KIND.update(kinds)


def flatten(node: Node) -> list[Node]:
    """The children of a left-nested ``list`` (``a && b || c`` nests as ((a && b) || c)),
    flattened without recursion so a 10,000-link chain does not exhaust the stack."""
    tails: list[list[Node]] = []
    current = node
    while KIND[current.kind_id] == "list" and current.child_count:
        children = current.children
        tails.append(children[1:])
        current = children[0]
    flat = [current]
    for tail in reversed(tails):
        flat.extend(tail)
    return flat
