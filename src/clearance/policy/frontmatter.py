"""The YAML front matter of agent definition files (``.claude/agents/<name>.md`` and friends).

A deliberately small reader: ``key: value`` scalars and nested maps by indentation, quoted keys
and values, ``#`` comments. No lists, anchors or multi-line scalars — an agent's ``permission:``
block needs none, and a small reader cannot be surprised. Only ``name`` and ``permission`` are
used; other keys (``tools``, ``description``, …) belong to the host and are skipped whatever
their shape.
"""

from __future__ import annotations

from clearance.policy.jsonc import Document, JsoncError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["parse_frontmatter"]


def _unquote(text: str, offset: int) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if text[:1] in "\"'":
        raise JsoncError(f"unterminated quoted text {text!r}", offset)
    return text


def _split_key(line: str, offset: int) -> tuple[str, str]:
    """``key: rest`` with the key possibly quoted (``"git log *": allow``)."""
    if line[:1] in "\"'":
        quote = line[0]
        end = line.find(quote, 1)
        if end < 0:
            raise JsoncError("unterminated quoted key", offset)
        key = line[1:end]
        rest = line[end + 1 :].lstrip()
        if not rest.startswith(":"):
            raise JsoncError(f"expected ':' after the key {key!r}", offset + end + 1)
        return key, rest[1:]
    colon = line.find(":")
    if colon <= 0:
        raise JsoncError("expected 'key: value'", offset)
    return line[:colon].strip(), line[colon + 1 :]


def _strip_comment(value: str) -> str:
    quote = ""
    for i, ch in enumerate(value):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or value[i - 1] in " \t"):
            return value[:i]
    return value


def parse_frontmatter(text: str) -> Document | None:
    """The front matter of ``text`` as a document, or ``None`` when the file has none."""
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark is not content
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        return None
    spans: dict[tuple[object, ...], int] = {(): 0}
    keys: dict[tuple[object, ...], int] = {}
    root: dict[str, Any] = {}
    # Stack of (indent, mapping, path).
    stack: list[tuple[int, dict[str, Any], tuple[object, ...]]] = [(-1, root, ())]
    offset = text.index("\n") + 1
    closed = False
    while offset < len(text):
        end = text.find("\n", offset)
        if end < 0:
            end = len(text)
        raw = text[offset:end].rstrip("\r")
        line_offset = offset
        offset = end + 1
        if raw.strip() == "---":
            closed = True
            break
        body = raw.strip()
        if not body or body.startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        if "\t" in raw[: indent + 1] and raw.lstrip(" ").startswith("\t"):
            raise JsoncError("tabs cannot indent YAML; use spaces", line_offset)
        while stack and indent <= stack[-1][0]:
            stack.pop()
        _, mapping, path = stack[-1]
        if body.startswith("- "):
            # A list item: only allowed under keys we skip (e.g. ``tools:``).
            if path and path[0] in ("name", "permission"):
                raise JsoncError("lists are not supported here", line_offset + indent)
            continue
        key, rest = _split_key(body, line_offset + indent)
        rest = _strip_comment(rest).strip()
        if key in mapping and ((path and path[0] == "permission") or key in ("permission", "name")):
            # A second `bash:` block would silently replace the first.
            raise JsoncError(f"duplicate key {key!r}: keep one", line_offset + indent)
        child = (*path, key)
        keys[child] = line_offset + indent
        spans[child] = (
            line_offset + indent + len(body) - len(rest) if rest else line_offset + indent
        )
        if rest in ("", "|", ">"):
            nested: dict[str, Any] = {}
            mapping[key] = nested
            stack.append((indent, nested, child))
        else:
            mapping[key] = _unquote(rest, line_offset + indent)
    if not closed:
        raise JsoncError("the front matter is not closed with a '---' line", len(text))
    return Document(root, text, spans, keys)
