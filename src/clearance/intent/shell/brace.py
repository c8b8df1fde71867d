"""Brace expansion of one word as bash does it, first of the expansions (before tilde,
parameters and globs): ``{,/abs}x`` is the two words ``x`` and ``/absx``, each resolved on its
own. Quoted and escaped braces are literal, ``${`` is a parameter, a brace without a top-level
comma or a sequence (``{a}``, ``{}``) is literal. Sequences ``{1..5}``, ``{a..e}``,
``{01..10..2}``. Bounded: past :data:`MAX_ALTERNATIVES` words the expansion is *unknown*
(``None``), which the caller turns into a reason to ask, never into a partial answer.
"""

from __future__ import annotations

__all__ = ["MAX_ALTERNATIVES", "MAX_TEXT", "expand", "expanded_words", "is_list", "literal"]

MAX_ALTERNATIVES = 256
# A longer word is not expanded (past the cap): each alternative found scans the whole word,
# so a word of a few hundred KB took seconds, inside compiled code the deadline cannot stop.
MAX_TEXT = 65536

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


class _Limit(Exception):
    pass


def _unquoted(text: str, i: int) -> Iterator[int]:
    """The indices from ``i`` of the characters outside quotes and backslash escapes (the
    quote marks and escapes themselves are not given)."""
    n = len(text)
    quote = ""
    while i < n:
        ch = text[i]
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                i += 1
        elif ch == "\\":
            i += 1
        elif ch == "'" or ch == '"':
            quote = ch
        else:
            yield i
        i += 1


def _find(text: str) -> tuple[int, int, list[tuple[int, int]]] | None:
    """The first unquoted brace expression: (open, close, alternative spans), or None."""
    for i in _unquoted(text, 0):
        if text[i] == "{" and not (i and text[i - 1] == "$"):
            found = _match(text, i)
            if found is not None:
                return found
    return None


def _match(text: str, start: int) -> tuple[int, int, list[tuple[int, int]]] | None:
    depth = 0
    last = start + 1
    spans: list[tuple[int, int]] = []
    for i in _unquoted(text, start + 1):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                if spans:
                    spans.append((last, i))
                    return start, i, spans
                body = text[start + 1 : i]
                if _sequence(body) is not None:
                    return start, i, []
                return None
            depth -= 1
        elif ch == "," and depth == 0:
            spans.append((last, i))
            last = i + 1
    return None


def _sequence(body: str) -> list[str] | None:
    parts = body.split("..")
    if len(parts) not in (2, 3):
        return None
    step = 1
    if len(parts) == 3:
        try:
            step = abs(int(parts[2])) or 1
        except ValueError:
            return None
    a, b = parts[0], parts[1]
    try:
        x, y = int(a), int(b)
    except ValueError:
        if (
            len(a) == 1
            and len(b) == 1
            and a.isascii()
            and b.isascii()
            and a.isalpha()
            and b.isalpha()
        ):
            x, y = ord(a), ord(b)
            if abs(y - x) // step + 1 > MAX_ALTERNATIVES:
                raise _Limit from None
            rng = range(x, y + 1, step) if x <= y else range(x, y - 1, -step)
            return [chr(c) for c in rng]
        return None
    if abs(y - x) // step + 1 > MAX_ALTERNATIVES:
        raise _Limit
    width = max(len(a), len(b)) if (a.lstrip("-")[:1] == "0" or b.lstrip("-")[:1] == "0") else 0
    rng = range(x, y + 1, step) if x <= y else range(x, y - 1, -step)
    return [str(v).zfill(width) if width else str(v) for v in rng]


def expand(text: str) -> list[str] | None:
    """The words ``text`` brace-expands to, as raw text (quotes kept); ``None`` past the cap."""
    if "{" not in text:
        return [text]
    if len(text) > MAX_TEXT:
        return None
    try:
        out: list[str] = []
        _expand(text, out)
        return out
    except (_Limit, RecursionError):
        return None


def _expand(text: str, out: list[str]) -> None:
    found = _find(text)
    if found is None:
        out.append(text)
        if len(out) > MAX_ALTERNATIVES:
            raise _Limit
        return
    start, end, spans = found
    head, tail = text[:start], text[end + 1 :]
    sequence = None if spans else _sequence(text[start + 1 : end])
    alternatives = [text[a:b] for a, b in spans] if spans else sequence or []
    for alternative in alternatives:
        _expand(head + alternative + tail, out)


def literal(text: str) -> tuple[str | None, bool]:
    """The value of one brace-expanded word after quote removal, and whether an unquoted glob
    character is in it; ``None`` when it holds an expansion (``$``, a backquote)."""
    out: list[str] = []
    glob = False
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            if i + 1 < n and text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        if ch == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return None, glob
            out.append(text[i + 1 : close])
            i = close + 1
            continue
        if ch == '"':
            close = text.find('"', i + 1)
            inner = text[i + 1 : close] if close > 0 else ""
            if close < 0 or "$" in inner or "`" in inner or "\\" in inner:
                return None, glob
            out.append(inner)
            i = close + 1
            continue
        if ch == "$" or ch == "`":
            return None, glob
        if ch in "*?[":
            glob = True
        out.append(ch)
        i += 1
    return "".join(out), glob


def expanded_words(text: str) -> list[tuple[str | None, bool]] | None:
    """Each word ``text`` brace-expands to, as :func:`literal` reads it (its value, ``None``
    when it holds an expansion; whether an unquoted glob character is in it); ``None`` past
    the cap."""
    expanded = expand(text)
    if expanded is None or len(expanded) > MAX_ALTERNATIVES:
        return None
    return [literal(word) for word in expanded]


def is_list(text: str) -> bool:
    """Whether ``text`` may hold a brace list bash expands (braces around a comma or a ``..``
    sequence), as opposed to ``{}`` or a parameter's ``${x}``."""
    return "{" in text and ("," in text or ".." in text)
