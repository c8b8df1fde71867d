"""Line continuations, joined the way bash joins them before it reads a word.

Bash removes a backslash-newline pair from its input before tokenising, wherever the pair is
not quoted: in plain text, inside double quotes, inside ``$(…)``, ``${…}`` and backticks.
So ``$\\<newline>(id)`` is ``$(id)`` and ``$\\<newline>{HOME}`` is ``${HOME}``. The grammar
does not do this, and would read such text as something else; the analysis therefore reads the
joined line (``docs/shell-analysis.md``, "Line continuations").

A pair stays where bash keeps it: inside single quotes and ``$'…'``, in a comment, after an
escaped backslash (``\\\\<newline>``). Here-documents have rules of their own (a quoted
delimiter keeps its body verbatim), so a line with ``<<`` is not joined here: the caller keeps
the line as typed and floors it if a continuation touches an expansion. An unquoted body's
continuations are removed by :func:`joined_body` (quotes are plain text there).
"""

from __future__ import annotations

__all__ = ["joined", "joined_body", "touches_expansion"]

_WORD_BREAK = frozenset(" \t\n;&|()<>")


def touches_expansion(text: str) -> bool:
    """Whether a continuation sits inside an expansion's opening (``$\\<newline>``) or right
    before a substitution's opening, where the grammar reads it differently from bash."""
    return "$\\\n" in text or "\\\n(" in text or "\\\n{" in text or "`\\\n" in text


def joined(text: str) -> str | None:
    """``text`` with every backslash-newline bash removes removed; ``None`` when ``text`` holds
    a here-document (not joined here) or no continuation at all."""
    if "\\\n" not in text or "<<" in text:
        return None
    out: list[str] = []
    i = 0
    n = len(text)
    quote = ""  # "'", '"', "$'" or "" (unquoted, which includes backticks and $( ))
    while i < n:
        ch = text[i]
        if quote == "'":
            out.append(ch)
            if ch == "'":
                quote = ""
            i += 1
            continue
        if quote == "$'":
            if ch == "\\" and i + 1 < n:
                out.append(text[i : i + 2])  # an escape, kept whole (\<newline> included)
                i += 2
                continue
            out.append(ch)
            if ch == "'":
                quote = ""
            i += 1
            continue
        if ch == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                i += 2  # the continuation: gone
                continue
            out.append(text[i : i + 2])
            i += 2
            continue
        if quote == '"':
            out.append(ch)
            if ch == '"':
                quote = ""
            i += 1
            continue
        if ch == "'":
            quote = "'"
            if out and out[-1].endswith("$") and not out[-1].endswith("\\$"):
                quote = "$'"
        elif ch == '"':
            quote = '"'
        elif ch == "#" and (not out or out[-1][-1:] in _WORD_BREAK):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[i:end])  # a comment runs to the end of its line, verbatim
            i = end
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def joined_body(body: str) -> str:
    """An unquoted here-document body with its line continuations removed, as bash reads it
    (a backslash escapes another backslash there, so `\\\\` before a newline is no
    continuation)."""
    out: list[str] = []
    i, end = 0, len(body)
    while i < end:
        ch = body[i]
        if ch == "\\" and i + 1 < end:
            nxt = body[i + 1]
            if nxt != "\n":
                out.append(ch + nxt)
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)
