"""``clearance log --event`` takes the event names of docs/audit-log.md, and refuses a typo."""

from __future__ import annotations

import pytest

from clearance.audit import review_event as names
from clearance.cli import main


@pytest.mark.parametrize(
    "event",
    [names.ALLOWED, names.DELEGATED, names.WAITING, names.GATE_ERROR, "forwarded_permission.x"],
)
def test_a_known_event_is_accepted(world, capsys, event: str) -> None:  # type: ignore[no-untyped-def]
    assert main(["log", "--event", event]) == 0


def test_a_misspelt_event_is_refused_with_a_suggestion(world, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["log", "--event", "permission_request.delegatd"]) == 2
    assert "permission_request" in capsys.readouterr().err
