"""The command text and its UTF-8 bytes, sliced by the parser's byte offsets.

tree-sitter reports byte offsets. For the usual all-ASCII command, byte and character offsets
coincide and slicing the ``str`` is free; otherwise the byte slice is decoded on demand.
"""

from __future__ import annotations

__all__ = ["Source"]


class Source:
    """One command line: ``text`` as given, ``data`` as parsed."""

    __slots__ = ("ascii", "data", "text")

    text: str
    data: bytes
    ascii: bool

    def __init__(self, text: str) -> None:
        self.text = text
        # surrogatepass: text decoded from random bytes may hold lone surrogates; never raise.
        self.data = text.encode("utf-8", "surrogatepass")
        self.ascii = len(self.data) == len(text)

    def slice(self, start: int, end: int) -> str:
        """The text between two byte offsets."""
        if self.ascii:
            return self.text[start:end]
        chunk = self.data[start:end]
        try:
            return chunk.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return chunk.decode("utf-8", "replace")
