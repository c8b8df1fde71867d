"""A small JSON encoder for the append path (``import json`` costs milliseconds per hook call).

It encodes exactly what :func:`clearance.audit.redaction.redact` produces — ``str``, ``int``,
``float``, ``bool``, ``None``, lists, tuples and string-keyed dicts — as compact, ASCII-only JSON
(``ensure_ascii``), so a line is bytes-identical to ``json.dumps(..., separators=(",", ":"))``.
Strings go through the C accelerator ``_json.encode_basestring_ascii`` (loaded on the first string
that needs escaping) or, where that module is missing, a pure-Python equivalent. A float that JSON
cannot spell (NaN, ±infinity) becomes the string ``"NaN"``/``"Infinity"``/``"-Infinity"``; any
other object becomes its ``str``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["encode", "encode_string"]

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
    _encode(value, parts, 0)
    return "".join(parts)


def encode_string(text: str) -> str:
    """One JSON string literal, quotes included."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return (_escape or _load_escape())(text)


def _encode(value: object, parts: list[str], depth: int) -> None:
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
        parts.append("{")
        first = True
        for key, item in value.items():
            if not first:
                parts.append(",")
            first = False
            parts.append(encode_string(key if isinstance(key, str) else str(key)))
            parts.append(":")
            _encode(item, parts, depth + 1)
        parts.append("}")
    elif isinstance(value, (list, tuple)):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _encode(item, parts, depth + 1)
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
