"""Substitutions in the body of a heredoc whose delimiter is unquoted.

bash expands ``$(…)`` and backticks in such a body like inside double quotes; tree-sitter-bash
0.25 leaves many of them unparsed (a body that starts with a backtick, an indented ``$(…)``, a
substitution after other text). The body is therefore scanned here, as text: each substitution
found is handed back as program text for the walk to parse (context ``heredoc``). A
substitution whose end cannot be found is reported *unsure*: the walk records it as an
unresolved unit and still parses what follows its opening.

Quotes are not special in the body itself; inside ``$(…)`` they are (the text is a program).
"""

from __future__ import annotations

from itertools import pairwise

from clearance.intent.shell.escape import unescaped
from clearance.intent.shell.word import BACKTICK_ESCAPABLE
from clearance.intent.shell.word_build import unescape

__all__ = [
    "body_text",
    "close_brace",
    "close_double",
    "close_single",
    "delimiter_start",
    "delimiter_word",
    "substitutions",
]

_WORD_BREAK = frozenset(" \t\n;&|()<>")


def body_text(data: bytes, start: int, end: int) -> str:
    """The body between byte offsets, from the start of its first line (the grammar may start
    the body node after leading blanks)."""
    line = data.rfind(b"\n", 0, start) + 1
    if data[line:start].strip(b" \t"):
        line = start
    return data[line:end].decode("utf-8", "replace")


def delimiter_word(text: str) -> str | None:
    """The heredoc delimiter bash (and zsh) reads from the word ``text``: quotes removed, a
    backslash kept inside single quotes and inside double quotes but before `` $`"\\ ``.
    ``None`` when bash's word ends before ``text`` does (``X|cat``: the grammar took the
    operator along) or holds an expansion."""
    out: list[str] = []
    i, size = 0, len(text)
    while i < size:
        ch = text[i]
        if ch in " \t\n|&;<>()$`":
            return None
        if ch == "'":
            close = text.find("'", i + 1)
            if close < 0:
                return None
            out.append(text[i + 1 : close])
            i = close + 1
        elif ch == '"':
            i += 1
            while i < size and text[i] != '"':
                if text[i] in "$`":
                    return None
                if text[i] == "\\" and i + 1 < size and text[i + 1] in '$`"\\\n':
                    i += 1
                out.append(text[i])
                i += 1
            if i >= size:
                return None
            i += 1
        elif ch == "\\":
            if i + 1 >= size:
                return None
            out.append(text[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def delimiter_start(line: str, k: int) -> tuple[int, bool]:
    """Where the delimiter word of the heredoc operator at ``k`` (``<<`` or ``<<-``) starts,
    past the blanks bash allows before it, and whether the operator strips leading tabs."""
    j = k + 2
    tabs = line[j : j + 1] == "-"
    if tabs:
        j += 1
    while line[j : j + 1] in (" ", "\t") and j < len(line):
        j += 1
    return j, tabs


def substitutions(body: str) -> list[tuple[str, bool]]:
    """The program text of every ``$(…)`` and backtick substitution in ``body``, outermost
    only, each with whether its end was found."""
    out: list[tuple[str, bool]] = []
    _scan(body, out)
    return out


def _scan(text: str, out: list[tuple[str, bool]]) -> None:
    i = 0
    while (i := unescaped(text, i, "$`")) >= 0:
        ch = text[i]
        if ch == "$" and text.startswith("$(", i):
            end = _close_paren(text, i + 2)
            if end < 0:
                out.append((text[i + 2 :], False))
                return
            inner = text[i + 2 : end]
            if (
                inner[:1] == "("
                and inner[-1:] == ")"
                and _close_paren(text, i + 3) == end - 1
                and _arithmetic(inner[1:-1])
            ):
                _scan(inner[1:-1], out)  # `$(( … ))`: arithmetic; it may hold substitutions
            else:
                out.append((inner, True))
            i = end + 1
            continue
        if ch == "`":
            end = _close_backtick(text, i + 1)
            if end < 0:
                out.append((_unescape(text[i + 1 :]), False))
                return
            out.append((_unescape(text[i + 1 : end]), True))
            i = end + 1
            continue
        i += 1


def _arithmetic(expr: str) -> bool:
    """Whether ``$(( expr ))`` reads as arithmetic rather than a subshell holding a command:
    no quotes or ``;``, and no two operands (``rm x``) or an operand and an option (``rm -rf``)
    side by side."""
    expr = _flatten(expr)
    if any(ch in expr for ch in "'\";\n"):
        return False
    parts = expr.split()
    for left, right in pairwise(parts):
        if not (left[-1].isalnum() or left[-1] in "_"):
            continue
        if right[0].isalnum() or right[0] in "_$" or (right[0] == "-" and right[1:2].isalpha()):
            return False
    return True


def _flatten(expr: str) -> str:
    """``expr`` with each ``$(…)``, ``${…}`` and backtick substitution replaced by ``0``."""
    out: list[str] = []
    i = 0
    n = len(expr)
    while i < n:
        end = _past_substitution(expr, i)
        if end is None:
            out.append(expr[i])
            i += 1
            continue
        if end < 0:
            return expr
        out.append("0")
        i = end
    return "".join(out)


def _past_substitution(text: str, k: int) -> int | None:
    """One past the ``$(…)``, ``${…}`` or backtick substitution opening at ``k`` (-1: it does
    not close), or ``None`` when none opens there."""
    ch = text[k]
    if ch == "`":
        end = _close_backtick(text, k + 1)
    elif ch != "$":
        return None
    elif text.startswith("$(", k):
        end = _close_paren(text, k + 2)
    elif text.startswith("${", k):
        return close_brace(text, k + 2)
    else:
        return None
    return end + 1 if end >= 0 else -1


def _close_paren(text: str, k: int) -> int:
    """The index of the ``)`` closing a ``$(`` whose content starts at ``k``, or -1. A ``)``
    ending a ``case`` pattern does not count."""
    depth = 1
    cases: list[int] = []  # the paren depth at each open `case`
    n = len(text)
    word_start = True
    while k < n:
        ch = text[k]
        if ch == "\\":
            k += 2
            word_start = False
            continue
        if ch == "'" or (ch == "$" and text.startswith("$'", k)):
            k = close_single(text, k + (1 if ch == "'" else 2), ch == "$")
        elif ch == '"':
            k = close_double(text, k + 1)
        elif (ch == "`" or ch == "$") and (end := _past_substitution(text, k)) is not None:
            k = end
        elif ch == "#" and word_start:
            newline = text.find("\n", k)
            k = newline if newline >= 0 else n
        else:
            if word_start and _keyword(text, k, "case"):
                cases.append(depth)
            elif word_start and cases and _keyword(text, k, "esac"):
                cases.pop()
            if ch == "(":
                depth += 1
            elif ch == ")":
                if cases and cases[-1] == depth:
                    ch = " "  # `a)` closes a case pattern
                else:
                    depth -= 1
                if depth == 0:
                    return k
            word_start = ch in _WORD_BREAK
            k += 1
            continue
        if k < 0:
            return -1
        word_start = False
    return -1


def _keyword(text: str, k: int, word: str) -> bool:
    end = k + len(word)
    return text.startswith(word, k) and (end == len(text) or text[end] in _WORD_BREAK)


def close_single(text: str, k: int, ansi: bool) -> int:
    """One past the ``'`` closing a single-quoted string (``$'…'`` honours escapes), or -1."""
    end = unescaped(text, k, "'") if ansi else text.find("'", k)
    return end + 1 if end >= 0 else -1


def close_double(text: str, k: int) -> int:
    """One past the ``"`` closing a double-quoted string, or -1."""
    while (k := unescaped(text, k, '"`$')) >= 0:
        if text[k] == '"':
            return k + 1
        end = _past_substitution(text, k)
        if end is None:
            k += 1
        elif end < 0:
            return -1
        else:
            k = end
    return -1


def close_brace(text: str, k: int) -> int:
    """One past the ``}`` where bash ends the parameter expansion whose content starts at
    ``k``, or -1: past quotes, escapes, substitutions and inner ``${…}``. A bare ``{`` is not
    counted: bash ends ``${x#{}`` at its first ``}``, on a line and in a here-document alike."""
    while (k := unescaped(text, k, "'\"`$}")) >= 0:
        ch = text[k]
        if ch == "}":
            return k + 1
        if ch == "'":
            k = close_single(text, k + 1, False)
        elif ch == '"':
            k = close_double(text, k + 1)
        else:
            end = _past_substitution(text, k)
            k = k + 1 if end is None else end
        if k < 0:
            return -1
    return -1


def _close_backtick(text: str, k: int) -> int:
    """The index of the unescaped backtick closing one opened before ``k``, or -1."""
    return unescaped(text, k, "`")


def _unescape(text: str) -> str:
    """Backtick content as the shell reads it: ``\\\\``, ``\\```, ``\\$`` lose the backslash."""
    return unescape(text, BACKTICK_ESCAPABLE)
