"""Surfaces: what a rule is about. Tool names, ``bash``, ``mcp``, ``skill``, and the path families.

A bare ``path`` or ``external_directory`` key is sugar for both its directional members; after
loading no rule lives on a bare family surface (docs/configuration.md, "The `permission` map").
"""

from __future__ import annotations

__all__ = [
    "DIRECTIONAL",
    "FAMILIES",
    "PATH_BEARING_TOOLS",
    "PATH_SURFACES",
    "READ_ONLY_TOOLS",
    "check_surface_key",
    "family_members",
]

FAMILIES = ("path", "external_directory")
DIRECTIONAL = (
    "path_read",
    "path_write",
    "external_directory_read",
    "external_directory_write",
)
PATH_BEARING_TOOLS = frozenset({"read", "write", "edit", "grep", "find", "ls"})
READ_ONLY_TOOLS = frozenset({"read", "grep", "find", "ls"})
PATH_SURFACES = PATH_BEARING_TOOLS | frozenset(FAMILIES) | frozenset(DIRECTIONAL)


def family_members(surface: str) -> tuple[str, ...]:
    """``path`` → (``path_read``, ``path_write``); any other surface → itself."""
    if surface in FAMILIES:
        return (surface + "_read", surface + "_write")
    return (surface,)


def check_surface_key(key: str) -> str | None:
    """Why ``key`` cannot be a surface, or ``None`` when it can."""
    if not key:
        return 'an empty surface name; write a tool name such as "bash" or "read"'
    if key != key.strip():
        return f"surface {key!r} has leading or trailing spaces"
    for family in FAMILIES:
        if key.startswith(family + "_") and key not in DIRECTIONAL:
            return (
                f"unknown directional surface {key!r}; "
                f'expected "{family}", "{family}_read" or "{family}_write"'
            )
    return None
