"""The tree-sitter bash parser, loaded on first use.

Importing ``tree_sitter`` and loading the bash grammar costs milliseconds; the hook process pays
for it only when a bash call is actually checked, so nothing here runs at import time. This
module owns the parser object and nothing else: it does not interpret the tree.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node, Parser

__all__ = ["parse"]

_parser: list[Parser] = []


def _load() -> Parser:
    from tree_sitter import Language, Parser
    from tree_sitter_bash import language

    parser = Parser(Language(language()))
    _parser.append(parser)
    return parser


def parse(data: bytes) -> Node:
    """The root node of ``data`` parsed as bash (the parser is built once per process)."""
    parser = _parser[0] if _parser else _load()
    return parser.parse(data).root_node
