"""``clearance hook pi``: answers the shipped pi extension (``plugin/clearance.ts``).

pi's tools: ``bash`` (``command``), ``read``/``write``/``edit`` (``path``), ``grep``
(``pattern``, ``path``, ``glob``), ``find`` (``pattern``, ``path``), ``ls`` (``path``). With a
UI (``ctx.hasUI``) an ask is shown in pi's own dialog; in print or RPC mode without one it is
forwarded to a serving session, else denied.
"""

from __future__ import annotations

from clearance.hosts.command_hook import main
from clearance.hosts.plugin_hook import PluginAdapter
from clearance.hosts.tools import ToolSpec, file_tools

__all__ = ["PiAdapter", "run"]


class PiAdapter(PluginAdapter):
    name = "pi"
    key = "pi"
    no_dialog = "pi runs without a UI here (print or RPC mode)"
    tools = {  # noqa: RUF012
        "bash": ToolSpec("Bash"),
        **file_tools("path", Read=("read",), Write=("write",), Edit=("edit",)),
        "grep": ToolSpec("Grep"),
        "find": ToolSpec("Glob"),
        "ls": ToolSpec("LS"),
    }


def run() -> int:
    return main(PiAdapter())
