"""A call from the command line: INPUT as a tool's input, and the engine the options load.

Shared by ``check``, ``check --batch``, ``gate`` and ``validate``.
"""

from __future__ import annotations

from clearance.cli._args import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.cli._args import Args
    from clearance.decide.engine import Engine

__all__ = ["call_input", "load_engine"]

# Which input field a plain-string INPUT fills, per canonical tool.
_PLAIN_FIELD = {
    "bash": "command",
    "read": "path",
    "write": "path",
    "edit": "path",
    "grep": "path",
    "find": "path",
    "ls": "path",
    "skill": "skill",
    "webfetch": "url",
    "websearch": "query",
    "task": "subagent_type",
}


def call_input(tool: str, raw: str | None) -> Any:
    """INPUT as the tool's input: JSON when it is a JSON object, else the plain-string field."""
    from clearance.intent.call import canonical_tool

    if raw is None:
        return {}
    stripped = raw.lstrip()
    if stripped.startswith("{"):
        from clearance._json import loads

        try:
            value = loads(raw)
        except ValueError as exc:
            if canonical_tool(tool) != "bash":
                raise UsageError(f"INPUT looks like JSON but does not parse: {exc}") from None
        else:
            if isinstance(value, dict):
                return value
    kind = canonical_tool(tool)
    if kind == "mcp":
        return raw
    return {_PLAIN_FIELD.get(kind, "value"): raw}


def load_engine(cwd: str, flags: Args, agent: str | None, policy_text: str | None) -> Engine:
    """The engine the decision options (``--config``, ``--yolo``, ``--no-cache``) load for
    ``cwd`` and ``agent``; ``policy_text`` is inline configuration (``--policy``)."""
    from clearance.decide.engine import Engine
    from clearance.hosts.facts import HOST_FACTS

    return Engine.load(
        cwd=cwd,
        agent=agent,
        config=flags.value("--config"),
        policy=policy_text,
        yolo=True if flags.on("--yolo") else None,
        use_cache=not flags.on("--no-cache"),
        host=HOST_FACTS,
    )
