"""The beneath gate: a command that reads a directory recursively reads every file beneath it.

``grep -r pass ~`` reads ``~/.ssh/id_rsa``, which a ``~/.ssh/*`` rule never meets through the
token ``~``. Which commands read recursively is a per-program fact of the shell analysis
(``clearance.intent.shell.effect.reads_recursively``: ``grep -r``, ``rg``, ``cp -r``,
``rsync -a``, ``tar c``, ``zip -r``, ``find … -exec``); the Grep tool reads recursively too.

For such a directory, every read rule that allows nothing (``path_read`` deny or ask, and the
protected reads) is asked whether it could match a path beneath it:

* a pattern whose literal head lies beneath the directory (``~/.ssh/*`` beneath ``~``) is
  looked for there: the directory its head names is walked when it exists;
* a pattern that may match anywhere (``*.env``, a relative pattern, a ``*`` above the
  directory) makes the gate walk the directory itself.

Each entry found is matched as itself (every spelling: as reached, under the directory as
written, relative to the working directory, a symlink's target), with the whole rule set, so a
later allow (``*.env.example``) still counts and case folds as in the path gates. The first deny
reached denies the unit, else the first ask asks; a walk past :data:`CAP` entries asks with
``<unknown-path>`` (what lies beyond is unknown). A directory beneath which nothing can match
costs no I/O. ``docs/configuration.md``, "Recursive reads", and ADR 0011.
"""

from __future__ import annotations

import os

from clearance.decide.decision import GateResult
from clearance.decide.gates._message import gate_message
from clearance.decide.gates.path import folded, lowered
from clearance.intent.sentinel import UNKNOWN_PATH
from clearance.policy.rule import RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.path import PathFact
    from clearance.intent.volume import Volumes
    from clearance.policy.rule import Rule, RuleSet

__all__ = ["CAP", "beneath_gate"]

CAP = 10_000  # entries walked beneath the directories of one call
_READ = ("path_read",)
_PROTECTED = ("protected_read",)


def beneath_gate(
    rules: RuleSet,
    protected: RuleSet,
    facts: Sequence[PathFact],
    *,
    tool: str,
    volumes: Volumes | None = None,
    only: str | None = None,
    hidden: bool = True,
) -> list[GateResult]:
    """Results for what the recursive reads among ``facts`` reach beneath their directories.
    ``only``: a file-name glob the reading tool keeps to (the Grep tool's ``glob``);
    ``hidden=False``: the tool never descends into a hidden entry (a name starting with
    ``.``) nor follows a symlink beneath the directory, as ripgrep behind a host's Grep tool
    does without ``--hidden`` and ``--follow``."""
    out: list[GateResult] = []
    budget = [CAP]
    for fact in facts:
        if not fact.recursive or fact.direction == "write" or fact.canonical is None:
            continue
        pairs = ((rules, _READ, "path"), (protected, _PROTECTED, "protected"))
        for ruleset, surfaces, gate in pairs:
            found = _reach(ruleset, surfaces, fact, volumes, only, budget, gate == "protected",
                           hidden)  # fmt: skip
            if found is not None:
                out.append(_result(gate, fact, tool, *found))
    return out


def _candidates(rules: RuleSet, surfaces: Sequence[str]) -> list[tuple[Rule, str]]:
    return [
        (rule, rules.as_matched(rule))
        for rule in rules.rules
        if rule.surface in surfaces and rule.action != "allow"
    ]


def _heads(pattern: str, root: str) -> str | None:
    """Where ``pattern`` could match beneath ``root``: the directory (or file) beneath ``root``
    its literal head names, ``root`` itself when it may match anywhere beneath it, ``None``
    when it cannot match beneath ``root`` at all."""
    if pattern[:1] != "/":
        return root  # `*.env`, `.env`, `src/*`: matched against every spelling, anywhere
    prefix = root if root.endswith("/") else root + "/"
    cut = len(pattern)
    for ch in "*?":
        i = pattern.find(ch)
        if 0 <= i < cut:
            cut = i
    head = pattern[:cut]
    for a, b in zip(head, prefix, strict=False):
        if a != b:
            return None  # the literal head leads elsewhere
    if len(head) < len(prefix):
        # A wildcard before the directory ends (`/home/*/.ssh/*` from `/home/u/proj`), or the
        # pattern is the directory itself: anything beneath may match.
        return root if cut < len(pattern) else None
    if cut == len(pattern):
        return pattern  # one path beneath the directory, exactly
    anchor = head[: head.rfind("/")]
    return anchor if len(anchor) > len(prefix) - 1 else root


def _reach(
    rules: RuleSet,
    surfaces: Sequence[str],
    fact: PathFact,
    volumes: Volumes | None,
    only: str | None,
    budget: list[int],
    protected: bool,
    hidden: bool,
) -> tuple[Rule, str, str | None] | None:
    """The strictest rule an entry beneath ``fact``'s directory meets: ``(rule, entry,
    None)``, or ``(rule, directory, why)`` when the walk was cut short; ``None`` when nothing
    beneath it meets a rule that allows nothing."""
    candidates = _candidates(rules, surfaces)
    if not candidates:
        return None
    canonical = fact.canonical
    assert canonical is not None
    lexical = fact.path or canonical
    spellings = {canonical.rstrip("/") or "/", lexical.rstrip("/") or "/"}
    starts: dict[str, Rule] = {}
    for rule, pattern in candidates:
        folded_pattern = pattern.lower()
        for spelling in spellings:
            where = _heads(pattern, spelling)
            if where is None and folded_pattern != pattern:
                where = _heads(folded_pattern, spelling.lower())  # a folding volume
                if where is not None:
                    where = spelling  # the spelling's own case is unknown: walk it all
            if where is not None:
                # Walk from the real directory: a lexical head becomes canonical.
                if where.startswith(lexical.rstrip("/") + "/") and lexical != canonical:
                    where = canonical.rstrip("/") + where[len(lexical.rstrip("/")) :]
                elif where == lexical:
                    where = canonical
                starts.setdefault(where, rule)
    directory = canonical.rstrip("/") or "/"
    # Where a rule may match anywhere beneath the directory, all of it must be seen.
    needed = directory in starts
    anchors: list[str] = []  # the places a rule's literal head names, nested ones dropped
    for start in sorted(starts, key=len):
        if start != directory and not any(
            start == a or start.startswith(a.rstrip("/") + "/") for a in anchors
        ):
            anchors.append(start)
    # A pattern matches only a value holding its longest literal piece: a path holding none
    # of them is not evaluated (most of a walk).
    needles: list[str] | None = []
    for _, pattern in candidates:
        piece = max(pattern.replace("?", "*").split("*"), key=len).lower()
        if not piece:
            needles = None  # `*`: every path
            break
        assert needles is not None
        needles.append(piece)
    walk = _Walk(rules, surfaces, fact, volumes, only, budget, protected, hidden,
                 tuple(dict.fromkeys(needles)) if needles is not None else None)  # fmt: skip
    why = f"holds more than {CAP:,} entries"
    for anchor in anchors:
        if os.path.lexists(anchor):
            found = walk.run(anchor)
            if found is not None and found[0].action == "deny":
                return found
    cut = walk.cut
    # Then the directory itself: for the rules that may match anywhere, and for a symlink
    # beneath it that leads to a file a rule covers (`src/link -> ~/.ssh/id_rsa`).
    walk.cut = None
    found = walk.run(directory)
    if found is not None:
        return found
    if cut is not None:
        return starts[cut], cut, why
    if walk.cut is not None and needed:
        return starts[directory], directory, why
    return None


class _Walk:
    __slots__ = ("best", "budget", "cut", "cwd", "fact", "hidden", "needles", "only",
                 "protected", "roots", "rules", "surfaces", "volumes")  # fmt: skip

    def __init__(
        self,
        rules: RuleSet,
        surfaces: Sequence[str],
        fact: PathFact,
        volumes: Volumes | None,
        only: str | None,
        budget: list[int],
        protected: bool,
        hidden: bool,
        needles: tuple[str, ...] | None,
    ) -> None:
        self.hidden = hidden
        self.needles = needles
        self.rules = rules
        self.surfaces = surfaces
        self.fact = fact
        self.volumes = volumes
        self.only = only if only and not any(c in only for c in "{}/") else None
        self.budget = budget
        self.protected = protected
        self.cwd = fact.boundary.rstrip("/") + "/" if fact.boundary else ""
        canonical = (fact.canonical or "").rstrip("/")
        self.roots = (canonical, (fact.path or "").rstrip("/") or canonical)
        self.best: tuple[Rule, str, str | None] | None = None
        self.cut: str | None = None

    def run(self, root: str) -> tuple[Rule, str, str | None] | None:
        if not os.path.isdir(root):
            self._check(root, os.path.basename(root), os.path.islink(root))
            return self.best
        if not self.hidden and root != (self.fact.canonical or "").rstrip("/"):
            # A start found beneath the directory through a hidden name (`~/.ssh`): never
            # reached by a walk that skips hidden entries.
            below = root[len((self.fact.canonical or "").rstrip("/")) :]
            if "/." in below:
                return self.best
        stack = [root]
        while stack:
            directory = stack.pop()
            try:
                with os.scandir(directory) as entries:
                    listed = list(entries)
            except OSError:
                continue  # unreadable: the command cannot read it either
            for entry in listed:
                if not self.hidden and entry.name[:1] == ".":
                    continue
                if self.budget[0] <= 0:
                    self.cut = self.cut or root
                    return self.best
                self.budget[0] -= 1
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                    is_link = not is_dir and entry.is_symlink()
                except OSError:
                    is_dir = is_link = False
                if is_dir:
                    stack.append(entry.path)
                    self._check(entry.path + "/", entry.name, False)
                else:
                    self._check(entry.path, entry.name, is_link)
                if self.best is not None and self.best[0].action == "deny":
                    return self.best
        return self.best

    def _check(self, path: str, name: str, is_link: bool) -> None:
        if self.only is not None:
            from fnmatch import fnmatchcase

            if path.endswith("/") or not fnmatchcase(name, self.only):
                return  # the tool reads only files its filter names
        target = None
        if is_link and self.hidden:  # a tool that skips hidden entries follows no link either
            try:
                target = os.path.realpath(path)
            except (OSError, ValueError):
                pass
        needles = self.needles
        if needles is not None:
            # Every other spelling is a part of the path, or the link's target.
            text = path.lower() if target is None else f"{path}\0{target}".lower()
            for needle in needles:
                if needle in text:
                    break
            else:
                return
        values = [path]
        canonical, lexical = self.roots
        if lexical != canonical and path.startswith(canonical + "/"):
            values.append(lexical + path[len(canonical) :])
        if self.cwd and path.startswith(self.cwd):
            values.append(path[len(self.cwd) :])
        if target is not None:
            values.append(target)
        rules = self.rules
        low = lowered(rules, values)
        for surface in self.surfaces:
            rule = rules.evaluate(surface, values)
            if low is not None:
                rule = folded(rules, surface, values, low, rule, self.volumes)
            if rule.universal or rule.action == "allow":
                continue
            if self.protected and rule.origin != "protected":
                continue
            best = self.best
            if best is None or RANK[rule.action] > RANK[best[0].action]:
                self.best = (rule, path, None)


def _result(
    gate: str, fact: PathFact, tool: str, rule: Rule, reached: str, why: str | None
) -> GateResult:
    from clearance.decide.gates.protected import PROTECTED

    shown = fact.path or fact.raw
    what = f'recursive read of "{shown}" by {tool}'
    if why is not None:
        message = (
            f"Needs approval: {what}: the directory {why}, too many to check each one, and "
            f'{rule.surface} "{rule.pattern}" could match a file beneath it ({UNKNOWN_PATH})'
        )
        return GateResult(gate, rule.surface, shown, "ask", rule, message, UNKNOWN_PATH,
                          values=(reached,))  # fmt: skip
    if gate == "protected":
        message = (
            f'Needs approval: {what} reaches "{reached}", which is protected: '
            f"{rule.reason} ({PROTECTED})"
        )
        return GateResult(gate, rule.surface, reached, "ask", rule, message, PROTECTED,
                          values=(reached,))  # fmt: skip
    message = gate_message(rule.action, f'{what}, which reaches "{reached}",', rule)
    return GateResult(gate, rule.surface, reached, rule.action, rule, message, values=(reached,))
