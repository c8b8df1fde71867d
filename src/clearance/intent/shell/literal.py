"""Literal command lines: simple commands of literal words, read without the parser.

Most command lines an agent runs are a command name and a few literal words (``git status``,
``npm test -- --watch``), or a few of those joined by ``&&``, ``||``, ``;`` and ``|``
(``git add -A && git commit -m wip``, ``git log | head -5``). For those, bash's reading is fixed by
the characters alone: words split on blanks, commands split on the four operators, nothing
quoted, expanded or redirected. :func:`literal_line` recognises that shape from a conservative
whitelist and builds the statements the tree walk would build — each element of a pipeline in a
shell of its own — without loading a tree. Anything else (one character outside the whitelist, a
reserved word, a leading assignment, a declaration builtin, ``&``, ``;;``, an empty command)
returns ``None`` and the line takes the full parse. The test suite checks, by property, that both
roads give the same statements for every line this module accepts.
"""

from __future__ import annotations

from clearance.intent.shell.statement import Scope, Statement
from clearance.intent.shell.word import Word, literal_word

__all__ = ["literal_line"]

# Letters, digits and the punctuation bash reads as an ordinary word character in every
# position after the command word: no quoting, expansion (`$ ~ * ? [ { }`), redirection
# (`< >`), grouping (`( )`), comments (`#`), history (`!`), escapes (`\\`) or line breaks.
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./:,+=@%")
_CHARS = _WORD_CHARS | {" ", "\t", "|", "&", ";"}
# The command word is held to a narrower set: the grammar reads some first words made of the
# characters above (`-`, `z+:`, `x@1`, `a%`) as something other than a command name.
_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_./")
# (A masked quoted string is all `q`s: the command word is checked for quotes separately.)
# Membership tests on the text's bytes: every admitted byte becomes a letter, so the result is
# all letters exactly when every character is admitted (non-ASCII never is).
_ADMITTED = bytes.maketrans("".join(sorted(_CHARS)).encode(), b"a" * len(_CHARS))
_NAME = bytes.maketrans("".join(sorted(_NAME_CHARS)).encode(), b"a" * len(_NAME_CHARS))


def _admitted(text: str, table: bytes) -> bool:
    return text.isascii() and text.encode().translate(table).isalpha()


# Words the grammar or bash read as something other than a command word: reserved words, and
# the builtins the grammar parses as declarations (their assignments are scanned differently).
_SPECIAL = frozenset(
    {
        "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
        "in", "select", "then", "time", "until", "while",
        "declare", "typeset", "export", "readonly", "local", "unset", "unsetenv",
    }
)  # fmt: skip


def literal_line(text: str, context: str, scope: Scope) -> list[Statement] | None:
    """The statements of ``text`` when it is plain commands joined by ``&& || ; |``, else
    ``None``."""
    shape = text
    if "'" in text or '"' in text:
        masked = _masked(text)
        if masked is None:
            return None
        shape = masked
    if not _admitted(shape, _ADMITTED):
        return None
    spans = _spans(shape)
    if spans is None:
        return None
    statements: list[Statement] = []
    pipe: object | None = None
    chain: object | None = None  # the `&&` chain of the commands so far (`cd build && make`)
    maybe = False  # the command may not run (after `&&` or `||`)
    for index, (start, end, op) in enumerate(spans):
        before = spans[index - 1][2] if index else ";"
        after_pipe = before == "|"
        piped = op == "|" or after_pipe
        if piped and not after_pipe:
            pipe = object()  # a pipeline starts: its elements run at once
        if before == ";":
            chain, maybe = object(), False
        elif before != "|":
            maybe = True
            if before == "||":
                chain = None
        own = scope
        if piped:
            own = Scope(scope, None, pipe)
            own.fed = after_pipe  # (no redirect here: the shape admits none)
        stmt = _statement(text, shape, start, end, context, own)
        if stmt is None:
            return None
        stmt.chain = None if piped else chain
        stmt.maybe = maybe
        statements.append(stmt)
    return statements


def _masked(text: str) -> str | None:
    """``text`` with every quoted string (quotes included) replaced by ``q``s of its length,
    so blanks and operators inside quotes are not taken for separators. ``None`` when a
    string is unclosed, holds what is not printable ASCII, or — double-quoted — holds ``$``,
    a backtick or a backslash (expansion and escapes)."""
    parts: list[str] = []
    pos = 0
    while True:
        single = text.find("'", pos)
        double = text.find('"', pos)
        if single < 0 and double < 0:
            break
        start = single if double < 0 or (0 <= single < double) else double
        quote = text[start]
        close = text.find(quote, start + 1)
        if close < 0:
            return None
        content = text[start + 1 : close]
        if not (content.isascii() and content.isprintable()):
            return None
        if quote == '"' and ("$" in content or "`" in content or "\\" in content):
            return None
        parts.append(text[pos:start])
        parts.append("q" * (close + 1 - start))
        pos = close + 1
    parts.append(text[pos:])
    return "".join(parts)


def _unquoted(raw: str) -> str:
    """The value of a word whose quoted strings are literal: the quote marks removed."""
    out: list[str] = []
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if ch == "'" or ch == '"':
            close = raw.index(ch, i + 1)
            out.append(raw[i + 1 : close])
            i = close + 1
        else:
            j = i + 1
            while j < n and raw[j] != "'" and raw[j] != '"':
                j += 1
            out.append(raw[i:j])
            i = j
    return "".join(out)


def _spans(text: str) -> list[tuple[int, int, str | None]] | None:
    """Each command's span and the operator after it; ``None`` for ``&``, ``|&``, ``;;``."""
    n = len(text)
    if "|" not in text and "&" not in text and ";" not in text:
        return [(0, n, None)]
    spans: list[tuple[int, int, str | None]] = []
    start = 0
    # The next `|`, `&` and `;` at or after `i` (-1: none left), found by `str.find`.
    bar, amp, semi = text.find("|"), text.find("&"), text.find(";")
    i = 0
    while True:
        if 0 <= bar < i:
            bar = text.find("|", i)
        if 0 <= amp < i:
            amp = text.find("&", i)
        if 0 <= semi < i:
            semi = text.find(";", i)
        i = min(bar if bar >= 0 else n, amp if amp >= 0 else n, semi if semi >= 0 else n)
        if i >= n:
            break
        ch = text[i]
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


def _statement(
    text: str, shape: str, lo: int, hi: int, context: str, scope: Scope
) -> Statement | None:
    """One command of ``text`` between ``lo`` and ``hi``; ``shape`` is ``text`` with quoted
    strings masked (or ``text`` itself)."""
    shapes = shape[lo:hi].split()  # blanks only: the whitelist admits no other whitespace
    if not shapes:
        return None  # an empty command: `a && && b`, a trailing operator
    name = shapes[0]
    if name[0] == "-" or not _admitted(name, _NAME) or not _SPECIAL.isdisjoint(shapes):
        return None
    quoted = shape is not text
    words: list[Word] = []
    pos = lo
    for piece in shapes:
        start = shape.find(piece, pos)  # only blanks lie between `pos` and the word
        end = start + len(piece)
        raw = text[start:end] if quoted else piece
        if raw[0] == "=":
            return None  # the grammar reads a word such as `==` as an operator
        if quoted and ("'" in raw or '"' in raw):
            if not words:
                return None  # a quoted command word
            word = Word(start, end, raw, _unquoted(raw))
            word.quoted = True
        else:
            word = literal_word(start, end, raw)
        word.sep = text[pos:start] if words else ""
        words.append(word)
        pos = end
    # The words with the blanks between them as typed: the walk's text, in one slice.
    stmt = Statement("simple", text[words[0].start : words[-1].end], context, scope, False)
    stmt.words = words
    return stmt
