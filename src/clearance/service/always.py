""" "Always": write an allow rule into a configuration file the human picks, keeping the rest.

The rule is appended as the last entry of ``permission.<surface>`` (inside a surface the last
matching rule wins), by a textual edit that keeps every comment and every other byte of the
file. The edited text is validated like any configuration before it is written; the previous
file is copied under ``$state/backups/`` (0600) and the new one replaces it atomically, with its
mode. A file that does not validate after the edit is left untouched.
"""

from __future__ import annotations

import os
import time

from clearance._json import dumps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from clearance.policy.trust import PinnedFile

__all__ = ["AlwaysError", "add_allow_rule", "writer"]


class AlwaysError(ValueError):
    """The rule could not be written (the sentence says what, where and how to fix it)."""


def _scan_end(source: str, start: int) -> tuple[int, int]:
    """For the object or array opening at ``start``: (offset of its closing bracket, offset of
    the last significant character before it)."""
    depth = 0
    last = start
    i = start
    n = len(source)
    while i < n:
        c = source[i]
        if c == '"':
            i += 1
            while i < n and source[i] != '"':
                i += 2 if source[i] == "\\" else 1
            last = i
        elif source.startswith("//", i):
            i = source.find("\n", i)
            if i < 0:
                break
            continue
        elif source.startswith("/*", i):
            i = source.find("*/", i + 2)
            if i < 0:
                break
            i += 2
            continue
        elif c in "{[":
            depth += 1
            if depth > 1:
                last = i
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i, last
            last = i
        elif not c.isspace():
            last = i
        i += 1
    raise AlwaysError("the configuration ends inside an object")


def _append(source: str, start: int, member: str) -> str:
    """``source`` with ``member`` added as the last member of the object opening at ``start``."""
    end, last = _scan_end(source, start)
    comma = "" if source[last] in "{," else ","
    return source[: last + 1] + comma + " " + member + " " + source[last + 1 : end] + source[end:]


def _string_end(source: str, start: int) -> int:
    i = start + 1
    while source[i] != '"':
        i += 2 if source[i] == "\\" else 1
    return i + 1


def edited(source: str, surface: str, pattern: str) -> str:
    """The configuration text with ``permission.<surface>.<pattern>: "allow"`` appended."""
    from clearance.policy.jsonc import JsoncError, parse

    if not source.strip():
        source = "{}\n"
    try:
        doc = parse(source)
    except JsoncError as exc:
        raise AlwaysError(f"it does not parse ({exc.message}); fix it first") from None
    top = doc.value
    if not isinstance(top, dict):
        raise AlwaysError("it is not a JSON object; fix it first")
    rule = dumps(pattern) + ': "allow"'
    permission = top.get("permission")
    if permission is None:
        return _append(source, doc.offset(()), f'"permission": {{{dumps(surface)}: {{{rule}}}}}')
    if not isinstance(permission, dict):
        raise AlwaysError('its "permission" is not an object; fix it first')
    where = ("permission",)
    value = permission.get(surface)
    if value is None:
        return _append(source, doc.spans[where], f"{dumps(surface)}: {{{rule}}}")
    at = doc.spans[(*where, surface)]
    if isinstance(value, dict):
        return _append(source, at, rule)
    if isinstance(value, str):
        end = _string_end(source, at)
        return source[:at] + f'{{"*": {source[at:end]}, {rule}}}' + source[end:]
    raise AlwaysError(f'its "permission.{surface}" is neither a string nor an object')


def add_allow_rule(
    path: str, surface: str, pattern: str, *, state: str, pin: PinnedFile | None = None
) -> str:
    """Append the rule to ``path`` (created when missing); the backup's path ("" when there
    was no file). Raises :class:`AlwaysError`. With ``pin``, the bytes read must be the pinned
    ones (else nothing is written), and the bytes written are pinned: read once, never
    re-read, so content swapped in meanwhile is neither edited nor pinned."""
    from clearance.policy.config import parse_config
    from clearance.policy.errors import ConfigError
    from clearance.policy.state import atomic_write, ensure_private_dir

    try:
        with open(path, "rb") as handle:
            before: bytes | None = handle.read()
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        before, mode = None, 0o600
    except OSError as exc:
        raise AlwaysError(f"{path} cannot be read ({exc.strerror})") from None
    if pin is not None and not pin.holds(before):
        raise AlwaysError(
            f"{path} changed outside this serving session; nothing written (review the file, "
            "then restart `clearance serve` to load it as it is now)"
        )
    source = (before or b"").decode("utf-8-sig", errors="strict") if before else ""
    try:
        text = edited(source, surface, pattern)
    except AlwaysError as exc:
        raise AlwaysError(f"{path}: {exc}") from None
    try:
        checked = parse_config(text, path)
    except ConfigError as exc:
        raise AlwaysError(f"{path}: the rule would not validate ({exc}); nothing written") from None
    if checked.errors:
        first = str(checked.errors[0]).splitlines()[0]
        raise AlwaysError(f"{path}: the rule would not validate ({first}); nothing written")
    backup = ""
    if before is not None:
        folder = ensure_private_dir(os.path.join(state, "backups"))
        stamp = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 10**6}"
        backup = os.path.join(folder, f"{os.path.basename(path)}.{stamp}")
        atomic_write(backup, before)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    data = text.encode("utf-8")
    atomic_write(path, data, mode=mode)
    if pin is not None:
        pin.keep(data)
    return backup


def writer(
    config: str | None, state: str, *, pin: PinnedFile | None = None
) -> Callable[[str, str], str]:
    """The "always" answer of ``serve``'s terminal dialog: append to ``config`` (default: the
    global configuration file) and say where, with the backup. With ``pin`` (``serve --config``
    pins its file, ADR 0050) a file that changed outside the session is not written
    (``ValueError``: the answer says "not written"), and what is written is pinned."""
    from clearance.policy.state import config_home

    path = os.path.abspath(os.path.expanduser(config)) if config else ""
    path = path or os.path.join(config_home(), "config.jsonc")

    def write(surface: str, pattern: str) -> str:
        backup = add_allow_rule(path, surface, pattern, state=state, pin=pin)
        return f"{path}" + (f" (previous file kept as {backup})" if backup else "")

    return write
