"""Which tools carry paths, where in their input, and in which direction.

File tools keep their path under the names hosts use (``path``, ``file_path``,
``notebook_path``); MCP tools under ``arguments.path`` and the like. An integration declares
another tool with :func:`register_path_tool`. Reads consult ``*_read``, writes ``*_write``, and
edits, MCP and unknown tools both (docs/configuration.md, "Paths").

A search tool's filter is a path too: Grep's ``glob`` and Glob's ``pattern``, joined with the
tool's ``path`` (or the cwd). The pattern text itself is checked as a path spelling (so
``*.env`` meets a ``*.env`` rule), Grep's directory-free globs also as ``<root>/**/<glob>``
(ripgrep matches them at any depth), and the pattern is expanded against the filesystem
(bounded: the root and one directory below, hidden files included) so each existing file it
reaches (``.e*`` → ``.env``) is checked as itself.
"""

from __future__ import annotations

from clearance.intent.call import CANONICAL_TOOLS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.intent.call import ToolCall
    from clearance.intent.fact import Direction

__all__ = ["MAX_PATHS", "PATH_TOOLS", "patch_paths", "paths_of", "register_path_tool"]

# The most paths one call may name: each is resolved and matched, and a host lets a call through
# when its hook outlasts the host's timeout, so a call naming more is denied, not checked.
MAX_PATHS = 1000

_FILE_KEYS = ("file_path", "path", "notebook_path", "filePath")
# Argument names MCP servers use for paths (the filesystem server's move_file uses
# source/destination), compared without case, `_` or `-` (`file_path`, `filePath` and `FILEPATH`
# are one name); string values only, `file://` URIs unwrapped, one level of nesting.
_MCP_KEYS = frozenset(
    {
        "path", "paths", "filepath", "filepaths", "notebookpath", "filename", "filenames",
        "file", "files", "source", "sourcepath", "destination", "destinationpath", "src", "dst",
        "dest", "destpath", "targetpath", "targetfile", "outputpath", "outputfile", "outfile",
        "inputpath", "inputfile", "directory", "directorypath", "dir", "dirpath", "folder",
        "folderpath", "workdir", "workingdirectory", "cwd", "root", "uri", "uris",
        "absolutepath", "relativepath",
    }
)  # fmt: skip


def _key(name: str) -> str:
    """An argument name as :data:`_MCP_KEYS` spells it."""
    return name.replace("_", "").replace("-", "").lower()


# canonical tool -> the input key holding its filter pattern
_FILTER_KEYS = {"grep": "glob", "find": "pattern"}

# canonical tool -> (input keys, direction, path optional)
PATH_TOOLS: dict[str, tuple[tuple[str, ...], Direction, bool]] = {
    "read": (_FILE_KEYS, "read", False),
    "write": (_FILE_KEYS, "write", False),
    "edit": (_FILE_KEYS, "both", False),
    "grep": (("path",), "read", True),
    "find": (("path",), "read", True),
    "ls": (("path",), "read", True),
}


_PATCH_BEGIN = "*** Begin Patch"
_PATCH_MARKERS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")


def patch_paths(patch: str) -> list[str]:
    """Every file a Codex ``apply_patch`` envelope adds, updates, deletes or moves to.

    Read as Codex reads it: lines end only at ``\n``, and a file header counts with blanks
    around it (``"  *** Add File: x"`` adds ``x``), so no header Codex obeys is missed."""
    found: dict[str, None] = {}  # ordered, and deduplicated in constant time
    for line in patch.split("\n"):
        line = line.strip()
        for marker in _PATCH_MARKERS:
            if line.startswith(marker):
                path = line[len(marker) :].strip()
                if path:
                    found[path] = None
    return list(found)


def _patches(arguments: dict[str, object], depth: int = 0) -> list[str]:
    """The files of every patch envelope among ``arguments``' string values (one level of
    nesting, as for MCP paths)."""
    found: list[str] = []
    for value in arguments.values():
        if isinstance(value, str) and _PATCH_BEGIN in value:
            found += patch_paths(value)
        elif depth < 2 and isinstance(value, dict):
            found += _patches(value, depth + 1)
        elif depth < 2 and isinstance(value, list):
            for item in value:
                if isinstance(item, str) and _PATCH_BEGIN in item:
                    found += patch_paths(item)
                elif isinstance(item, dict):
                    found += _patches(item, depth + 1)
    return found


def register_path_tool(tool: str, keys: tuple[str, ...], direction: Direction = "both") -> None:
    """Declare that ``tool`` keeps paths under ``keys`` of its input (a list value counts too)."""
    PATH_TOOLS[tool] = (tuple(keys), direction, True)


def _strings(value: object) -> list[str]:
    if isinstance(value, str) and value:
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str) and v]
    return []


def _path_of(value: str) -> str | None:
    if value.startswith("file://"):
        return value[7:] or None
    if "://" in value:
        return None  # a URL, not a path
    return value


def _mcp_paths(arguments: dict[str, object], depth: int = 0) -> list[str]:
    found: list[str] = []
    for key, value in arguments.items():
        if _key(key) in _MCP_KEYS:
            found += [p for p in map(_path_of, _strings(value)) if p]
        elif depth < 2 and isinstance(value, dict):
            found += _mcp_paths(value, depth + 1)
        elif depth < 2 and isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    found += _mcp_paths(item, depth + 1)
    return found


def _filter_paths(tool: str, data: dict[str, object], cwd: str, home: str | None) -> list[str]:
    """The path spellings and existing matches of a search tool's filter pattern."""
    pattern = data.get(_FILTER_KEYS[tool])
    if not isinstance(pattern, str) or not pattern:
        return []
    root = data.get("path")
    root = root if isinstance(root, str) and root else ""
    patterns = [pattern]
    if tool == "grep" and "/" not in pattern:
        patterns.append("**/" + pattern)
    spelled = []
    for text in patterns:
        if text.startswith(("/", "~")) or not root:
            spelled.append(text)
        else:
            spelled.append(root.rstrip("/") + "/" + text)
    found = list(spelled)
    from clearance.intent.glob import GLOB_CHARS, expand_pattern

    if GLOB_CHARS.isdisjoint(pattern):
        return found
    import os.path

    for text in spelled:
        if text.startswith("~") and home:
            text = home + text[1:] if text[1:2] in ("", "/") else text
        absolute = text if text.startswith("/") else os.path.join(cwd or "/", text)
        found += expand_pattern(absolute, hidden=True)
    if tool == "grep" and "/" not in pattern:
        base = spelled[0][: len(spelled[0]) - len(pattern)] or "./"
        base = base if base.startswith("/") else os.path.join(cwd or "/", base)
        found += expand_pattern(base.rstrip("/") + "/*/" + pattern, hidden=True)
    return list(dict.fromkeys(found))


def paths_of(call: ToolCall, home: str | None = None) -> tuple[list[str], Direction, bool]:
    """(raw paths, direction, whether the tool is path-bearing at all).

    ``home`` expands a ``~`` in a search filter before it is matched against the filesystem.
    """
    kind = call.kind
    data = call.input
    entry = PATH_TOOLS.get(call.tool) or PATH_TOOLS.get(kind)
    if entry is not None:
        keys, direction, _ = entry
        if isinstance(data, str):
            return ([data] if data else []), direction, True
        if isinstance(data, dict):
            # Every key counts: `{"file_path": "ok.txt", "path": ".env"}` touches both.
            found: dict[str, None] = {}  # ordered, and deduplicated in constant time
            for key in keys:
                found.update(dict.fromkeys(_strings(data.get(key))))
            if kind in _FILTER_KEYS:
                found.update(dict.fromkeys(_filter_paths(kind, data, call.cwd, home)))
            return list(found), direction, True
        return [], direction, True
    if kind == "mcp" and isinstance(data, dict):
        args = data.get("arguments")
        source = args if isinstance(args, dict) else data
        return list(dict.fromkeys(_mcp_paths(source) + _patches(source))), "both", False
    if isinstance(data, dict) and kind not in CANONICAL_TOOLS:
        # A tool clearance does not know (another host's file or patch tool): its arguments
        # are read as an MCP tool's, so a path or a patch in them meets the path gates.
        return list(dict.fromkeys(_mcp_paths(data) + _patches(data))), "both", False
    return [], "both", False
