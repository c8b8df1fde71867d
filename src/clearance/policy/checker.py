"""Checking one JSONC document: errors that point at a line and column, and its warnings.

Shared by the validation of a whole configuration (``clearance.policy.config``) and of its
``permission`` maps (``clearance.policy.permission``).
"""

from __future__ import annotations

from clearance.policy.errors import ConfigError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.policy.jsonc import Document

__all__ = ["Checker", "did_you_mean", "type_name"]


class Checker:
    """Raises errors that point into one document, and collects its warnings."""

    __slots__ = ("doc", "file", "rule_errors", "warnings")

    def __init__(self, doc: Document, file: str) -> None:
        self.doc = doc
        self.file = file
        self.warnings: list[str] = []
        # Errors that cost only their own rule (which becomes ask): the file still loads.
        self.rule_errors: list[ConfigError] = []

    def where(self, path: tuple[object, ...], *, key: bool = False) -> str:
        line, column = self.doc.line_column(self.doc.offset(path, key=key))
        return f"{self.file}:{line}:{column}"

    def fail(self, message: str, path: tuple[object, ...], *, key: bool = False) -> ConfigError:
        return ConfigError.at(
            message, file=self.file, source=self.doc.source, offset=self.doc.offset(path, key=key)
        )


def type_name(value: object) -> str:
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


def did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str:
    from difflib import get_close_matches

    close = get_close_matches(word, list(choices), n=1)
    return f' (did you mean "{close[0]}"?)' if close else ""
