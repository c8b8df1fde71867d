"""Reading test sources without running them: the tokens of TypeScript and Rust, the bracket
pairs, call arguments and array items they are read by (for ``guard_cases.py``)."""

from __future__ import annotations

import collections
import re

# One assertion read from a test source: (file, command, blocked?, setting). The setting is ""
# for the suite's default one.
Found = tuple[str, str, bool, str]


class Skipped(collections.Counter[str]):
    """Why assertions were not read, counted by file and reason."""


# --- tokens --------------------------------------------------------------------------------------

# A token: (kind, text, offset). kind is "str" (a string literal, text its value), "dyn" (a
# string computed at run time: a template literal with ``${…}`` or a Rust ``format!``), "id",
# "num" or "op" (one punctuation character).
Token = tuple[str, str, int]

JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "v": "\v"}
_RS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def unescape(body: str, escapes: dict[str, str]) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = body[i + 1] if i + 1 < len(body) else ""
        if n == "\n":  # a line continuation (Rust also drops the next line's indentation)
            i += 2
            if escapes is _RS_ESCAPES:
                while i < len(body) and body[i] in " \t\n\r":
                    i += 1
            continue
        if n == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        elif n == "u" and body[i + 2 : i + 3] == "{":
            end = body.index("}", i)
            out.append(chr(int(body[i + 3 : end], 16)))
            i = end + 1
        elif n == "u":
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        else:
            out.append(escapes.get(n, n))
            i += 2
    text = "".join(out)
    try:  # a pair of \u escapes of UTF-16 surrogates is one character
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:  # a lone surrogate stays as written
        return text


_JS_TOKEN = re.compile(
    r"""(?P<space>\s+|//[^\n]*|/\*.*?\*/)
    |(?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    |(?P<tmpl>`(?:[^`\\]|\\.)*`)
    |(?P<id>[A-Za-z_$][\w$]*)
    |(?P<num>\d[\w.]*)
    |(?P<op>.)""",
    re.S | re.X,
)
_JS_REGEX = re.compile(r"/(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[a-z]*")


def js_tokens(text: str) -> list[Token]:
    """The tokens of TypeScript source; a regular expression literal is one ``op`` token."""
    out: list[Token] = []
    i = 0
    while i < len(text):
        if text[i] == "/" and (not out or (out[-1][0] == "op" and out[-1][1] not in ")]}")):
            regex = _JS_REGEX.match(text, i)
            if regex and not text.startswith(("//", "/*"), i):
                out.append(("op", regex.group(), i))
                i = regex.end()
                continue
        m = _JS_TOKEN.match(text, i)
        assert m is not None and m.lastgroup is not None
        kind, value = m.lastgroup, m.group()
        if kind == "str":
            out.append(("str", unescape(value[1:-1], JS_ESCAPES), i))
        elif kind == "tmpl":
            body = value[1:-1]
            dynamic = re.search(r"(?<!\\)\$\{", body)
            out.append(("dyn", body, i) if dynamic else ("str", unescape(body, JS_ESCAPES), i))
        elif kind != "space":
            out.append((kind, value, i))
        i = m.end()
    return out


_RS_TOKEN = re.compile(
    r"""(?P<space>\s+|//[^\n]*)
    |(?P<raw>b?r(?P<hashes>\#*)")
    |(?P<str>b?"(?:[^"\\]|\\.)*")
    |(?P<char>b?'(?:[^'\\\n]|\\.[^']*)')
    |(?P<id>[A-Za-z_]\w*)
    |(?P<num>\d[\w.]*)
    |(?P<op>.)""",
    re.S | re.X,
)


def rs_tokens(text: str) -> list[Token]:
    """The tokens of Rust source; ``/* */`` comments nest, a lifetime is an ``op`` and an id."""
    out: list[Token] = []
    i = 0
    while i < len(text):
        if text.startswith("/*", i):
            depth, i = 1, i + 2
            while depth and i < len(text):
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            continue
        m = _RS_TOKEN.match(text, i)
        assert m is not None and m.lastgroup is not None
        kind = m.lastgroup
        if kind == "raw" or m.group("raw"):
            close = '"' + (m.group("hashes") or "")
            end = text.index(close, m.end())
            out.append(("str", text[m.end() : end], i))
            i = end + len(close)
            continue
        if kind == "str":
            value = m.group()
            out.append(("str", unescape(value[value.index('"') + 1 : -1], _RS_ESCAPES), i))
        elif kind == "char":
            out.append(("num", m.group(), i))
        elif kind != "space":
            out.append((kind, m.group(), i))
        i = m.end()
    return out


def brackets(tokens: list[Token]) -> dict[int, int]:
    """The index of the bracket closing each opening one (and of the one opening each closing)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for i, (kind, text, _) in enumerate(tokens):
        if kind != "op":
            continue
        if text in "([{":
            stack.append(i)
        elif text in ")]}" and stack:
            j = stack.pop()
            pairs[j] = i
            pairs[i] = j
    return pairs


def arguments(tokens: list[Token], pairs: dict[int, int], opening: int) -> list[tuple[int, int]]:
    """The ``[start, end)`` token ranges of the comma-separated items inside a bracket pair."""
    end = pairs.get(opening, opening)
    items: list[tuple[int, int]] = []
    start = i = opening + 1
    while i < end:
        kind, text, _ = tokens[i]
        if kind == "op" and text in "([{" and i in pairs:
            i = pairs[i] + 1
            continue
        if kind == "op" and text == ",":
            items.append((start, i))
            start = i + 1
        i += 1
    if start < end:
        items.append((start, end))
    return items


def strings_of(tokens: list[Token], span: tuple[int, int]) -> list[str | None] | None:
    """The string items of an array written in ``span`` (``[…]``, ``&[…]``, ``vec![…]``): each a
    value, or None when computed; None when ``span`` is no such array."""
    start, end = span
    while start < end and tokens[start][1] in ("&", "vec", "!"):
        start += 1
    if start >= end or tokens[start][1] != "[" or tokens[end - 1][1] != "]":
        return None
    pairs = brackets(tokens[start:end])
    out: list[str | None] = []
    for a, b in arguments(tokens[start:end], pairs, 0):
        a, b = a + start, b + start
        if b - a == 1 and tokens[a][0] == "str":
            out.append(tokens[a][1])
        elif tokens[a][1] in "([" and tokens[a + 1][0] == "str":
            out.append(tokens[a + 1][1])  # a table row (command, …): its first item
        else:
            out.append(None)
    return out


def enclosing(pairs: dict[int, int], opened: list[int], i: int) -> list[int]:
    """The opening brackets among ``opened`` whose pair holds token ``i``, innermost last."""
    return [j for j in opened if j < i < pairs.get(j, j)]
