"""A scope's ``permission`` map: the rules one configuration writes, validated.

Surfaces and their host spellings (``Bash``, ``MultiEdit``), actions with an optional reason,
and bash command rules (``"rm [-r -f] *"``). A rule that does not read costs only itself: it
asks, its error is recorded, and the file's other rules stand (ADR 0002).
"""

from __future__ import annotations

from clearance._frozen import Frozen
from clearance.policy.checker import did_you_mean, type_name
from clearance.policy.errors import ConfigError
from clearance.policy.surface import DIRECTIONAL, FAMILIES, check_surface_key
from clearance.policy.wildcard import is_command_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.policy.checker import Checker

__all__ = [
    "ACTIONS",
    "EMPTY",
    "HOST_SPELLINGS",
    "KNOWN_SURFACES",
    "PermissionMap",
    "close_surface",
    "parse_permission",
]

_set = object.__setattr__

# (pattern, action, reason, source)
Entry = tuple[str, str, "str | None", str]
# (surface, replace_whole_surface, entries)
SurfaceEntries = tuple[str, bool, tuple[Entry, ...]]

ACTIONS = ("allow", "ask", "deny")
# Tool names as hosts spell them → the canonical surface (docs/architecture.md §3).
HOST_SPELLINGS = {
    "bash": "bash", "read": "read", "write": "write", "edit": "edit", "multiedit": "edit",
    "notebookedit": "edit", "grep": "grep", "glob": "find", "find": "find", "ls": "ls",
    "skill": "skill", "webfetch": "webfetch", "websearch": "websearch", "task": "task",
    "agent": "task", "mcp": "mcp",
}  # fmt: skip
# The surfaces clearance decides on by name; any other tool name is a surface of its own, so a
# name close to one of these is most likely a typo ("bahs").
KNOWN_SURFACES = (
    *sorted(set(HOST_SPELLINGS.values())),
    *FAMILIES,
    *DIRECTIONAL,
)


class PermissionMap(Frozen):
    """A scope's ``permission`` map, in file order. ``universal`` is the ``"*"`` fallback."""

    __slots__ = ("surfaces", "universal")
    universal: tuple[str, str | None, str] | None
    surfaces: tuple[SurfaceEntries, ...]

    def __init__(
        self,
        universal: tuple[str, str | None, str] | None,
        surfaces: tuple[SurfaceEntries, ...],
    ) -> None:
        _set(self, "universal", universal)
        _set(self, "surfaces", surfaces)


EMPTY = PermissionMap(None, ())


def close_surface(name: str) -> str | None:
    """A known surface ``name`` is probably a typo of, or ``None``."""
    from difflib import get_close_matches

    close = get_close_matches(name.lower(), [*KNOWN_SURFACES, *HOST_SPELLINGS], n=1, cutoff=0.75)
    if not close:
        return None
    return HOST_SPELLINGS.get(close[0], close[0])


def _action(
    ck: Checker, value: object, path: tuple[object, ...], what: str
) -> tuple[str, str | None]:
    if isinstance(value, str):
        if value not in ACTIONS:
            raise ck.fail(
                f'unknown action "{value}" for {what}; expected "allow", "ask" or "deny"'
                + did_you_mean(value, ACTIONS),
                path,
            )
        return value, None
    if isinstance(value, dict):
        for key in value:
            if key not in ("action", "reason"):
                raise ck.fail(
                    f'unknown key "{key}" in the rule for {what}; expected "action" and '
                    'optionally "reason", e.g. {"action": "deny", "reason": "use trash-cli"}',
                    (*path, key),
                    key=True,
                )
        if "action" not in value:
            raise ck.fail(
                f'the rule for {what} has no "action"; write e.g. '
                '{"action": "deny", "reason": "..."}',
                path,
            )
        action, _ = _action(ck, value["action"], (*path, "action"), what)
        reason = value.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise ck.fail(
                f'"reason" for {what} must be a string, not {type_name(reason)}',
                (*path, "reason"),
            )
        return action, reason
    raise ck.fail(
        f'the rule for {what} must be "allow", "ask", "deny" or '
        f'{{"action": ..., "reason": ...}}, not {type_name(value)}',
        path,
    )


def _command_rule(ck: Checker, pattern: str, action: str, path: tuple[object, ...]) -> str | None:
    """``None`` when the command rule ``pattern`` reads; else its error is recorded and the
    pattern that stands in for it is returned (``"PROGRAM *"``, or ``""`` for none)."""
    from clearance.policy.command_rule import CommandPattern, CommandPatternError

    try:
        CommandPattern(pattern, action)
    except CommandPatternError as exc:
        ck.rule_errors.append(
            ck.fail(f'bash command rule "{pattern}": {exc.message}', path, key=True)
        )
        return f"{exc.program} *" if exc.program else ""
    return None


def parse_permission(ck: Checker, value: object, path: tuple[object, ...]) -> PermissionMap:
    """Validate a ``permission`` object at ``path`` of the checker's document."""
    if not isinstance(value, dict):
        raise ck.fail(
            f'"permission" must be an object mapping surfaces to rules, not {type_name(value)}',
            path,
        )
    universal = None
    surfaces: list[SurfaceEntries] = []
    for surface, rules in value.items():
        spath = (*path, surface)
        if surface == "*":
            try:
                action, reason = _action(ck, rules, spath, 'the universal "*"')
            except ConfigError as exc:  # rule-local: this rule asks, the others stand
                ck.rule_errors.append(exc)
                action, reason = "ask", None
            universal = (action, reason, ck.where(spath))
            continue
        problem = check_surface_key(surface)
        if problem:
            raise ck.fail(problem, spath, key=True)
        canonical = HOST_SPELLINGS.get(surface.lower())
        if canonical is None and surface not in KNOWN_SURFACES:
            close = close_surface(surface)
            if close:
                ck.warnings.append(
                    f'{ck.where(spath, key=True)}: surface "{surface}" is no known tool, so it '
                    f'only matches a tool of that name; did you mean "{close}"?'
                )
        if canonical is not None and canonical != surface:
            ck.warnings.append(
                f'{ck.where(spath, key=True)}: surface "{surface}" is a host\'s spelling; '
                f'clearance decides this tool on "{canonical}" (shell commands, paths and '
                f'patterns only there), so write "{canonical}"'
            )
        if isinstance(rules, str) or (isinstance(rules, dict) and "action" in rules):
            try:
                action, reason = _action(ck, rules, spath, f'"{surface}"')
            except ConfigError as exc:  # rule-local: this surface asks, the others stand
                ck.rule_errors.append(exc)
                action, reason = "ask", None
            surfaces.append((surface, True, (("*", action, reason, ck.where(spath)),)))
            continue
        if not isinstance(rules, dict):
            raise ck.fail(
                f'"{surface}" must be an action ("allow", "ask", "deny") or an object mapping '
                f"patterns to actions, not {type_name(rules)}",
                spath,
            )
        entries: list[Entry] = []
        for pattern, rule in rules.items():
            ppath = (*spath, pattern)
            if pattern == "":
                ck.rule_errors.append(
                    ck.fail(
                        f'an empty pattern in "{surface}"; use "*" to match everything',
                        ppath,
                        key=True,
                    )
                )
                continue
            try:
                action, reason = _action(ck, rule, ppath, f'{surface} "{pattern}"')
            except ConfigError as exc:  # rule-local: this rule asks, the file's others stand
                ck.rule_errors.append(exc)
                action, reason = "ask", None
            if surface == "bash" and is_command_pattern(pattern):
                broken = _command_rule(ck, pattern, action, ppath)
                if broken is not None:  # rule-local: the program it names asks instead
                    if broken:
                        entries.append((broken, "ask", None, ck.where(ppath, key=True)))
                    continue
            entries.append((pattern, action, reason, ck.where(ppath, key=True)))
        surfaces.append((surface, False, tuple(entries)))
    return PermissionMap(universal, tuple(surfaces))
