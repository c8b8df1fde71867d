"""Lines tree-sitter-bash 0.25 misreads around a heredoc, respelled the way bash reads them.

:func:`respell` moves a redirect written after a heredoc operator on its line (``cat <<EOF
>out``, ``2>&1``) and quotes the bare ``-`` the grammar drops, so the parser sees what bash
runs; the analysis parses the respelled line instead (see ``docs/shell-analysis.md``).
"""

from __future__ import annotations

from clearance.intent.shell.escape import unescaped
from clearance.intent.shell.heredoc import close_double, delimiter_start

__all__ = ["respell"]

# A redirect written after a heredoc operator on its line: `2>&1`, `>out`, `> out`, `&>/dev/null`.
# Characters of a plain redirect target or delimiter word (no quoting, no expansion).
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./@%+:,=-")
# What may follow a heredoc's delimiter word, ending it: the line's end, a blank, an operator.
_WORD_ENDS = frozenset(("", " ", "\t", ";", "&", "|", "<", ">", "(", ")"))
_DELIMITER_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:+-")
# Output redirect operators, longest first: `>>`, `>|`, `>&`, `>`, `&>>`, `&>`.
_OUTPUT_OPERATORS = (">>", ">|", ">&", ">", "&>>", "&>")
_BREAK = frozenset(" \t")
_GROUPING = frozenset("(){}")
_MAX_HEREDOCS = 64  # heredoc operators one respelling handles; past it the line stays as is
# The characters the line scan stops at; the others (and escaped ones) it passes over.
_MARKS = "'\"`$#;-<"


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
    while (i := unescaped(line, i, _MARKS)) >= 0:
        ch = line[i]
        if ch == "'":
            end = line.find("'", i + 1)
            if end < 0:
                return None
            i = end + 1
            continue
        if ch == '"':
            end = close_double(line, i + 1)
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
            if (
                after[:1] in ("<", ">")
                or after == "&>"
                or (after[:1].isdigit() and after[1:2] in ("<", ">"))
            ):
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
    j, tabs = delimiter_start(line, k)
    quote = line[j : j + 1]
    if quote in ("'", '"'):
        end = line.find(quote, j + 1)
        if end < 0:
            return None
        word = line[j + 1 : end]
        if quote == '"' and any(c in word for c in "$`\\"):
            return None
        end += 1
    else:
        end = _word_end(line, j, _DELIMITER_WORD)
        if end == j:
            return None
        word = line[j:end]
    if line[end : end + 1] not in _WORD_ENDS:
        return None  # the word goes on (`<<X@Y`, `<<'X'Y`): bash's delimiter is all of it
    return word, tabs, end
