"""Command rules met by a unit's operands spelled as the paths they reach (docs/configuration.md,
"Command rules", "Links"; ADR 0023): the absolute, normal path a word names, through the links
the agent could have planted before the line or the line itself makes, and ``~`` for the home
directory. Through a link the more restrictive answer stands; a plain respelling is one more
spelling of the unit."""

from __future__ import annotations

from clearance.decide.decision import GateResult
from clearance.decide.gates._message import gate_message
from clearance.intent.glob import GLOB_CHARS
from clearance.intent.path import normal_path, through_plantable_links, typed_path
from clearance.policy.rule import RANK

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from clearance.intent.path import PathFact
    from clearance.intent.shell import Unit
    from clearance.policy.rule import RuleSet

__all__ = ["through_links"]


# Programs that act on a link named last in an operand, not on what it points to: `rm -rf
# /tmp/l` removes the link. Every other program is taken to follow it (a tightening only).
_ON_THE_LINK = frozenset({"rm", "unlink", "rmdir", "mv", "ln"})


def through_links(
    rules: RuleSet,
    decided: list[tuple[Unit, GateResult]],
    facts: list[PathFact],
    results: list[GateResult],
    home: str,
    cwd: str,
) -> None:
    """A command rule meets a unit with its operands spelled as the absolute, normal paths they
    name (``cd / && rm -r usr``, ``rm -r /tmp/../etc``), through the links on them that the
    agent could have planted before the line, and through the names earlier statements of the
    line make (``ln -s / m; rm -rf m/etc``), as well as typed: ``rm -rf /tmp/l/etc`` with
    ``/tmp/l -> /`` meets the rules for ``rm -rf /etc``. An operand that is the home directory
    (``/home/u``, ``$HOME``, a link to it followed) is spelled ``~`` too, so ``rm [-r] ~`` meets
    it. The more restrictive answer stands; a path with no link on it costs a comparison or
    two."""
    home = normal_path(home) if home[:1] == "/" else ""
    if not any(
        result.action != "deny" and rules.has_command_rules(unit.canonical.partition(" ")[0])
        for unit, result in decided
    ) and all(
        fact.canonical == fact.path != home and typed_path(fact.raw, fact.path) == fact.path
        for fact in facts
        if fact.path is not None and fact.canonical is not None
    ):
        return  # no link, no home and no name the line made; no command rule to meet plainly
    by_raw: dict[str, list[PathFact]] = {}
    by_path: dict[str, list[PathFact]] = {}
    for fact in facts:
        path = fact.path
        if path is None or fact.canonical is None:
            continue
        raw = fact.raw
        # A word typed as the normal absolute path it names, with no link on it, is met as
        # typed already; every other one (`usr` in `/`, `/tmp/../etc`, `/u?r`) is spelled too.
        if raw != path or fact.canonical != path or path == home:
            by_raw.setdefault(raw, []).append(fact)
            by_path.setdefault(path, []).append(fact)
    if not by_raw:
        return
    # The working directory the host gave, and where its links lead: a link on the way to it
    # is the session's place, not a word's (`rm -rf node_modules` in a project behind a link).
    # Resolved at the first link met: most lines meet none.
    where: list[tuple[str, str] | None] = []
    # The facts are met by the unit's own words, not by the unit they were found in: a path
    # two units share is one fact (`ls /tmp/l/; rm -rf /tmp/l/`), and a wrapped command's or a
    # brace expansion's words are the enclosing unit's.
    for unit, result in decided:
        argv = unit.argv
        if result.action == "deny" or not argv or argv[0] is None:
            continue
        name = unit.canonical.partition(" ")[0]
        # A plain respelling only speaks to command rules: the wildcards met the unit's absolute
        # spelling already (intent/shell/spelling.py).
        commands = rules.has_command_rules(name)
        if None in argv and home and _names_home(unit.text, by_path.get(home, ())):
            # `rm -fr ~`, `sudo rm -r "$HOME"`: the computed words, one of which is the home.
            homed = ["~" if w is None else w for w in argv[1:]]
            result = _meet(rules, unit, result, name, homed, results, plain=True)
        at = 0
        while at < len(argv) - 1 and result.action != "deny":
            at += 1
            word = argv[at]
            if word is None:
                continue
            value = word
            if value not in by_raw and "=" in value:
                value = value.partition("=")[2]  # an option's glued value: `of=/tmp/l/x`
            climbs = ".." in value.split("/")
            found = by_raw.get(value, [])
            if value[:1] == "/" and not climbs:
                found = found + by_path.get(normal_path(value), [])
            glob = not climbs and not GLOB_CHARS.isdisjoint(value)
            matches: list[str] = []  # a glob's, met at once as bash passes them
            linked = False
            for fact in found:
                if (
                    not commands
                    and fact.canonical == fact.path != home
                    and typed_path(value, fact.path or "") == fact.path
                ):
                    continue  # no link on its way and no command rule to meet
                if not where and fact.canonical != fact.path:
                    where.append(
                        (cwd, through_plantable_links(cwd, follow_last=True))
                        if cwd[:1] == "/"
                        else None
                    )
                spelled, plain = _spelled(
                    fact, value, name, climbs, home, where[0] if where else None
                )
                if glob:
                    matches.append(spelled or fact.path or "")
                    linked = linked or not plain
                elif spelled and spelled != value:
                    words = list(argv[1:])
                    words[at - 1] = word[: len(word) - len(value)] + spelled
                    result = _meet(rules, unit, result, name, words, results, plain)
                    if result.action == "deny":
                        break
            if matches:
                words = [*argv[1:at], *matches, *argv[at + 1 :]]
                result = _meet(rules, unit, result, name, words, results, not linked)


def _spelled(
    fact: PathFact,
    value: str,
    name: str,
    climbs: bool,
    home: str,
    where: tuple[str, str] | None,
) -> tuple[str, bool]:
    """The path the operand ``value`` of the program ``name`` reaches, where ``fact`` says it
    leads: through the links the agent could have planted, ``~`` for the home directory; ``""``
    where it stays the name typed (the link itself, for ``rm``). And whether that is only the
    word spelled otherwise, no link on its way (``/proj/build`` for ``build``, a glob's match)
    but those to the working directory ``where`` (as given, and resolved)."""
    path = fact.path or ""
    plain = fact.canonical == path
    if climbs:
        spelled = fact.canonical or ""  # the kernel climbs from where the link led
    else:
        follow = name not in _ON_THE_LINK or value[-1:] == "/" or value.endswith("/.")
        if fact.canonical == path:
            # No link on disk: the word's absolute spelling, a glob's match, or where a name
            # the line made leads.
            last = path.rpartition("/")[2]
            if (
                not follow
                and typed_path(value, path) != path
                and GLOB_CHARS.isdisjoint(value)
                and last != value.rpartition("/")[2]
            ):
                return "", False  # `ln -s /etc m; rm -rf m`: the name made last is the link
            # Where a name the line made leads is a link's reach.
            plain = typed_path(value, path) == path or not GLOB_CHARS.isdisjoint(value)
            spelled = path
        else:
            spelled = through_plantable_links(path, follow_last=follow)
            if where is not None and value[:1] not in ("/", "~", "$"):
                tail = normal_path("/" + value)
                plain = path == where[0] + tail and spelled == where[1].rstrip("/") + tail
    return ("~" if spelled == home else spelled), plain


def _meet(
    rules: RuleSet,
    unit: Unit,
    result: GateResult,
    name: str,
    words: Sequence[str | None],
    results: list[GateResult],
    plain: bool = False,
) -> GateResult:
    """The rules met by ``unit`` read as ``name`` with ``words``: a more restrictive answer
    than ``result`` is added to ``results`` and returned, else ``result``. Through a link the
    more restrictive answer stands; a ``plain`` respelling (no link on the way) is one more
    spelling of the unit, the last rule met by any spelling deciding, so that a rule written
    for the word as typed (`"rm [-r -f] node_modules": "allow"`) still speaks."""
    text = " ".join((name, *(word for word in words if word is not None)))
    if plain:
        values = (unit.text, *unit.spellings, unit.canonical, text)
        rule = rules.evaluate("bash", values, unit.argv, ((name, *words),))
    else:
        rule = rules.evaluate("bash", (text,), (name, *words))
    if rule == result.rule or RANK[rule.action] <= RANK[result.action]:
        # The unit's own rule was weighed already (a transparent wrapper's exemption).
        return result
    how = "as" if plain else "through a link:"
    what = f'bash command "{unit.text}" ({how} "{text}")'
    found = GateResult("bash", "bash", text, rule.action, rule,
                       gate_message(rule.action, what, rule), None, unit.text,
                       (text,))  # fmt: skip
    results.append(found)
    return found


def _names_home(text: str, facts: Iterable[PathFact]) -> bool:
    """Whether the unit ``text`` (or a wrapper's unit around it) has the home directory among
    its paths as a word the shell expands (``~``, ``$HOME``)."""
    return any(fact.raw[:1] in ("~", "$") and text in fact.source for fact in facts)
