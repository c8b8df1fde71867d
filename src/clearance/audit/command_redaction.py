"""Masking secrets bound to a sensitive *name* inside a shell command line.

A lexical, quote-aware scanner (no parser, no ``re``: it runs on the log's append path) that finds
two shapes and replaces the secret with ``[redacted]`` (docs/audit-log.md, "Secrets inside
commands"):

* a shell assignment to a sensitive name where bash would treat it as one — before the command
  word (``API_KEY=sk-1 curl …``), after a declaration builtin (``export GH_TOKEN="abc"``), after
  ``env`` or ``sudo`` and their options (``env MY_SECRET=x cmd``): ``API_KEY=[redacted] curl …``;
* an HTTP header whose field name is sensitive, in any argument, quoted or not, alone or after
  ``-H``/``--header=``/``name=``: ``-H "Authorization: Bearer x"`` becomes
  ``-H "Authorization:[redacted]"`` (the closing quote is kept, so quoting stays balanced).

* a secret given as an argument, after the command word: a secret-named option
  (``--password=x``, ``--token X``, ``--api-key``, ``--secret``, ``--cookie``; not ``--no-…``,
  ``…-file``, ``…-stdin``), ``mysql -pX``, ``sshpass -p X``, curl's ``-b``/``--cookie``, a
  secret-named ``KEY=`` after ``-e``/``--env``/``--build-arg``/``--set``/``--from-literal``, a
  secret-named setting of ``… config set`` / ``aws configure set`` (``npm config set
  //r/:_authToken X``), a JSON value under a secret-named key in any argument
  (``-d '{"password":"x"}'``) and a form field after ``-d``/``--data…``;
* URL query parameters with a secret name or a signature (``?access_token=``, ``&sig=``).

It looks inside ``$(…)``, backticks, double quotes and heredoc bodies (each body line as a
command), and treats ``; & | ( )`` and newlines as command boundaries. It does not mask a bare
``--key 2`` (a sort key as often as a secret), secrets with no name, or code in another
language's source (``python3 -c "…key=…"``). The result is for the log only; it is not
guaranteed to be a valid command.
"""

from __future__ import annotations

from clearance.audit.sensitive_name import is_sensitive_name

__all__ = ["REDACTED", "redact_argv", "redact_command"]

REDACTED = "[redacted]"

_BLANKS = frozenset(" \t\r")
_OPERATORS = frozenset(";&|()\n")
_BREAKS = _BLANKS | _OPERATORS | frozenset("<>")
_TOKEN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME = _NAME_START | frozenset("0123456789")
_PLAIN_STOP = _BREAKS | frozenset("\\'\"$`")
_DQUOTE_STOP = frozenset('\\"$`')
# Every sensitive ASCII name contains one of these, lowercased (shell and header names are ASCII).
_HINTS = ("key", "secret", "token", "passw", "credential", "cookie", "authorization")
_FLAG_HINTS = (" -p", " -b", " -e")  # mysql/sshpass passwords, curl cookies, env pairs
# Option names (lowercased, without dashes) that carry a secret, and the ones that do not.
_SECRET_OPTION_WORDS = (
    "password", "passwd", "passphrase", "token", "secret", "api-key", "api_key", "apikey",
    "private-key", "credential", "cookie", "authorization", "access-key",
)  # fmt: skip
_NOT_A_VALUE = ("-stdin", "-file", "-path", "-env", "-command", "-cmd", "-helper", "-prompt")
_PAIR_OPTIONS = frozenset({"-e", "--env", "--build-arg", "--set", "--set-string", "--from-literal"})
_DATA_OPTIONS = frozenset(
    {"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json", "-F", "--form"}
)
_MYSQL = frozenset({"mysql", "mysqldump", "mysqladmin", "mariadb", "mariadb-dump", "mysqlsh"})
_QUERY_NAMES = frozenset(
    {"sig", "signature", "x-amz-signature", "x-amz-credential", "x-goog-signature", "pwd", "pass"}
)
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
_COMMAND, _ARGS, _DECLARE, _ENV, _SUDO, _WRAPPED = range(6)

Edit = tuple[int, int, str]
Word = tuple[list[str], list[int], list[str], bool]  # chars, raw positions, quote per char, closed


def redact_command(command: str) -> str:
    """``command`` with values bound to sensitive names replaced by ``[redacted]``, and the
    password of credentials in URLs (``https://user:token@host``) and of ``-u user:password``."""
    return _query(_credentials(_named(command)))


def _credentials(command: str) -> str:
    """``scheme://user:secret@host`` → ``scheme://user:[redacted]@host``; ``-u user:secret`` /
    ``--user user:secret`` / ``--user=user:secret`` → the same for the part after the colon."""
    if "@" in command and "://" in command:
        out, pos = [], 0
        while True:
            scheme = command.find("://", pos)
            if scheme < 0:
                break
            start = scheme + 3
            end = start
            while end < len(command) and command[end] not in " \t\n'\"/?#":
                end += 1
            userinfo = command[start:end]
            at = userinfo.rfind("@")
            colon = userinfo.find(":", 0, at) if at > 0 else -1
            if colon >= 0:
                out.append(command[pos : start + colon + 1])
                out.append("[redacted]")
                pos = start + at
            else:
                out.append(command[pos:end])
                pos = end
        out.append(command[pos:])
        command = "".join(out)
    for flag in (" -u ", " --user ", " --user="):
        index = command.find(flag)
        while index >= 0:
            start = index + len(flag)
            quote = command[start : start + 1] if command[start : start + 1] in ("'", '"') else ""
            begin = start + len(quote)
            end = begin
            stops = quote or " \t\n"
            while end < len(command) and command[end] not in stops:
                end += 1
            colon = command.find(":", begin, end)
            if colon >= 0 and command[colon + 1 : end] != "[redacted]":
                command = command[: colon + 1] + "[redacted]" + command[end:]
            index = command.find(flag, start)
    return command


def _named(command: str) -> str:
    lower = command.lower()
    if not any(hint in lower for hint in _HINTS) and not any(
        flag in command for flag in _FLAG_HINTS
    ):
        return command
    edits: list[Edit] = []
    _scan(command, 0, len(command), edits, 0)
    if not edits:
        return command
    edits.sort(key=lambda edit: (edit[0], -edit[1]))
    out: list[str] = []
    last = 0
    for start, end, replacement in edits:
        if start < last:
            continue  # inside a span already replaced whole
        out.append(command[last:start])
        out.append(replacement)
        last = end
    out.append(command[last:])
    return "".join(out)


def redact_argv(argv: list[str] | tuple[str, ...]) -> list[str]:
    """The same masking for a command given as an argument vector (each item one word)."""
    out: list[str] = []
    state, skip_word = _COMMAND, False
    context: list[str] = []
    mode = ""
    for arg in argv:
        edits: list[Edit] = []
        word: Word = (list(arg), list(range(len(arg))), [""] * len(arg), True)
        if skip_word:
            skip_word = False
            _mask_header(word, len(arg), edits)
        else:
            before = state
            state, skip_word = _word(word, len(arg), state, edits)
            if before == _ARGS:
                mode = _argument(word, 0, len(arg), context, mode, edits)
            elif state == _ARGS:
                context, mode = [arg[arg.rfind("/") + 1 :]], ""
        out.append(_apply(arg, edits) if edits else arg)
    return out


def _apply(text: str, edits: list[Edit]) -> str:
    edits.sort(key=lambda edit: (edit[0], -edit[1]))
    out: list[str] = []
    last = 0
    for start, end, replacement in edits:
        if start < last:
            continue
        out.append(text[last:start])
        out.append(replacement)
        last = end
    out.append(text[last:])
    return "".join(out)


def _secret_option(name: str) -> bool:
    """Whether ``--name`` takes a secret as its value."""
    lower = name.lower()
    if lower.startswith("no-") or lower.endswith(_NOT_A_VALUE):
        return False
    return any(word in lower for word in _SECRET_OPTION_WORDS)


def _argument(
    word: Word, start: int, end: int, context: list[str], mode: str, edits: list[Edit]
) -> str:
    """Mask a secret an argument carries; return what the argument makes of the next one.

    ``mode`` is what the previous argument made of this one: ``mask`` (the whole word is a
    secret), ``pair`` (``KEY=value``), ``data`` (a request body). Returns the same for the next.
    """
    chars, positions, quotes, closed = word
    text = "".join(chars)
    command = context[0] if context else ""
    context.append(text)
    option = text.startswith("-") and text != "-"

    def rest(index: int) -> None:
        if index < len(chars):
            quote = quotes[-1]
            keep = quote if closed and quote in ("'", '"') else ""
            edits.append((positions[index], end, REDACTED + keep))

    def pair(offset: int) -> None:
        equals = text.find("=", offset)
        if equals > offset and is_sensitive_name(text[offset:equals]):
            rest(equals + 1)

    _json_values(chars, positions, edits)
    if mode == "mask" and not option:
        edits.append((start, end, REDACTED))
        return ""
    if mode == "pair" and not option:
        pair(0)
        return ""
    if mode == "data" and not option:
        _form_values(chars, positions, edits)
        return ""
    if text.startswith("--"):
        equals = text.find("=")
        name = text[2:] if equals < 0 else text[2:equals]
        if _secret_option(name):
            if equals < 0:
                return "mask"
            rest(equals + 1)
            return ""
        if equals >= 0 and text[:equals] in _PAIR_OPTIONS:
            pair(equals + 1)
        elif equals >= 0 and text[:equals] in _DATA_OPTIONS:
            _form_values(chars[equals + 1 :], positions[equals + 1 :], edits)
        elif equals < 0 and text in _PAIR_OPTIONS:
            return "pair"
        elif equals < 0 and text in _DATA_OPTIONS:
            return "data"
        return ""
    if option:
        flag = text[:2]
        if command in _MYSQL and flag == "-p" and len(text) > 2:
            rest(2)
        elif (command == "sshpass" and flag == "-p") or (command == "curl" and flag == "-b"):
            if len(text) == 2:
                return "mask"
            rest(2)
        elif flag == "-e" and len(text) > 2:
            pair(2)
        elif text in _PAIR_OPTIONS:
            return "pair"
        elif text in _DATA_OPTIONS:
            return "data"
        return ""
    if "config" in context[1:-1] or "configure" in context[1:-1]:
        # `npm config set //r/:_authToken=X`, `aws configure set aws_secret_access_key X`
        equals = text.find("=")
        if equals > 0:
            pair(0)
        elif text not in ("set", "get", "config", "configure") and is_sensitive_name(text):
            return "mask"
    return ""


def _json_values(chars: list[str], positions: list[int], edits: list[Edit]) -> None:
    """Mask ``"key": value`` in JSON text where ``key`` is secret-named."""
    text = "".join(chars)
    if '"' not in text or ":" not in text:
        return
    index = text.find('"')
    while index >= 0:
        close = text.find('"', index + 1)
        if close < 0:
            return
        key = text[index + 1 : close]
        after = close + 1
        while after < len(text) and text[after] in " \t\n":
            after += 1
        if after < len(text) and text[after] == ":" and is_sensitive_name(key):
            begin = after + 1
            while begin < len(text) and text[begin] in " \t\n":
                begin += 1
            if begin < len(text) and text[begin] == '"':
                stop = begin + 1
                while stop < len(text) and text[stop] != '"':
                    stop += 2 if text[stop] == "\\" else 1
                first, last = begin + 1, min(stop, len(text))
            else:
                stop = begin
                while stop < len(text) and text[stop] not in ",}] \t\n":
                    stop += 1
                first, last = begin, stop
            if first < last:
                edits.append((positions[first], positions[last - 1] + 1, REDACTED))
            index = text.find('"', stop + 1)
            continue
        index = text.find('"', close + 1)


def _form_values(chars: list[str], positions: list[int], edits: list[Edit]) -> None:
    """Mask ``name=value`` fields of a form body (``a=1&password=x``) where name is secret."""
    text = "".join(chars)
    offset = 0
    for field in text.split("&"):
        equals = field.find("=")
        if equals > 0 and equals + 1 < len(field) and is_sensitive_name(field[:equals]):
            first, last = offset + equals + 1, offset + len(field)
            edits.append((positions[first], positions[last - 1] + 1, REDACTED))
        offset += len(field) + 1


def _query(command: str) -> str:
    """``?access_token=x&sig=y`` → ``?access_token=[redacted]&sig=[redacted]``."""
    if "?" not in command or "=" not in command:
        return command
    out: list[str] = []
    pos = 0
    index = command.find("?")
    while index >= 0:
        name_end = index + 1
        while name_end < len(command) and command[name_end] in _TOKEN:
            name_end += 1
        name = command[index + 1 : name_end]
        if name and command[name_end : name_end + 1] == "=":
            stop = name_end + 1
            while stop < len(command) and command[stop] not in " \t\n'\"&#;|)":
                stop += 1
            value = command[name_end + 1 : stop]
            if (
                value
                and value != REDACTED
                and (is_sensitive_name(name) or name.lower() in _QUERY_NAMES)
            ):
                out.append(command[pos : name_end + 1])
                out.append(REDACTED)
                pos = stop
            index = stop
        else:
            index = name_end
        nxt = [
            found for found in (command.find("?", index), command.find("&", index)) if found >= 0
        ]
        index = min(nxt) if nxt else -1
    out.append(command[pos:])
    return "".join(out)


def _scan(text: str, i: int, end: int, edits: list[Edit], depth: int) -> None:
    """Scan ``text[i:end]`` as a list of commands, appending edits."""
    if depth > _MAX_DEPTH:
        return
    state = _COMMAND
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
            state, skip_word, mode = _COMMAND, False, ""
        elif char in _OPERATORS:
            i += 1
            state, skip_word, mode = _COMMAND, False, ""
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
                _mask_header(word, i, edits)
                continue
            before = state
            state, skip_word = _word(word, i, state, edits)
            if before == _ARGS:
                mode = _argument(word, start, i, context, mode, edits)
            elif state == _ARGS:
                name = "".join(chars)
                context, mode = [name[name.rfind("/") + 1 :]], ""


def _word(word: Word, end: int, state: int, edits: list[Edit]) -> tuple[int, bool]:
    """Mask what ``word`` binds; return the state for the next word and whether to skip it."""
    chars, positions, quotes, _ = word
    text = "".join(chars)
    if state != _ARGS:
        equals = _assignment(chars, quotes)
        if equals > 0:
            name = text[:equals].rstrip("+")
            if is_sensitive_name(name) and positions[equals] + 1 < end:
                edits.append((positions[equals] + 1, end, REDACTED))
            return (state if state != _WRAPPED else _COMMAND), False
    _mask_header(word, end, edits)
    if state == _ARGS:
        return _ARGS, False
    if state == _DECLARE:
        return _DECLARE, False
    if state in (_ENV, _SUDO, _WRAPPED) and text.startswith("-") and text != "-":
        options = _ENV_ARG_OPTIONS if state == _ENV else _SUDO_ARG_OPTIONS
        return state, state != _WRAPPED and text in options
    return _after_command(text), False


def _after_command(text: str) -> int:
    if text in _KEYWORDS:
        return _COMMAND
    if text in _DECLARATIONS:
        return _DECLARE
    if text == "env":
        return _ENV
    if text == "sudo" or text == "doas":
        return _SUDO
    if text in _TRANSPARENT:
        return _WRAPPED
    return _ARGS


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


def _mask_header(word: Word, end: int, edits: list[Edit]) -> None:
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
        while colon < len(text) and text[colon] in _TOKEN:
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
                    i = _substitution(text, i, end, edits, depth)
                    chars.append(_SUBSTITUTION)
                    positions.append(i - 1)
                    quotes.append('"')
                else:
                    stop = i + 1
                    while stop < end and text[stop] not in _DQUOTE_STOP:
                        stop += 1
                    run(i, stop, '"')
                    i = stop
            closed = i < end
            i += 1
        elif (char == "$" and nxt in ("(", "{")) or char == "`":
            i = _substitution(text, i, end, edits, depth)
            chars.append(_SUBSTITUTION)
            positions.append(i - 1)
            quotes.append("")
        else:
            stop = i + 1
            while stop < end and text[stop] not in _PLAIN_STOP:
                stop += 1
            run(i, stop, "")
            i = stop
    return min(i, end), (chars, positions, quotes, closed)


def _substitution(text: str, i: int, end: int, edits: list[Edit], depth: int) -> int:
    """Skip ``$(…)``, ``${…}`` or a backtick span at ``i``, scanning the commands inside."""
    if text[i] == "`":
        close = i + 1
        while close < end and text[close] != "`":
            close += 2 if text[close] == "\\" else 1
        close = min(close, end)
        _scan(text, i + 1, close, edits, depth + 1)
        return min(close + 1, end)
    opener = text[i + 1]
    closer = ")" if opener == "(" else "}"
    close = _matching(text, i + 1, end, opener, closer)
    if opener == "(":
        _scan(text, i + 2, close, edits, depth + 1)
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
            _scan(text, stop - len(line), stop, edits, depth + 1)
    return min(i, end)
