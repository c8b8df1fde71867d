"""Redirects as the walk reads them.

tree-sitter-bash attaches words that follow a redirect target to the redirect
(``git 2>/dev/null push --force`` parses ``push`` and ``--force`` as further destinations) and
hosts a heredoc's first-line continuation (``<<EOF && rm x``) inside the heredoc redirect.
:func:`read_redirect` gives those words back to the command and those statements back to the
walk.
"""

from __future__ import annotations

from clearance.intent.shell.escape import unescaped
from clearance.intent.shell.grammar import KIND, REDIRECTS, STATEMENTS, WORDLIKE
from clearance.intent.shell.heredoc import body_text, delimiter_word
from clearance.intent.shell.statement import Redirect

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from clearance.intent.shell.source import Source
    from clearance.intent.shell.word import Word

    WordOf = Callable[[Node, list[Node]], Word]

__all__ = ["Pending", "read_redirect"]


class Pending:
    """Redirect facts gathered from a statement before its unit is recorded."""

    __slots__ = ("after", "extra", "heredoc", "redirects", "subs")

    def __init__(self) -> None:
        self.redirects: list[Redirect] = []
        self.extra: list[Word] = []  # words the grammar hung on a redirect: they are arguments
        self.subs: list[Node] = []
        self.heredoc: list[str] = []  # the bodies of heredocs with an unquoted delimiter
        self.after: list[Node] = []  # statements on a heredoc's first line (`<<EOF && rm x`)

    def merge(self, outer: Pending) -> None:
        """Take over the facts of an enclosing redirected statement (they come later)."""
        self.redirects.extend(outer.redirects)
        self.extra.extend(outer.extra)
        self.subs.extend(outer.subs)
        self.heredoc.extend(outer.heredoc)
        self.after.extend(outer.after)


def read_redirect(
    node: Node, pending: Pending, src: Source, word: WordOf, strays: list[Node]
) -> None:
    """Record the redirect ``node`` into ``pending`` (its words, statements, substitutions)."""
    kind = KIND[node.kind_id]
    if kind == "herestring_redirect":
        string: Word | None = None
        for child in node.children:
            if child.is_named:
                string = word(child, pending.subs)
                break
        pending.redirects.append(Redirect("<<<", string, at=node.start_byte))
        return
    if kind == "heredoc_redirect":
        op = "<<"
        quoted = False
        body: str | None = None
        delimiter = ""
        raw_body = ""
        end: Node | None = None
        start = body_at = -1
        for i, child in enumerate(node.children):
            ctype = KIND[child.kind_id]
            if ctype in ("<<", "<<-"):
                op = ctype
            elif ctype == "heredoc_end":
                end = child
            elif ctype == "heredoc_start":
                start = child.end_byte
                delimiter = src.slice(child.start_byte, child.end_byte)
                quoted = any(ch in delimiter for ch in "'\"\\")
                if quoted and not _closed(delimiter):
                    # `<<'A<newline>'`: bash's delimiter holds a line break, so no line ends the
                    # body and the text the grammar read as the body runs as commands.
                    strays.append(node)
            elif ctype == "heredoc_body":
                body_at = child.start_byte
                raw_body = src.slice(child.start_byte, child.end_byte)
                body = body_text(src.data, child.start_byte, child.end_byte)
                if not quoted:
                    pending.heredoc.append(body)
            elif ctype in REDIRECTS:
                read_redirect(child, pending, src, word, strays)
            elif node.field_name_for_child(i) == "argument":
                pending.extra.append(word(child, pending.subs))
            elif ctype in STATEMENTS:
                pending.after.append(child)
        if delimiter and not _agrees(src, delimiter, raw_body, end, op == "<<-", start, body_at):
            # The grammar ends a body where bash does not (at the delimiter among blanks, `\tX`;
            # at `X` where bash's delimiter is `\X`; at `X|cat` where it is `X`), or runs past
            # bash's end: what bash reads on as the body, and the lines after, are not what
            # bash runs.
            strays.append(node)
        pending.redirects.append(Redirect(op, None, body=body, at=node.start_byte))
        return
    op = "?"
    target: Word | None = None
    fd: str | None = None
    for i, child in enumerate(node.children):
        ctype = KIND[child.kind_id]
        if ctype == "ERROR":
            strays.append(child)
        elif not child.is_named:
            if op == "?" and target is None:
                op = ctype
        elif ctype == "file_descriptor":
            if op == "?" and target is None:
                fd = src.slice(child.start_byte, child.end_byte)
            continue
        elif ctype in WORDLIKE or node.field_name_for_child(i) == "destination":
            dest = word(child, pending.subs)
            if target is None and op not in (">&-", "<&-"):
                target = dest
            else:
                pending.extra.append(dest)
    pending.redirects.append(Redirect(op, target, node.has_error, fd=fd, at=node.start_byte))


def _agrees(
    src: Source, delimiter: str, body: str, end: Node | None, tabs: bool, start: int, at: int
) -> bool:
    """Whether bash ends the heredoc where the grammar does: no line of the grammar's ``body``
    is bash's delimiter word (``delimiter`` as typed, read by
    :func:`~clearance.intent.shell.heredoc.delimiter_word`), and the line of the grammar's
    ``end`` is that word alone; both after leading tabs where the operator
    is ``<<-``, and, where the delimiter is unquoted, after bash joins lines that end in a
    backslash (a line ``X`` ending in one, then ``Y``, ends a body ``XY``). No
    backslash-newline may stand between the operator (``start``) and the body (``at``): the
    grammar reads it as the command line going on, where bash has begun the body."""
    word = delimiter_word(delimiter)
    if word is None:
        return False
    if start >= 0 and b"\\\n" in src.data[start : at if at >= 0 else len(src.data)]:
        return False
    if not any(mark in delimiter for mark in "'\"\\"):
        body = body.replace("\\\n", "")
    for line in body.split("\n"):
        if (line.lstrip("\t") if tabs else line) == word:
            return False
    if end is None:
        return True  # the body runs to the end of the text, as bash reads it
    data = src.data
    first = data.rfind(b"\n", 0, end.start_byte) + 1
    last = data.find(b"\n", end.end_byte)
    line = src.slice(first, len(data) if last < 0 else last)
    return (line.lstrip("\t") if tabs else line) == word


def _closed(delimiter: str) -> bool:
    """Whether every quote the heredoc delimiter ``delimiter`` opens also closes in it."""
    i = 0
    while (i := unescaped(delimiter, i, "'\"")) >= 0:
        end = delimiter.find(delimiter[i], i + 1)
        if end < 0:
            return False
        i = end + 1
    return True
