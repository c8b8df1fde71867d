"""The command text and its UTF-8 bytes, sliced by the parser's byte offsets.

tree-sitter reports byte offsets. For the usual all-ASCII command, byte and character offsets
coincide and slicing the ``str`` is free; otherwise the byte slice is decoded on demand.
"""

from __future__ import annotations

__all__ = ["Source"]


class Source:
    """One command line: ``text`` as given, ``data`` as parsed."""

    __slots__ = ("ascii", "data", "parsed", "text")

    text: str
    data: bytes
    parsed: bytes
    ascii: bool

    def __init__(self, text: str) -> None:
        self.text = text
        # surrogatepass: text decoded from random bytes may hold lone surrogates; never raise.
        self.data = text.encode("utf-8", "surrogatepass")
        self.ascii = len(self.data) == len(text)
        self.parsed = self.data if self.ascii else _placeholders(text)

    def slice(self, start: int, end: int) -> str:
        """The text between two byte offsets."""
        if self.ascii:
            return self.text[start:end]
        chunk = self.data[start:end]
        try:
            return chunk.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return chunk.decode("utf-8", "replace")


def _placeholders(text: str) -> bytes:
    """The bytes handed to the parser: every non-ASCII character replaced by a letter of the
    same UTF-8 length, so byte offsets still index ``data``.

    tree-sitter-bash 0.25.1 crashes the process (SIGSEGV) on some inputs with high-plane
    characters (``ab{\U000f2871``), and its scanner may take Unicode spaces for separators
    where bash does not. To bash every non-ASCII character is a word character, as are the
    placeholders, so the parse keeps its shape.
    """
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if code < 0x80:
            out.append(ch)
        elif code < 0x800:
            out.append("\u00e9")  # 2 bytes
        elif code < 0x10000:
            out.append("\u4e2d")  # 3 bytes (lone surrogates included, as surrogatepass)
        else:
            out.append("\U00010000")  # 4 bytes
    return "".join(out).encode("utf-8")
