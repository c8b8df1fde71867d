"""One configuration document → a validated :class:`LayerConfig`.

Validation is strict where a mistake would silently change a decision (action words, surface
names, types) and every error names the file, line and column and what is allowed there.
"""

from __future__ import annotations

import os

from clearance._frozen import Frozen
from clearance.policy.checker import Checker, did_you_mean, type_name
from clearance.policy.errors import ConfigError
from clearance.policy.jsonc import JsoncError, parse
from clearance.policy.permission import (
    ACTIONS,
    EMPTY,
    HOST_SPELLINGS,
    PermissionMap,
    close_surface,
    parse_permission,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "FOREIGN_KNOBS",
    "SETTINGS",
    "LayerConfig",
    "SelfTest",
    "load_config_file",
    "parse_config",
]

_set = object.__setattr__

SETTINGS: dict[str, str] = {
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
FOREIGN_KNOBS = frozenset(
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
TOP_KEYS = ("$schema", "permission", "yolo", "yoloMode", "agents", "tests", *SETTINGS)


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


class LayerConfig(Frozen):
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


def _setting(ck: Checker, key: str, value: object) -> object:
    kind = SETTINGS[key]
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
        raise ck.fail(f'"{key}" must be a {kind}, not {type_name(value)}', (key,))
    return value


def _tests(ck: Checker, value: object) -> tuple[SelfTest, ...]:
    if not isinstance(value, list):
        raise ck.fail('"tests" must be an array of {"tool", "input", "expect"} objects', ("tests",))
    out = []
    allowed = ("tool", "input", "expect", "cwd", "agent", "name")
    for i, item in enumerate(value):
        path: tuple[object, ...] = ("tests", i)
        if not isinstance(item, dict):
            raise ck.fail(f"each test must be an object, not {type_name(item)}", path)
        for key in item:
            if key not in allowed:
                raise ck.fail(
                    f'unknown key "{key}" in a test; expected {", ".join(allowed)}'
                    + did_you_mean(key, allowed),
                    (*path, key),
                    key=True,
                )
        for key in ("tool", "expect"):
            if not isinstance(item.get(key), str):
                raise ck.fail(f'a test needs "{key}" as a string', path)
        tool = item["tool"]
        if tool.lower() not in HOST_SPELLINGS and not tool.startswith("mcp__"):
            close = close_surface(tool)
            if close:
                ck.warnings.append(
                    f'{ck.where((*path, "tool"))}: tool "{tool}" is no known tool; '
                    f'did you mean "{close}"?'
                )
        if item["expect"] not in ACTIONS:
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


def parse_config(text: str, file: str) -> LayerConfig:
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
    ck = Checker(doc, file)
    top = doc.value
    if not isinstance(top, dict):
        hint = (
            "; if this array holds the config, remove the [ ] around it"
            if isinstance(top, list)
            else ""
        )
        raise ck.fail(
            f"the configuration must be one JSON object, not {type_name(top)}; write it as "
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
                raise ck.fail(f'"{key}" must be true or false, not {type_name(value)}', (key,))
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
        elif key in SETTINGS:
            settings.append((key, _setting(ck, key, value)))
        elif key == "$schema":
            pass
        elif key in FOREIGN_KNOBS:
            warnings.append(f'{ck.where((key,), key=True)}: "{key}" is not used by clearance')
        else:
            raise ck.fail(
                f'unknown key "{key}"; expected one of {", ".join(TOP_KEYS)}'
                + did_you_mean(key, TOP_KEYS),
                (key,),
                key=True,
            )
    warnings.extend(ck.warnings)
    return LayerConfig(
        file, permission, tuple(agents), yolo, tests, tuple(settings), tuple(warnings),
        tuple(ck.rule_errors),
    )  # fmt: skip


def load_config_file(path: str, *, pinned: str | None = None) -> LayerConfig:
    """Read and validate ``path``. Raises :class:`ConfigError` (unreadable files included).
    With ``pinned`` (a SHA-256), the bytes read must hash to it: the content checked is the
    content parsed, whatever is written to the file in between."""
    import stat

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(
                "not a regular file (a directory, a FIFO or a device cannot be a config)",
                file=path,
            )
        if pinned is not None:
            from clearance.policy.trust import content_digest

            with open(path, "rb") as binary:
                raw = binary.read()
            if content_digest(raw) != pinned:
                raise ConfigError(
                    "the file changed after it was pinned (an agent may have written it): "
                    "review it, then restart `clearance serve` to load it as it is now",
                    file=path,
                )
            # As text mode reads it: UTF-8, universal newlines.
            text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        else:
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
