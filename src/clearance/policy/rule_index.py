"""How a :class:`~clearance.policy.rule.RuleSet` finds the rules a value may meet: the
patterns of one surface bucketed by their literal head and tail (:class:`SurfaceIndex`), and
the command rules of one program tried newest first (:func:`command_hit`)."""

from __future__ import annotations

from clearance.policy.wildcard import compile_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from clearance.policy.command_rule import CommandPattern
    from clearance.policy.rule_type import Rule
    from clearance.policy.wildcard import Wildcard

__all__ = ["SurfaceIndex", "command_hit", "literal_head"]


# Characters after which a literal prefix is cut into an index key.
_SEPARATORS = frozenset(" /:.@=")


def _longest_key(head: str) -> str | None:
    """The longest prefix of ``head`` that ends with a separator character, if any."""
    for i in range(len(head) - 1, 0, -1):
        if head[i] in _SEPARATORS:
            return head[: i + 1]
    return None


def _head(text: str) -> str:
    """``text`` up to and including its first separator character (``""`` without one)."""
    for i, ch in enumerate(text):  # (given at most as many characters as the longest key)
        if ch in _SEPARATORS:
            return text[: i + 1]
    return ""


def _suffix_key(tail: str) -> str | None:
    """The longest suffix of ``tail`` that starts with a separator character, if any."""
    for i in range(len(tail)):
        if tail[i] in _SEPARATORS:
            return tail[i:]
    return None


def _literal_tail(pattern: str) -> str:
    cut = max(pattern.rfind("*"), pattern.rfind("?"))
    return pattern[cut + 1 :]


def literal_head(pattern: str) -> str:
    """``pattern`` up to its first wildcard (``*`` or ``?``)."""
    cut = len(pattern)
    for ch in "*?":
        i = pattern.find(ch)
        if 0 <= i < cut:
            cut = i
    return pattern[:cut]


_Entry = tuple[int, "Rule", "Wildcard"]
# Up to this many keys, one str.startswith/endswith over all of them filters a value.
_FILTER_KEYS = 32
# Up to this many key lengths, a value tries each rather than only those under its head.
_FEW_LENGTHS = 6


class SurfaceIndex:
    """Rules of one surface, bucketed so a lookup touches few of them.

    A value can only match a pattern whose literal head it starts with; each pattern is filed
    under the longest separator-ended prefix of its head, and a value looks up each of its own
    separator-ended prefixes (no longer than the longest key). Exact patterns are looked up by
    the value itself (only the key lengths in use are tried). Patterns with no such prefix but a
    literal tail holding a separator
    (``*.env``) are filed the same way by suffix; the rest (``*``, ``gi*``) are scanned.

    Once every rule is added, :meth:`seal` keeps the keys as tuples when there are few of them:
    one ``startswith``/``endswith`` then tells that no key can apply to a value, so most
    values skip the per-length and per-character probing altogether. With more than a few key
    lengths (the built-in bash rules have 16), it also files them by the keys' heads (up to
    their first separator): a key is a prefix of a value only when both have the same head
    (the key holds no separator before its head's end, so neither does the value), so a value
    tries only the lengths of the keys under its own head (``git status`` those of ``git …``,
    ``rg -n x`` only 3), not every length in use.
    """

    __slots__ = (
        "buckets", "exact", "general", "heads", "key_lengths", "max_suffix", "prefix_keys",
        "suffix_keys", "suffixes",
    )  # fmt: skip

    def __init__(self) -> None:
        # Every list holds (index, rule, matcher), newest (highest index) first.
        self.buckets: dict[str, list[_Entry]] = {}
        self.exact: dict[str, list[_Entry]] = {}
        self.general: list[_Entry] = []
        self.suffixes: dict[str, list[_Entry]] = {}
        self.key_lengths: list[int] = []
        self.max_suffix = 0
        # The keys of `buckets` and `suffixes` (None: not sealed, or too many to test at once).
        self.prefix_keys: tuple[str, ...] | None = None
        self.suffix_keys: tuple[str, ...] | None = None
        # The lengths of the keys of `buckets`, ascending, by the keys' heads (None: not sealed).
        self.heads: dict[str, tuple[int, ...]] | None = None

    def add(self, index: int, rule: Rule, pattern: str) -> None:
        self.prefix_keys = self.suffix_keys = None
        self.heads = None
        entry = (index, rule, compile_pattern(pattern))
        head = literal_head(pattern)
        if head == pattern:
            self.exact.setdefault(pattern, []).insert(0, entry)
            return
        key = _longest_key(head)
        if key is None:
            suffix = _suffix_key(_literal_tail(pattern))
            if suffix is None:
                self.general.insert(0, entry)
            else:
                self.suffixes.setdefault(suffix, []).insert(0, entry)
                self.max_suffix = max(self.max_suffix, len(suffix))
            return
        self.buckets.setdefault(key, []).insert(0, entry)
        if len(key) not in self.key_lengths:
            self.key_lengths.append(len(key))
            self.key_lengths.sort()

    def seal(self) -> None:
        """Keep the keys for the one-call filters of :meth:`best` (when there are few)."""
        if len(self.buckets) <= _FILTER_KEYS:
            self.prefix_keys = tuple(self.buckets)
        if len(self.suffixes) <= _FILTER_KEYS:
            self.suffix_keys = tuple(self.suffixes)
        if len(self.key_lengths) <= _FEW_LENGTHS:
            return  # trying each length costs less than finding the value's head
        heads: dict[str, list[int]] = {}
        for key in self.buckets:
            heads.setdefault(_head(key), []).append(len(key))
        self.heads = {head: tuple(sorted(set(lengths))) for head, lengths in heads.items()}

    def best(self, values: Iterable[str], floor: int) -> tuple[int, Rule | None]:
        """The highest-index rule above ``floor`` that matches any of ``values``, with its
        index (``(floor, None)`` when none does)."""
        found: tuple[int, Rule | None] = (floor, None)
        exact = self.exact
        buckets = self.buckets
        suffixes = self.suffixes
        general = self.general
        prefix_keys = self.prefix_keys
        suffix_keys = self.suffix_keys
        heads = self.heads
        for value in values:
            hit = exact.get(value)
            if hit is not None:
                found = _newest(hit, value, found)
            if buckets:
                n = len(value)
                if prefix_keys is not None and not value.startswith(prefix_keys):
                    # No key is a prefix: only "git *" for the bare "git" can still apply.
                    if n + 1 in self.key_lengths:
                        hit = buckets.get(value + " ")
                        if hit is not None:
                            found = _newest(hit, value, found)
                elif heads is not None:
                    # Only the keys under the value's own head can be prefixes of it.
                    for length in heads.get(_head(value[: self.key_lengths[-1]]), ()):
                        if length > n:
                            break
                        if value[length - 1] in _SEPARATORS:
                            hit = buckets.get(value[:length])
                            if hit is not None:
                                found = _newest(hit, value, found)
                    if n + 1 in self.key_lengths:
                        hit = buckets.get(value + " ")  # "git *" matches bare "git"
                        if hit is not None:
                            found = _newest(hit, value, found)
                else:
                    # Keys end with a separator; try the value's prefixes of each key length.
                    for length in self.key_lengths:
                        if length > n:
                            if length == n + 1:
                                hit = buckets.get(value + " ")  # "git *" matches bare "git"
                                if hit is not None:
                                    found = _newest(hit, value, found)
                            break
                        if value[length - 1] in _SEPARATORS:
                            hit = buckets.get(value[:length])
                            if hit is not None:
                                found = _newest(hit, value, found)
            if suffixes and (suffix_keys is None or value.endswith(suffix_keys)):
                n = len(value)
                stop = max(-1, n - self.max_suffix - 1)
                for i in range(n - 1, stop, -1):
                    if value[i] in _SEPARATORS:
                        hit = suffixes.get(value[i:])
                        if hit is not None:
                            found = _newest(hit, value, found)
            if general and general[0][0] > found[0]:
                found = _newest(general, value, found)
        return found


def _newest(
    entries: list[_Entry], value: str, found: tuple[int, Rule | None]
) -> tuple[int, Rule | None]:
    """``found``, or the newest of ``entries`` above its index that matches ``value``."""
    floor = found[0]
    for index, rule, matcher in entries:
        if index <= floor:
            break
        if matcher.match(value):
            return index, rule
    return found


def command_hit(
    commands: list[tuple[int, Rule, CommandPattern]],
    name: str,
    argv: Sequence[str | None],
    floor: int,
) -> tuple[int, Rule] | None:
    """The newest command rule above ``floor`` that the command ``argv`` meets, with its index.
    The command is parsed only when a rule's subcommand words all occur among its words (``git
    status`` meets no ``git reset …`` rule, so it is never parsed for one)."""
    parsed = None
    present: frozenset[str | None] | None = None
    for index, rule, compiled in commands:
        if index <= floor:
            break
        words = compiled.words
        needs = compiled.needs
        if words or needs is not None:
            if present is None:
                present = frozenset(argv)
            if not present.issuperset(words) or (needs is not None and needs not in present):
                continue
        if parsed is None:
            from clearance.policy.program_grammar import parse_command
            from clearance.policy.programs import PROGRAMS

            parsed = parse_command(PROGRAMS.get(name), name, argv[1:])
        if compiled.match(parsed):
            return index, rule
    return None
