"""One configuration document → a validated :class:`ScopeConfig`.

Validation is strict where a mistake would silently change a decision (action words, surface
names, types) and every error names the file, line and column and what is allowed there.
"""

from __future__ import annotations

import os

from clearance._frozen import Frozen
from clearance.policy.errors import ConfigError
from clearance.policy.jsonc import Document, JsoncError, parse
from clearance.policy.surface import DIRECTIONAL, FAMILIES, check_surface_key
from clearance.policy.wildcard import is_command_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "KNOWN_SURFACES",
    "PermissionMap",
    "ScopeConfig",
    "SelfTest",
    "load_config_file",
    "parse_config",
    "parse_permission",
]

_set = object.__setattr__

# (pattern, action, reason, source)
Entry = tuple[str, str, "str | None", str]
# (surface, replace_whole_surface, entries)
SurfaceEntries = tuple[str, bool, tuple[Entry, ...]]

_ACTIONS = ("allow", "ask", "deny")
# Tool names as hosts spell them → the canonical surface (DESIGN §2).
_HOST_SPELLINGS = {
    "bash": "bash", "read": "read", "write": "write", "edit": "edit", "multiedit": "edit",
    "notebookedit": "edit", "grep": "grep", "glob": "find", "find": "find", "ls": "ls",
    "skill": "skill", "webfetch": "webfetch", "websearch": "websearch", "task": "task",
    "agent": "task", "mcp": "mcp",
}  # fmt: skip
# The surfaces clearance decides on by name; any other tool name is a surface of its own, so a
# name close to one of these is most likely a typo ("bahs").
KNOWN_SURFACES = (
    *sorted(set(_HOST_SPELLINGS.values())),
    *FAMILIES,
    *DIRECTIONAL,
)
_SETTINGS: dict[str, str] = {
    "authorizerChain": "list of strings",
    "notify": "object",
    "hosts": "object",
    "doublePressToConfirm": "boolean",
    "forwardingTimeoutMs": "positive integer",
    "forwarding": "forwarding",
    "reviewLog": "boolean",
    "reviewLogFieldMaxWidth": "positive integer",
    "promptFieldMaxWidth": "positive integer",
    "dangerouslyUnprotectPaths": "list of strings",
}
# Knobs of pi-permission-system configs: accepted so those configs load, but not used.
_FOREIGN_KNOBS = frozenset(
    {
        "debugLog",
        "permissionReviewLog",
        "promptNotifications",
        "permissionDialogKeys",
        "promptMaxRows",
        "toolInputPreviewMaxLength",
        "toolTextSummaryMaxLength",
        "piInfrastructureReadPaths",
        "shellTools",
    }
)
_TOP_KEYS = ("$schema", "permission", "yolo", "yoloMode", "agents", "tests", *_SETTINGS)


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


class SelfTest(Frozen):
    """A policy self-test: this call must be decided ``expect``."""

    __slots__ = ("agent", "cwd", "expect", "input", "name", "source", "tool")
    tool: str
    input: Any
    expect: str
    cwd: str | None
    agent: str | None
    name: str | None
    source: str

    def __init__(
        self,
        tool: str,
        input: Any,
        expect: str,
        cwd: str | None,
        agent: str | None,
        name: str | None,
        source: str,
    ) -> None:
        for key, value in (
            ("tool", tool),
            ("input", input),
            ("expect", expect),
            ("cwd", cwd),
            ("agent", agent),
            ("name", name),
            ("source", source),
        ):
            _set(self, key, value)


class ScopeConfig(Frozen):
    """Everything one configuration file says."""

    __slots__ = (
        "agents", "errors", "file", "permission", "settings", "tests", "warnings", "yolo",
    )  # fmt: skip
    file: str
    permission: PermissionMap
    agents: tuple[tuple[str, PermissionMap], ...]
    yolo: bool | None
    tests: tuple[SelfTest, ...]
    settings: tuple[tuple[str, Any], ...]
    warnings: tuple[str, ...]
    errors: tuple[ConfigError, ...]  # rule-local: each cost only its own rule

    def __init__(
        self,
        file: str,
        permission: PermissionMap,
        agents: tuple[tuple[str, PermissionMap], ...] = (),
        yolo: bool | None = None,
        tests: tuple[SelfTest, ...] = (),
        settings: tuple[tuple[str, Any], ...] = (),
        warnings: tuple[str, ...] = (),
        errors: tuple[ConfigError, ...] = (),
    ) -> None:
        _set(self, "file", file)
        _set(self, "permission", permission)
        _set(self, "agents", agents)
        _set(self, "yolo", yolo)
        _set(self, "tests", tests)
        _set(self, "settings", settings)
        _set(self, "warnings", warnings)
        _set(self, "errors", errors)


class _Checker:
    """Raises errors that point into one document, and collects its warnings."""

    __slots__ = ("doc", "file", "rule_errors", "warnings")

    def __init__(self, doc: Document, file: str) -> None:
        self.doc = doc
        self.file = file
        self.warnings: list[str] = []
        # Errors that cost only their own rule (which becomes ask): the file still loads.
        self.rule_errors: list[ConfigError] = []

    def where(self, path: tuple[object, ...], *, key: bool = False) -> str:
        from clearance.policy.errors import position_of

        line, column, _ = position_of(self.doc.source, self.doc.offset(path, key=key))
        return f"{self.file}:{line}:{column}"

    def fail(self, message: str, path: tuple[object, ...], *, key: bool = False) -> ConfigError:
        return ConfigError.at(
            message, file=self.file, source=self.doc.source, offset=self.doc.offset(path, key=key)
        )


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str:
    from difflib import get_close_matches

    close = get_close_matches(word, list(choices), n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""


def _close_surface(name: str) -> str | None:
    """A known surface ``name`` is probably a typo of, or ``None``."""
    from difflib import get_close_matches

    close = get_close_matches(name.lower(), [*KNOWN_SURFACES, *_HOST_SPELLINGS], n=1, cutoff=0.75)
    if not close:
        return None
    return _HOST_SPELLINGS.get(close[0], close[0])


def _action(
    ck: _Checker, value: object, path: tuple[object, ...], what: str
) -> tuple[str, str | None]:
    if isinstance(value, str):
        if value not in _ACTIONS:
            raise ck.fail(
                f'unknown action "{value}" for {what}; expected "allow", "ask" or "deny"'
                + _did_you_mean(value, _ACTIONS),
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
                f'"reason" for {what} must be a string, not {_type_name(reason)}',
                (*path, "reason"),
            )
        return action, reason
    raise ck.fail(
        f'the rule for {what} must be "allow", "ask", "deny" or '
        f'{{"action": ..., "reason": ...}}, not {_type_name(value)}',
        path,
    )


def _command_rule(ck: _Checker, pattern: str, action: str, path: tuple[object, ...]) -> str | None:
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


def parse_permission(ck: _Checker, value: object, path: tuple[object, ...]) -> PermissionMap:
    """Validate a ``permission`` object at ``path`` of the checker's document."""
    if not isinstance(value, dict):
        raise ck.fail(
            f'"permission" must be an object mapping surfaces to rules, not {_type_name(value)}',
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
        canonical = _HOST_SPELLINGS.get(surface.lower())
        if canonical is None and surface not in KNOWN_SURFACES:
            close = _close_surface(surface)
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
                f"patterns to actions, not {_type_name(rules)}",
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


def _setting(ck: _Checker, key: str, value: object) -> object:
    kind = _SETTINGS[key]
    if kind == "forwarding":  # forwarding.broker: asks through Redis (policy/broker.py)
        from clearance.policy.broker import BrokerSettingError, parse_forwarding

        try:
            return parse_forwarding(value)
        except BrokerSettingError as exc:
            raise ck.fail(str(exc), (key, *exc.path)) from None
    ok = {
        "boolean": isinstance(value, bool),
        "object": isinstance(value, dict),
        "positive integer": isinstance(value, int) and not isinstance(value, bool) and value > 0,
        "list of strings": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }[kind]
    if not ok:
        raise ck.fail(f'"{key}" must be a {kind}, not {_type_name(value)}', (key,))
    return value


def _tests(ck: _Checker, value: object) -> tuple[SelfTest, ...]:
    if not isinstance(value, list):
        raise ck.fail('"tests" must be an array of {"tool", "input", "expect"} objects', ("tests",))
    out = []
    allowed = ("tool", "input", "expect", "cwd", "agent", "name")
    for i, item in enumerate(value):
        path: tuple[object, ...] = ("tests", i)
        if not isinstance(item, dict):
            raise ck.fail(f"each test must be an object, not {_type_name(item)}", path)
        for key in item:
            if key not in allowed:
                raise ck.fail(
                    f'unknown key "{key}" in a test; expected {", ".join(allowed)}'
                    + _did_you_mean(key, allowed),
                    (*path, key),
                    key=True,
                )
        for key in ("tool", "expect"):
            if not isinstance(item.get(key), str):
                raise ck.fail(f'a test needs "{key}" as a string', path)
        tool = item["tool"]
        if tool.lower() not in _HOST_SPELLINGS and not tool.startswith("mcp__"):
            close = _close_surface(tool)
            if close:
                ck.warnings.append(
                    f'{ck.where((*path, "tool"))}: tool "{tool}" is no known tool; '
                    f'did you mean "{close}"?'
                )
        if item["expect"] not in _ACTIONS:
            raise ck.fail(
                f'"expect" must be "allow", "ask" or "deny", not "{item["expect"]}"',
                (*path, "expect"),
            )
        for key in ("cwd", "agent", "name"):
            if key in item and not isinstance(item[key], str):
                raise ck.fail(f'"{key}" in a test must be a string', (*path, key))
        out.append(
            SelfTest(
                item["tool"],
                item.get("input", ""),
                item["expect"],
                item.get("cwd"),
                item.get("agent"),
                item.get("name"),
                ck.where(path),
            )
        )
    return tuple(out)


def parse_config(text: str, file: str) -> ScopeConfig:
    """Validate one configuration document. Raises :class:`ConfigError`."""
    try:
        doc = parse(text)
    except JsoncError as exc:
        message = exc.message
        if "after the end" in message:
            message += (
                "; a config is one object: merge what follows into the first { … }, e.g. "
                '{"permission": {…}, "tests": […]}'
            )
        raise ConfigError.at(message, file=file, source=text, offset=exc.offset) from None
    ck = _Checker(doc, file)
    top = doc.value
    if not isinstance(top, dict):
        hint = (
            "; if this array holds the config, remove the [ ] around it"
            if isinstance(top, list)
            else ""
        )
        raise ck.fail(
            f"the configuration must be one JSON object, not {_type_name(top)}; write it as "
            f'{{"permission": {{…}}}}{hint}',
            (),
        )
    warnings: list[str] = []
    permission = EMPTY
    agents: list[tuple[str, PermissionMap]] = []
    yolo = None
    tests: tuple[SelfTest, ...] = ()
    settings: list[tuple[str, Any]] = []
    for key, value in top.items():
        if key == "permission":
            permission = parse_permission(ck, value, ("permission",))
        elif key in ("yolo", "yoloMode"):
            if not isinstance(value, bool):
                raise ck.fail(f'"{key}" must be true or false, not {_type_name(value)}', (key,))
            yolo = value
        elif key == "agents":
            if not isinstance(value, dict):
                raise ck.fail('"agents" must map agent names to {"permission": {...}}', ("agents",))
            for name, body in value.items():
                apath = ("agents", name)
                if not isinstance(body, dict):
                    raise ck.fail(f'agent "{name}" must be an object {{"permission": ...}}', apath)
                for akey in body:
                    if akey != "permission":
                        raise ck.fail(
                            f'unknown key "{akey}" for agent "{name}"; expected "permission"',
                            (*apath, akey),
                            key=True,
                        )
                agents.append(
                    (name, parse_permission(ck, body.get("permission", {}), (*apath, "permission")))
                )
        elif key == "tests":
            tests = _tests(ck, value)
        elif key in _SETTINGS:
            settings.append((key, _setting(ck, key, value)))
        elif key == "$schema":
            pass
        elif key in _FOREIGN_KNOBS:
            warnings.append(f'{ck.where((key,), key=True)}: "{key}" is not used by clearance')
        else:
            raise ck.fail(
                f'unknown key "{key}"; expected one of {", ".join(_TOP_KEYS)}'
                + _did_you_mean(key, _TOP_KEYS),
                (key,),
                key=True,
            )
    warnings.extend(ck.warnings)
    return ScopeConfig(
        file, permission, tuple(agents), yolo, tests, tuple(settings), tuple(warnings),
        tuple(ck.rule_errors),
    )  # fmt: skip


def load_config_file(path: str) -> ScopeConfig:
    """Read and validate ``path``. Raises :class:`ConfigError` (unreadable files included)."""
    import stat

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(
                "not a regular file (a directory, a FIFO or a device cannot be a config)",
                file=path,
            )
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        why = "a symlink to nothing" if os.path.islink(path) else "the file is missing"
        raise ConfigError(f"cannot read the file: {why}", file=path) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", file=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror}", file=path) from None
    return parse_config(text, path)
