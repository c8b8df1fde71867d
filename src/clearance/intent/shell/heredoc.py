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

from clearance.intent.shell.word import BACKTICK_ESCAPABLE, unescape

__all__ = ["body_text", "respell", "substitutions"]

_WORD_BREAK = frozenset(" \t\n;&|()<>")


def body_text(data: bytes, start: int, end: int) -> str:
    """The body between byte offsets, from the start of its first line (the grammar may start
    the body node after leading blanks)."""
    line = data.rfind(b"\n", 0, start) + 1
    if data[line:start].strip(b" \t"):
        line = start
    return data[line:end].decode("utf-8", "replace")


def substitutions(body: str) -> list[tuple[str, bool]]:
    """The program text of every ``$(…)`` and backtick substitution in ``body``, outermost
    only, each with whether its end was found."""
    out: list[tuple[str, bool]] = []
    _scan(body, out)
    return out


def _scan(text: str, out: list[tuple[str, bool]]) -> None:
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
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
        end = -1
        if expr.startswith("$(", i):
            end = _close_paren(expr, i + 2)
            end = end + 1 if end >= 0 else -1
        elif expr.startswith("${", i):
            end = _close_brace(expr, i + 2)
        elif expr[i] == "`":
            end = _close_backtick(expr, i + 1)
            end = end + 1 if end >= 0 else -1
        else:
            out.append(expr[i])
            i += 1
            continue
        if end < 0:
            return expr
        out.append("0")
        i = end
    return "".join(out)


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
            k = _close_single(text, k + (1 if ch == "'" else 2), ch == "$")
        elif ch == '"':
            k = _close_double(text, k + 1)
        elif ch == "`":
            k = _close_backtick(text, k + 1)
            k = k + 1 if k >= 0 else -1
        elif ch == "$" and text.startswith("$(", k):
            k = _close_paren(text, k + 2)
            k = k + 1 if k >= 0 else -1
        elif ch == "$" and text.startswith("${", k):
            k = _close_brace(text, k + 2)
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


def _close_single(text: str, k: int, ansi: bool) -> int:
    """One past the ``'`` closing a single-quoted string (``$'…'`` honours escapes), or -1."""
    n = len(text)
    while k < n:
        ch = text[k]
        if ansi and ch == "\\":
            k += 2
            continue
        if ch == "'":
            return k + 1
        k += 1
    return -1


def _close_double(text: str, k: int) -> int:
    """One past the ``"`` closing a double-quoted string, or -1."""
    n = len(text)
    while k < n:
        ch = text[k]
        if ch == "\\":
            k += 2
        elif ch == '"':
            return k + 1
        elif ch == "`":
            k = _close_backtick(text, k + 1)
            if k < 0:
                return -1
            k += 1
        elif ch == "$" and text.startswith("$(", k):
            k = _close_paren(text, k + 2)
            if k < 0:
                return -1
            k += 1
        elif ch == "$" and text.startswith("${", k):
            k = _close_brace(text, k + 2)
            if k < 0:
                return -1
        else:
            k += 1
    return -1


def _close_brace(text: str, k: int) -> int:
    """One past the ``}`` closing a ``${`` whose content starts at ``k``, or -1."""
    depth = 1
    n = len(text)
    while k < n:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch == "'":
            k = _close_single(text, k + 1, False)
        elif ch == '"':
            k = _close_double(text, k + 1)
        elif ch == "`":
            k = _close_backtick(text, k + 1)
            k = k + 1 if k >= 0 else -1
        elif ch == "$" and text.startswith("$(", k):
            k = _close_paren(text, k + 2)
            k = k + 1 if k >= 0 else -1
        else:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return k + 1
            k += 1
            continue
        if k < 0:
            return -1
    return -1


def _close_backtick(text: str, k: int) -> int:
    """The index of the unescaped backtick closing one opened before ``k``, or -1."""
    n = len(text)
    while k < n:
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch == "`":
            return k
        k += 1
    return -1


def _unescape(text: str) -> str:
    """Backtick content as the shell reads it: ``\\\\``, ``\\```, ``\\$`` lose the backslash."""
    return unescape(text, BACKTICK_ESCAPABLE)


# -- lines tree-sitter-bash 0.25 misreads, respelled the way bash reads them ----------------

# A redirect written after a heredoc operator on its line: `2>&1`, `>out`, `> out`, `&>/dev/null`.
# Characters of a plain redirect target or delimiter word (no quoting, no expansion).
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./@%+:,=-")
_DELIMITER_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:+-")
# Output redirect operators, longest first: `>>`, `>|`, `>&`, `>`, `&>>`, `&>`.
_OUTPUT_OPERATORS = (">>", ">|", ">&", ">", "&>>", "&>")
_BREAK = frozenset(" \t")
_GROUPING = frozenset("(){}")
_MAX_HEREDOCS = 64  # heredoc operators one respelling handles; past it the line stays as is


def respell(text: str) -> str | None:
    """``text`` respelled so tree-sitter-bash reads it as bash does, or ``None`` when there is
    nothing to respell (or the text is not understood well enough to touch):

    * a heredoc operator followed by other redirects on its line (``git commit -F - <<'MSG' 2>&1
      | tail -3``) is moved after them — the grammar reads the later redirects and the pipe as
      part of the heredoc otherwise. Redirects of different descriptors commute; a redirect that
      involves descriptor 0 (``0<x``, ``2>&0``, ``<x``) is never moved across;
    * a bare ``-`` word followed by a redirect (``python3 - <<'PY'``, ``x - 2>&1``), which the
      grammar drops, is written ``'-'`` (the same word for bash).

    Heredoc bodies are left as they are; a quote left open at the end of a command line stops
    the respelling (``None``)."""
    if "<<" not in text and " - " not in text:
        return None
    out: list[str] = []
    pending: list[tuple[str, bool]] = []  # heredoc delimiters whose bodies follow
    deferred: list[str] = []  # the rest of a line after `;`, read after the bodies
    changed = False
    splits = 0
    lines = text.split("\n")
    lines.reverse()  # popped from the end: linear in the number of lines
    while lines:
        line = lines.pop()
        if pending:
            delimiter, tabs = pending[0]
            if (line.lstrip("\t") if tabs else line) == delimiter:
                del pending[0]
                if not pending and deferred:
                    # `cat <<A; rest` reads as `cat <<A`, the body, then `rest`.
                    lines.extend(reversed(deferred))
                    deferred = []
            out.append(line)
            continue
        fixed = _respell_line(line, pending)
        if fixed is None:
            return None
        head, rest = fixed
        if rest is not None:
            splits += 1
            if splits > _MAX_HEREDOCS:
                return None  # the line stays as written: misread, so it asks
            deferred.append(rest)
        changed = changed or head != line
        out.append(head)
    return "\n".join(out) if changed and not pending and not deferred else None


def _respell_line(line: str, pending: list[tuple[str, bool]]) -> tuple[str, str | None] | None:
    """One command line respelled, and the part after a ``;`` that follows a heredoc (to be
    read after the bodies); its heredoc delimiters appended to ``pending``. Linear in the
    line: the respelled text is built from pieces of the original."""
    parts: list[str] = []
    last = 0  # line[last:] is not yet in parts
    i = 0
    size = len(line)
    seen = len(pending)
    while i < size:
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "'":
            end = line.find("'", i + 1)
            if end < 0:
                return None
            i = end + 1
            continue
        if ch == '"':
            end = _close_double(line, i + 1)
            if end < 0 or end > size:
                return None
            i = end
            continue
        if ch == "`" or (ch == "$" and line[i + 1 : i + 2] in ("(", "{")):
            return None  # substitutions: leave the line to the grammar
        if ch == "#" and (i == 0 or line[i - 1] in _BREAK):
            break  # a comment
        if ch == ";" and len(pending) > seen:
            # The grammar misreads `cat <<A; rest`: the rest is read after the bodies.
            if line.startswith(";;", i) or not _GROUPING.isdisjoint(line):
                return None
            parts.append(line[last:i])
            rest = line[i + 1 :].strip(" \t")
            return "".join(parts).rstrip(" \t"), rest or None
        if ch == "-" and (i == 0 or line[i - 1] in _BREAK) and line[i + 1 : i + 2] in _BREAK:
            k = i + 1
            while k < size and line[k] in _BREAK:
                k += 1
            after = line[k : k + 2]
            if after[:1] in ("<", ">", "&") or (after[:1].isdigit() and after[1:2] in "<>"):
                parts.append(line[last:i])
                parts.append("'-'")
                last = i = i + 1
                continue
        if ch == "<" and line.startswith("<<", i) and not line.startswith("<<<", i):
            if i and line[i - 1] == "<":
                return None
            found = _delimiter(line, i)
            if found is None or len(pending) >= _MAX_HEREDOCS:
                return None
            word, tabs, end = found
            pending.append((word, tabs))
            moved = _move(line, i, end)
            if moved is not None:
                text, past = moved
                parts.append(line[last:i])
                parts.append(text)
                last = i = past
                continue
            i = end
            continue
        i += 1
    parts.append(line[last:])
    return "".join(parts), None


def _move(line: str, start: int, end: int) -> tuple[str, int] | None:
    """The text that replaces ``line[start:past]`` when the heredoc operator
    ``line[start:end]`` moves after the redirects that follow it (``2>&1 <<'MSG'``), and
    ``past``; ``None`` when none follows or one involves descriptor 0."""
    words: list[str] = []
    k = end
    size = len(line)
    while True:
        j = k
        while j < size and line[j] in _BREAK:
            j += 1
        found = _redirect(line, j) if j > k else None
        if found is None:
            break
        operator_end, stop = found
        token = line[j:stop]
        if stop == operator_end:  # `> file`: the target is the next word
            if token.endswith(">&"):
                break
            t = stop
            while t < size and line[t] in _BREAK:
                t += 1
            target = _word_end(line, t, _WORD)
            if target == t:
                break
            stop = target
            token = line[j:stop]
        if stop < size and line[stop] not in _BREAK and line[stop] not in ";|&":
            break  # the word goes on (a quote, a substitution): not understood
        if "&0" in token or token.startswith("0"):
            return None
        words.append(token)
        k = stop
    if not words:
        return None
    return " ".join(words) + " " + line[start:end], k


def _word_end(line: str, k: int, chars: frozenset[str]) -> int:
    """The end of the run of ``chars`` starting at ``k``."""
    size = len(line)
    while k < size and line[k] in chars:
        k += 1
    return k


def _redirect(line: str, k: int) -> tuple[int, int] | None:
    """An output redirect at ``k`` (``[1-9]?`` then an operator, then a plain target or none):
    (end of the operator, end of the attached target), or ``None``."""
    j = k + 1 if line[k : k + 1] in "123456789" and line[k : k + 1] else k
    for operator in _OUTPUT_OPERATORS:
        if line.startswith(operator, j):
            if operator[0] == "&" and j != k:
                return None  # `2&>` is not a redirect
            end = j + len(operator)
            return end, _word_end(line, end, _WORD)
    return None


def _delimiter(line: str, k: int) -> tuple[str, bool, int] | None:
    """The heredoc operator at ``k`` (``<<`` or ``<<-``, then a quoted or plain word): (the
    delimiter, whether tabs are stripped, the end of the operator), or ``None`` when the word is
    not one of those plain shapes."""
    j = k + 2
    tabs = line[j : j + 1] == "-"
    if tabs:
        j += 1
    while line[j : j + 1] in (" ", "\t") and j < len(line):
        j += 1
    quote = line[j : j + 1]
    if quote in ("'", '"'):
        end = line.find(quote, j + 1)
        if end < 0:
            return None
        word = line[j + 1 : end]
        if quote == '"' and any(c in word for c in "$`\\"):
            return None
        return word, tabs, end + 1
    end = _word_end(line, j, _DELIMITER_WORD)
    if end == j:
        return None
    return line[j:end], tabs, end
