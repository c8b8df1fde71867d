"""JSON in and out without ``import json`` (which pulls ``re``: milliseconds per hook process).

Decoding reuses the JSONC reader (strict JSON is a subset); encoding is a small recursive
encoder over the C string escaper of ``_json``. Output is compact and keeps key order.
"""

from __future__ import annotations

from _json import encode_basestring

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["dumps", "loads"]


def loads(text: str) -> Any:
    """Parse JSON (comments and trailing commas tolerated). Raises ``ValueError``."""
    from clearance.policy.jsonc import parse

    return parse(text).value


def _encode(value: Any, out: list[str], indent: str | None, level: int) -> None:
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            out.append("null")
        else:
            out.append(float.__repr__(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        out.append("{")
        inner = None if indent is None else "\n" + indent * (level + 1)
        first = True
        for key, item in value.items():
            if not first:
                out.append(",")
            first = False
            if inner:
                out.append(inner)
            out.append(encode_basestring(str(key)))
            out.append(": " if indent is not None else ":")
            _encode(item, out, indent, level + 1)
        if inner:
            out.append("\n" + indent * level)  # type: ignore[operator]
        out.append("}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        out.append("[")
        inner = None if indent is None else "\n" + indent * (level + 1)
        for i, item in enumerate(value):
            if i:
                out.append(",")
            if inner:
                out.append(inner)
            _encode(item, out, indent, level + 1)
        if inner:
            out.append("\n" + indent * level)  # type: ignore[operator]
        out.append("]")
    else:
        out.append(encode_basestring(str(value)))


def dumps(value: Any, *, indent: int | None = None) -> str:
    out: list[str] = []
    _encode(value, out, None if indent is None else " " * indent, 0)
    return "".join(out)
