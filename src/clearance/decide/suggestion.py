"""Suggested session-approval patterns: what ``s`` ("for this session") would grant.

When a human is asked, the dialog offers to approve not just this call but calls like it for the
rest of the session. This module proposes that pattern, per surface (docs/approvals.md, "Suggested
patterns"):

* bash — the command's prefix by the arity table (``git status --short`` → ``git status *``),
  past the program's own options (``git -C repo push -f`` → ``git -C repo push *``), or for a
  file mutator of the option table its command rule (``rm -rf build`` → ``rm [-r -f] build``),
  seen through generalizable wrappers (``nohup git status --short`` → ``nohup git status *``),
  and the whole command, without a wildcard, when a wrapper makes the inner command unclear
  (``bash -c``, ``eval``, ``xargs -I``, ``find -exec``, a computed word such as ``$X``);
* mcp — the server (``github:*``, ``github_*``); skill — the exact name;
* paths — the containing directory (``/other/src/foo.ts`` → ``/other/src/*``);
* any other tool — ``*``.

Every bash pattern is the command's own text up to a word boundary, followed by ``*`` or `` *``,
so it always matches the command it was suggested for under the wildcard rules
(docs/configuration.md, "Wildcards").

It does not own: recording or consulting grants (a grant never lifts a deny), matching patterns,
or resolving paths to absolute form — the caller passes the resolved path.

The bash pattern has a module of its own (``clearance.decide.bash_pattern``), loaded only for a
bash ask. Computed when a human is about to be asked (and by ``check --json``): no ``re``, no
``shlex``.
"""

from __future__ import annotations

from clearance._frozen import Frozen
from clearance.policy.surface import DIRECTIONAL, FAMILIES, PATH_BEARING_TOOLS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Suggestion", "approval_pattern", "both_directions_label", "mcp_pattern", "suggest"]

# Surfaces whose values are paths, and tools whose per-tool surface is decided on a path.
_PATH_SURFACES = frozenset(FAMILIES) | frozenset(DIRECTIONAL)
_PATH_TOOLS = PATH_BEARING_TOOLS


class Suggestion(Frozen):
    """One session-approval option: grant ``pattern`` on ``surface``, shown as ``label``."""

    __slots__ = ("surface", "pattern", "label")  # noqa: RUF023 -- field order is the constructor's
    surface: str
    pattern: str
    label: str

    def __init__(self, surface: str, pattern: str, label: str) -> None:
        object.__setattr__(self, "surface", surface)
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "label", label)


def suggest(
    surface: str, value: str, *, tool: str | None = None, is_dir: bool = False
) -> tuple[Suggestion, ...]:
    """The session-approval options for an ask on ``surface`` about ``value``, best first.

    ``surface`` is the deciding surface (``bash``, ``mcp``, ``skill``, a path surface, or a tool
    name); ``value`` what was decided on it (the command unit, the mcp target, the resolved
    absolute path...). ``tool`` names the tool for the generic label (default: ``surface``).
    ``is_dir`` says a path value is itself a directory: then both ``dir`` and ``dir/*`` are
    offered. An empty bash command yields no suggestion.
    """
    if surface == "bash":
        from clearance.decide.bash_pattern import bash_pattern

        pattern = bash_pattern(value)
        return (Suggestion(surface, pattern, _label(surface, pattern, tool)),) if pattern else ()
    if surface == "mcp":
        pattern = mcp_pattern(value)
    elif surface == "skill":
        pattern = value
    elif surface in _PATH_SURFACES or (surface in _PATH_TOOLS and value):
        return tuple(
            Suggestion(surface, p, _label(surface, p, tool)) for p in _path_patterns(value, is_dir)
        )
    else:
        pattern = "*"
    return (Suggestion(surface, pattern, _label(surface, pattern, tool)),)


def both_directions_label(surfaces_and_patterns: Iterable[Suggestion | tuple[str, str]]) -> str:
    """The label of ``b``: grant reads and writes on the given patterns (docs/approvals.md, "The
    dialog").

    The target is the quoted pattern when there is one distinct pattern, else ``N paths``.
    """
    patterns: list[str] = []
    for item in surfaces_and_patterns:
        pattern = item.pattern if isinstance(item, Suggestion) else item[1]
        if pattern not in patterns:
            patterns.append(pattern)
    target = f'"{patterns[0]}"' if len(patterns) == 1 else f"{len(patterns)} paths"
    return f"Yes, allow reads and writes to {target} for this session"


def approval_pattern(path: str) -> str:
    """The directory of ``path`` (cut at its own last ``/``) followed by ``*``.

    ``/other/project/src/foo.ts`` → ``/other/project/src/*``; ``/x/`` → ``/x/*``;
    ``/foo`` → ``/*``; a path without a separator → ``./*``.
    """
    cut = path.rfind("/")
    return "./*" if cut < 0 else path[: cut + 1] + "*"


def mcp_pattern(target: str) -> str:
    """``server:tool`` → ``server:*``; ``server_tool`` → ``server_*``; else ``*``.

    A host-style name (``mcp__srv__tool``) is kept exactly: its server cannot be told
    from the tool by the name alone once either contains ``__``.
    """
    if target.startswith("mcp__"):
        return target
    colon = target.find(":")
    if colon > 0:
        return target[:colon] + ":*"
    under = target.find("_")
    if under > 0:
        return target[:under] + "_*"
    return "*"


# -- paths and labels ------------------------------------------------------------------------------


def _path_patterns(path: str, is_dir: bool) -> tuple[str, ...]:
    if not is_dir:
        return (approval_pattern(path),)
    directory = path.rstrip("/") or ("/" if path.startswith("/") else ".")
    inside = "/*" if directory == "/" else directory + "/*"
    return (directory, inside)


def _label(surface: str, pattern: str, tool: str | None) -> str:
    if surface == "bash":
        what = f'bash "{pattern}"'
    elif surface == "mcp":
        what = f'mcp tool "{pattern}"'
    elif surface == "skill":
        what = f'skill "{pattern}"'
    elif surface.startswith("external_directory"):
        what = f'access to external directory "{pattern}"'
    elif surface.startswith("path"):
        what = f'path "{pattern}"'
    elif surface in _PATH_TOOLS and pattern != "*":
        what = f'{surface} "{pattern}"'
    else:
        what = f'tool "{tool or surface}"'
    return f"Yes, allow {what} for this session"
