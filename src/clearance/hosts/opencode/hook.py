"""``clearance hook opencode``: answers the shipped OpenCode plugin (``plugin/clearance.js``).

OpenCode's tools: ``bash`` (``command``, ``workdir``), ``read``/``write``/``edit``
(``filePath``), ``glob``/``grep`` (``pattern``, ``path``, ``include``), ``list`` (``path``),
``webfetch`` (``url``), ``task``, ``apply_patch`` (``patchText``, Codex's patch envelope).
The plugin denies by throwing; OpenCode's own dialog is not used, so an ask is forwarded to a
serving session or denied.
"""

from __future__ import annotations

from clearance.hosts.command_hook import main
from clearance.hosts.plugin_hook import PluginAdapter
from clearance.hosts.tools import ToolSpec, file_tools

__all__ = ["OpenCodeAdapter", "run"]


class OpenCodeAdapter(PluginAdapter):
    name = "opencode"
    key = "opencode"
    no_dialog = "the OpenCode plugin cannot show a dialog"
    internal = frozenset({"todowrite", "todoread"})
    tools = {  # noqa: RUF012
        "bash": ToolSpec("Bash", directory="workdir"),
        **file_tools("filePath", Read=("read",), Write=("write",), Edit=("edit", "multiedit")),
        "glob": ToolSpec("Glob"),
        "grep": ToolSpec("Grep", {"include": "glob"}),
        "list": ToolSpec("LS"),
        "webfetch": ToolSpec("WebFetch"),
        "task": ToolSpec("Task"),
    }
    # The Codex patch envelope, which OpenCode gives GPT models in place of edit and write.
    patches = {"apply_patch": "patchText", "patch": "patchText"}  # noqa: RUF012


def run() -> int:
    return main(OpenCodeAdapter())
