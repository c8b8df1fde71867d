"""JSON with comments (JSONC): ``//`` and ``/* */`` comments and trailing commas.

The parser keeps object key order (last-match-wins depends on it), rejects duplicate keys (which
of two would win is a question no one should have to answer), and records where every value and
key starts, so validation errors can point at a line and column. Strings go through the C string
scanner of the standard ``_json`` module; nothing here imports ``json`` or ``re``.
"""

from __future__ import annotations

from _json import scanstring

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_DEPTH", "Document", "JsoncError", "parse"]

MAX_DEPTH = 200  # objects and arrays nested deeper are refused

Path = tuple[object, ...]

_WS = " \t\n\r\ufeff"
_NUMBER_CHARS = frozenset("+-0123456789.eE")


class JsoncError(ValueError):
    """Malformed JSONC at ``offset``."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class Document:
    """A parsed document: the value, and where each value and key starts (offsets by path)."""

    __slots__ = ("_newlines", "keys", "source", "spans", "value")

    def __init__(
        self, value: Any, source: str, spans: dict[Path, int], keys: dict[Path, int]
    ) -> None:
        self.value = value
        self.source = source
        self.spans = spans
        self.keys = keys
        self._newlines: list[int] | None = None

    def line_column(self, offset: int) -> tuple[int, int]:
        """1-based line and column of ``offset``: a search in the offsets of the newlines,
        found once, so that naming where each of a file's rules stands costs no rescan."""
        newlines = self._newlines
        if newlines is None:
            newlines = self._newlines = []
            at = self.source.find("\n")
            while at >= 0:
                newlines.append(at)
                at = self.source.find("\n", at + 1)
        offset = max(0, min(offset, len(self.source)))
        from bisect import bisect_left

        before = bisect_left(newlines, offset)  # the newlines before the offset
        start = newlines[before - 1] + 1 if before else 0
        return before + 1, offset - start + 1

    def offset(self, path: Path, *, key: bool = False) -> int:
        """Where the value (or with ``key`` its key) at ``path`` starts, else its nearest parent."""
        table = self.keys if key else self.spans
        while path:
            if path in table:
                return table[path]
            if key:
                table = self.spans
                key = False
                continue
            path = path[:-1]
        return self.spans.get((), 0)


def parse(source: str) -> Document:
    """Parse JSONC text. Raises :class:`JsoncError` with the offset of the fault."""
    parser = _Parser(source)
    pos = parser.skip(0)
    if pos >= len(source):
        raise JsoncError("the file is empty; expected a JSON object such as {}", pos)
    value, pos = parser.value(pos, ())
    pos = parser.skip(pos)
    if pos < len(source):
        raise JsoncError("unexpected text after the end of the document", pos)
    return Document(value, source, parser.spans, parser.keys)


class _Parser:
    __slots__ = ("depth", "keys", "spans", "src")

    def __init__(self, src: str) -> None:
        self.src = src
        self.spans: dict[Path, int] = {}
        self.keys: dict[Path, int] = {}
        self.depth = 0

    def skip(self, pos: int) -> int:
        src = self.src
        n = len(src)
        while pos < n:
            ch = src[pos]
            if ch in _WS:
                pos += 1
            elif ch == "/" and src.startswith("//", pos):
                end = src.find("\n", pos)
                pos = n if end < 0 else end + 1
            elif ch == "/" and src.startswith("/*", pos):
                end = src.find("*/", pos + 2)
                if end < 0:
                    raise JsoncError("unterminated /* comment", pos)
                pos = end + 2
            else:
                break
        return pos

    def value(self, pos: int, path: Path) -> tuple[Any, int]:
        src = self.src
        self.spans[path] = pos
        ch = src[pos] if pos < len(src) else ""
        if ch == "{":
            return self.object(pos, path)
        if ch == "[":
            return self.array(pos, path)
        if ch == '"':
            return self.string(pos)
        if src.startswith("true", pos):
            return True, pos + 4
        if src.startswith("false", pos):
            return False, pos + 5
        if src.startswith("null", pos):
            return None, pos + 4
        if ch and ch in _NUMBER_CHARS:
            return self.number(pos)
        if ch == "'":
            raise JsoncError('strings must use double quotes ("..."), not single quotes', pos)
        if not ch:
            raise JsoncError("unexpected end of file; expected a value", pos)
        raise JsoncError(
            f"unexpected {ch!r}; expected a value (an object, array, string, number, "
            "true, false or null)",
            pos,
        )

    def string(self, pos: int) -> tuple[str, int]:
        try:
            text, end = scanstring(self.src, pos + 1, True)
        except ValueError as exc:
            raise JsoncError(f"invalid string: {str(exc).split(':')[0]}", pos) from None
        except SystemError:
            # The C scanner raises json.decoder's error type, which may not be imported in a
            # fresh process; then it fails without one. Same fault, same message.
            raise JsoncError(
                "invalid string: unterminated, or a control character or bad escape in it", pos
            ) from None
        return text, end

    def number(self, pos: int) -> tuple[int | float, int]:
        src = self.src
        end = pos
        while end < len(src) and src[end] in _NUMBER_CHARS:
            end += 1
        text = src[pos:end]
        try:
            if "." in text or "e" in text or "E" in text:
                return float(text), end
            return int(text), end
        except ValueError:
            raise JsoncError(f"invalid number {text!r}", pos) from None

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise JsoncError(f"nesting deeper than {MAX_DEPTH} levels", pos)

    def object(self, pos: int, path: Path) -> tuple[dict[str, Any], int]:
        self.enter(pos)
        src = self.src
        result: dict[str, Any] = {}
        pos = self.skip(pos + 1)
        while True:
            if pos >= len(src):
                raise JsoncError("unterminated object; expected '}'", pos)
            if src[pos] == "}":
                self.depth -= 1
                return result, pos + 1
            if src[pos] != '"':
                raise JsoncError(
                    "expected a double-quoted key or '}'"
                    + (" (keys must be quoted)" if src[pos].isalpha() else ""),
                    pos,
                )
            key_pos = pos
            key, pos = self.string(pos)
            if key in result:
                raise JsoncError(
                    f"duplicate key {key!r}: keep one (the first is at line "
                    f"{self.src.count(chr(10), 0, self.keys[(*path, key)]) + 1})",
                    key_pos,
                )
            child = (*path, key)
            self.keys[child] = key_pos
            pos = self.skip(pos)
            if pos >= len(src) or src[pos] != ":":
                raise JsoncError(f"expected ':' after key {key!r}", pos)
            pos = self.skip(pos + 1)
            result[key], pos = self.value(pos, child)
            pos = self.skip(pos)
            if pos < len(src) and src[pos] == ",":
                pos = self.skip(pos + 1)
            elif pos < len(src) and src[pos] != "}":
                raise JsoncError("expected ',' or '}' after a value", pos)

    def array(self, pos: int, path: Path) -> tuple[list[Any], int]:
        self.enter(pos)
        src = self.src
        result: list[Any] = []
        pos = self.skip(pos + 1)
        while True:
            if pos >= len(src):
                raise JsoncError("unterminated array; expected ']'", pos)
            if src[pos] == "]":
                self.depth -= 1
                return result, pos + 1
            item, pos = self.value(pos, (*path, len(result)))
            result.append(item)
            pos = self.skip(pos)
            if pos < len(src) and src[pos] == ",":
                pos = self.skip(pos + 1)
            elif pos < len(src) and src[pos] != "]":
                raise JsoncError("expected ',' or ']' after a value", pos)
