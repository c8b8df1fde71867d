"""Fixtures for the end-to-end tests: the real Claude Code, found where
``.ci/install-claude-code`` installed it; without it these tests skip and say how to install it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from claude_harness import CLAUDE, ClaudeProject


@pytest.fixture(scope="session")
def claude_bin() -> Path:
    if not os.access(CLAUDE, os.X_OK):
        pytest.skip(f"Claude Code is not installed at {CLAUDE}; run .ci/install-claude-code")
    return CLAUDE


@pytest.fixture
def claude(tmp_path: Path, claude_bin: Path) -> ClaudeProject:
    return ClaudeProject(tmp_path, claude_bin)
