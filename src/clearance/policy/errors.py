"""Errors of the policy layer: every one says where (file, line, column) and what is allowed.

``ConfigError`` subclasses ``ValueError`` so a generic handler still catches it; the command line
prints it with a caret under the fault and exits 1, and the engine fails closed while it stands.
"""

from __future__ import annotations

__all__ = ["ConfigError", "position_of"]


def position_of(text: str, offset: int) -> tuple[int, int, str]:
    """1-based line and column of ``offset`` in ``text``, and that line's text."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    if end < 0:
        end = len(text)
    return line, offset - start + 1, text[start:end]


class ConfigError(ValueError):
    """A configuration file that cannot be used, and where it goes wrong."""

    def __init__(
        self, message: str, *, file: str, line: int = 0, column: int = 0, text: str = ""
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.text = text

    @classmethod
    def at(cls, message: str, *, file: str, source: str, offset: int) -> ConfigError:
        line, column, text = position_of(source, offset)
        return cls(message, file=file, line=line, column=column, text=text)

    @property
    def where(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file

    def __str__(self) -> str:
        head = f"{self.where}: {self.message}"
        if not self.line:
            return head
        shown = self.text.expandtabs(1)
        if len(shown) > 200:
            lo = max(0, self.column - 100)
            shown = shown[lo : lo + 200]
            caret = " " * (self.column - 1 - lo) + "^"
        else:
            caret = " " * (self.column - 1) + "^"
        return f"{head}\n    {shown}\n    {caret}"

    def __repr__(self) -> str:
        return (
            f"ConfigError({self.message!r}, file={self.file!r}, "
            f"line={self.line}, column={self.column})"
        )

    def __reduce__(self) -> tuple[object, ...]:  # picklable despite keyword-only fields
        return (_rebuild, (self.message, self.file, self.line, self.column, self.text))


def _rebuild(message: str, file: str, line: int, column: int, text: str) -> ConfigError:
    return ConfigError(message, file=file, line=line, column=column, text=text)
