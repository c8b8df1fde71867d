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
costs no I/O. ``docs/configuration.md``, "Recursive reads", and ADR 0016.
"""

from __future__ import annotations

import os

from clearance.decide.decision import GateResult
from clearance.decide.gates._message import gate_message
from clearance.decide.gates.beneath_rules import index_of, starts
from clearance.decide.gates.ignore_files import whitelists, whitelists_above
from clearance.decide.gates.listing import listing as load_listing
from clearance.decide.gates.listing import view_of
from clearance.decide.gates.path import folded, lowered
from clearance.intent.glob import expand_braces
from clearance.intent.path import WALK_ALL, WALK_VISIBLE, opened
from clearance.intent.sentinel import UNKNOWN_PATH
from clearance.policy.rule import RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.decide.gates.beneath_rules import Index
    from clearance.intent.path import PathFact
    from clearance.intent.volume import Volumes
    from clearance.policy.rule import Rule, RuleSet

__all__ = ["CAP", "beneath_gate", "strictest_beneath"]

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
    home: str | None = None,
) -> list[GateResult]:
    """Results for what the recursive reads among ``facts`` reach beneath their directories.
    ``only``: a glob the reading tool keeps to (the Grep tool's ``glob``, read as ripgrep
    reads ``--glob``: :func:`_grep_glob`); ``hidden=False``: the tool never descends into a
    hidden entry (a name starting with ``.``) the glob does not name, nor follows a symlink
    beneath the directory, as ripgrep behind a host's Grep tool does without ``--hidden``
    and ``--follow``; unless an ignore file met beneath whitelists an entry
    (``ignore_files``), when hidden entries are walked after all, links still not followed. A
    fact's own ``walk`` (``rg`` run by bash) says the same of it: ``WALK_VISIBLE`` is walked so,
    unless an ignore file above it whitelists an entry (``home``: where git's global one is
    found); ``WALK_ENTRIES``, every entry, no link beneath followed."""
    sets = [
        _Set(rules, _READ, "path", index_of(rules, _READ)),
        _Set(protected, _PROTECTED, "protected", index_of(protected, _PROTECTED)),
    ]
    sets = [one for one in sets if one.index.any]
    out: list[GateResult] = []
    if not sets:
        return out  # no read rule that allows nothing: nothing beneath can matter
    budget = [CAP]
    for fact in facts:
        if not fact.recursive or fact.direction == "write" or fact.canonical is None:
            continue
        walk_hidden = follow = hidden
        if hidden and fact.walk != WALK_ALL:  # ripgrep, run by bash: no link beneath
            follow = False
            if fact.walk == WALK_VISIBLE and home is not None:
                walk_hidden = whitelists_above(fact.canonical, home)
        walk = _Walk(sets, fact, volumes, only, budget, walk_hidden, follow)
        try:
            reached_by = walk.reach()
        except _Whitelisted:  # an ignore file beneath lets the tool search hidden entries
            walk = _Walk(sets, fact, volumes, only, budget, True, follow)
            reached_by = walk.reach()
        for one, (rule, reached, why) in reached_by.items():
            out.append(_result(one.gate, fact, tool, rule, reached, why))
    return out


def strictest_beneath(
    rules: RuleSet, surface: str, fact: PathFact, volumes: Volumes | None, budget: list[int]
) -> tuple[Rule, str, str | None] | None:
    """The strictest protected rule of ``surface`` met beneath the directory of ``fact`` on
    disk, hidden entries included: (rule, the entry reached, why the walk stopped short or
    ``None``), else ``None``. ``budget``: the entries left to walk, shared by one call."""
    index = index_of(rules, (surface,))
    if not index.any:
        return None
    one = _Set(rules, (surface,), "protected", index)
    return _Walk([one], fact, volumes, None, budget, True, True).reach().get(one)


class _Set:
    __slots__ = ("gate", "index", "rules", "surfaces")

    def __init__(self, rules: RuleSet, surfaces: tuple[str, ...], gate: str, index: Index):
        self.rules = rules
        self.surfaces = surfaces
        self.gate = gate
        self.index = index


def _grep_glob(glob: str | None) -> tuple[tuple[str, ...] | None, tuple[str, ...], bool]:
    """How ripgrep reads a ``--glob``: an override that whitelists what it matches, hidden
    entries included (``**/.env*``, ``**/*`` and ``*env`` read ``.env``). The patterns a file
    read must match (``None``: any): a name pattern (no ``/``) for its name, a path pattern for
    its path beneath the directory, ``**/`` read as ``*``, which also crosses ``/``; the
    directory-name patterns of the glob's segments (a hidden directory one of them names is
    walked, and one the glob itself matches); and whether it is beyond this reading (a brace
    list past the bound): then every hidden entry counts."""
    if not glob:
        return None, (), False
    files: list[str] = []
    through: list[str] = []
    for one in expand_braces(glob):
        if one.count("{") != one.count("}"):
            continue  # ripgrep refuses the glob: nothing is read
        if "{" in one:
            return None, (), True
        segments = [part for part in one.strip("/").split("/") if part]
        if not segments:
            continue
        if len(segments) == 1:
            files.append(segments[0])
            continue
        # `**/` is any run of directories, none included: `*`, which also crosses `/`
        last = len(segments) - 1
        files.append("".join(
            "*" if part == "**" else part + ("/" if i < last else "")
            for i, part in enumerate(segments)
        ))  # fmt: skip
        through += [part for part in segments if part != "**"][: len(segments) - 1]
    return tuple(dict.fromkeys(files)), tuple(dict.fromkeys(through)), False


def _named(patterns: Sequence[str], name: str) -> bool:
    from fnmatch import fnmatchcase

    return any(fnmatchcase(name, p) for p in patterns)


class _Whitelisted(Exception):
    """A walk that skips hidden entries met an ignore file that whitelists one."""


class _Walk:
    """One recursive read: the places to look, the walk, and the strictest rule met per set."""

    __slots__ = ("best", "budget", "cwd", "fact", "follow", "glob", "hidden", "linked",
                 "needles", "only", "roots", "sets", "through", "volumes")  # fmt: skip

    def __init__(
        self,
        sets: list[_Set],
        fact: PathFact,
        volumes: Volumes | None,
        only: str | None,
        budget: list[int],
        hidden: bool,
        follow: bool,
    ) -> None:
        self.sets = sets
        self.fact = fact
        self.volumes = volumes
        self.only, self.through, everything = _grep_glob(only)
        self.budget = budget
        self.hidden = hidden or everything
        self.follow = follow  # a link beneath is followed to its target
        self.glob = bool(only) and not self.hidden  # hidden entries it names are read
        self.cwd = fact.boundary.rstrip("/") + "/" if fact.boundary else ""
        canonical = (fact.canonical or "").rstrip("/") or "/"
        self.roots = (canonical, (fact.path or "").rstrip("/") or canonical)
        self.best: dict[_Set, tuple[Rule, str, str | None]] = {}
        self.needles: tuple[str, ...] | None = None
        # The directories outside the root that links beneath it lead to, walked too (each
        # once: a link back to one walked already makes no loop).
        self.linked: set[str] = set()

    def reach(self) -> dict[_Set, tuple[Rule, str, str | None]]:
        canonical, lexical = self.roots
        anchors: dict[str, Rule] = {}
        anywhere: dict[_Set, Rule] = {}
        needles: list[str] | None = []
        for one in self.sets:
            for spelling in {canonical, lexical}:
                found, rule, pieces = starts(one.index, spelling)
                for anchor, anchored in found.items():
                    if spelling != canonical and anchor.startswith(spelling + "/"):
                        anchor = canonical + anchor[len(spelling) :]  # walk the real place
                    anchors.setdefault(anchor, anchored)
                if rule is not None:
                    anywhere.setdefault(one, rule)
                if pieces is None or needles is None:
                    needles = None
                else:
                    needles += pieces
        self.needles = tuple(dict.fromkeys(needles)) if needles is not None else None
        why = f"holds more than {CAP:,} entries"
        cut: tuple[Rule, str] | None = None
        for anchor in sorted(anchors, key=len):
            if self._hidden_below(anchor) or not os.path.lexists(anchor):
                continue
            if not self.run(anchor):
                cut = cut or (anchors[anchor], anchor)
            if self._denied():
                return self.best
        # Then the directory itself: for the rules that may match anywhere, and for a symlink
        # beneath it that leads to a file a rule covers (`src/link -> ~/.ssh/id_rsa`).
        whole = self.run(canonical)
        for one in self.sets:
            if one in self.best:
                continue
            if cut is not None and cut[0] in one.rules.rules:
                self.best[one] = (cut[0], cut[1], why)
            elif not whole and one in anywhere:
                self.best[one] = (anywhere[one], canonical, why)
        return self.best

    def _hidden_below(self, anchor: str) -> bool:
        """A place beneath the directory through a hidden name (`~/.ssh`), for a walk that
        skips hidden entries."""
        if self.hidden or self.glob:
            return False
        below = anchor[len(self.roots[0]) :]
        return "/." in below

    def _denied(self) -> bool:
        return any(found[0].action == "deny" for found in self.best.values())

    def run(self, root: str) -> bool:
        """Walk ``root``; ``False`` when the bound cut it short. A walk starts with no deny
        held (:meth:`reach` stops at the first), so it stops as soon as :meth:`_check` records
        one."""
        if not os.path.isdir(root):
            link = os.path.islink(root) and self.follow
            self._check(root, os.path.basename(root), self._resolved(root) if link else None,
                        self.needles)  # fmt: skip
            return True
        hidden = self.hidden
        follow = self.follow
        budget = self.budget
        # Entries whose path holds none of the needles cannot match (see _check): skipped here
        # without a call, unless a filter or a link's target must be looked at.
        filtering = self.needles if self.only is None else None
        check = self._check
        # Each place to walk, with whether a link led there (then a rule anchored anywhere may
        # match: no piece filters what is checked).
        places: list[tuple[str, bool]] = [(root, False)]
        while places:
            place, via_link = places.pop()
            listing = load_listing(place)
            if listing is None:
                continue  # unreadable: the command cannot read it either
            prefix = listing.prefix
            needles = None if via_link else filtering
            if not hidden and listing.ignores and whitelists(prefix, listing.ignores):
                raise _Whitelisted
            if self.glob:
                rows, text, dirs, links = self._view(listing.prefix, listing.view(True)[0])
            else:
                rows, text, dirs, links = listing.view(hidden)
            if needles is not None and budget[0] >= len(rows) and not (links and follow):
                # A whole directory at once: no path in it holds a needle, and no link in it
                # needs its target looked at; its subdirectories are walked as one by one.
                for needle in needles:
                    if needle in text:
                        break
                else:
                    budget[0] -= len(rows)
                    places += [(d, via_link) for d in dirs]
                    continue
            for name, is_dir, is_link in rows:
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
                path = prefix + name
                if is_dir:
                    places.append((path, via_link))
                    path += "/"
                if needles is not None and not (is_link and follow):
                    text = path.lower()
                    for needle in needles:
                        if needle in text:
                            break
                    else:
                        continue
                target = self._resolved(path) if is_link and follow else None
                if check(path, name, target, needles):
                    return True
                if is_link and follow:
                    if budget[0] <= 0:
                        return False  # the link's target used the budget up: cut short
                    # `grep -R x .` beside `keys -> ~/.ssh` reads ~/.ssh/id_rsa: a directory
                    # a link leads to outside the root is walked as well.
                    beyond = self._outside_directory(target)
                    if beyond is not None:
                        places.append((beyond, True))
        return True

    def _outside_directory(self, target: str | None) -> str | None:
        """``target``, where a link leads, when it is a directory outside the root not walked
        yet, else ``None``."""
        root = self.roots[0].rstrip("/") + "/"
        if target is None or target in self.linked or (target + "/").startswith(root):
            return None
        if not os.path.isdir(target):
            return None
        self.linked.add(target)
        self.budget[0] -= 1  # a directory to list: one more entry of the budget
        return target

    def _view(
        self, prefix: str, rows: list[tuple[str, bool, bool]]
    ) -> tuple[list[tuple[str, bool, bool]], str, list[str], bool]:
        """The rows ripgrep walks with the glob: the visible ones, and a hidden one the glob
        names (a file by its name or path, a directory by a segment, its name or path)."""
        through = self.through
        kept = [
            row
            for row in rows
            if row[0][:1] != "."
            or (
                (_named(through, row[0]) or self._reads(prefix + row[0], row[0]))
                if row[1]
                else self._reads(prefix + row[0], row[0])
            )
        ]
        return view_of(prefix, kept)

    def _reads(self, path: str, name: str) -> bool:
        """Whether the glob matches the entry at ``path``: a name pattern by its name, a path
        pattern by its path beneath the directory."""
        only = self.only
        if only is None:
            return True
        root = self.roots[0].rstrip("/") + "/"
        relative = path[len(root) :] if path.startswith(root) else name
        return any(_named((p,), relative if "/" in p else name) for p in only)

    def _resolved(self, link: str) -> str | None:
        """Where ``link`` leads, as the kernel resolves it; a long target costs the walk one
        entry for every 8 names in it (a chain of links thousands of names long is bounded by
        the walk's budget); ``None`` when it dangles or loops (nothing is read through it)."""
        try:
            text = os.readlink(link)
        except (OSError, ValueError):
            return None
        self.budget[0] -= text.count("/") // 8
        if self.budget[0] <= 0:
            return None
        return opened(link)

    def _check(
        self, path: str, name: str, target: str | None, needles: tuple[str, ...] | None
    ) -> bool:
        """Match one entry (``target``: where it leads, a link the walk follows; ``needles``:
        the pieces a path that may match holds, ``None``: any path may); ``True`` when that
        recorded a deny."""
        if self.only is not None and (path.endswith("/") or not self._reads(path, name)):
            return False  # the tool reads only files its filter names
        if needles is not None and target is None:
            # A matching path holds the pattern's longest literal piece (a link's target may
            # be anywhere: it is always matched).
            text = path.lower()
            for needle in needles:
                if needle in text:
                    break
            else:
                return False
        values = [path]
        canonical, lexical = self.roots
        if lexical != canonical and path.startswith(canonical + "/"):
            values.append(lexical + path[len(canonical) :])
        if self.cwd and path.startswith(self.cwd):
            values.append(path[len(self.cwd) :])
        if target is not None:
            values.append(target)
        denied = False
        for one in self.sets:
            rules = one.rules
            low = lowered(rules, values)
            for surface in one.surfaces:
                rule = rules.evaluate(surface, values)
                if low is not None:
                    rule = folded(rules, surface, values, low, rule, self.volumes)
                if rule.universal or rule.action == "allow":
                    continue
                if one.gate == "protected" and rule.origin != "protected":
                    continue
                best = self.best.get(one)
                if best is None or RANK[rule.action] > RANK[best[0].action]:
                    self.best[one] = (rule, path, None)
                    denied = denied or rule.action == "deny"
        return denied


def _result(
    gate: str, fact: PathFact, tool: str, rule: Rule, reached: str, why: str | None
) -> GateResult:
    from clearance.intent.sentinel import PROTECTED

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
