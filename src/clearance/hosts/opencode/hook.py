"""``clearance hook opencode``: answers the shipped OpenCode plugin (``plugin/clearance.js``).

OpenCode's tools: ``bash`` (``command``, ``workdir``), ``read``/``write``/``edit``
(``filePath``), ``glob``/``grep`` (``pattern``, ``path``, ``include``), ``list`` (``path``),
``webfetch`` (``url``), ``task``. The plugin denies by throwing; OpenCode's own dialog is not
used, so an ask is forwarded to a serving session or denied.
"""

from __future__ import annotations

from clearance.hosts.command_hook import main
from clearance.hosts.plugin_hook import PluginAdapter
from clearance.hosts.tools import ToolSpec

__all__ = ["OpenCodeAdapter", "run"]


class OpenCodeAdapter(PluginAdapter):
    name = "opencode"
    key = "opencode"
    no_dialog = "the OpenCode plugin cannot show a dialog"
    internal = frozenset({"todowrite", "todoread"})
    tools = {  # noqa: RUF012
        "bash": ToolSpec("Bash", directory="workdir"),
        "read": ToolSpec("Read", {"filePath": "file_path"}),
        "write": ToolSpec("Write", {"filePath": "file_path"}),
        "edit": ToolSpec("Edit", {"filePath": "file_path"}),
        "multiedit": ToolSpec("Edit", {"filePath": "file_path"}),
        "glob": ToolSpec("Glob"),
        "grep": ToolSpec("Grep", {"include": "glob"}),
        "list": ToolSpec("LS"),
        "webfetch": ToolSpec("WebFetch"),
        "task": ToolSpec("Task"),
    }


def run() -> int:
    return main(OpenCodeAdapter())
