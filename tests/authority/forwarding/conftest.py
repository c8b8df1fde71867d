"""Fixtures shared by the forwarding tests: the project directory and serving processes that are
always stopped, whatever a test does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fwdharness import Serving


@pytest.fixture
def project(world: Any) -> Path:
    path: Path = world.project("proj")
    return path


@pytest.fixture
def servers() -> Iterator[list[Serving]]:
    started: list[Serving] = []
    yield started
    for server in started:
        server.close()
