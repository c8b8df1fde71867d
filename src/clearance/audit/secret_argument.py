"""Secrets an argument carries, after a command word (docs/audit-log.md, "Secrets inside commands").

A secret-named option (``--password=x``, ``--token X``; not ``--no-…``, ``…-file``), ``mysql
-pX``, ``sshpass -p X``, curl's ``-b``, a secret-named ``KEY=`` after ``-e``/``--env``/
``--build-arg``/``--set``/``--from-literal``, a secret-named setting of ``… config set``, a JSON
value under a secret-named key and a form field after ``-d``/``--data…``. The words come from
the scanner (``clearance.audit.command_scan``); what to mask is returned as edits.
"""

from __future__ import annotations

from clearance.audit.sensitive_name import REDACTED, is_sensitive_name

__all__ = ["REDACTED", "TOKEN", "Edit", "Word", "argument"]

# The characters of a header's field name or a query parameter's name.
TOKEN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")

Edit = tuple[int, int, str]
Word = tuple[list[str], list[int], list[str], bool]  # chars, raw positions, quote per char, closed

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


def argument(
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


def _secret_option(name: str) -> bool:
    """Whether ``--name`` takes a secret as its value."""
    lower = name.lower()
    if lower.startswith("no-") or lower.endswith(_NOT_A_VALUE):
        return False
    return any(word in lower for word in _SECRET_OPTION_WORDS)


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
