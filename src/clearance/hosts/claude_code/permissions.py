"""Claude Code's own ``permissions.allow``/``ask``/``deny`` lists, read as clearance rules.

``clearance init --from-claude-code`` imports them; ``clearance doctor`` compares them with what
clearance decides. An entry is ``Tool`` or ``Tool(specifier)``: ``Bash(npm run test:*)``,
``Read(./src/**)``, ``Edit(//etc/hosts)``, ``WebFetch(domain:example.com)``,
``mcp__server__tool``. Path specifiers are gitignore-like: ``//x`` is absolute, ``~/x`` under
home, ``/x`` relative to the settings file's project, ``x`` and ``./x`` relative to the
working directory — the last is how clearance reads a relative pattern too.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["LISTS", "Translation", "permission_entries", "translate"]

LISTS = ("allow", "ask", "deny")  # Claude Code's list names, which are clearance's actions

# Claude Code's path-taking tools → the tool surfaces an allow opens, and the path surface a
# deny or ask closes (a deny there also covers the same path reached from bash).
_READERS = ("read", "grep", "find", "ls")
_WRITERS = ("edit", "write")
_PATH_TOOLS = {
    "read": (_READERS, "path_read"),
    "grep": (("grep",), "path_read"),
    "glob": (("find",), "path_read"),
    "ls": (("ls",), "path_read"),
    "edit": (_WRITERS, "path_write"),
    "multiedit": (_WRITERS, "path_write"),
    "write": (_WRITERS, "path_write"),
    "notebookedit": (("edit",), "path_write"),
}
_WHOLE_TOOLS = {"websearch": "websearch", "task": "task", "agent": "task", "skill": "skill"}


class Translation:
    """One Claude Code entry: the clearance rules it became, or why it could not."""

    __slots__ = ("action", "entry", "rules", "why")

    def __init__(
        self, entry: str, action: str, rules: list[tuple[str, str]], why: str | None = None
    ) -> None:
        self.entry = entry
        self.action = action
        self.rules = rules
        self.why = why


def _path(spec: str, project: str | None) -> str | None:
    if spec.startswith("//"):
        return spec[1:]
    if spec.startswith("~/") or spec == "~":
        return spec
    if spec.startswith("/"):
        return None if project is None else os.path.join(project, spec[1:])
    if spec.startswith("./"):
        spec = spec[2:]
    return spec or None


def translate(entry: str, action: str, project: str | None = None) -> Translation:
    """``entry`` of Claude Code's ``action`` list as clearance ``(surface, pattern)`` rules.

    ``project`` is the directory a project settings file belongs to (for ``/x`` paths).
    """
    name, paren, rest = entry.strip().partition("(")
    spec: str | None = None
    if paren:
        if not rest.endswith(")"):
            return Translation(entry, action, [], "the parenthesis is not closed")
        spec = rest[:-1]
    tool = name.strip()
    lower = tool.lower()
    if lower.startswith("mcp__"):
        parts = tool.split("__")
        if spec is not None or len(parts) not in (2, 3) or not parts[1]:
            return Translation(entry, action, [], "not an mcp__server or mcp__server__tool name")
        target = parts[1] + ":" + (parts[2] if len(parts) == 3 and parts[2] else "*")
        return Translation(entry, action, [("mcp", target)])
    if lower == "bash":
        if spec is None or spec in ("", "*"):
            return Translation(entry, action, [("bash", "*")])
        if spec.endswith(":*"):
            return Translation(entry, action, [("bash", spec[:-2].rstrip() + " *")])
        return Translation(entry, action, [("bash", spec)])
    if lower in _PATH_TOOLS:
        tools, path_surface = _PATH_TOOLS[lower]
        if spec is None or spec in ("", "*", "**"):
            return Translation(entry, action, [(t, "*") for t in tools])
        pattern = _path(spec, project)
        if pattern is None:
            return Translation(
                entry, action, [], "a /path is relative to a project's settings file; "
                "write it as //absolute/path or ./relative/path"
            )  # fmt: skip
        if action == "allow":
            return Translation(entry, action, [(t, pattern) for t in tools])
        return Translation(entry, action, [(path_surface, pattern)])
    if lower == "webfetch":
        if spec is None:
            return Translation(entry, action, [("webfetch", "*")])
        if spec.startswith("domain:") and spec[7:]:
            domain = spec[7:]
            return Translation(
                entry, action, [("webfetch", f"*://{domain}"), ("webfetch", f"*://{domain}/*")]
            )
        return Translation(entry, action, [], "only WebFetch(domain:NAME) is understood")
    if lower in _WHOLE_TOOLS:
        return Translation(entry, action, [(_WHOLE_TOOLS[lower], spec or "*")])
    if spec is None and tool and tool.replace("_", "").isalnum():
        return Translation(entry, action, [(lower, "*")])
    return Translation(entry, action, [], f"clearance has no rule form for {tool}(…)")


def permission_entries(settings: dict[str, Any]) -> list[tuple[str, str]]:
    """``(action, entry)`` for each string in the settings' permissions lists, in order."""
    permissions = settings.get("permissions")
    out: list[tuple[str, str]] = []
    if not isinstance(permissions, dict):
        return out
    for action in LISTS:
        entries = permissions.get(action)
        if isinstance(entries, list):
            out.extend((action, e) for e in entries if isinstance(e, str))
    return out
