from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("starlette")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from servicekit import POLICY, Running


@pytest.fixture
def running(world) -> Iterator[Running]:  # type: ignore[no-untyped-def]
    world.global_config(POLICY)
    project = world.project()
    service = Running(world.env, project)
    yield service
    service.stop()
