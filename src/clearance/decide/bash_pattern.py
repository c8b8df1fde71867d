"""The suggested session pattern for a bash command (docs/approvals.md, "Suggested patterns").

The command's prefix by the arity table (``git status --short`` → ``git status *``), past the
program's own options (``git -C repo push -f`` → ``git -C repo push *``), or for a file mutator
of the option table its command rule (``rm -rf build`` → ``rm [-r -f] build``), seen through
generalizable wrappers (``nohup git status --short`` → ``nohup git status *``); the whole
command, without a wildcard, when a wrapper makes the inner command unclear (``bash -c``,
``eval``, ``xargs -I``, ``find -exec``, a computed word such as ``$X``).

The words are the shell analyzer's (``clearance.intent.shell.simple``): a text bash does not
read as one simple command (a list, a compound statement, an assignment alone) is its own
pattern. Wrappers are peeled with the analyzer's own option grammars
(``clearance.intent.shell.options``), so a suggestion reads ``sudo -u x git push`` exactly as
the bash gate does; the shells, the wrappers that run a whole command line and the options of
``find`` and ``fd`` that run a command are the analyzer's lists too. Every pattern is the
command's own text up to a word boundary, followed by ``*`` or `` *``, so it always matches
the command it was suggested for under the wildcard rules (docs/configuration.md,
"Wildcards"). No ``re``, no ``shlex``.
"""

from __future__ import annotations

from clearance.intent.shell.options import GETOPT, is_assignment, table_inner
from clearance.intent.shell.runners import FD_EXEC, FIND_EXEC, SHELLS
from clearance.intent.shell.simple import word_spans
from clearance.intent.shell.wrapper import OPAQUE_LINE
from clearance.policy.program_grammar import parse_command
from clearance.policy.programs import PROGRAMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["bash_pattern"]


def bash_pattern(command: str) -> str:
    """The suggested session pattern for one bash command (docs/approvals.md, "Suggested patterns").

    Leading comment lines are dropped and the rest trimmed; a one-word command, or one that is
    not a single simple command, is kept exactly; otherwise the prefix chosen by the arity
    table (behind any leading ``NAME=value`` words and generalizable wrappers) is kept verbatim
    and followed by `` *``, which also matches the bare prefix (``git log`` → ``git log *``,
    which never covers ``git logx``). When a wrapper hides what runs (opaque, ambiguous, or a
    computed word), the whole command is the pattern.
    """
    text = _strip_comments(command)
    spans = word_spans(text)
    if spans is None or len(spans) < 2:
        return text  # one word, or not one simple command: the whole command
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
            # the subcommand and the words the arity table adds to it (`aws --profile p ec2
            # describe-instances *`)
            last = min(sub + max(_arity([words[0], *words[sub:]]), 2) - 2, len(words) - 1)
            end = spans[last][1]
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


def _strip_comments(command: str) -> str:
    text = command.strip()
    while text.startswith("#"):
        newline = text.find("\n")
        text = "" if newline < 0 else text[newline + 1 :].strip()
    return text


def _computed(word: str) -> bool:
    return "$" in word or "`" in word


def _basename(word: str) -> str:
    return word[word.rfind("/") + 1 :]


# -- bash: wrappers (docs/shell-analysis.md, "What is seen through") ---------------------------

# The wrappers a suggestion sees through, with the analyzer's getopt grammars (``GETOPT``) or its
# table walk (``table_inner``); any other wrapper is the command the pattern names.
_SEEN_THROUGH = frozenset({"sudo", "env", "xargs", "doas", "nohup", "setsid", "time", "timeout",
                           "nice", "stdbuf", "flock"})  # fmt: skip
# What hands a command line to a shell (the analyzer's OPAQUE_LINE: watch, parallel, tmux, …).
_AMBIGUOUS = OPAQUE_LINE | {"eval"}
_EXEC_FLAGS = {"find": FIND_EXEC, "fd": FD_EXEC}
_MAX_LAYERS = 4


def _command_index(words: Sequence[str]) -> int | None:
    """Where the command proper starts, behind assignments and wrappers; None if unclear."""
    i = 0
    while i < len(words) and is_assignment(words[i]):
        i += 1
    if i == len(words):
        return None
    wrapped = False
    for _ in range(_MAX_LAYERS + 1):
        word = words[i]
        if wrapped and (_computed(word) or is_assignment(word)):
            return None  # `sudo -- A=1 cmd`: which word runs is unclear
        name = _basename(word)
        if name in _AMBIGUOUS or _opaque_shell(name, words, i) or _execs(name, words, i):
            return None
        if name not in _SEEN_THROUGH:
            return i
        grammar = GETOPT.get(name)
        tail = words[i:]
        inner = grammar.inner(tail) if grammar is not None else table_inner(name, tail)
        if inner is None or any(_computed(w) for w in tail[:inner]):
            return None
        if name == "xargs" and _replaces(tail[1:inner]):
            return None
        i, wrapped = i + inner, True
    return None


def _replaces(options: Sequence[str]) -> bool:
    """Whether xargs's options hold ``-I``, ``-i`` or ``--replace``, which make the inner
    command unclear. Any short option word holding either letter counts, and any long one that
    could abbreviate ``--replace``: a wider net only makes the suggestion narrower (the whole
    command)."""
    for word in options:
        if word.startswith("--"):
            name = word[2:].partition("=")[0]
            if name and "replace".startswith(name):
                return True
        elif word.startswith("-") and ("I" in word or "i" in word):
            return True
    return False


def _opaque_shell(name: str, words: Sequence[str], i: int) -> bool:
    """``bash -c …``: the payload is opaque.

    Any short-option cluster holding ``c`` (``-c`` or ``+c``) before ``--`` counts, even past an
    operand: a wider net only makes the suggestion narrower (the whole command).
    """
    if name not in SHELLS:
        return False
    for word in words[i + 1 :]:
        if word == "--":
            return False
        if word[:1] in "-+" and not word.startswith("--") and "c" in word:  # `bash +c` too
            return True
    return False


def _execs(name: str, words: Sequence[str], i: int) -> bool:
    flags = _EXEC_FLAGS.get(name)
    return flags is not None and any(w in flags for w in words[i + 1 :])
