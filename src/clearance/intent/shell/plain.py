"""Plain command lines: simple commands of literal words, read without the parser.

Most command lines an agent runs are a command name and a few literal words (``git status``,
``npm test -- --watch``), or a few of those joined by ``&&``, ``||``, ``;`` and ``|``
(``git add -A && git commit -m wip``, ``git log | head -5``). For those, bash's reading is fixed by
the characters alone: words split on blanks, commands split on the four operators, nothing
quoted, expanded or redirected. :func:`plain` recognises exactly that shape from a conservative
whitelist and builds the statements the tree walk would build — each element of a pipeline in a
shell of its own — without loading a tree. Anything else (one character outside the whitelist, a
reserved word, a leading assignment, a declaration builtin, ``&``, ``;;``, an empty command)
returns ``None`` and the line takes the full parse. The test suite checks, by property, that both
roads give the same statements for every line this module accepts.
"""

from __future__ import annotations

from clearance.intent.shell.statement import Scope, Statement
from clearance.intent.shell.word import Word

__all__ = ["plain"]

# Letters, digits and the punctuation bash reads as an ordinary word character in every
# position after the command word: no quoting, expansion (`$ ~ * ? [ { }`), redirection
# (`< >`), grouping (`( )`), comments (`#`), history (`!`), escapes (`\\`) or line breaks.
_WORD_CHARS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./:,+=@%"
)
_CHARS = _WORD_CHARS | {" ", "\t", "|", "&", ";"}
# The command word is held to a narrower set: the grammar reads some first words made of the
# characters above (`-`, `z+:`, `x@1`, `a%`) as something other than a command name.
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./")
# Words the grammar or bash read as something other than a command word: reserved words, and
# the builtins the grammar parses as declarations (their assignments are scanned differently).
_SPECIAL = frozenset(
    {
        "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
        "in", "select", "then", "time", "until", "while",
        "declare", "typeset", "export", "readonly", "local", "unset", "unsetenv",
    }
)  # fmt: skip


def plain(text: str, context: str, scope: Scope) -> list[Statement] | None:
    """The statements of ``text`` when it is plain commands joined by ``&& || ; |``, else
    ``None``."""
    if not _CHARS.issuperset(text):
        return None
    spans = _spans(text)
    if spans is None:
        return None
    statements: list[Statement] = []
    for index, (start, end, op) in enumerate(spans):
        piped = op == "|" or (index and spans[index - 1][2] == "|")
        stmt = _statement(text, start, end, context, Scope(scope) if piped else scope)
        if stmt is None:
            return None
        statements.append(stmt)
    return statements


def _spans(text: str) -> list[tuple[int, int, str | None]] | None:
    """Each command's span and the operator after it; ``None`` for ``&``, ``|&``, ``;;``."""
    n = len(text)
    if "|" not in text and "&" not in text and ";" not in text:
        return [(0, n, None)]
    spans: list[tuple[int, int, str | None]] = []
    start = 0
    i = 0
    while i < n:
        ch = text[i]
        if ch != "|" and ch != "&" and ch != ";":
            i += 1
            continue
        nxt = text[i + 1] if i + 1 < n else ""
        if ch == "|":
            if nxt == "&":
                return None
            op = "||" if nxt == "|" else "|"
        elif ch == "&":
            if nxt != "&":
                return None  # a background job
            op = "&&"
        else:
            if nxt == ";" or nxt == "&":
                return None
            op = ";"
        spans.append((start, i, op))
        i += len(op)
        start = i
    spans.append((start, n, None))
    return spans


def _statement(text: str, lo: int, hi: int, context: str, scope: Scope) -> Statement | None:
    raws = text[lo:hi].split()  # blanks only: the whitelist admits no other whitespace
    if not raws:
        return None  # an empty command: `a && && b`, a trailing operator
    name = raws[0]
    if name[0] == "-" or not _NAME_CHARS.issuperset(name) or not _SPECIAL.isdisjoint(raws):
        return None
    words: list[Word] = []
    pos = lo
    for raw in raws:
        if raw[0] == "=":
            return None  # the grammar reads a word such as `==` as an operator
        start = text.find(raw, pos)  # only blanks lie between `pos` and the word
        end = start + len(raw)
        word = Word(start, end, raw)
        word.value = raw
        word.sep = text[pos:start] if words else ""
        words.append(word)
        pos = end
    stmt = Statement("simple", "".join([w.sep + w.raw for w in words]), context, scope, False)
    stmt.words = words
    return stmt
