"""Shared by the tests that run an attack in real bash and then decide it: a line run in a
scratch copy of a project changes the protected files or not, and what the engine decides."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

SETTINGS = (".claude/settings.json", ".claude/settings.local.json")


def decide(engine: Engine, project: Path, line: str) -> tuple[str, str | None, str]:
    """The action, the deciding sentinel and the reason for the bash ``line`` in ``project``."""
    found = engine.check(ToolCall("bash", {"command": line}, str(project)))
    sentinel = found.deciding.sentinel if found.deciding is not None else None
    return found.action, sentinel, found.reason


def digest(project: Path, names: Sequence[str] = SETTINGS) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in names:
        path = project / name
        out[name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None
    return out


def changes(
    project: Path,
    tmp_path: Path,
    line: str,
    prepare: Callable[[Path], object] | None = None,
    *,
    watch: Callable[[Path], object] = digest,
    env: Callable[[Path], dict[str, str]] | None = None,
) -> bool:
    """Whether ``line``, run by bash in a fresh copy of ``project`` (``prepare`` run on the
    copy first), changes what ``watch`` sees of the copy (the protected ``SETTINGS``); ``env``
    gives the environment to run it in, from the copy's path."""
    scratch = tmp_path / "run"
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(project, scratch, symlinks=True)
    if prepare is not None:
        prepare(scratch)
    before = watch(scratch)
    subprocess.run(["bash", "-c", line], cwd=scratch, capture_output=True, timeout=60,
                   check=False, env=env(scratch) if env is not None else None)  # fmt: skip
    return watch(scratch) != before
