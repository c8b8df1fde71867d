"""Where the read rules that allow nothing could match beneath a directory, for the beneath gate
(:mod:`clearance.decide.gates.beneath`): the rules of one set arranged by the literal head
before their first wildcard, relative ones apart, each with its longest literal piece; built
once per rule set."""

from __future__ import annotations

from bisect import bisect_left

from clearance.policy.rule import literal_head

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.policy.rule import Rule, RuleSet

__all__ = ["Index", "index_of", "starts"]

_Candidate = tuple["Rule", str]  # a rule that allows nothing, and its pattern as matched
_Entry = tuple["Rule", str, str]  # … and the pattern's longest literal piece, in lower case


class Index:
    """The read rules of one set that allow nothing, arranged to find quickly which could
    match beneath a directory: relative patterns may match anywhere; absolute ones by the
    literal head before their first wildcard. Each with its longest literal piece."""

    __slots__ = ("any", "by_head", "cased", "head_lengths", "heads", "relative",
                 "relative_pieces")  # fmt: skip

    def __init__(self, candidates: list[_Candidate]) -> None:
        self.any = bool(candidates)
        self.relative: list[_Entry] = []
        self.by_head: dict[str, list[_Entry]] = {}
        self.cased: list[_Entry] = []  # patterns with a capital, in lower case
        for rule, pattern in candidates:
            entry = (rule, pattern, _piece(pattern))
            if pattern[:1] != "/":
                self.relative.append(entry)
                continue
            self.by_head.setdefault(literal_head(pattern), []).append(entry)
            if pattern != pattern.lower():
                self.cased.append((rule, pattern.lower(), entry[2]))
        self.heads = sorted(self.by_head)
        self.head_lengths = sorted({len(head) for head in self.by_head})
        pieces = [entry[2] for entry in self.relative]
        self.relative_pieces: list[str] | None = None if "" in pieces else pieces


_INDEXES: dict[tuple[int, tuple[str, ...]], tuple[RuleSet, Index]] = {}


def index_of(rules: RuleSet, surfaces: tuple[str, ...]) -> Index:
    """The :class:`Index` of ``rules`` on ``surfaces``, built once per rule set."""
    key = (id(rules), surfaces)
    hit = _INDEXES.get(key)
    if hit is not None and hit[0] is rules:
        return hit[1]
    candidates = [
        (rule, rules.as_matched(rule))
        for rule in rules.rules
        if rule.surface in surfaces and rule.action != "allow"
    ]
    index = Index(candidates)
    if len(_INDEXES) >= 16:
        _INDEXES.clear()
    _INDEXES[key] = (rules, index)  # the set is held, so its id is not reused meanwhile
    return index


def _piece(pattern: str) -> str:
    """The longest literal piece of ``pattern``, in lower case: a value it matches holds it."""
    return max(pattern.replace("?", "*").split("*"), key=len).lower()


def starts(index: Index, directory: str) -> tuple[dict[str, Rule], Rule | None, list[str] | None]:
    """Where ``index``'s rules could match beneath ``directory``: the places their literal heads
    name beneath it (each with a rule), a rule that may match anywhere beneath it (or
    ``None``), and the literal pieces a matching path holds (``None``: any path may match)."""
    prefix = directory if directory.endswith("/") else directory + "/"
    anchors: dict[str, Rule] = {}
    anywhere: Rule | None = index.relative[0][0] if index.relative else None
    pieces = None if index.relative_pieces is None else list(index.relative_pieces)
    relevant: list[_Entry] = []
    by_head = index.by_head
    for length in index.head_lengths:  # heads that are a prefix of the directory's
        if length > len(prefix):
            break
        found = by_head.get(prefix[:length])
        if found is not None:
            for entry in found:
                if len(entry[1]) > length:  # a wildcard follows the head
                    relevant.append(entry)
                    anywhere = anywhere or entry[0]
    heads = index.heads
    at = bisect_left(heads, prefix)
    while at < len(heads) and heads[at].startswith(prefix):
        head = heads[at]
        at += 1
        for entry in by_head[head]:
            relevant.append(entry)
            rule, pattern = entry[0], entry[1]
            if head == pattern:
                anchors.setdefault(pattern, rule)  # one path beneath the directory, exactly
                continue
            anchor = head[: head.rfind("/")]
            if len(anchor) > len(prefix) - 1:
                anchors.setdefault(anchor, rule)
            elif anywhere is None:
                anywhere = rule
    if index.cased and anywhere is None:
        low = prefix.lower()
        for entry in index.cased:
            head = literal_head(entry[1])
            if head.startswith(low) or low.startswith(head):
                anywhere = entry[0]  # a folding volume: the spelling's own case is unknown
                relevant.append(entry)
                break
    if pieces is not None:
        for entry in relevant:
            if not entry[2]:
                return anchors, anywhere, None
            pieces.append(entry[2])
    return anchors, anywhere, pieces
