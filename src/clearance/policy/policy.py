"""The compiled policy one decision runs against."""

from __future__ import annotations

from clearance._frozen import Frozen

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.policy.config import SelfTest
    from clearance.policy.errors import ConfigError
    from clearance.policy.rule import RuleSet

__all__ = ["Policy"]

_set = object.__setattr__


class Policy(Frozen):
    """Rules plus what shaped them: files, warnings, errors, trust, yolo, agent."""

    __slots__ = (
        "agent",
        "errors",
        "files",
        "home",
        "project",
        "rules",
        "settings",
        "test_data",
        "trusted",
        "warnings",
        "yolo",
    )
    rules: RuleSet
    yolo: bool
    settings: dict[str, Any]
    test_data: tuple[dict[str, Any], ...]
    warnings: tuple[str, ...]
    errors: tuple[ConfigError, ...]
    files: tuple[str, ...]
    project: str | None
    trusted: bool
    agent: str | None
    home: str

    def __init__(self, **fields: Any) -> None:
        for name in self._fields:
            _set(self, name, fields[name])

    @property
    def failed_closed(self) -> bool:
        """Whether a broken scope clamped every allow to ask."""
        return bool(self.errors)

    @property
    def tests(self) -> tuple[SelfTest, ...]:
        """The self-tests of every loaded scope (``"tests"`` in a config)."""
        from clearance.policy.config import SelfTest

        return tuple(SelfTest(**t) for t in self.test_data)

    def setting(self, key: str, default: Any = None) -> Any:
        return self.settings.get(key, default)
