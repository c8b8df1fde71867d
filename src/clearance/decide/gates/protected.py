"""The protected-path gate: writes to clearance's own files and the hosts' settings are denied,
writes to files that run code later ask, reads of clearance's state ask — outside every policy
layer (``clearance.policy.protected``, ``docs/configuration.md``, "Protected paths").

Its asks carry a sentinel that neither yolo nor a session grant lifts (``decide/lift.py``).
"""

from __future__ import annotations

from clearance.decide.decision import GateResult
from clearance.decide.gates.path import VERBS, folded, lowered
from clearance.intent.sentinel import PROTECTED, RUNS_LATER
from clearance.policy.programs import GIT_GLOBAL_VALUED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.path import PathFact
    from clearance.intent.volume import Volumes
    from clearance.policy.rule import RuleSet

__all__ = ["git_config_result", "protected_gate"]


def protected_gate(
    protected: RuleSet, facts: Sequence[PathFact], *, tool: str, volumes: Volumes | None = None
) -> list[GateResult]:
    """``volumes``: how the volumes compare names (default: probed on this machine); where a
    volume folds case, or may, ``.GIT/hooks/x`` is ``.git/hooks/x``."""
    out: list[GateResult] = []
    written: set[str] | None = None  # what the call writes, for a repository's layout
    for fact in facts:
        direction = fact.direction
        low = lowered(protected, fact.aliases)
        matched = False
        for surface in _SURFACES[direction]:
            rule = protected.evaluate(surface, fact.aliases)
            if low is not None:
                rule = folded(protected, surface, fact.aliases, low, rule, volumes)
            if rule.origin != "protected":
                continue  # nothing protected matched: the universal fallback
            matched = True
            runs_later = rule.action == "ask" and surface == "protected_write"
            sentinel = RUNS_LATER if runs_later else PROTECTED
            shown = fact.raw if fact.path is None else fact.path
            verb = VERBS[direction]
            head = "Denied" if rule.action == "deny" else "Needs approval"
            message = f'{head}: {verb} "{shown}" by {tool} is protected: {rule.reason} ({sentinel})'
            out.append(GateResult("protected", surface, shown, rule.action, rule, message,
                                  sentinel, values=fact.aliases))  # fmt: skip
            break
        if matched or direction == "read" or fact.path is None:
            continue
        parent, _, leaf = fact.path.rpartition("/")
        if leaf in _LAYOUT or parent.endswith("/hooks"):
            if written is None:
                written = {f.canonical or f.path for f in facts if f.direction != "read" and f.path}
            if leaf in _LAYOUT:
                found = _layout(fact, leaf, written, tool)
            else:
                found = _git_dir_hook(fact, parent, written, tool)
            if found is not None:
                out.append(found)
    return out


def _git_dir_hook(fact: PathFact, hooks: str, written: set[str], tool: str) -> GateResult | None:
    """The ask for a write in the ``hooks`` directory of a git directory found anywhere (one
    ``git init --separate-git-dir=gd`` or ``--bare`` made): git runs its hooks as it runs
    those of ``.git/hooks``."""
    from clearance.intent.path import lexists

    top = hooks.rpartition("/")[0]
    canonical = (fact.canonical or fact.path or "").rpartition("/")[0].rpartition("/")[0]
    if not any(
        lexists(f"{where}/HEAD") or f"{where}/HEAD" in written
        for where in {top, canonical}
        if where
    ):
        return None
    return _runs_later(fact, "*/hooks/*", f"it is a hook of the git directory {top}", tool)


# A file that, beside the other file named here, makes its directory a git repository git
# finds from there, whose configuration names programs it runs; a `.git` anywhere but the
# project's own top does so alone (a gitfile names the directory git uses) (ADR 0040).
_LAYOUT = {"config": ("HEAD",), "commondir": ("HEAD",), "HEAD": ("config", "commondir"),
           ".git": ()}  # fmt: skip


def _layout(fact: PathFact, leaf: str, written: set[str], tool: str) -> GateResult | None:
    """The ask for a write of ``config`` or ``commondir`` beside a ``HEAD`` (or the reverse),
    on disk or written by the same call, or of a ``.git`` other than the project's own: the
    configuration of a git repository, which git uses when it runs in that directory."""
    from clearance.intent.path import lexists

    path = fact.canonical or fact.path or ""
    directory = path.rpartition("/")[0]
    if leaf == ".git":
        if directory == fact.boundary and fact.direction != "write":
            return None  # the project's own, read and copied (`cp -r .git /tmp/b`)
    elif not any(lexists(f"{directory}/{o}") or f"{directory}/{o}" in written
               for o in _LAYOUT[leaf]):  # fmt: skip
        return None
    return _runs_later(fact, f"*/{leaf}", "it makes a git repository of its directory", tool)


def _runs_later(fact: PathFact, pattern: str, why: str, tool: str) -> GateResult:
    """The ask for a write of a file git runs later, met by ``pattern`` for ``why``."""
    from clearance.policy.protected import RUNS_LATER_REASON
    from clearance.policy.rule import Rule

    surface = "protected_write"
    rule = Rule(surface, pattern, "ask", "protected", RUNS_LATER_REASON)
    shown = fact.path or fact.raw
    message = (
        f'Needs approval: {VERBS[fact.direction]} "{shown}" by {tool} is protected: {why}; '
        f"{RUNS_LATER_REASON} ({RUNS_LATER})"
    )
    return GateResult("protected", surface, shown, "ask", rule, message, RUNS_LATER,
                      values=fact.aliases)  # fmt: skip


_SURFACES = {
    "read": ("protected_read",),
    "write": ("protected_write",),
    "both": ("protected_write", "protected_read"),
}


# git configuration keys whose value git runs, or that pull in other configuration.
_CONFIG_READS = frozenset(
    {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--show-origin",
     "--show-scope", "--get-color", "--get-colorbool", "get", "list"}
)  # fmt: skip
_CONFIG_VALUED = frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment"})


def git_config_key(canonical: str) -> str | None:
    """The key a ``git config`` command sets when git runs its value later (``core.pager``,
    ``alias.x``, ``*.command``, ``credential.helper``, ``includeIf…``), else ``None``."""
    words = canonical.split()
    if len(words) < 3 or words[0] != "git":
        return None
    i = 1
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in GIT_GLOBAL_VALUED else 1  # git's global options
    if i >= len(words) or words[i] != "config":
        return None
    i += 1
    if i < len(words) and words[i] in ("set", "unset", "edit", "--edit", "-e"):
        if words[i] in ("edit", "--edit", "-e"):
            return "(the whole configuration, in an editor)"
        i += 1
    key = None
    writes = words[i - 1] in ("set", "unset")
    while i < len(words):
        word = words[i]
        if word in _CONFIG_READS:
            return None
        if word in ("-e", "--edit"):
            return "(the whole configuration, in an editor)"
        if word in _CONFIG_VALUED:
            i += 2
            continue
        if word.startswith("-"):
            writes = writes or word.startswith(("--add", "--replace", "--unset", "--rename"))
            i += 1
            continue
        key = word
        break
    if key is None or not (writes or i + 1 < len(words)):
        return None  # `git config core.pager`: a read of the key
    from clearance.intent.shell.hazards.git import git_key_runs_code, inert_setting

    unsets = any(w.startswith(("--unset", "unset")) for w in words)
    value = words[i + 1] if i + 2 == len(words) else None
    if not unsets and inert_setting(key.lower(), value):
        return None  # `git config core.hooksPath /dev/null`: no hook is found there
    return key if git_key_runs_code(key.lower()) else None


def git_config_result(canonical: str, text: str) -> GateResult | None:
    """An ask that neither yolo nor a grant lifts, for ``git config`` of a code-running key."""
    key = git_config_key(canonical)
    if key is None:
        return None
    from clearance.policy.protected import RUNS_LATER_REASON
    from clearance.policy.rule import Rule

    rule = Rule("protected_write", "git config", "ask", "protected", RUNS_LATER_REASON)
    message = (
        f'Needs approval: bash command "{text}" sets git configuration {key}, which git runs '
        f"later: clearance asks every time, whatever the policy, yolo or session grants "
        f"({RUNS_LATER})"
    )
    return GateResult("protected", "protected_write", text, "ask", rule, message, RUNS_LATER, text)
