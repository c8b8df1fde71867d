"""The rule model: one ``Rule`` type, one pure evaluation, provenance as data.

Defaults, scopes, yolo rewrites and fail-closed clamps all produce rules in one ordered list; inside
a surface the **last** matching rule wins. :class:`RuleSet` indexes the list so that a lookup
costs about the same with 10 rules as with 10,000: patterns whose literal head holds a separator
(space, ``/``, ``:``, ``.``, ``@``, ``=``) are bucketed under that head, exact patterns under
their text, and only the rest (``*``, ``*.env``, ``gi*``) are scanned — newest first, stopping at
the first hit. Command rules of the bash surface (``rm [-r -f] *``, :mod:`command_rule`) are
filed by program and tried only for a command of that program whose words are given, and only
when one is newer than the best wildcard hit.
"""

from __future__ import annotations

from clearance.policy.rule_index import SurfaceIndex, command_hit, literal_head
from clearance.policy.rule_type import ACTIONS, RANK, Rule, most_restrictive
from clearance.policy.wildcard import is_command_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from clearance.policy.command_rule import CommandPattern

__all__ = ["ACTIONS", "RANK", "Rule", "RuleSet", "literal_head", "most_restrictive"]


_KNOWN = 4096  # answers remembered per rule set
_KNOWN_TEXT = 1024  # … for values of at most this many characters together (a few MB at most)


class RuleSet:
    """An ordered, indexed list of rules; immutable once built."""

    __slots__ = (
        "_cased", "_commands", "_expand", "_folded", "_heads", "_home", "_index", "_known",
        "_surfaces", "_universal", "cased", "cased_heads", "fold", "rules",
    )  # fmt: skip

    def __init__(
        self,
        rules: Sequence[Rule],
        *,
        expand: Sequence[str] = (),
        home: str = "",
        fold: bool = False,
    ) -> None:
        """``expand`` names surfaces whose patterns get ``~``/``$HOME`` expansion to ``home``;
        with ``fold`` every pattern is matched in lower case (values must be given lowered:
        :meth:`folded`)."""
        from clearance.policy.wildcard import expand_home

        self.rules: tuple[Rule, ...] = tuple(rules)
        self._index: dict[str, SurfaceIndex] = {}
        self._universal: list[tuple[int, Rule]] = []
        self._surfaces: frozenset[str] | None = None
        self._expand = tuple(expand)
        self._home = home
        self._folded: RuleSet | None = None
        self._cased: RuleSet | None = None
        self._heads: tuple[frozenset[str], tuple[str, ...]] | None = None
        # Answers of :meth:`evaluate` already given (it is pure, and the set immutable).
        self._known: dict[tuple[str, tuple[str, ...]], Rule] = {}
        self.fold = fold
        # Whether any pattern (as matched, home expanded) holds a letter that folds: without
        # one, a value already in lower case meets the same rules folded or not.
        self.cased = False
        heads: list[str] = []
        # Command rules of the bash surface (``rm [-r -f] *``), by program, newest first.
        self._commands: dict[str, list[tuple[int, Rule, CommandPattern]]] = {}
        for i, rule in enumerate(self.rules):
            if rule.surface == "*":
                self._universal.insert(0, (i, rule))
                continue
            pattern = rule.pattern
            if rule.surface == "bash" and is_command_pattern(pattern):
                self._command(i, rule)
                continue
            if home and rule.surface in expand:
                pattern = expand_home(pattern, home)
            if pattern != pattern.lower():
                self.cased = True
                heads.append(literal_head(pattern).lower())
                if fold:
                    pattern = pattern.lower()
            index = self._index.get(rule.surface)
            if index is None:
                index = self._index[rule.surface] = SurfaceIndex()
            index.add(i, rule, pattern)
        # The lower-case literal heads of the patterns with a letter that folds: a value in
        # lower case that starts with none of them meets no such pattern, folded or not.
        self.cased_heads = tuple(dict.fromkeys(heads))
        for index in self._index.values():
            index.seal()

    def folded(self, *, cased_only: bool = False) -> RuleSet:
        """The same rules matched without regard to case, as a volume that folds case (macOS
        by default, Windows) names files: evaluate it with values in lower case. Built on
        first use. With ``cased_only``, only the rules whose pattern holds a letter that folds
        (``~/.config/Code/*``): for values already in lower case the others say nothing new."""
        if cased_only:
            found = self._cased
            if found is None:
                from clearance.policy.wildcard import expand_home

                expand, home = self._expand, self._home
                keep = [
                    r for r in self.rules
                    if not r.universal
                    and (p := expand_home(r.pattern, home) if home and r.surface in expand
                         else r.pattern) != p.lower()
                ]  # fmt: skip
                found = self._cased = RuleSet(keep, expand=expand, home=home, fold=True)
            return found
        found = self._folded
        if found is None:
            found = self._folded = RuleSet(self.rules, expand=self._expand, home=self._home,
                                           fold=True)  # fmt: skip
        return found

    def as_matched(self, rule: Rule) -> str:
        """``rule``'s pattern as this set matches it (``~`` expanded on the surfaces that
        expand it; not folded)."""
        if self._home and rule.surface in self._expand:
            from clearance.policy.wildcard import expand_home

            return expand_home(rule.pattern, self._home)
        return rule.pattern

    def _command(self, index: int, rule: Rule) -> None:
        from clearance.policy.command_rule import CommandPattern, CommandPatternError

        try:
            compiled = CommandPattern(rule.pattern, rule.action)
        except CommandPatternError:
            return  # the configuration reported it, and put an ask in its place
        self._commands.setdefault(compiled.program, []).insert(0, (index, rule, compiled))
        if "bash" not in self._index:
            self._index["bash"] = SurfaceIndex()
            self._index["bash"].seal()

    def has_command_rules(self, program: str) -> bool:
        """Whether a command rule (``rm [-r -f] *``) is written for ``program``."""
        return program in self._commands

    def strict_heads(self) -> tuple[frozenset[str], tuple[str, ...]]:
        """The programs the bash rules that allow nothing are written for: the first words of
        their patterns (``rm`` of ``"rm [-r -f] *"`` and of ``"rm -rf /"``), and the literal
        starts of first words a wildcard ends (``mkfs`` of ``"mkfs*"``). A pattern that starts
        with a wildcard names no program. Built on first use."""
        found = self._heads
        if found is None:
            exact: set[str] = set()
            starts: set[str] = set()
            for rule in self.rules:
                if rule.surface != "bash" or rule.action == "allow":
                    continue
                head = literal_head(rule.pattern)
                word, space, _ = head.partition(" ")
                if space:
                    exact.add(word)
                elif word:
                    (exact if word == rule.pattern else starts).add(word)
            found = self._heads = (frozenset(exact), tuple(sorted(starts)))
        return found

    def surfaces(self) -> frozenset[str]:
        """The surfaces that have rules of their own (the universal rule aside)."""
        found = self._surfaces
        if found is None:
            found = self._surfaces = frozenset(self._index)
        return found

    def evaluate(
        self,
        surface: str,
        values: Sequence[str],
        argv: Sequence[str | None] | None = None,
        also: Sequence[Sequence[str | None]] = (),
    ) -> Rule:
        """The last rule on ``surface`` (or the universal one) matching any of ``values``;
        ``argv``, a bash command's words (``None`` for a computed one), also meets the command
        rules written for its program, and so does each of ``also``, the same command's words
        spelled otherwise.

        Pure: reads no file, clock, cwd or environment. With no rule at all the answer is a
        synthesized universal *ask* (least privilege). Answers without ``argv`` are remembered
        (a service or a batch meets the same paths again), at most :data:`_KNOWN` of them.
        """
        if argv is not None:  # a command's own words: seldom met twice, not kept
            return self._evaluate(surface, values, argv, also)
        key = (surface, tuple(values))
        known = self._known
        found = known.get(key)
        if found is None:
            found = self._evaluate(surface, key[1], None, ())  # without argv, `also` is unused
            if sum(map(len, key[1])) <= _KNOWN_TEXT:  # a long heredoc line is not kept
                if len(known) >= _KNOWN:
                    known.clear()
                known[key] = found
        return found

    def _evaluate(
        self,
        surface: str,
        values: Sequence[str],
        argv: Sequence[str | None] | None,
        also: Sequence[Sequence[str | None]],
    ) -> Rule:
        universal = self._universal
        floor, found = universal[0] if universal else (-1, None)
        index = self._index.get(surface)
        if index is not None:
            at, rule = index.best(values, floor)
            if argv and self._commands:
                first = argv[0]
                if first is not None:
                    name = first.rpartition("/")[2]
                    commands = self._commands.get(name)
                    for words in (argv, *also):
                        if commands is not None and commands[0][0] > at:
                            hit = command_hit(commands, name, words, at)
                            if hit is not None:
                                at, rule = hit
            if rule is not None:
                return rule
        if found is None:
            return Rule("*", "*", "ask", "default")
        return found

    def explicit(self, surface: str, values: Sequence[str]) -> Rule | None:
        """Like :meth:`evaluate`, but ``None`` when only the universal fallback would match."""
        rule = self.evaluate(surface, values)
        return None if rule.universal else rule

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self) -> Iterable[Rule]:
        return iter(self.rules)
