"""Masking secrets bound to a sensitive *name* inside a shell command line.

A lexical, quote-aware scanner (``clearance.audit.command_scan``; no parser, no ``re``: it runs
on the log's append path) that finds these shapes and replaces the secret with ``[redacted]``
(docs/audit-log.md, "Secrets inside commands"):

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

from clearance.audit.secret_argument import REDACTED, TOKEN, Edit, Word
from clearance.audit.sensitive_name import is_sensitive_name

__all__ = ["REDACTED", "redact_argv", "redact_command"]

# Every sensitive ASCII name contains one of these, lowercased (shell and header names are ASCII).
_HINTS = ("key", "secret", "token", "passw", "credential", "cookie", "authorization")
_FLAG_HINTS = (" -p", " -b", " -e")  # mysql/sshpass passwords, curl cookies, env pairs
_QUERY_NAMES = frozenset(
    {"sig", "signature", "x-amz-signature", "x-amz-credential", "x-goog-signature", "pwd", "pass"}
)


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
    from clearance.audit.command_scan import scan  # only for a command that may hold a secret

    edits: list[Edit] = []
    scan(command, 0, len(command), edits, 0)
    return _apply(command, edits) if edits else command


def redact_argv(argv: list[str] | tuple[str, ...]) -> list[str]:
    """The same masking for a command given as an argument vector (each item one word)."""
    out: list[str] = []
    from clearance.audit.command_scan import ARGS, COMMAND, mask_header, next_state
    from clearance.audit.secret_argument import argument

    state, skip_word = COMMAND, False
    context: list[str] = []
    mode = ""
    for arg in argv:
        edits: list[Edit] = []
        word: Word = (list(arg), list(range(len(arg))), [""] * len(arg), True)
        if skip_word:
            skip_word = False
            mask_header(word, len(arg), edits)
        else:
            before = state
            state, skip_word = next_state(word, len(arg), state, edits)
            if before == ARGS:
                mode = argument(word, 0, len(arg), context, mode, edits)
            elif state == ARGS:
                context, mode = [arg[arg.rfind("/") + 1 :]], ""
        out.append(_apply(arg, edits) if edits else arg)
    return out


def _apply(text: str, edits: list[Edit]) -> str:
    """``text`` with ``edits`` made; an edit inside a span already replaced whole is dropped."""
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


def _query(command: str) -> str:
    """``?access_token=x&sig=y`` → ``?access_token=[redacted]&sig=[redacted]``."""
    if "?" not in command or "=" not in command:
        return command
    out: list[str] = []
    pos = 0
    index = command.find("?")
    while index >= 0:
        name_end = index + 1
        while name_end < len(command) and command[name_end] in TOKEN:
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
