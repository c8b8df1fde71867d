"""Suggested session-approval patterns: what ``s`` ("for this session") would grant.

When a human is asked, the dialog offers to approve not just this call but calls like it for the
rest of the session. This module proposes that pattern, per surface (docs/approvals.md, "Suggested
patterns"):

* bash — the command's prefix by the arity table (``git status --short`` → ``git status *``),
  past the program's own options (``git -C repo push -f`` → ``git -C repo push *``), or for a
  file mutator of the option table its command rule (``rm -rf build`` → ``rm [-r -f] build``),
  seen through generalizable wrappers (``nohup git status --short`` → ``nohup git status *``),
  and the whole command, without a wildcard, when a wrapper makes the inner command unclear
  (``bash -c``, ``eval``, ``xargs -I``, ``find -exec``, a computed word such as ``$X``);
* mcp — the server (``github:*``, ``github_*``); skill — the exact name;
* paths — the containing directory (``/other/src/foo.ts`` → ``/other/src/*``);
* any other tool — ``*``.

Every bash pattern is the command's own text up to a word boundary, followed by ``*`` or `` *``,
so it always matches the command it was suggested for under the wildcard rules
(docs/configuration.md, "Wildcards").

It does not own: recording or consulting grants (a grant never lifts a deny), matching patterns,
or resolving paths to absolute form — the caller passes the resolved path.

On the hook's hot path (``check --json`` prints suggestions): standard library built-ins only,
no ``re`` and no ``shlex`` (which imports ``re``).
"""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import TypeAlias

    # A getopt grammar: short flags, short value-taking, short optional (attached value only),
    # short refused, then the same four for long options (space-separated), NAME=value words
    # allowed after the options, a lone "-" ends the options.
    _Grammar: TypeAlias = tuple[str, str, str, str, str, str, str, str, bool, bool]

__all__ = [
    "PATH_SURFACES",
    "PATH_TOOLS",
    "Suggestion",
    "approval_pattern",
    "bash_pattern",
    "both_directions_label",
    "mcp_pattern",
    "suggest",
]

PATH_SURFACES = frozenset(
    {
        "path",
        "path_read",
        "path_write",
        "external_directory",
        "external_directory_read",
        "external_directory_write",
    }
)
"""Surfaces whose values are paths."""

PATH_TOOLS = frozenset({"read", "write", "edit", "grep", "find", "ls"})
"""Tools whose per-tool surface is decided on a path."""


class Suggestion(Frozen):
    """One session-approval option: grant ``pattern`` on ``surface``, shown as ``label``."""

    __slots__ = ("surface", "pattern", "label")  # noqa: RUF023 -- field order is the constructor's
    surface: str
    pattern: str
    label: str

    def __init__(self, surface: str, pattern: str, label: str) -> None:
        object.__setattr__(self, "surface", surface)
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "label", label)


def suggest(
    surface: str, value: str, *, tool: str | None = None, is_dir: bool = False
) -> tuple[Suggestion, ...]:
    """The session-approval options for an ask on ``surface`` about ``value``, best first.

    ``surface`` is the deciding surface (``bash``, ``mcp``, ``skill``, a path surface, or a tool
    name); ``value`` what was decided on it (the command unit, the mcp target, the resolved
    absolute path...). ``tool`` names the tool for the generic label (default: ``surface``).
    ``is_dir`` says a path value is itself a directory: then both ``dir`` and ``dir/*`` are
    offered. An empty bash command yields no suggestion.
    """
    if surface == "bash":
        pattern = bash_pattern(value)
        return (Suggestion(surface, pattern, _label(surface, pattern, tool)),) if pattern else ()
    if surface == "mcp":
        pattern = mcp_pattern(value)
    elif surface == "skill":
        pattern = value
    elif surface in PATH_SURFACES or (surface in PATH_TOOLS and value):
        return tuple(
            Suggestion(surface, p, _label(surface, p, tool)) for p in _path_patterns(value, is_dir)
        )
    else:
        pattern = "*"
    return (Suggestion(surface, pattern, _label(surface, pattern, tool)),)


def both_directions_label(surfaces_and_patterns: Iterable[Suggestion | tuple[str, str]]) -> str:
    """The label of ``b``: grant reads and writes on the given patterns (docs/approvals.md, "The
    dialog").

    The target is the quoted pattern when there is one distinct pattern, else ``N paths``.
    """
    patterns: list[str] = []
    for item in surfaces_and_patterns:
        pattern = item.pattern if isinstance(item, Suggestion) else item[1]
        if pattern not in patterns:
            patterns.append(pattern)
    target = f'"{patterns[0]}"' if len(patterns) == 1 else f"{len(patterns)} paths"
    return f"Yes, allow reads and writes to {target} for this session"


def approval_pattern(path: str) -> str:
    """The directory of ``path`` (cut at its own last ``/``) followed by ``*``.

    ``/other/project/src/foo.ts`` → ``/other/project/src/*``; ``/x/`` → ``/x/*``;
    ``/foo`` → ``/*``; a path without a separator → ``./*``.
    """
    cut = path.rfind("/")
    return "./*" if cut < 0 else path[: cut + 1] + "*"


def mcp_pattern(target: str) -> str:
    """``server:tool`` → ``server:*``; ``server_tool`` → ``server_*``; else ``*``.

    A host-style name (``mcp__srv__tool``) is kept exactly: its server cannot be told
    from the tool by the name alone once either contains ``__``.
    """
    if target.startswith("mcp__"):
        return target
    colon = target.find(":")
    if colon > 0:
        return target[:colon] + ":*"
    under = target.find("_")
    if under > 0:
        return target[:under] + "_*"
    return "*"


def bash_pattern(command: str) -> str:
    """The suggested session pattern for one bash command (docs/approvals.md, "Suggested patterns").

    Leading comment lines are dropped and the rest trimmed; a one-word command is kept exactly;
    otherwise the prefix chosen by the arity table (behind any leading ``NAME=value`` words and
    generalizable wrappers) is kept verbatim and followed by `` *``, which also matches the
    bare prefix (``git log`` → ``git log *``, which never covers ``git logx``). When a wrapper
    hides what runs (opaque, ambiguous, or a computed word), the whole command is the pattern.
    """
    text = _strip_comments(command)
    spans = _tokens(text)
    if len(spans) < 2:
        return text
    words = [text[start:end] for start, end in spans]
    head = _command_index(words)
    if head is None:
        return text
    if head == 0:
        found = _option_pattern(words)
        if found is not None:
            return found
        sub = _subcommand_index(words)
        if sub is not None:  # `git -C repo push -f` → `git -C repo push *`, not `git -C *`
            end = spans[sub][1]
            return text[:end] + (" *" if end == len(text) or text[end] == " " else "*")
    size = min(head + _arity(words[head:]), len(words))
    if size == len(words):
        return text + " *"  # word by word: `git log *` covers `git log`, never `git logx`
    end = spans[size - 1][1]
    # A space keeps the conventional ``prefix *`` (which also matches the bare prefix); any
    # other separator (tab, newline) is covered only by a plain ``*``.
    return text[:end] + (" *" if text[end] == " " else "*")


# -- bash: the option table (docs/configuration.md, Command rules) ---------------------------

# Programs whose whole-program grant (`rm *`) would be far broader than the command approved:
# their suggestion is the command rule of the options and operands as typed.
_OPTION_FORM = frozenset({"rm", "cp", "mv", "chmod", "chown", "chgrp"})
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:,@%+=~")


def _plain(word: str) -> bool:
    return all(ch in _PLAIN for ch in word)


def _option_pattern(words: Sequence[str]) -> str | None:
    """``rm -rf build`` → ``rm [-r -f] build``: the options in any spelling, these operands
    exactly. ``None`` unless the program is one of :data:`_OPTION_FORM`, has options and
    operands, and every word is literal."""
    name = words[0]
    if name not in _OPTION_FORM or not all(_plain(w) for w in words):
        return None
    from clearance.policy.program_grammar import parse_command
    from clearance.policy.programs import PROGRAMS

    parsed = parse_command(PROGRAMS.get(name), name, words[1:])
    operands = parsed.operands
    if not parsed.options or not operands or parsed.dashdash >= 0:
        return None
    if any(o is None or o.startswith("~") for o in operands):
        return None
    items = []
    short: dict[tuple[str, ...], str] = {}
    for letter, spec in PROGRAMS[name].root.short.items():
        short.setdefault(spec[0], "-" + letter)
    for option, given in parsed.options.items():
        spelling = short.get((option,), option[len(name) + 1 :])  # `-r` reads as typed
        for value in given:
            if value is None:
                items.append(spelling)
            elif value and _plain(value) and "~" not in value:
                items.append(f"{spelling}={value}")
            else:
                return None
    return f"{name} [{' '.join(dict.fromkeys(items))}] {' '.join(operands)}"  # type: ignore[arg-type]


def _subcommand_index(words: Sequence[str]) -> int | None:
    """The index of the subcommand after the program's own options (``git -C repo push``),
    for a program of the option table; ``None`` when no option precedes it or it is unclear."""
    from clearance.policy.program_grammar import parse_command
    from clearance.policy.programs import PROGRAMS

    name = _basename(words[0])
    program = PROGRAMS.get(name)
    if program is None or not program.root.subs or len(words) < 3 or words[1][:1] != "-":
        return None
    if not all(_plain(w) for w in words):
        return None
    parsed = parse_command(program, name, words[1:])
    if not parsed.operands or parsed.operands[0] is None:
        return None
    # Find the word: the first one equal to the subcommand once the options are read.
    for i in range(1, len(words)):
        if words[i] == parsed.operands[0]:
            probe = parse_command(program, name, words[1:i])
            if not probe.operands and probe.dashdash < 0:
                return i
    return None


# -- bash: arity table (docs/approvals.md, "Suggested patterns")
# ------------------------------------------------------------

_ARITY_1 = (
    "make", "ls", "ll", "la", "cat", "less", "more", "head", "tail", "grep", "rg", "ag", "find",
    "touch", "mkdir", "rm", "cp", "mv", "ln", "chmod", "chown", "du", "df", "echo", "printf",
    "diff", "patch", "wc", "sort", "uniq", "awk", "sed", "tar", "zip", "unzip", "curl", "wget",
    "ssh", "scp", "rsync", "ping", "kill", "killall", "pkill",
)  # fmt: skip
_ARITY_2 = (
    "git", "hg", "svn", "npm", "npx", "pnpm", "yarn", "bun", "bun add", "deno", "pip", "pip3",
    "uv", "cargo", "go", "bundle", "docker", "podman", "kubectl", "helm", "gh", "fly", "vercel",
    "wrangler", "bazel", "terraform", "tofu", "pulumi", "systemctl", "service", "brew", "apt",
    "apt-get", "yum", "dnf",
)  # fmt: skip
_ARITY_3 = (
    "npm run", "npm exec", "pnpm run", "pnpm exec", "pnpm dlx", "yarn run", "bun run", "bun x",
    "deno run", "deno task", "deno compile", "uv run", "uv pip", "go run", "bundle exec",
    "docker compose", "docker container", "docker image", "docker network", "docker volume",
    "podman compose", "aws", "az", "gcloud", "gh pr", "gh issue", "gh repo",
)  # fmt: skip
_ARITY = {**dict.fromkeys(_ARITY_1, 1), **dict.fromkeys(_ARITY_2, 2), **dict.fromkeys(_ARITY_3, 3)}


def _arity(words: Sequence[str]) -> int:
    """How many leading words name the command: the longest matching key, unknown → 1."""
    first = words[0].lower()
    if len(words) > 1:
        two = _ARITY.get(first + " " + words[1].lower())
        if two is not None:
            return two
    return _ARITY.get(first, 1)


# -- bash: text and words ------------------------------------------------------------------------

_SPACE = " \t\n\r\f\v"


def _strip_comments(command: str) -> str:
    text = command.strip()
    while text.startswith("#"):
        newline = text.find("\n")
        text = "" if newline < 0 else text[newline + 1 :].strip()
    return text


def _tokens(text: str) -> list[tuple[int, int]]:
    """Spans of the whitespace-separated words of ``text``, quote-aware.

    Quotes (``'…'``, ``"…"``, backticks), backslash escapes and parentheses (``$(…)``,
    ``<(…)``) keep their whitespace inside one word. Never raises: an unterminated quote runs
    to the end of the text.
    """
    spans: list[tuple[int, int]] = []
    n = len(text)
    i = 0
    while i < n:
        if text[i] in _SPACE:
            i += 1
            continue
        start = i
        quote = ""
        depth = 0
        while i < n:
            ch = text[i]
            if quote == "'":
                if ch == "'":
                    quote = ""
            elif ch == "\\":
                i += 1
            elif quote:
                if ch == quote:
                    quote = ""
            elif ch in "'\"`":
                quote = ch
            elif ch == "(":
                depth += 1
            elif ch == ")" and depth:
                depth -= 1
            elif depth == 0 and ch in _SPACE:
                break
            i += 1
        i = min(i, n)
        spans.append((start, i))
    return spans


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.isidentifier() and name.isascii()


def _computed(word: str) -> bool:
    return "$" in word or "`" in word


def _basename(word: str) -> str:
    return word[word.rfind("/") + 1 :]


# -- bash: wrappers (docs/shell-analysis.md, "What is seen through"; docs/approvals.md, "Suggested
# patterns") -----------------------------------------------------------

# Getopt grammars (see ``_Grammar``). For suggestions, an option that makes the inner command
# unclear (xargs -I/-i/--replace) counts as refused: the whole command is suggested.

_GETOPT: dict[str, _Grammar] = {
    "sudo": (
        "ABbEHKklNnPSVv",
        "CgpTUu",
        "",
        "DehiRs",
        "askpass background bell help list no-update non-interactive preserve-env"
        " preserve-groups remove-timestamp reset-timestamp set-home stdin validate version",
        "close-from command-timeout group other-user prompt user",
        "",
        "chdir chroot edit host login shell",
        True,
        False,
    ),
    "env": (
        "0iv",
        "u",
        "",
        "aCPS",
        "debug help ignore-environment list-signal-handling null version",
        "unset",
        "block-signal default-signal ignore-signal",
        "argv0 chdir env0-from split-string",
        True,
        True,
    ),
    "xargs": (
        "0oprtx",
        "adELnPRSs",
        "el",
        "JIi",
        "exit help interactive no-run-if-empty null open-tty show-limits verbose version",
        "arg-file delimiter max-args max-chars max-procs process-slot-var",
        "eof max-lines",
        "replace",
        False,
        False,
    ),
    "doas": ("Ln", "u", "", "Csa", "", "", "", "", False, False),
}

# Other wrappers: (value-taking options, leading operands to skip) — docs/shell-analysis.md, "What
# is seen through".
_WALK: dict[str, tuple[frozenset[str], int]] = {
    "nohup": (frozenset(), 0),
    "setsid": (frozenset(), 0),
    "time": (frozenset({"-o", "-f", "--output", "--format"}), 0),
    "timeout": (frozenset({"-s", "-k", "--signal", "--kill-after"}), 1),
    "nice": (frozenset({"-n", "--adjustment"}), 0),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), 0),
    "flock": (frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}), 1),
}

_AMBIGUOUS = frozenset({"watch", "parallel", "rush", "rust-parallel", "eval"})
_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh"})
_EXEC_FLAGS = {
    "find": frozenset({"-exec", "-execdir", "-ok", "-okdir"}),
    "fd": frozenset({"-x", "--exec", "-X", "--exec-batch"}),
}
_MAX_LAYERS = 4


def _command_index(words: Sequence[str]) -> int | None:
    """Where the command proper starts, behind assignments and wrappers; None if unclear."""
    i = 0
    while i < len(words) and _is_assignment(words[i]):
        i += 1
    if i == len(words):
        return None
    wrapped = False
    for _ in range(_MAX_LAYERS + 1):
        word = words[i]
        if wrapped and _computed(word):
            return None
        name = _basename(word)
        if name in _AMBIGUOUS or _opaque_shell(name, words, i) or _execs(name, words, i):
            return None
        grammar = _GETOPT.get(name)
        walk = _WALK.get(name)
        if grammar is not None:
            inner = _getopt(words, i, grammar)
        elif walk is not None:
            inner = _walk(words, i, *walk)
        else:
            return i
        if inner is None or any(_computed(w) for w in words[i:inner]):
            return None
        i, wrapped = inner, True
    return None


def _opaque_shell(name: str, words: Sequence[str], i: int) -> bool:
    """``bash -c …``: the payload is opaque.

    Any short-option cluster holding ``c`` before ``--`` counts, even past an operand: a wider
    net only makes the suggestion narrower (the whole command).
    """
    if name not in _SHELLS:
        return False
    for word in words[i + 1 :]:
        if word == "--":
            return False
        if word.startswith("-") and not word.startswith("--") and "c" in word:
            return True
    return False


def _execs(name: str, words: Sequence[str], i: int) -> bool:
    flags = _EXEC_FLAGS.get(name)
    return flags is not None and any(w in flags for w in words[i + 1 :])


def _long(name: str, names: Sequence[str]) -> str | None:
    """The long option ``name`` spells, allowing a unique abbreviation (getopt_long)."""
    if name in names:
        return name
    hits = [n for n in names if n.startswith(name)]
    return hits[0] if len(hits) == 1 and name else None


def _getopt(words: Sequence[str], i: int, grammar: _Grammar) -> int | None:
    """Index of the command run by a getopt wrapper at ``words[i]``; None if unclear."""
    flags, values, optional, refuse, lflags, lvalues, loptional, lrefuse, assigns, dash = grammar
    long_flags, long_values, long_optional = lflags.split(), lvalues.split(), loptional.split()
    long_refuse = lrefuse.split()
    j, n = i + 1, len(words)
    while j < n:
        word = words[j]
        if word == "--" or (word == "-" and dash):
            j += 1
            break
        if word.startswith("--"):
            name, eq, _ = word[2:].partition("=")
            full = _long(name, long_flags + long_values + long_optional + long_refuse)
            if full is None or full in long_refuse or (eq and full in long_flags):
                return None
            j += 2 if full in long_values and not eq else 1
            continue
        if not word.startswith("-") or word == "-":
            break
        j += 1
        for k in range(1, len(word)):
            letter = word[k]
            if letter in refuse:
                return None
            if letter in values:
                if k + 1 == len(word):
                    j += 1  # the value is the next word, not attached
                break
            if letter in optional:
                break
            if letter not in flags:
                return None
    while assigns and j < n and _is_assignment(words[j]):
        j += 1
    return j if j < n else None


def _walk(words: Sequence[str], i: int, valued: frozenset[str], operands: int) -> int | None:
    """Index of the command run by a simple wrapper at ``words[i]``; None if there is none."""
    j, n = i + 1, len(words)
    while j < n:
        word = words[j]
        if _is_assignment(word):
            j += 1
        elif word == "--":
            j += 1
            break
        elif word.startswith("-") and word != "-":
            j += 2 if word in valued else 1
        else:
            break
    j += operands
    return j if j < n else None


# -- paths and labels ------------------------------------------------------------------------------


def _path_patterns(path: str, is_dir: bool) -> tuple[str, ...]:
    if not is_dir:
        return (approval_pattern(path),)
    directory = path.rstrip("/") or ("/" if path.startswith("/") else ".")
    inside = "/*" if directory == "/" else directory + "/*"
    return (directory, inside)


def _label(surface: str, pattern: str, tool: str | None) -> str:
    if surface == "bash":
        what = f'bash "{pattern}"'
    elif surface == "mcp":
        what = f'mcp tool "{pattern}"'
    elif surface == "skill":
        what = f'skill "{pattern}"'
    elif surface.startswith("external_directory"):
        what = f'access to external directory "{pattern}"'
    elif surface.startswith("path"):
        what = f'path "{pattern}"'
    elif surface in PATH_TOOLS and pattern != "*":
        what = f'{surface} "{pattern}"'
    else:
        what = f'tool "{tool or surface}"'
    return f"Yes, allow {what} for this session"
