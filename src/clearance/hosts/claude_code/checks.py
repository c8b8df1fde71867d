"""What ``clearance doctor`` reports for Claude Code, one :class:`Check` per finding, and the
settings files it reads them from."""

from __future__ import annotations

from clearance.hosts.claude_code.settings import SCOPES, SettingsError, read_settings, settings_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

__all__ = ["Check", "each_settings"]


class Check:
    __slots__ = ("fix", "name", "ok", "summary")

    def __init__(self, name: str, ok: bool, summary: str, fix: str | None = None) -> None:
        self.name = name
        self.ok = ok
        self.summary = summary
        self.fix = fix


def each_settings(
    cwd: str, env: Mapping[str, str], problems: list[str] | None = None
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(scope, path, settings) of every scope's settings file, user first; one that does not
    parse is skipped, its error added to ``problems`` when given."""
    for scope in SCOPES:
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError as exc:
            if problems is not None:
                problems.append(str(exc))
            continue
        yield scope, path, data
