"""The trees a command removes or replaces at once, judged on the protected files beneath them.

``rm -rf .claude`` removes ``.claude/settings.json``, ``mv .git/hooks old`` takes every hook
away: a write whose token is the directory, which no protected pattern on a file beneath it
meets. The shell analysis marks such a token a *write beneath* (``write`` and ``deep``:
``clearance.intent.shell.trees``); here the directory is walked on disk (bounded, hidden entries
included, as the recursive reads are: :func:`~clearance.decide.gates.beneath.strictest_beneath`)
and the strictest protected write rule met applies: a deny for clearance's own files and the
hosts' settings, an ask for a file that runs code later. A walk past its bound asks with
``<unknown-path>``. ADR 0045; ``docs/configuration.md``, "Protected paths".
"""

from __future__ import annotations

from clearance.decide.decision import GateResult
from clearance.decide.gates.beneath import CAP, strictest_beneath
from clearance.intent.sentinel import PROTECTED, RUNS_LATER, UNKNOWN_PATH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.path import PathFact
    from clearance.intent.volume import Volumes
    from clearance.policy.rule import Rule, RuleSet

__all__ = ["tree_write_gate", "writes_beneath"]

_SURFACE = "protected_write"


def writes_beneath(facts: Sequence[PathFact]) -> bool:
    """Whether a fact writes the whole tree beneath an existing directory."""
    return any(f.recursive and f.direction == "write" for f in facts)


def tree_write_gate(
    protected: RuleSet,
    facts: Sequence[PathFact],
    *,
    tool: str,
    home: str,
    volumes: Volumes | None = None,
) -> list[GateResult]:
    """Results for the protected files beneath each directory ``facts`` remove or replace
    (``home``: the user's, for the protected patterns written under ``~``)."""
    out: list[GateResult] = []
    budget = [CAP]
    seen: set[str] = set()
    for fact in facts:
        canonical = fact.canonical
        if not fact.recursive or fact.direction != "write" or canonical is None:
            continue
        if canonical in seen:
            continue
        seen.add(canonical)
        if _link_itself(fact):
            found = _through_link(protected, fact.path or "", home)
        else:
            found = strictest_beneath(protected, _SURFACE, fact, volumes, budget)
        if found is None:
            continue
        rule, reached, why = found
        shown = fact.path or fact.raw
        what = f'removal or replacement of "{shown}" by {tool}'
        if why is not None:
            message = (
                f"Needs approval: {what}: the directory {why}, too many to check each one, "
                f'and the protected path "{rule.pattern}" could lie beneath it ({UNKNOWN_PATH})'
            )
            out.append(GateResult("protected", _SURFACE, shown, "ask", rule, message,
                                  UNKNOWN_PATH, values=(reached,)))  # fmt: skip
            continue
        sentinel = RUNS_LATER if rule.action == "ask" else PROTECTED
        head = "Denied" if rule.action == "deny" else "Needs approval"
        message = (
            f'{head}: {what} reaches "{reached}", which is protected: {rule.reason} ({sentinel})'
        )
        out.append(GateResult("protected", _SURFACE, reached, rule.action, rule, message,
                              sentinel, values=(reached,)))  # fmt: skip
    return out


def _link_itself(fact: PathFact) -> bool:
    """Whether what goes is a symbolic link itself, not the directory it leads to (``rm -rf
    link``, ``mv link x``; ``rm -rf link/`` follows it)."""
    import os

    raw = fact.raw
    return fact.path is not None and not raw.endswith(("/", "/.")) and os.path.islink(fact.path)


def _through_link(protected: RuleSet, top: str, home: str) -> tuple[Rule, str, str | None] | None:
    """The strictest protected rule a name beneath the link ``top`` meets, where the name is
    the pattern's own: the link is the pattern's directory (``…/.claude`` for
    ``*/.claude/settings.json``) or holds its whole tail (``top/.claude/settings.json``), or a
    pattern under the home or an absolute one lies beneath it. A name deeper down, which only
    the pattern's leading ``*`` reaches, is not looked for: nothing a host reads goes through
    a link there (ADR 0045)."""
    from fnmatch import fnmatchcase

    from clearance.policy.rule import RANK

    top = top.rstrip("/")
    segments = top.split("/")
    best: tuple[Rule, str, str | None] | None = None
    for rule in protected.rules:
        if rule.surface != _SURFACE or rule.origin != "protected":
            continue
        if best is not None and RANK[rule.action] <= RANK[best[0].action]:
            continue
        pattern = home.rstrip("/") + rule.pattern[1:] if rule.pattern[:2] == "~/" else rule.pattern
        candidates: list[str] = []
        if pattern[:2] == "*/":
            parts = pattern[2:].split("/")
            for k in range(len(parts)):  # the pattern's first k segments name the link's last k
                own = segments[len(segments) - k :] if k else []
                if len(own) == k and all(map(fnmatchcase, own, parts[:k])):
                    candidates.append(top + "/" + "/".join(parts[k:]))
        elif pattern.startswith(top + "/"):
            candidates.append(pattern)
        for candidate in candidates:
            if _exists(candidate):
                best = (rule, candidate, None)
                break
    return best


def _exists(pattern: str) -> bool:
    """Whether an entry matches ``pattern`` on disk (a bound reached: it may)."""
    from clearance.intent.glob import GLOB_CHARS, expand_pattern_bounded
    from clearance.intent.path import lexists

    if GLOB_CHARS.isdisjoint(pattern):
        return lexists(pattern)
    found, complete = expand_pattern_bounded(pattern, hidden=True)
    return bool(found) or not complete
