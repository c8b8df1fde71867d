"""The differential harness: real bash in bubblewrap under strace, against the analysis.

Skipped, with the reason, when bwrap or strace cannot run (``.ci/run`` installs both).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from differential_harness import PERMISSIVE, Harness
from traced_bash import Sandbox, runnable

from clearance.decide.engine import Engine


@pytest.fixture(scope="session")
def harness(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    reason = runnable()
    if reason is not None:
        pytest.skip(reason)
    base = tmp_path_factory.mktemp("differential")
    sandbox = Sandbox(base)
    env = {
        "HOME": str(sandbox.home),
        "XDG_CONFIG_HOME": str(base / "config"),
        "XDG_STATE_HOME": str(base / "xdg-state"),
        "CLEARANCE_HOME": str(base / "state"),
    }
    cwd = str(sandbox.work)
    engines = {
        "permissive": Engine.load(cwd=cwd, policy=json.dumps(PERMISSIVE), env=env),
        "built-in": Engine.load(cwd=cwd, env=env),
    }
    yield Harness(sandbox, engines)
