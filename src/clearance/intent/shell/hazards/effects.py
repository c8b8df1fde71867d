"""What a knowledge-base finding adds to the line's assembly: the units of the payloads it
found and the path tokens of what the program reads and writes."""

from __future__ import annotations

from clearance.intent.shell.token import PathToken
from clearance.intent.shell.variables import work_tree_top

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.intent.shell.assembly import Assembly
    from clearance.intent.shell.hazards.finding import Finding
    from clearance.intent.shell.statement import Statement

__all__ = ["effects"]


def effects(asm: Assembly, finding: Finding, stmt: Statement, base: str | None) -> None:
    """The payload units and path tokens of a knowledge-base finding."""
    from clearance.intent.shell.assembly import MAX_LAYERS

    if finding.payloads and asm.depth < MAX_LAYERS:
        for payload in finding.payloads:
            asm.units.extend(asm.payloads(payload, stmt, asm.depth + 1))
    if not asm.project:
        return
    command = stmt.text
    paths = asm.paths
    for raw in finding.writes:
        paths.value(raw, raw, base, command, "write", "syntax", True)
    for raw in finding.reads:
        paths.value(raw, raw, base, command, "read", "syntax", True)
    if finding.tree_reads:
        top = work_tree_top(base, asm.exists)
        for raw in finding.tree_reads:
            # `HEAD:path` names a path from the top of the work tree (`./path`: from here).
            root = base if raw.startswith(("./", "../")) else top
            paths.value(raw, raw, root, command, "read", "syntax", True)
    for raw in finding.paths:
        paths.value(raw, raw, base, command, "unproven", "unproven", True)
    for shown in finding.listed:  # unknown paths, as xargs's operands are
        asm.tokens.append(PathToken(shown, None, "read", "computed", command))
