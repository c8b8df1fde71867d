"""A Claude Code hook payload, and the host-neutral :class:`ToolCall` it stands for.

Claude Code runs a command hook once per event with one JSON object on stdin: ``session_id``,
``transcript_path``, ``cwd``, ``permission_mode``, ``hook_event_name``, ``tool_name``,
``tool_input``, ``tool_use_id``, and inside a subagent ``agent_id`` and ``agent_type``. This
module parses that object (and says precisely what is wrong with a bad one) and maps the tool to
the canonical names of docs/architecture.md §3. It does not decide anything and writes nothing.
"""

from __future__ import annotations

from clearance._frozen import Frozen
from clearance.intent.call import ToolCall

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "MAX_PAYLOAD_BYTES",
    "Payload",
    "PayloadError",
    "check_tool_input",
    "object_field",
    "parse_object",
    "parse_payload",
    "required_text",
    "text_field",
    "to_call",
]

# A Write of a large file carries its whole content; beyond this a payload is refused (denied).
MAX_PAYLOAD_BYTES = 32 * 1024 * 1024

_set = object.__setattr__


class PayloadError(ValueError):
    """A payload clearance cannot read; the hook answers it with a deny saying why."""


class Payload(Frozen):
    """The fields of one hook event that clearance uses."""

    __slots__ = (
        "agent_id", "agent_type", "cwd", "event", "permission_mode", "session_id",
        "tool_input", "tool_name", "tool_use_id",
    )  # fmt: skip
    event: str
    tool_name: str
    tool_input: dict[str, Any]
    cwd: str
    session_id: str | None
    permission_mode: str | None
    agent_type: str | None
    agent_id: str | None
    tool_use_id: str | None

    def __init__(
        self,
        event: str,
        tool_name: str,
        tool_input: dict[str, Any],
        cwd: str,
        session_id: str | None = None,
        permission_mode: str | None = None,
        agent_type: str | None = None,
        agent_id: str | None = None,
        tool_use_id: str | None = None,
    ) -> None:
        _set(self, "event", event)
        _set(self, "tool_name", tool_name)
        _set(self, "tool_input", tool_input)
        _set(self, "cwd", cwd)
        _set(self, "session_id", session_id)
        _set(self, "permission_mode", permission_mode)
        _set(self, "agent_type", agent_type)
        _set(self, "agent_id", agent_id)
        _set(self, "tool_use_id", tool_use_id)


# The fields the gates decide on, per tool: a call without one (or with a non-string one) would be
# matched as if it named nothing — a path gate would see ``*`` — so it is refused instead.
_REQUIRED: dict[str, tuple[str, ...]] = {
    "Bash": ("command",),
    "Read": ("file_path",),
    "Write": ("file_path",),
    "Edit": ("file_path",),
    "MultiEdit": ("file_path",),
    "NotebookEdit": ("notebook_path",),
    "Glob": ("pattern",),
    "Grep": ("pattern",),
    "LS": ("path",),
}
_OPTIONAL_PATHS = ("path",)


def check_tool_input(tool_name: str, tool_input: dict[str, Any]) -> None:
    """Raise :class:`PayloadError` when a file tool's or Bash's ``tool_input`` lacks a field the
    gates need, or carries it as something other than a non-empty string."""
    required = _REQUIRED.get(tool_name)
    if required is None:
        return
    for key in required:
        value = tool_input.get(key)
        if value is None:
            raise PayloadError(f"tool_input of {tool_name} has no {key!r}")
        if not isinstance(value, str):
            raise PayloadError(
                f"tool_input of {tool_name}: {key!r} is a {type(value).__name__}, not a string"
            )
        if not value:
            raise PayloadError(f"tool_input of {tool_name}: {key!r} is empty")
    for key in _OPTIONAL_PATHS:
        value = tool_input.get(key)
        if key not in required and value is not None and not isinstance(value, str):
            raise PayloadError(
                f"tool_input of {tool_name}: {key!r} is a {type(value).__name__}, not a string"
            )


def text_field(data: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    """``data[key]`` as a non-empty string, ``None`` when absent; a wrong type is an error."""
    value = data.get(key)
    if value is None or value == "":
        if required:
            raise PayloadError(f"the hook payload has no {key}")
        return None
    if not isinstance(value, str):
        raise PayloadError(f"field {key!r} must be a string, not {type(value).__name__}")
    return value


def required_text(data: dict[str, Any], key: str) -> str:
    """``data[key]``, which must be a non-empty string."""
    value = text_field(data, key, required=True)
    assert value is not None
    return value


def object_field(
    data: dict[str, Any], key: str, what: str, *, text: bool = False
) -> dict[str, Any]:
    """``data[key]`` as an object (``{}`` when absent); ``text``: the host may send it as JSON
    text. ``what`` names it in the error."""
    value = data.get(key)
    if text and isinstance(value, str):
        from clearance._json import loads

        try:
            value = loads(value) if value.strip() else {}
        except ValueError as exc:
            raise PayloadError(f"{what} is not JSON ({exc})") from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PayloadError(f"{what} is a {type(value).__name__}, not an object")
    return value


def parse_object(raw: bytes | str) -> dict[str, Any]:
    """One JSON object from a hook's stdin, for any host; raises :class:`PayloadError` saying
    what is wrong."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError(
            f"the hook payload is larger than {MAX_PAYLOAD_BYTES // (1024 * 1024)} MiB"
        )
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PayloadError(f"the hook payload is not UTF-8 ({exc.reason})") from None
    if not raw.strip():
        raise PayloadError("the hook payload is empty; expected one JSON object on stdin")
    from clearance._json import loads

    try:
        data = loads(raw)
    except ValueError as exc:
        raise PayloadError(f"the hook payload is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise PayloadError(f"the hook payload is a JSON {type(data).__name__}, not an object")
    return data


def parse_payload(raw: bytes | str) -> Payload:
    """Parse one hook payload. Raises :class:`PayloadError` saying what is wrong."""
    data = parse_object(raw)
    event = data.get("hook_event_name")
    if not isinstance(event, str) or not event:
        raise PayloadError("the hook payload has no hook_event_name")
    tool_name = data.get("tool_name")
    if not isinstance(tool_name, str) or not tool_name:
        raise PayloadError(f"the {event} payload has no tool_name")
    tool_input = object_field(data, "tool_input", f"tool_input of {tool_name}")
    cwd = data.get("cwd")
    if not isinstance(cwd, str) or not cwd:
        raise PayloadError(f"the {event} payload has no cwd")
    return Payload(
        event,
        tool_name,
        tool_input,
        cwd,
        session_id=text_field(data, "session_id"),
        permission_mode=text_field(data, "permission_mode"),
        agent_type=text_field(data, "agent_type"),
        agent_id=text_field(data, "agent_id"),
        tool_use_id=text_field(data, "tool_use_id"),
    )


def _wild(segment: str) -> bool:
    return "*" in segment or "?" in segment or "[" in segment or "{" in segment


def glob_root(pattern: str, path: str | None) -> str | None:
    """The directory a Glob actually searches: ``path`` joined with the literal directory head
    of ``pattern`` (``../other/**/*.py`` from ``src`` searches ``src/../other``). ``None`` when
    that is just the working directory."""
    segments = pattern.split("/")
    head: list[str] = []
    for segment in segments[:-1]:
        if _wild(segment):
            break
        head.append(segment)
    literal = "/".join(head)
    if pattern.startswith("/") and not literal:
        literal = "/"
    if not literal:
        return path
    if literal.startswith("/") or not path:
        return literal
    return path.rstrip("/") + "/" + literal


def _glob_tail(pattern: str) -> str:
    """``pattern`` without the literal directory head :func:`glob_root` moved into the path."""
    segments = pattern.split("/")
    for index, segment in enumerate(segments[:-1]):
        if _wild(segment):
            return "/".join(segments[index:])
    return segments[-1]


def to_call(payload: Payload) -> ToolCall:
    """The host-neutral call for a payload; the tool name stays Claude Code's (``Bash``,
    ``mcp__github__search``), whose canonical name (``bash``, ``mcp``) the engine derives.
    Raises :class:`PayloadError` for a malformed file-tool or Bash input (``check_tool_input``)."""
    name = payload.tool_name
    data = payload.tool_input
    check_tool_input(name, data)
    if name == "Glob":
        pattern = data.get("pattern")
        path = data.get("path")
        root = glob_root(pattern, path if isinstance(path, str) else None) if isinstance(
            pattern, str
        ) else None  # fmt: skip
        if root and root != path:
            # The literal head moves into ``path``; ``pattern`` keeps the rest, so the two
            # joined still spell what the Glob matches (the path gates check that too).
            data = {**data, "path": root, "pattern": _glob_tail(str(pattern))}
    elif name.startswith("mcp__"):
        # MCP path arguments are found under ``arguments`` or at the top; Claude Code sends the
        # tool's own arguments as ``tool_input``.
        data = {"arguments": data}
    return ToolCall(
        name,
        data,
        cwd=payload.cwd,
        agent=payload.agent_type,
        session=payload.session_id,
        agent_id=payload.agent_id,
    )
