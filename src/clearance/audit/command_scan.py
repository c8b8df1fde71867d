"""The scanner behind command redaction: a bash line read lexically, word by word.

Quote-aware, without a parser and without ``re`` (it runs on the review log's append path). It
looks inside ``$(…)``, backticks, double quotes and heredoc bodies (each body line as a
command), treats ``; & | ( )`` and newlines as command boundaries, and tracks where each word
stands (before the command word, after ``export``, ``env`` or ``sudo`` and their options, or
among the arguments), so an assignment is masked only where bash would make one. What to mask
is appended to a list of edits (``clearance.audit.command_redaction`` applies them).
"""

from __future__ import annotations

from clearance.audit.secret_argument import REDACTED, TOKEN, Edit, Word, argument
from clearance.audit.sensitive_name import is_sensitive_name

__all__ = ["ARGS", "COMMAND", "mask_header", "next_state", "scan"]

_BLANKS = frozenset(" \t\r")
_OPERATORS = frozenset(";&|()\n")
_BREAKS = _BLANKS | _OPERATORS | frozenset("<>")
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME = _NAME_START | frozenset("0123456789")
_PLAIN_STOP = _BREAKS | frozenset("\\'\"$`")
_DQUOTE_STOP = frozenset('\\"$`')
_SUBSTITUTION = "\x00"  # stands for a whole $(…), `…` or ${…} in a word's unquoted text
_MAX_DEPTH = 16
# Words that change what the next word is, by plain bash grammar.
_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time"})
_DECLARATIONS = frozenset({"export", "declare", "typeset", "local", "readonly"})
_TRANSPARENT = frozenset({"nohup", "command", "exec", "builtin", "setsid"})
_ENV_ARG_OPTIONS = frozenset({"-u", "-C", "-S", "--unset", "--chdir", "--split-string"})
_SUDO_ARG_OPTIONS = frozenset(
    {"-u", "-g", "-h", "-p", "-C", "-D", "-R", "-T", "-U", "-r", "-t", "--user", "--group"}
)
# Scanner states: where the next word stands.
COMMAND, ARGS, _DECLARE, _ENV, _SUDO, _WRAPPED = range(6)


def scan(text: str, i: int, end: int, edits: list[Edit], depth: int) -> None:
    """Scan ``text[i:end]`` as a list of commands, appending edits."""
    if depth > _MAX_DEPTH:
        return
    state = COMMAND
    skip_word = False  # the next word is a redirect target or an option's argument
    context: list[str] = []  # the command word and its arguments so far
    mode = ""  # what the previous argument says the next one is (see _argument)
    heredocs: list[tuple[str, bool]] = []
    while i < end:
        char = text[i]
        if char in _BLANKS:
            i += 1
        elif char == "\\" and i + 1 < end and text[i + 1] == "\n":
            i += 2
        elif char == "\n":
            i += 1
            if heredocs:
                i = _heredoc_bodies(text, i, end, heredocs, edits, depth)
                heredocs = []
            state, skip_word, mode = COMMAND, False, ""
        elif char in _OPERATORS:
            i += 1
            state, skip_word, mode = COMMAND, False, ""
        elif char in "<>":
            if text.startswith("<<", i) and not text.startswith("<<<", i):
                i += 2
                strip = i < end and text[i] == "-"
                i += strip
                while i < end and text[i] in _BLANKS:
                    i += 1
                i, (chars, _, _, _) = _lex_word(text, i, end, edits, depth)
                heredocs.append(("".join(chars), strip))
                continue
            while i < end and text[i] in "<>&|":
                i += 1
            skip_word = True
        elif char == "#":
            newline = text.find("\n", i, end)
            i = end if newline == -1 else newline
        else:
            start = i
            i, word = _lex_word(text, i, end, edits, depth)
            chars = word[0]
            if i < end and text[i] in "<>" and chars and "".join(chars).isdigit():
                continue  # a file descriptor number, part of the redirect that follows
            if skip_word:
                skip_word = False
                mask_header(word, i, edits)
                continue
            before = state
            state, skip_word = next_state(word, i, state, edits)
            if before == ARGS:
                mode = argument(word, start, i, context, mode, edits)
            elif state == ARGS:
                name = "".join(chars)
                context, mode = [name[name.rfind("/") + 1 :]], ""


def next_state(word: Word, end: int, state: int, edits: list[Edit]) -> tuple[int, bool]:
    """Mask what ``word`` binds; return the state for the next word and whether to skip it."""
    chars, positions, quotes, _ = word
    text = "".join(chars)
    if state != ARGS:
        equals = _assignment(chars, quotes)
        if equals > 0:
            name = text[:equals].rstrip("+")
            if is_sensitive_name(name) and positions[equals] + 1 < end:
                edits.append((positions[equals] + 1, end, REDACTED))
            return (state if state != _WRAPPED else COMMAND), False
    mask_header(word, end, edits)
    if state == ARGS:
        return ARGS, False
    if state == _DECLARE:
        return _DECLARE, False
    if state in (_ENV, _SUDO, _WRAPPED) and text.startswith("-") and text != "-":
        options = _ENV_ARG_OPTIONS if state == _ENV else _SUDO_ARG_OPTIONS
        return state, state != _WRAPPED and text in options
    return _after_command(text), False


def _after_command(text: str) -> int:
    if text in _KEYWORDS:
        return COMMAND
    if text in _DECLARATIONS:
        return _DECLARE
    if text == "env":
        return _ENV
    if text == "sudo" or text == "doas":
        return _SUDO
    if text in _TRANSPARENT:
        return _WRAPPED
    return ARGS


def _assignment(chars: list[str], quotes: list[str]) -> int:
    """Index of the ``=`` of ``NAME=…`` / ``NAME+=…`` (name unquoted), else -1."""
    if not chars or chars[0] not in _NAME_START or quotes[0]:
        return -1
    for index, char in enumerate(chars):
        if quotes[index]:
            return -1
        if char == "=":
            return index
        if char == "+" and index + 1 < len(chars) and chars[index + 1] == "=":
            continue
        if char not in _NAME:
            return -1
    return -1


def mask_header(word: Word, end: int, edits: list[Edit]) -> None:
    """Mask ``Name: value`` when Name is sensitive: the whole word, after ``-H``, or after ``=``."""
    chars, positions, quotes, closed = word
    text = "".join(chars)
    if ":" not in text:
        return
    starts = [0]
    if text.startswith("-H"):
        starts.append(2)
    equals = text.find("=")
    if equals >= 0:
        starts.append(equals + 1)
    for start in starts:
        colon = start
        while colon < len(text) and text[colon] in TOKEN:
            colon += 1
        if (
            colon > start
            and colon < len(text)
            and text[colon] == ":"
            and text[colon + 1 :].strip()
            and is_sensitive_name(text[start:colon])
        ):
            quote = quotes[colon]
            keep = quote if closed and quote in ("'", '"') else ""
            edits.append((positions[colon] + 1, end, REDACTED + keep))
            return


def _lex_word(text: str, i: int, end: int, edits: list[Edit], depth: int) -> tuple[int, Word]:
    """One shell word from ``i``: its unquoted characters, where each came from, its quoting."""
    chars: list[str] = []
    positions: list[int] = []
    quotes: list[str] = []
    closed = True

    def run(start: int, stop: int, quote: str) -> None:
        chars.extend(text[start:stop])
        positions.extend(range(start, stop))
        quotes.extend([quote] * (stop - start))

    def substitution(i: int, quote: str) -> int:
        """Skip the substitution at ``i`` (one placeholder character in the word); its end."""
        i = _substitution(text, i, end, edits, depth)
        chars.append(_SUBSTITUTION)
        positions.append(i - 1)
        quotes.append(quote)
        return i

    def plain(i: int, stops: frozenset[str], quote: str) -> int:
        """The run of characters from ``i`` up to one of ``stops``; its end."""
        stop = i + 1
        while stop < end and text[stop] not in stops:
            stop += 1
        run(i, stop, quote)
        return stop

    while i < end:
        char = text[i]
        if char in _BREAKS:
            break
        nxt = text[i + 1] if i + 1 < end else ""
        if char == "\\":
            if nxt == "\n":
                i += 2
            elif nxt:
                run(i + 1, i + 2, "\\")
                i += 2
            else:
                run(i, i + 1, "")
                i += 1
        elif char == "'":
            close = text.find("'", i + 1, end)
            stop = end if close == -1 else close
            run(i + 1, stop, "'")
            closed = close != -1
            i = stop + 1
        elif char == "$" and nxt == "'":  # $'…' with backslash escapes
            i += 2
            while i < end and text[i] != "'":
                step = 2 if text[i] == "\\" and i + 1 < end else 1
                run(i + step - 1, i + step, "'")
                i += step
            closed = i < end
            i += 1
        elif char == '"':
            i += 1
            while i < end and text[i] != '"':
                inner = text[i]
                if inner == "\\" and i + 1 < end:
                    run(i + 1, i + 2, '"')
                    i += 2
                elif (inner == "$" and text.startswith("$(", i)) or inner == "`":
                    i = substitution(i, '"')
                else:
                    i = plain(i, _DQUOTE_STOP, '"')
            closed = i < end
            i += 1
        elif (char == "$" and nxt in ("(", "{")) or char == "`":
            i = substitution(i, "")
        else:
            i = plain(i, _PLAIN_STOP, "")
    return min(i, end), (chars, positions, quotes, closed)


def _substitution(text: str, i: int, end: int, edits: list[Edit], depth: int) -> int:
    """Skip ``$(…)``, ``${…}`` or a backtick span at ``i``, scanning the commands inside."""
    if text[i] == "`":
        close = i + 1
        while close < end and text[close] != "`":
            close += 2 if text[close] == "\\" else 1
        close = min(close, end)
        scan(text, i + 1, close, edits, depth + 1)
        return min(close + 1, end)
    opener = text[i + 1]
    closer = ")" if opener == "(" else "}"
    close = _matching(text, i + 1, end, opener, closer)
    if opener == "(":
        scan(text, i + 2, close, edits, depth + 1)
    return min(close + 1, end)


def _matching(text: str, i: int, end: int, opener: str, closer: str) -> int:
    """Index of the bracket closing the one at ``i`` (quotes respected), or ``end``."""
    level = 0
    while i < end:
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "'" or char == '"' or char == "`":
            close = text.find(char, i + 1, end)
            while char != "'" and close > 0 and text[close - 1] == "\\":
                close = text.find(char, close + 1, end)
            if close == -1:
                return end
            i = close + 1
            continue
        if char == opener:
            level += 1
        elif char == closer:
            level -= 1
            if level == 0:
                return i
        i += 1
    return end


def _heredoc_bodies(
    text: str, i: int, end: int, heredocs: list[tuple[str, bool]], edits: list[Edit], depth: int
) -> int:
    """Scan heredoc bodies from ``i`` line by line (each line as a command); return after them."""
    for delimiter, strip in heredocs:
        while i < end:
            newline = text.find("\n", i, end)
            stop = end if newline == -1 else newline
            line = text[i:stop]
            i = stop + 1
            if (line.lstrip("\t") if strip else line) == delimiter:
                break
            scan(text, stop - len(line), stop, edits, depth + 1)
    return min(i, end)
