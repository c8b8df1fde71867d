"""Which Claude Code is installed, and whether its hooks can fail closed (``onFailure``).

From 2.1.332 on, a hook entry may carry ``"onFailure": "block"``: a hook that crashes, times out
or cannot be started then blocks the call instead of letting it run. ``clearance install
claude-code`` sets it when the ``claude`` on ``PATH`` is that version or later, and ``doctor``
reports the version and whether the installed hooks carry it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ON_FAILURE_SINCE", "installed_version", "parse_version", "supports_on_failure"]

ON_FAILURE_SINCE = (2, 1, 332)


def parse_version(text: str) -> tuple[int, int, int] | None:
    """``2.1.332 (Claude Code)`` → ``(2, 1, 332)``."""
    found = re.search(r"(\d+)\.(\d+)\.(\d+)", text)
    if found is None:
        return None
    return int(found[1]), int(found[2]), int(found[3])


def installed_version(env: Mapping[str, str] | None = None) -> tuple[int, int, int] | None:
    """The version of the ``claude`` on ``PATH``, or ``None`` when there is none or it fails."""
    env = os.environ if env is None else env
    binary = shutil.which("claude", path=env.get("PATH"))
    if binary is None:
        return None
    try:
        proc = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL, env=dict(env))  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_version(proc.stdout) if proc.returncode == 0 else None


def supports_on_failure(version: tuple[int, int, int] | None) -> bool:
    return version is not None and version >= ON_FAILURE_SINCE
