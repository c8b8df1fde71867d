"""The sentinels: the names of what the shell analysis could not prove, each defined once.

The analysis works on a positive model (``docs/shell-analysis.md``): every part of a command
line is either understood, or the unit it belongs to carries a *floor* — a sentinel below that
names what was not understood, and a sentence for the human. The bash gate turns a floored unit
whose own rule allows into *ask*; an explicit deny or ask on the unit still stands.

A floor is a ``(sentinel, why)`` pair; ``why`` completes "Needs approval: bash command "…"
…" (for example ``"uses ${x@P}, which runs its value as a prompt string"``).
"""

from __future__ import annotations

__all__ = [
    "CASE_FOLDED",
    "CODE_RUNNING",
    "COMPUTED",
    "DEADLINE",
    "EXPANSION_LIMIT",
    "GATE_ERROR",
    "INDIRECTION",
    "NAMED_WITHIN",
    "NESTED_REPOSITORY",
    "OPAQUE",
    "PROTECTED",
    "REEVALUATED",
    "REPLAYED",
    "RUNS_LATER",
    "RUNS_WRITTEN",
    "SENTINELS",
    "UNKNOWN_PATH",
    "UNLISTED_NAMES",
    "UNLISTED_PRINTED",
    "UNMODELLED",
    "UNPARSEABLE",
    "UNPARSED",
    "Floor",
    "excerpt",
]

Floor = tuple[str, str]

# Wrappers and structure.
OPAQUE = "<opaque-bash-wrapper>"
INDIRECTION = "<indirection-bash-wrapper>"
UNPARSED = "<unparsed-bash-subtree>"
UNPARSEABLE = "<unparseable-bash-command>"
COMPUTED = "<computed-bash-command>"
# The positive model.
UNMODELLED = "<unmodelled-shell-expansion>"  # a part of a word the analysis does not model
REEVALUATED = "<reevaluated-shell-string>"  # a string bash evaluates again as code
CODE_RUNNING = "<code-running-option>"  # an option or variable that makes a program run code
UNKNOWN_PATH = "<unknown-path>"  # a computed word where path rules could match
EXPANSION_LIMIT = "<expansion-limit>"  # a brace or glob expansion past its bound
DEADLINE = "<analysis-deadline>"  # the analysis ran out of time
REPLAYED = "<replayed-history>"  # `fc` runs a command from the shell's history, not the line
RUNS_WRITTEN = "<runs-written-file>"  # runs as code a file the line itself may have written
# a command word in capitals that may run a wrapper's or a shell's file on a volume that folds
# case (`Sudo`, `Bash`), which the analysis cannot tell (ADR 0042)
CASE_FOLDED = "<case-folded-command>"
# a program clearance does not know is given words that name a command a rule denies or asks
# about (`tool rm -rf /`): it may run that command (ADR 0062)
NAMED_WITHIN = "<command-in-arguments>"
# git would use a repository inside the project that is not the project's own (ADR 0040)
NESTED_REPOSITORY = "<nested-git-repository>"
# a command writes names beneath a directory that the analysis cannot list (an archive it does
# not read, a tree past its bound): any of them may be a protected path (ADR 0045)
UNLISTED_NAMES = "<unlisted-written-names>"
# git prints files from its store (``git show``, ``git log -p``) whose names it could not list,
# or whose listing another git command of the line may change: any may be a secret (ADR 0056)
UNLISTED_PRINTED = "<unlisted-printed-names>"
# The protected paths (``decide/gates/protected.py``).
PROTECTED = "<protected-path>"  # clearance's own files, the hosts' settings, its state
RUNS_LATER = "<runs-code-later>"  # a file that runs code later: asks every time
# Not a floor: the reason of the deny that ``Engine.check`` gives when deciding failed.
GATE_ERROR = "gate_error"

SENTINELS = frozenset(
    {
        OPAQUE,
        INDIRECTION,
        UNPARSED,
        UNPARSEABLE,
        COMPUTED,
        UNMODELLED,
        REEVALUATED,
        CODE_RUNNING,
        UNKNOWN_PATH,
        EXPANSION_LIMIT,
        DEADLINE,
        REPLAYED,
        RUNS_WRITTEN,
        NESTED_REPOSITORY,
        UNLISTED_NAMES,
        UNLISTED_PRINTED,
        CASE_FOLDED,
        NAMED_WITHIN,
        PROTECTED,
        RUNS_LATER,
    }
)


def excerpt(text: str, width: int = 60) -> str:
    """``text`` as a floor's sentence quotes it: at most ``width`` characters."""
    return text if len(text) <= width else text[: width - 3] + "..."
