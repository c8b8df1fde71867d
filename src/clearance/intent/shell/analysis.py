"""The analysis of one bash command line: units, path tokens, and the fail-closed facts.

:func:`analyze` never raises. Whatever goes wrong inside (a grammar surprise, a recursion limit,
an allocation failure), it returns an analysis whose single unit is the whole command marked
``unresolved``: the gate floors that to *ask* (docs/shell-analysis.md, "What is floored, and the
facts behind it"). The reading itself is :mod:`clearance.intent.shell.session`.
"""

from __future__ import annotations

from clearance.intent.path import lexists
from clearance.intent.shell.analyzed import Analysis
from clearance.intent.shell.session import analyze_line as _analyze
from clearance.intent.shell.unit import Unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["MAX_LINE", "Analysis", "analyze"]

# A longer line is not read: its analysis fails closed. The reading is linear or better in the
# length but runs in compiled code the deadline cannot interrupt (ADR 0058), and a hook is handed
# up to 32 MiB; real agent lines, heredocs included, stay far below.
MAX_LINE = 256 * 1024


def analyze(
    command: str,
    *,
    cwd: str | None,
    home: str,
    exists: Callable[[str], bool] | None = None,
) -> Analysis:
    """Analyse ``command`` as bash run in ``cwd`` (``None``: unknown) by a user whose home is
    ``home``; ``exists(abs_path)`` tells whether a bare word names an existing entry (default
    :func:`clearance.intent.path.lexists`, which is :func:`os.path.lexists`). Never raises: an
    internal failure yields the fail-closed analysis, and so does a line longer than
    :data:`MAX_LINE` characters."""
    if isinstance(command, str) and len(command) > MAX_LINE:
        return _fail_closed(command)
    try:
        return _analyze(command, cwd, home, exists or lexists)
    except Exception:
        return _fail_closed(command)


def _fail_closed(command: str) -> Analysis:
    text = command if isinstance(command, str) else repr(command)
    return Analysis(text, (Unit(text, unresolved=True),), (), False, True)
