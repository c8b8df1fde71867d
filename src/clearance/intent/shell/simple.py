"""The words of one simple command as the analyzer reads them, by their place in the text.

For readers outside the analysis that need a command's words where bash splits them (the
suggested session pattern, ``decide/bash_pattern``): a literal line is read without the parser
(``literal``), anything else is parsed and walked as :func:`~clearance.intent.shell.analyze`
would. Leading ``NAME=value`` assignments and redirects are not words.
"""

from __future__ import annotations

from clearance.intent.shell.literal import literal_line
from clearance.intent.shell.statement import Scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.intent.shell.statement import Statement

__all__ = ["word_spans"]


def word_spans(text: str) -> list[tuple[int, int]] | None:
    """The ``(start, end)`` character offsets of the words of ``text`` when bash reads it as
    exactly one simple command that parses cleanly; ``None`` for anything else (a list, a
    pipeline, a compound statement, an assignment alone, a parse error). Never raises."""
    try:
        return _spans(text)
    except Exception:
        return None


def _spans(text: str) -> list[tuple[int, int]] | None:
    statements = literal_line(text, "", Scope(None))
    if statements is not None:
        return _simple(statements)
    from clearance.intent.shell import parser
    from clearance.intent.shell.source import Source
    from clearance.intent.shell.walk import Walk

    src = Source(text)
    root = parser.parse(src.parsed)
    if root.has_error:
        return None
    walk = Walk(src, True, True)
    walk.run(root, "", Scope(None))
    spans = _simple(walk.statements)
    if spans is None or src.ascii:
        return spans
    data = src.data  # the parser's offsets count bytes
    return [(_chars(data, start), _chars(data, end)) for start, end in spans]


def _simple(statements: list[Statement]) -> list[tuple[int, int]] | None:
    """The spans of the first statement when it is a simple command of the top level and no
    other statement is (the walk records enclosing statements before nested ones; the body of
    a compound statement is at its level, a substitution's is not)."""
    if not statements:
        return None
    first = statements[0]
    if first.kind != "simple" or first.context or not first.words:
        return None
    if any(not other.context for other in statements[1:]):
        return None
    return [(word.start, word.end) for word in first.words]


def _chars(data: bytes, offset: int) -> int:
    return len(data[:offset].decode("utf-8", "surrogatepass"))
