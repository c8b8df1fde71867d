"""The tree-sitter-bash node vocabulary the walk dispatches on, and one tree helper.

Node type names are those of tree-sitter-bash 0.25 (notes §5.1).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = [
    "CLAUSES",
    "COMPOUNDS",
    "CONTAINERS",
    "EXPRESSION_FIELDS",
    "PLAIN",
    "REDIRECTS",
    "STATEMENTS",
    "SUB_CONTEXT",
    "WORDLIKE",
    "flatten",
]

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


def flatten(node: Node) -> list[Node]:
    """The children of a left-nested ``list`` (``a && b || c`` nests as ((a && b) || c)),
    flattened without recursion so a 10,000-link chain does not exhaust the stack."""
    tails: list[list[Node]] = []
    current = node
    while current.type == "list" and current.child_count:
        children = current.children
        tails.append(children[1:])
        current = children[0]
    flat = [current]
    for tail in reversed(tails):
        flat.extend(tail)
    return flat
