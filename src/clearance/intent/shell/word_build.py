"""Building a :class:`~clearance.intent.shell.word.Word` from its tree node: quote removal,
backslash and ANSI-C escapes, and the expansions the analyzer models.

:func:`build_word` answers plain, tilde and simple double-quoted words from their text, and
assembles every other word from its pieces: the value when the shell would produce it without
running anything, ``$HOME``/``$PWD`` kept symbolic, globs, and the floor of an expansion it does
not model. Substitutions met inside the word are appended to the caller's ``subs`` list.
:func:`unescape` removes backslashes the way bash does in double quotes or backticks.
"""

from __future__ import annotations

from clearance.intent.sentinel import UNMODELLED, excerpt
from clearance.intent.shell.expansion import parameter_expansion
from clearance.intent.shell.grammar import KIND
from clearance.intent.shell.tilde import user_path
from clearance.intent.shell.word import (
    DYN,
    EXPANDING,
    HOME,
    PWD,
    SUBSTITUTIONS,
    Word,
    scan_substitutions,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from clearance.intent.sentinel import Floor
    from clearance.intent.shell.source import Source

__all__ = ["build_word", "unescape"]

# Special parameters whose value is a number: never a path worth asking about.
_NUMERIC = frozenset({"$?", "$#", "$$", "$!"})
_NUMERIC_BRACED = frozenset({"${?}", "${#}", "${$}", "${!}"})
_GLOB = frozenset("*?[{")
_DQ_ESCAPABLE = frozenset('$`"\\\n')
# Double-quoted text without these is its own value, and the grammar gives all of it to the
# string's content (around a line break it may fold blanks into the closing quote).
_DQ_SPECIAL = frozenset('$`"\\\n\r\v\f')
_ANSI = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}


class _Acc:
    __slots__ = ("alts", "dq_dyn", "floor", "glob", "parts", "quoted", "unknown")

    def __init__(self) -> None:
        self.parts: list[str | int] = []
        self.quoted = False
        self.glob = False
        self.dq_dyn = False
        self.unknown = False  # a part is a value the analysis cannot know (not a number)
        self.floor: Floor | None = None
        # (index in parts, literal operands that may become that part's value)
        self.alts: list[tuple[int, list[Word]]] = []


def build_word(node: Node, src: Source, subs: list[Node], home_ok: bool, pwd_ok: bool) -> Word:
    """The :class:`Word` for ``node``; substitutions inside it are appended to ``subs``."""
    start, end = node.byte_range
    raw = src.slice(start, end)
    kind = KIND[node.kind_id]
    if (kind == "word" or kind == "number") and not node.child_count:
        if EXPANDING.isdisjoint(raw):
            return Word(start, end, raw, raw)  # the common case: nothing to unquote or expand
        rest = raw[1:]
        if raw[0] == "~" and EXPANDING.isdisjoint(rest):
            if rest[:1] not in ("", "/"):
                # `~name/…`: a login's home directory, then plain text (the word as typed,
                # an unknown path, when the name is not known here).
                found = user_path(raw)
                return Word(start, end, raw, raw if found is None else found)
            word = Word(start, end, raw)  # `~` or `~/…`: the home directory, then plain text
            if not home_ok:
                word.lead_dyn = True
            elif rest:
                word.segs = (HOME, rest)
            else:
                word.segs = (HOME,)
            return word
    if kind == "string" and len(raw) > 1 and raw[0] == '"' and raw[-1] == '"':
        inner = raw[1:-1]
        if _DQ_SPECIAL.isdisjoint(inner) and (inner.strip() or not inner) and not node.has_error:
            # Double quotes around one line without `$`, backquote or backslash: the grammar
            # finds no expansion in it and there is nothing to unescape. (Blank text is left to
            # _double_quoted: the grammar folds it into the closing quote.)
            word = Word(start, end, raw, inner)
            word.quoted = True
            return word
    word = Word(start, end, raw)
    acc = _Acc()
    _piece(node, src, acc, subs, home_ok, pwd_ok, True)
    parts = acc.parts
    word.quoted = acc.quoted
    word.glob = acc.glob
    word.dq_dyn = acc.dq_dyn
    word.floor = acc.floor
    word.unknown = acc.unknown
    if acc.alts:
        word.alts = _alternatives(parts, acc.alts)
    if not parts:
        word.value = ""
        return word
    if DYN not in parts and HOME not in parts and PWD not in parts:
        word.value = "".join(parts)  # type: ignore[arg-type]
        return word
    word.lead_dyn = parts[0] == DYN
    if DYN not in parts:
        word.segs = tuple(parts)
    elif len(parts) > 1 and any(part != "" for part in parts if part != DYN):
        # A number is no path, but a word it is only a part of may be one:
        # `/proc/$$/cwd/.env` is this shell's working directory.
        word.unknown = True
    return word


def _piece(
    node: Node,
    src: Source,
    acc: _Acc,
    subs: list[Node],
    home_ok: bool,
    pwd_ok: bool,
    first: bool,
) -> None:
    kind = KIND[node.kind_id]
    if kind == "word" or kind == "number" or kind == "extglob_pattern" or kind == "regex":
        if node.child_count and (kind == "word" or kind == "number"):
            # (`0x$(…)`: a number the grammar reads with a substitution in it)
            for i, child in enumerate(node.children):
                _piece(child, src, acc, subs, home_ok, pwd_ok, first and i == 0)
            return
        _unquoted(src.slice(node.start_byte, node.end_byte), acc, home_ok, first)
    elif kind == "raw_string":
        acc.quoted = True
        acc.parts.append(src.slice(node.start_byte + 1, node.end_byte - 1))
    elif kind == "string" or kind == "translated_string":
        acc.quoted = True
        _double_quoted(node, src, acc, subs, home_ok, pwd_ok)
    elif kind == "ansi_c_string":
        acc.quoted = True
        acc.parts.append(_ansi_c(src.slice(node.start_byte + 2, node.end_byte - 1)))
    elif kind == "concatenation":
        for i, child in enumerate(node.children):
            _piece(child, src, acc, subs, home_ok, pwd_ok, first and i == 0)
    elif kind == "simple_expansion" or kind == "expansion":
        _expansion(node, kind, src, acc, subs, home_ok, pwd_ok)
    elif kind in SUBSTITUTIONS:
        subs.append(node)
        acc.parts.append(_substitution(node, src, acc, pwd_ok, False))
    else:
        # Arithmetic (a number), brace expressions (alternatives): computed. Anything else the
        # word builder does not model floors the unit.
        acc.parts.append(DYN)
        if kind == "brace_expression":
            acc.glob = True
        elif kind != "arithmetic_expansion":
            acc.unknown = True
            if acc.floor is None and node.is_named:
                acc.floor = _unmodelled(node, src)
        if node.child_count:
            scan_substitutions(node, subs)


def _expansion(
    node: Node,
    kind: str,
    src: Source,
    acc: _Acc,
    subs: list[Node],
    home_ok: bool,
    pwd_ok: bool,
    text: str | None = None,
) -> None:
    """``$x`` or ``${…}``: a part of the word, its floor and its literal alternatives."""
    if text is None:
        text = src.slice(node.start_byte, node.end_byte)
    part = _variable(text, home_ok, pwd_ok)
    acc.parts.append(part)
    if part != DYN:
        return
    if kind == "simple_expansion":
        if text not in _NUMERIC:
            acc.unknown = True
        return
    if text[:3] == "${#":
        pass  # a length (a number), or ${#} itself; checked below like any other
    elif text not in _NUMERIC_BRACED:
        acc.unknown = True
    name = text[2:-1]
    if name.isidentifier() or name.isdigit():
        return  # ${x}, ${10}: nothing else to model
    floor, values = parameter_expansion(node, src)
    if floor is not None and acc.floor is None:
        acc.floor = floor
    if values:
        acc.alts.append(
            (len(acc.parts) - 1, [build_word(v, src, [], home_ok, pwd_ok) for v in values])
        )
    scan_substitutions(node, subs)


def _substitution(node: Node, src: Source, acc: _Acc, pwd_ok: bool, quoted: bool) -> int:
    """The part a substitution makes of its word (a unit of its own either way): ``$(pwd)``
    is the working directory; ``<(…)`` names a pipe; ``"$(cat <<'EOF' … EOF)"`` with a body
    of prose (a commit message) is prose, as its literal text would be. Anything else is
    unknown."""
    text = src.slice(node.start_byte, node.end_byte)
    if text == "$(pwd)" or text == "`pwd`":
        if pwd_ok:
            return PWD
    elif text[:1] in "<>":
        return DYN  # /dev/fd/N: a pipe from a process the analysis reads
    elif quoted and _prose_heredoc(text):
        return DYN
    acc.unknown = True
    return DYN


def _prose_heredoc(text: str) -> bool:
    """``$(cat <<'EOF'`` … ``EOF`` ``)`` whose quoted-delimiter body holds whitespace: its
    output is that body, verbatim."""
    if not text.startswith("$(cat <<") or not text.endswith(")"):
        return False
    head, newline, rest = text[2:-1].partition("\n")
    if not newline:
        return False
    head = head.strip()
    delimiter = head[len("cat <<") :].lstrip("-").strip()
    if len(delimiter) < 3 or delimiter[0] not in "'\"" or delimiter[-1] != delimiter[0]:
        return False
    delimiter = delimiter[1:-1]
    if not delimiter.isidentifier():
        return False
    body, sep, tail = rest.rpartition("\n" + delimiter)
    if not sep and rest.startswith(delimiter):
        body, tail = "", rest[len(delimiter) :]
    elif not sep:
        return False
    return not tail.strip() and any(ch in body for ch in " \t\n")


def _alternatives(
    parts: list[str | int], alts: list[tuple[int, list[Word]]]
) -> tuple[tuple[str | int, ...], ...] | None:
    """The values the word takes when its one expansion with literal operands yields one of
    them (``${x:-~/.ssh/id_rsa}``, ``~/${x:-.bashrc}``); ``None`` when another part is
    unknown too."""
    if len(alts) != 1:
        return None
    index, words = alts[0]
    for i, part in enumerate(parts):
        if i != index and part == DYN:
            return None
    out: list[tuple[str | int, ...]] = []
    for word in words:
        if word.value is not None:
            middle: tuple[str | int, ...] = (word.value,)
        elif word.segs is not None:
            middle = word.segs
        else:
            continue
        out.append((*parts[:index], *middle, *parts[index + 1 :]))
    return tuple(out) or None


def _unmodelled(node: Node, src: Source) -> Floor:
    text = excerpt(src.slice(node.start_byte, node.end_byte))
    return (UNMODELLED, f"uses shell syntax clearance does not model ({text})")


def _variable(text: str, home_ok: bool, pwd_ok: bool) -> int:
    if text == "$HOME" or text == "${HOME}":
        return HOME if home_ok else DYN
    if text == "$PWD" or text == "${PWD}":
        return PWD if pwd_ok else DYN
    return DYN


def _unquoted(raw: str, acc: _Acc, home_ok: bool, first: bool) -> None:
    if "\\" in raw:
        acc.quoted = True
        out: list[str] = []
        i = 0
        n = len(raw)
        while i < n:
            ch = raw[i]
            if ch == "\\" and i + 1 < n:
                if raw[i + 1] != "\n":
                    out.append(raw[i + 1])
                i += 2
                continue
            if ch in _GLOB:
                acc.glob = True
            out.append(ch)
            i += 1
        value = "".join(out)
    else:
        value = raw
        if not acc.glob and not _GLOB.isdisjoint(raw):
            acc.glob = True
    if first and raw[:1] == "~" and (len(raw) == 1 or raw[1] == "/"):
        acc.parts.append(HOME if home_ok else DYN)
        value = value[1:]
        if not value:
            return
    acc.parts.append(value)


def _double_quoted(
    node: Node, src: Source, acc: _Acc, subs: list[Node], home_ok: bool, pwd_ok: bool
) -> None:
    # The grammar lets a token take the blanks before it: the closing quote of `"a  "` spans
    # `  "`, the expansion in `" $HOME"` spans ` $HOME`. Those blanks are the string's text.
    pos = node.start_byte
    for i, child in enumerate(node.children):
        kind = KIND[child.kind_id]
        start = child.start_byte
        if start > pos:
            acc.parts.append(unescape(src.slice(pos, start)))
        pos = child.end_byte
        if kind == '"':
            if i and pos - 1 > start:  # blanks folded into the closing quote
                acc.parts.append(unescape(src.slice(start, pos - 1)))
            continue
        if kind == "string_content":
            acc.parts.append(unescape(src.slice(start, pos)))
            continue
        if kind == "simple_expansion" or kind == "expansion":
            text = src.slice(start, pos)
            dollar = text.find("$")
            if dollar > 0:  # blanks folded into the expansion
                acc.parts.append(unescape(text[:dollar]))
            before = len(acc.parts)
            _expansion(child, kind, src, acc, subs, home_ok, pwd_ok, text[dollar:])
            acc.dq_dyn = acc.dq_dyn or acc.parts[before] == DYN
            continue
        acc.dq_dyn = True
        if kind in SUBSTITUTIONS:
            subs.append(child)
            acc.parts.append(_substitution(child, src, acc, pwd_ok, True))
        else:
            acc.parts.append(DYN)
            if kind != "arithmetic_expansion":
                acc.unknown = True
                if acc.floor is None and child.is_named:
                    acc.floor = _unmodelled(child, src)
            if child.child_count:
                scan_substitutions(child, subs)


def unescape(text: str, escapable: frozenset[str] = _DQ_ESCAPABLE) -> str:
    """``text`` as the shell reads it inside double quotes (or backticks, with their own
    ``escapable`` set): a backslash before one of ``escapable`` is dropped, and a
    backslash-newline disappears whole."""
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in escapable:
            if text[i + 1] != "\n":
                out.append(text[i + 1])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _ansi_c(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch != "\\" or i + 1 >= n:
            out.append(ch)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _ANSI:
            out.append(_ANSI[nxt])
            i += 2
        elif nxt in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[nxt]
            digits = ""
            j = i + 2
            while j < n and len(digits) < width and text[j] in "0123456789abcdefABCDEF":
                digits += text[j]
                j += 1
            if digits:
                code = int(digits, 16)
                out.append(chr(code) if code < 0x110000 else "\ufffd")
            else:
                out.append("\\" + nxt)
            i = j
        elif nxt in "01234567":
            j = i + 1
            digits = ""
            while j < n and len(digits) < 3 and text[j] in "01234567":
                digits += text[j]
                j += 1
            out.append(chr(int(digits, 8) & 0xFF))
            i = j
        elif nxt == "c" and i + 2 < n:
            out.append(chr(ord(text[i + 2]) & 0x1F))
            i += 3
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)
