"""clearance.intent.shell: what a bash command line runs and which paths it touches.

Pure analysis, no policy: :func:`analyze` turns a command line into facts (units, path tokens,
fail-closed flags) that the bash and path gates decide on. Importing this package is cheap;
tree-sitter is loaded the first time :func:`analyze` parses something. See
``docs/shell-analysis.md``.
"""

from __future__ import annotations

from clearance.intent.shell.analysis import Analysis, analyze
from clearance.intent.shell.token import PathToken
from clearance.intent.shell.unit import Unit

__all__ = ["Analysis", "PathToken", "Unit", "analyze"]
