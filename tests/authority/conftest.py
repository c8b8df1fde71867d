"""Fixtures for the authority tests."""

from __future__ import annotations

import pytest
from ptydialog import BASIC, Dialog

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path
    from typing import Any


@pytest.fixture
def open_dialog(tmp_path: Path) -> Iterator[Callable[..., Dialog]]:
    """Start a dialog: ``open_dialog(**prompt_changes, options={...})``, shown and ready."""
    started: list[Dialog] = []

    def start(
        *, columns: int = 80, rows: int = 24, options: dict[str, Any] | None = None, **changes: Any
    ) -> Dialog:
        dialog = Dialog(tmp_path, {**BASIC, **changes}, columns, rows, **(options or {}))
        started.append(dialog)
        dialog.wait_for("No, with a reason")  # keys typed before the dialog shows are dropped
        dialog.settle(0.1)
        return dialog

    yield start
    for dialog in started:
        dialog.close()
