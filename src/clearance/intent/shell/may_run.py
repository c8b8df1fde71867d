"""Which words of a command may be a command it runs, where the analysis cannot tell.

``tool rm -rf /`` runs ``tool``; whether ``tool`` then runs ``rm -rf /`` cannot be told from the
line. A program the analysis knows either runs no word of its own (``echo``, ``grep``,
``chmod``, ``git``, a package manager), or is read as running one, which is then a unit of its
own (``sudo``, ``xargs``, ``bash -c``, ``uv run``). For every other program, and for the words
a known one hands to a program of the project (a shell script's operands, ``source f …``,
whatever follows ``--`` in ``npm run x -- …`` or ``cargo run -- …``), the rules that deny or ask
about a command named among those words speak for the unit too (docs/shell-analysis.md,
"Commands named among an unknown program's words"; ADR 0062). The bash gate decides which words
to try: :func:`tried_from` says where they start.
"""

from __future__ import annotations

from clearance.intent.path import SYSTEM_PROGRAMS
from clearance.intent.shell.effect import CORE
from clearance.intent.shell.launchers import LAUNCHERS
from clearance.intent.shell.names import KNOWLEDGE, LATER, REREAD
from clearance.intent.shell.projection import INERT, METADATA
from clearance.intent.shell.runners import RUNNERS, SHELLS, script_operand
from clearance.intent.shell.wrapper import INDIRECTION
from clearance.policy.programs import PROGRAMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["RUNS_WORDS", "tried_from"]

# Programs that print or transform text, describe commands, report on the system, or install
# and select packages and toolchains by name, none of them running a word it is given (beyond
# the sets below, which the analysis reads by name): `brew install node` names no command.
_QUIET = frozenset(
    {"paste", "join", "column", "tr", "seq", "sd", "uniq", "tee", "fold", "fmt", "rev", "tac"}
    | {"expand", "unexpand", "base64", "base32", "xxd", "shuf", "printenv", "type", "whatis"}
    | {"whereis", "apropos", "info", "help", "tldr", "hostname", "uname", "whoami", "id"}
    | {"groups", "tree", "file", "alias", "unalias", "jobs", "fg", "bg", "read", "wait"}
    | {"mkdir", "rmdir", "ln", "cal", "uptime", "nproc", "logger", "notify-send"}
    | {"say", "figlet", "cowsay", "lolcat", "toilet", "banner", "wall", "write"}
    | {"yum", "dnf", "apk", "pacman", "zypper", "brew"}
    | {"port", "snap", "flatpak", "choco", "winget", "scoop", "nvm", "volta", "fnm", "n"}
    | {"asdf", "pyenv", "rbenv", "nodenv", "goenv", "rustup", "sdk", "jenv", "pipx", "gem"}
)
# Programs the analysis reads as running a command from their own words: a wrapper, a shell, a
# runner, a launcher (whose command is a unit of its own) or a program of the knowledge base
# (`git -c alias.x='!…'`, `awk 'BEGIN{system(…)}'`).
RUNS_WORDS = INDIRECTION | SHELLS | RUNNERS | LAUNCHERS | KNOWLEDGE
# What the analysis reads by name: those, a reader, a builtin, a program of the option table.
_KNOWN = (
    CORE | INERT | METADATA | REREAD | LATER | RUNS_WORDS | frozenset(PROGRAMS) | _QUIET
)  # fmt: skip
# Known programs that hand the words after `--` to a program of the project (`npm run x -- …`,
# `cargo run -- …`, `nix run .#x -- …`).
_PASSING = frozenset({"npm", "pnpm", "yarn", "bun", "cargo", "nix", "uv", "poetry", "pipenv"})
# Package runners that hand a script of the project the words after its name (`yarn x …`,
# `npm run x …`, `bun x.ts …`), but for their own subcommands.
_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})
_RUN = frozenset({"run", "run-script", "rum", "urn"})
_NPM_SCRIPTS = frozenset({"test", "t", "tst", "start", "stop", "restart"})
_OWN = frozenset(
    {"add", "install", "i", "ci", "remove", "rm", "uninstall", "un", "upgrade", "up", "update"}
    | {"init", "create", "dlx", "exec", "x", "link", "unlink", "publish", "pack", "info"}
    | {"view", "outdated", "audit", "why", "list", "ls", "config", "set", "version", "login"}
    | {"logout", "cache", "store", "prune", "dedupe", "rebuild", "patch", "import", "global"}
    | {"workspace", "workspaces", "help", "bin", "root", "env", "setup", "licenses", "node"}
    | {"plugin", "pm", "build", "completions", "upgrade-interactive", "fetch", "search"}
)
# Toolchain and version managers whose subcommand runs a command (`rustup run stable cmd …`,
# `pyenv exec cmd …`): the words after it.
_MANAGER_RUN = {
    "rustup": ("run",), "pyenv": ("exec",), "rbenv": ("exec",), "nodenv": ("exec",),
    "goenv": ("exec",), "jenv": ("exec",), "fnm": ("exec",), "volta": ("run",),
    "n": ("exec", "run"), "asdf": ("exec", "env"), "nvm": ("exec", "run"), "sdk": ("exec",),
    "brew": ("exec",), "gem": ("exec",), "pipx": ("run",), "snap": ("run",),
    "flatpak": ("run",),
}  # fmt: skip
# Command words computed from a place the agent may write to (the home, the working directory).
_PLACES = ("~/", "$HOME/", "${HOME}/", "$PWD/", "${PWD}/", '"$HOME"/', '"$PWD"/', '"$HOME/')


def tried_from(argv: Sequence[str | None], typed: str = "") -> int | None:
    """The index of the first word of ``argv`` (a command's words as bash passes them) that
    may begin a command the program runs, or ``None`` where none may: 1 for a program the
    analysis does not know by that name (``Echo`` and ``echo.exe`` are other programs where
    the volume tells case or has no such file), the words after a shell's or ``source``'s
    script, and those after ``--`` for a launcher that passes them to the project's program.
    ``typed``: the command word as typed, for one computed from the home or the working
    directory (``~/bin/tool``, ``$PWD/deploy.sh``), a file the agent may have written."""
    word = argv[0] if argv else None
    if word is None:
        return 1 if typed.startswith(_PLACES) and len(argv) > 1 else None
    name = word.rpartition("/")[2]
    if "/" in word and (not word.startswith(SYSTEM_PROGRAMS) or "/." in word):
        return 1  # a file the agent may have written (`./echo`, `/usr/bin/../../tmp/echo`)
    if name not in _KNOWN:
        return 1
    if name in SHELLS:
        at = script_operand(name, argv)
        return None if at is None else at + 1
    if name == "source" or name == ".":
        return 2
    if name in _PASSING and "--" in argv:
        return argv.index("--") + 1
    if name in _SCRIPT_RUNNERS:
        return _script_words(name, argv)
    runs = _MANAGER_RUN.get(name)
    if runs is not None:
        for i in range(1, len(argv)):
            if argv[i] in runs:
                return i + 1
    return None


def _script_words(name: str, argv: Sequence[str | None]) -> int | None:
    """Where the words a package runner hands to a script of the project start (`yarn x …`,
    `npm run x …`, `npm test …`)."""
    operands = [i for i in range(1, len(argv)) if (argv[i] or "-")[:1] != "-"]
    if not operands:
        return None
    sub = argv[operands[0]]
    if sub in _RUN:
        return operands[1] + 1 if len(operands) > 1 else None
    if name == "npm":
        return operands[0] + 1 if sub in _NPM_SCRIPTS else None
    if sub in _OWN and not (name == "yarn" and sub == "x"):  # (yarn has no `x` of its own)
        return None
    return operands[0] + 1
