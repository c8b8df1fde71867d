"""Where tree-sitter-bash reads a line otherwise than bash: found on the tree, so the whole line
is unresolved and asks (docs/shell-analysis.md, "Where the grammar is wrong").

Each check compares the tree with a rule of bash's own reading that holds for every line:

* **Nothing is skipped.** Between the tokens of the tree there is only a blank (space, tab,
  newline) or a line continuation. tree-sitter passes over ``\\r``, ``\\f`` and ``\\v`` as blanks
  (bash reads them as word characters: ``echo x\\r#; rm -rf ~`` runs rm), and over an escaped
  blank before a ``#`` (``echo \\ #;rm -rf ~``, where bash reads the word `` #``).
* **A word has no blank inside.** No gap within a variable reference, an assignment, a number
  or a concatenation holds a blank: ``x=$ rm echo -rf ~`` is an assignment of ``$`` and the
  command ``rm``, ``echo 1# $(rm -rf ~)`` two words, not one base-N number.
* **A simple command ends at a newline** that no backslash escapes (``echo =~`` then a line
  ``rm -rf ~``), and its words are apart: two of its words the tree places side by side are one
  word to bash (``x=]\\echo rm -rf ~`` assigns ``]echo`` and runs rm). Two plain literal
  arguments may touch: the command builder joins them into the word bash reads.
* **A comment starts a word**: after a blank, a newline, ``;``, ``&``, ``|`` or ``(``, not glued
  to an array (``x=()# rm -rf ~``).
* **A ``${…}`` ends where bash ends it**: at the first ``}`` outside quotes, escapes and inner
  expansions (the grammar also counts a bare ``{``: ``echo ${x#{};rm -rf ~ }``).
* **An ANSI-C string ``$'…'`` ends where bash ends it**: tree-sitter takes ``\\\\'`` in one as an
  escaped quote wherever it stands (``echo $'\\\\\\\\'; rm -rf ~ #'``).
* **``>&`` has no quoted expansion after it**: bash reads ``>&WORD`` as ``&>WORD`` and expands
  the word again (``echo hi >&'$(rm -rf ~)'`` runs rm).
* **A line of redirects alone has no words**: the grammar may take a command's words for a
  redirect's (``<<<x >&a touch ran >b`` runs touch).
"""

from __future__ import annotations

from clearance.intent.shell.grammar import KIND
from clearance.intent.shell.heredoc import close_brace, close_single

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["misread", "misread_within"]

_BLANKS = frozenset(b" \t\n")
_SPACE = frozenset(b" \t\n\r\f\v")
# Nodes that are one word's pieces: no gap inside them holds a blank.
_WORDS = frozenset({"simple_expansion", "variable_assignment", "number", "concatenation", "word"})
# What may stand before a comment's `#`: a blank or an operator, or the `)` that closes a
# subshell, a case pattern or a function's name (not an array: `x=()# rm` runs rm).
_COMMENT_AFTER = frozenset(b" \t\n;&|(")
# Nodes whose parts a newline no backslash escapes cannot part: a simple command, a redirect
# (`git status <\\ ` then a line `rm -rf .git`: bash reads a file named by a blank, then rm).
_SIMPLE = frozenset({"command", "file_redirect", "herestring_redirect"})
# Pieces of one argument the grammar splits where an escaped blank joins them (`"$f"\\ done`).
_ARGUMENTS = frozenset(
    {"word", "string", "raw_string", "concatenation", "simple_expansion", "expansion", "number"}
    | {"command_substitution", "ansi_c_string", "translated_string"}
)
_BACKSLASH = 0x5C


def misread(root: Node, data: bytes) -> bool:
    """Whether tree-sitter read ``data`` (the bytes parsed into ``root``) otherwise than bash
    would, by one of the checks above."""
    return misread_within(root, data, 0, len(data))


def misread_within(root: Node, data: bytes, start: int = -1, stop: int = -1) -> bool:
    """:func:`misread` for the part of ``data`` that ``root`` spans (or ``start`` to
    ``stop``)."""
    end = root.start_byte if start < 0 else start  # the end of the last token met
    last: Node | None = None  # that token
    split: set[int] = set()  # where an escaped blank parts two pieces of one argument
    stack = [root]
    while stack:
        node = stack.pop()
        kind = KIND[node.kind_id]
        count = node.child_count
        if count == 0 or kind == "comment" or kind == "ansi_c_string":
            if not _blank(data, end, node.start_byte, end in split and kind != "comment"):
                return True
            if kind == "comment" and node.start_byte and _not_a_comment(node, last, data):
                return True
            end = max(end, node.end_byte)
            last = node
            if kind == "ansi_c_string" and _ends(
                close_single(_text(data), node.start_byte + 2, True), node, data
            ):
                return True
            continue
        children = node.children
        if kind in _WORDS and _gap_blank(node, children, data):
            return True
        if kind in _SIMPLE and _command_misread(children, data, split, kind == "command"):
            return True
        if kind == "expansion" and _ends(close_brace(_text(data), node.start_byte + 2), node, data):
            return True
        if kind == "file_redirect" and _reexpanded(children, data):
            return True
        if kind == "redirected_statement" and _words_in_redirects(children):
            return True
        if kind == "heredoc_body":
            # Its text lies between its expansions; what runs is in them, each read whole.
            if not _blank(data, end, node.start_byte):
                return True
            end = node.end_byte
            if any(misread_within(child, data) for child in children):
                return True
            continue
        stack.extend(reversed(children))
    return not _blank(data, end, root.end_byte if stop < 0 else stop)


def _blank(data: bytes, start: int, end: int, escaped: bool = False) -> bool:
    """Whether ``data[start:end]`` holds only blanks and line continuations (and, with
    ``escaped``, escaped blanks: where the grammar dropped them between two pieces of one
    argument, ``"$f"\\ done``, which bash reads as one word)."""
    i = start
    while i < end:
        byte = data[i]
        if byte in _BLANKS:
            i += 1
        elif (
            byte == _BACKSLASH
            and i + 1 < end
            and (data[i + 1] == 0x0A or (escaped and data[i + 1] in b" \t"))
        ):
            i += 2
        else:
            return False
    return True


def _gap_blank(node: Node, children: list[Node], data: bytes) -> bool:
    """Whether a gap between the pieces of a word holds a blank (or a byte bash reads so)."""
    at = node.start_byte
    for child in children:
        if child.start_byte > at and _spaced(data[at : child.start_byte]):
            return True
        at = max(at, child.end_byte)
    return node.end_byte > at and _spaced(data[at : node.end_byte])


def _spaced(gap: bytes) -> bool:
    """Whether ``gap`` holds a blank (or a byte bash reads so) that no backslash escapes."""
    if _SPACE.isdisjoint(gap):
        return False
    return not _SPACE.isdisjoint(gap.replace(b"\\ ", b"").replace(b"\\\t", b""))


def _command_misread(children: list[Node], data: bytes, split: set[int], words: bool) -> bool:
    """Whether a simple command's (or a redirect's) parts run across an unescaped newline, or
    (``words``: a command's) two of them touch; where two arguments are parted by escaped
    blanks alone, the place is added to ``split`` (the grammar dropped them between two pieces
    of one word)."""
    last: Node | None = None
    for child in children:
        if last is not None:
            gap = data[last.end_byte : child.start_byte]
            kinds = (KIND[last.kind_id], KIND[child.kind_id])
            if not gap:
                if words and _touch_misread(last, child, kinds, data):
                    return True
            elif b"\n" in gap.replace(b"\\\n", b""):
                return True
            elif kinds[0] in _ARGUMENTS and kinds[1] in _ARGUMENTS and _escaped_blanks(gap):
                split.add(last.end_byte)
        last = child
    return False


def _touch_misread(last: Node, child: Node, kinds: tuple[str, str], data: bytes) -> bool:
    """Whether two parts of a command that touch are one word to bash: not a word before a
    redirect (`echo hi>out`), two plain literals the command builder joins, or `$"…"`, a
    translated string read as its text; a redirect's target is cut short before a word glued
    to it (`>a{\\echo touch x`)."""
    if kinds[0].endswith("_redirect"):
        return True
    if kinds[1].endswith("_redirect") or (_literal(last) and _literal(child)):
        return False
    return not (kinds[1] == "string" and data[last.start_byte : last.end_byte] == b"$")


def _words_in_redirects(children: list[Node]) -> bool:
    """Whether a statement of redirects alone has a redirect holding more words than its
    target: the grammar took a command's words for it (`<<<x >&a touch ran >b`), where after
    a command's name it takes them for the command's (`ls > a b`)."""
    if any(not KIND[c.kind_id].endswith("_redirect") for c in children):
        return False
    return any(
        sum(KIND[g.kind_id] in _ARGUMENTS for g in c.children) > 1
        for c in children
        if KIND[c.kind_id] == "file_redirect"
    )


def _escaped_blanks(gap: bytes) -> bool:
    return not gap.replace(b"\\ ", b"").replace(b"\\\t", b"")


def _not_a_comment(node: Node, last: Node | None, data: bytes) -> bool:
    """Whether bash reads the ``#`` the grammar starts ``node``, a comment, with as part of a
    word: glued to a word, or to the ``)`` of an array."""
    before = data[node.start_byte - 1]
    if before in _COMMENT_AFTER:
        return False
    if before != 0x29 or last is None or last.end_byte != node.start_byte:
        return True
    parent = last.parent
    return parent is None or KIND[parent.kind_id] not in (
        "subshell", "case_item", "function_definition", "compound_statement"
    )  # fmt: skip


def _literal(node: Node) -> bool:
    """Whether ``node`` is an argument of plain words only (the command builder joins two such
    that touch into the one word bash reads: ``a{\\z{b}``, split by the grammar)."""
    kind = KIND[node.kind_id]
    if kind == "word":
        return node.child_count == 0
    return kind == "concatenation" and all(
        KIND[c.kind_id] == "word" and c.child_count == 0 for c in node.children
    )


def _text(data: bytes) -> str:
    """``data`` as text of one character per byte, for the quote scanners of
    :mod:`~clearance.intent.shell.heredoc` (the line's non-ASCII characters are placeholders
    in it already: :mod:`~clearance.intent.shell.source`), decoded once per line."""
    if _DECODED[0] is not data:
        _DECODED[:] = [data, data.decode("latin-1")]
    return _DECODED[1]  # type: ignore[return-value]


_DECODED: list[bytes | str] = [b"", ""]


def _ends(found: int, node: Node, data: bytes) -> bool:
    """Whether bash ends ``node`` elsewhere than the tree: at ``found`` (-1: past the end)."""
    return (found if found >= 0 else len(data)) != node.end_byte


def _reexpanded(children: list[Node], data: bytes) -> bool:
    """Whether a redirect is ``>&`` to a word holding a quoted expansion, which bash expands
    again."""
    if not children or KIND[children[0].kind_id] != ">&":
        return False
    target = data[children[-1].start_byte : children[-1].end_byte]
    return (b"$" in target or b"`" in target) and (b"'" in target or b'"' in target)
