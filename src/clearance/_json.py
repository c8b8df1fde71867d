"""JSON in and out without ``import json`` (which pulls ``re``: milliseconds per hook process).

Decoding reuses the JSONC reader (strict JSON is a subset). Encoding handles exactly the JSON
types — ``str``, ``int``, ``float``, ``bool``, ``None``, lists, tuples and dicts — as ASCII-only
JSON; compact output is bytes-identical to ``json.dumps(..., separators=(",", ":"))``. Strings go
through the C accelerator ``_json.encode_basestring_ascii`` (loaded on the first string that
needs escaping) or a pure-Python twin. A float JSON cannot spell (NaN, ±infinity) becomes the
string ``"NaN"``/``"Infinity"``/``"-Infinity"``; any other object becomes its ``str``; nesting
deeper than 64 levels becomes ``"[too deep]"``. Used by the review log, the hooks and the CLI.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["dumps", "encode", "encode_json_types", "encode_string", "loads"]

_MAX_DEPTH = 64
_escape: Callable[[str], str] | None = None
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}


def encode(value: object) -> str:
    """``value`` as compact ASCII JSON text."""
    parts: list[str] = []
    _encode(value, parts, 0, None)
    return "".join(parts)


def encode_json_types(value: object) -> str:
    """:func:`encode` of a value made of JSON types only, with string keys, nested less than
    64 levels deep (a redacted log line, a forwarded request): where the standard ``json``
    module is already loaded (a long-lived process: ``serve``, a forwarding child), its C
    encoder writes the same text; a float JSON cannot spell, or any other object, goes to
    :func:`encode`, which writes it its own way."""
    import sys

    fast = sys.modules.get("json")
    if fast is not None:
        try:
            text: str = fast.dumps(value, separators=(",", ":"), allow_nan=False, default=_not_json)
            return text
        except (ValueError, TypeError):
            pass
    return encode(value)


def _not_json(value: object) -> object:
    raise TypeError(type(value).__name__)


def dumps(value: object, *, indent: int | None = None) -> str:
    """``value`` as JSON: compact by default, or pretty with ``indent`` spaces per level."""
    parts: list[str] = []
    _encode(value, parts, 0, None if indent is None else " " * indent)
    return "".join(parts)


def loads(text: str) -> Any:
    """Parse JSON (comments and trailing commas tolerated). Raises ``ValueError``.

    Where the standard ``json`` module is already loaded (a long-lived process: ``serve``,
    ``check --batch``), its C reader reads what it can read the JSONC reader's way: duplicate
    keys and ``NaN``/``Infinity`` refused, and only a text with no more brackets in all than the
    JSONC reader allows levels of nesting (``jsonc.MAX_DEPTH``). Anything else — a
    comment, a trailing comma, an error to explain — goes to the JSONC reader."""
    import sys

    fast = sys.modules.get("json")
    if fast is not None and text.count("[") + text.count("{") <= _max_depth():
        try:
            return fast.loads(text, object_pairs_hook=_unique, parse_constant=_refuse)
        except (ValueError, RecursionError):
            pass  # the JSONC reader reads it, or says what is wrong
    from clearance.policy.jsonc import parse

    return parse(text).value


def _max_depth() -> int:
    from clearance.policy.jsonc import MAX_DEPTH

    return MAX_DEPTH


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("duplicate key")
    return found


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def encode_string(text: str) -> str:
    """One JSON string literal, quotes included."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return (_escape or _load_escape())(text)


def _encode(value: object, parts: list[str], depth: int, indent: str | None) -> None:
    if isinstance(value, str):
        parts.append(encode_string(value))
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        parts.append(int.__repr__(value))
    elif isinstance(value, float):
        parts.append(_float(value))
    elif depth >= _MAX_DEPTH:
        parts.append('"[too deep]"')
    elif isinstance(value, dict):
        if not value:
            parts.append("{}")
            return
        inner = None if indent is None else "\n" + indent * (depth + 1)
        parts.append("{")
        first = True
        for key, item in value.items():
            if not first:
                parts.append(",")
            first = False
            if inner:
                parts.append(inner)
            parts.append(encode_string(key if isinstance(key, str) else str(key)))
            parts.append(":" if indent is None else ": ")
            _encode(item, parts, depth + 1, indent)
        if inner:
            parts.append("\n" + indent * depth)  # type: ignore[operator]
        parts.append("}")
    elif isinstance(value, (list, tuple)):
        if not value:
            parts.append("[]")
            return
        inner = None if indent is None else "\n" + indent * (depth + 1)
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            if inner:
                parts.append(inner)
            _encode(item, parts, depth + 1, indent)
        if inner:
            parts.append("\n" + indent * depth)  # type: ignore[operator]
        parts.append("]")
    else:
        parts.append(encode_string(str(value)))


def _float(value: float) -> str:
    if value != value:
        return '"NaN"'
    if value == float("inf"):
        return '"Infinity"'
    if value == -float("inf"):
        return '"-Infinity"'
    return float.__repr__(value)


def _load_escape() -> Callable[[str], str]:
    global _escape
    try:
        from _json import encode_basestring_ascii
    except ImportError:  # pragma: no cover - CPython always ships _json
        _escape = _escape_python
    else:
        _escape = encode_basestring_ascii
    return _escape


def _escape_python(text: str) -> str:
    """The pure-Python twin of ``_json.encode_basestring_ascii``."""
    out = ['"']
    for char in text:
        code = ord(char)
        if 0x20 <= code < 0x7F and char != '"' and char != "\\":
            out.append(char)
        elif char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}")
    out.append('"')
    return "".join(out)
