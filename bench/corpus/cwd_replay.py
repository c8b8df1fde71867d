"""The working directory of each command of one Claude Code session, replayed from its ``cd``s.

Claude Code's Bash tool (and the Claude Agent SDK's) keeps one shell for the session: after
``cd specs`` (alone or as ``cd specs && …``) the next command runs in ``specs/``. What a ``cd``
out of the directory the session started in does depends on the version. Up to at least August
2025 Claude Code checked a command's ``cd`` targets before running it and refused the whole
command when one lay outside ("cd to '/tmp' was blocked. For security, Claude Code may only change
directories to child directories of the original working directory"): the shell stays where it
was (``refuse=True``). By December 2025 (2.0.76) the command runs and the shell is then reset to
the start ("Shell cwd was reset to …"; ``refuse=False``).

A ``cd`` is followed when its directory is a literal (``specs``, ``..``, an absolute path, ``~/…``)
and it runs in the session's shell: a command of the line's top-level ``&&`` / ``;`` / newline
list. A ``cd`` the replay cannot follow (a computed directory, ``cd -``, ``cd`` alone, ``pushd``,
one behind ``||``, in a pipeline, in the background or in a compound command) makes the
directory unknown: it falls back to the directory the session started in, and is counted. A
subshell's ``cd`` (``( cd x && make )``, ``$(cd x; pwd)``, ``bash -c 'cd x'``) leaves the shell
where it was.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable

_MOVERS = frozenset({"cd", "pushd", "popd", "chdir"})
_REDIRECT = re.compile(r"^(?:\d*|&)(?:>>?|<)&?(.*)$")
_KEYWORDS = frozenset({"then", "else", "do", "{", "!", "time", "if", "while", "until"})
# What a transcript shows when the command did not run (refused by the user, a hook or the
# directory check) or its ``cd`` failed (zsh: ``cd:1: no such file or directory: X``).
NOT_RUN = re.compile(
    r"No \(tell Claude what to do differently\)|doesn't want to proceed|blocked by hook"
    r"|cd to '[^']*' was blocked"
)
# The directory a leading ``pwd`` printed: the first line of its output (the console's ``⎿``
# and an ``Error:`` when a later command of the line failed aside).
_PWD = re.compile(r"\s*(?:⎿\s*)?(?:Error: )?(/[^\n]*?)\s*(?:\n|$)")
CD_FAILED = re.compile(
    r"\bcd:(?:\d+:)? (?:no such file or directory|not a directory): (.+)"
    r"|\bcd: (.+): (?:No such file or directory|Not a directory)"
)


def segments(line: str) -> tuple[list[tuple[str, str]], bool]:
    """The top-level commands of ``line``, each with the operator before it (``""`` first), and
    whether a heredoc cut the reading short (its body and what follows are not read)."""
    out: list[tuple[str, str]] = []
    start, depth, i, op = 0, 0, 0, ""
    quote = ""
    n = len(line)
    while i < n:
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = ""
            i += 1
            continue
        if c == "\\":
            i += 2
            continue
        if c in "'\"`":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t\n;&|("):
            end = line.find("\n", i)
            i = n if end < 0 else end
            continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and line.startswith("<<", i) and not line.startswith("<<<", i):
            end = line.find("\n", i)
            out.append((op, line[start : n if end < 0 else end]))
            return out, end >= 0
        elif depth == 0 and c in ";\n|&":
            two = line[i : i + 2]
            if c == "&" and ((i > 0 and line[i - 1] in "<>") or two == "&>"):
                i += 1
                continue
            sep = two if two in ("&&", "||", "|&", ";;") else c
            out.append((op, line[start:i]))
            op = ";" if sep == "\n" else sep
            i += len(sep)
            start = i
            continue
        i += 1
    out.append((op, line[start:]))
    return out, False


class Replay:
    """The shell of one session started in ``start`` (the directory Claude Code was launched in,
    the only one its ``cd`` could reach beneath): ``run`` gives the directory a command ran in,
    then moves on."""

    def __init__(
        self,
        start: str,
        home: str | None,
        *,
        refuse: bool = True,
        exists: Callable[[str], bool] | None = None,
    ) -> None:
        self.start = start
        self.home = home
        self.refuse = refuse
        self.exists = exists  # whether a directory existed, when the transcript does not say
        self.cwd = start
        self.unknown = 0  # commands after which the directory could not be followed
        self.blocked = 0  # commands refused, or the shell reset after, for a cd outside ``start``
        # A ``pwd`` showed the shell outside ``start``: the session did not start there (its
        # banner says otherwise), so none of its directories can be trusted.
        self.outside = False

    def _inside(self, path: str) -> bool:
        return path == self.start or path.startswith(self.start + "/")

    def _target(self, words: list[str], raw: str, cwd: str) -> str | None:
        """The directory of a literal ``cd``, else None."""
        args: list[str] = []
        rest = iter(words[1:])
        for word in rest:
            if word in ("--", "-P", "-L"):
                continue
            redirect = _REDIRECT.match(word)
            if redirect:  # ``2>/dev/null``, ``> log``: not an operand
                if not redirect.group(1):
                    next(rest, None)
                continue
            args.append(word)
        if len(args) != 1 or re.search(r"[$`*?\[]", raw) or args[0] == "-":
            return None
        arg = args[0]
        if arg.startswith("~"):
            if self.home is None or not (arg == "~" or arg.startswith("~/")):
                return None
            arg = self.home + arg[1:]
        return _resolve(cwd, arg)

    def run(self, command: str, *, cut: bool = False, output: str = "") -> str:
        """The directory ``command`` ran in; the shell then moves as its ``cd``s say. ``cut``: only
        the start of the command is shown (its last, unfinished part is not read); ``output``:
        what the transcript shows it printed (a command that did not run moves nothing)."""
        ran_in = self.cwd
        if NOT_RUN.search(output):
            return ran_in
        failed = CD_FAILED.search(output)
        parts, heredoc = segments(command)
        shown = _PWD.match(output) if parts and parts[0][1].split() == ["pwd"] else None
        if shown:
            here = os.path.normpath(shown.group(1))
            if not self._inside(here):
                self.outside = True
                return ran_in
            ran_in = self.cwd = here
        if cut and parts:
            last = parts.pop()[1].split()
            if last and last[0] in _MOVERS:
                return self._lost(ran_in)
        if heredoc and re.search(r"(?m)(?:^|[;&|]\s*)(?:cd|pushd|popd)\s", command):
            return self._lost(ran_in)
        cwd = ran_in
        for k, (op, raw) in enumerate(parts):
            try:
                words = shlex.split(raw, comments=False)
            except ValueError:
                words = raw.split()
            if not words or raw.lstrip().startswith("("):
                continue
            if words[0] not in _MOVERS:
                if words[0] in _KEYWORDS and any(w in _MOVERS for w in words[1:3]):
                    return self._lost(ran_in)
                continue
            after = parts[k + 1][0] if k + 1 < len(parts) else ""
            piped = op in ("|", "|&", "&") or after in ("|", "|&", "&")
            followed = not piped and op != "||" and words[0] == "cd"
            target = self._target(words, raw, cwd) if followed else None
            if target is None:
                return self._lost(ran_in)
            if not self._inside(target):
                self.blocked += 1
                if not self.refuse:  # the command ran; the shell is back at the start
                    self.cwd = self.start
                return ran_in  # else the whole command was refused: the shell stays
            if failed and _resolve(cwd, failed.group(1) or failed.group(2)) == target:
                break  # this cd failed; what it guarded did not run
            if self.exists is not None and not self.exists(target):
                break
            cwd = target
        self.cwd = cwd
        return ran_in

    def _lost(self, ran_in: str) -> str:
        self.unknown += 1
        self.cwd = self.start
        return ran_in


def _resolve(cwd: str, path: str) -> str:
    return os.path.normpath(os.path.join(cwd, path.strip()))
