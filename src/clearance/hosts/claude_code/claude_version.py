"""Which Claude Code is installed, and whether its HTTP hooks honour ``"onFailure": "block"``.

Without ``onFailure`` Claude Code lets a call run when its HTTP hook cannot be reached, answers
5xx, times out or returns something that is not JSON, so ``install claude-code --http`` refuses
such a version instead of installing a hook that fails open.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from clearance.cli._args import UsageError
from clearance.hosts.claude_code.settings import ONFAILURE_SINCE

__all__ = ["claude_version", "require_on_failure"]


def claude_version(binary: str) -> tuple[int, int, int] | None:
    """``claude --version`` as three numbers; ``None`` when it does not say."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30,
                             stdin=subprocess.DEVNULL).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
    if found is None:
        return None
    return int(found.group(1)), int(found.group(2)), int(found.group(3))


def require_on_failure(binary: str | None) -> tuple[int, int, int]:
    """The version of ``binary`` (default: ``claude`` on PATH); raises :class:`UsageError`
    saying why when it is unknown or older than :data:`ONFAILURE_SINCE`."""
    since = ".".join(map(str, ONFAILURE_SINCE))
    path = binary or shutil.which("claude")
    if path is None or not os.access(path, os.X_OK):
        raise UsageError(
            "--http: cannot find Claude Code to check its version (it must be "
            f'{since} or later, which honours "onFailure": "block" on an HTTP hook); '
            "pass --claude PATH"
        )
    version = claude_version(path)
    if version is None:
        raise UsageError(f"--http: `{path} --version` did not print a version; pass --claude PATH")
    if version < ONFAILURE_SINCE:
        shown = ".".join(map(str, version))
        raise UsageError(
            f"--http: Claude Code {shown} is older than {since}: its HTTP hooks ignore "
            '"onFailure": "block", so a refused connection, a 5xx or a timeout would let every '
            "call run. Update Claude Code, or install the command hook (without --http)"
        )
    return version
