"""Plain command lines: one simple command of literal words, read without the parser.

Most command lines an agent runs are a command name and a few literal words (``git status``,
``npm test -- --watch``, ``ls -la src``). For those, bash's reading is fixed by the characters
alone: words split on blanks, nothing quoted, expanded, redirected or chained. :func:`plain`
recognises exactly that shape from a conservative whitelist and builds the statement the tree
walk would build, without loading a tree. Anything else — one character outside the
whitelist, a reserved word, a leading assignment, a declaration builtin — returns ``None`` and
the line takes the full parse. The test suite checks, by property, that both roads give the
same statement for every line this module accepts.
"""

from __future__ import annotations

from clearance.intent.shell.statement import Statement
from clearance.intent.shell.word import Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.intent.shell.statement import Scope

__all__ = ["plain"]

# Letters, digits and the punctuation bash reads as an ordinary word character in every
# position: no quoting, expansion (`$ ~ * ? [ { }`), operators (`| & ; < > ( )`), comments
# (`#`), history (`!`), escapes (`\\`) or line breaks.
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./:,+=@%")
_CHARS = _WORD_CHARS | {" ", "\t"}
# The command word is held to a narrower set: the grammar reads some first words made of the
# characters above (`-`, `z+:`) as something other than a command name.
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


def plain(text: str, context: str, scope: Scope) -> Statement | None:
    """The statement of ``text`` when it is one plain simple command, else ``None``."""
    if not _CHARS.issuperset(text):
        return None
    words: list[Word] = []
    prev_end = -1
    start = -1
    for i, ch in enumerate(text):
        if ch == " " or ch == "\t":
            if start >= 0:
                prev_end = _add(words, text, start, i, prev_end)
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        _add(words, text, start, len(text), prev_end)
    if not words:
        return None
    raws = [w.raw for w in words]
    name = raws[0]
    if name[0] == "-" or not _NAME_CHARS.issuperset(name) or not _SPECIAL.isdisjoint(raws):
        return None
    for raw in raws:
        if raw[0] == "=":
            return None  # the grammar reads a word such as `==` as an operator
    stmt = Statement("simple", "".join([w.sep + w.raw for w in words]), context, scope, False)
    stmt.words = words
    return stmt


def _add(words: list[Word], text: str, start: int, end: int, prev_end: int) -> int:
    raw = text[start:end]
    word = Word(start, end, raw)
    word.value = raw
    word.sep = text[prev_end:start] if words else ""
    words.append(word)
    return end
