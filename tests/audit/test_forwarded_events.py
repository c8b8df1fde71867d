"""Forwarding's review-event names are defined once (``clearance._forwarded_events``), and each
is documented in docs/audit-log.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance import _forwarded_events as events
from clearance.audit.review_event import FORWARDED_PREFIX, decision_of

DOC = (Path(__file__).resolve().parents[2] / "docs" / "audit-log.md").read_text(encoding="utf-8")
NAMES = sorted(getattr(events, n) for n in events.__all__ if n != "FORWARDED_PREFIX")


@pytest.mark.parametrize("name", NAMES)
def test_each_forwarded_event_is_in_the_family_and_documented(name: str) -> None:
    assert name.startswith(FORWARDED_PREFIX)
    suffix = name.removeprefix(FORWARDED_PREFIX)
    assert f"`{name}`" in DOC or f"`.{suffix}`" in DOC, f"{name} is not in docs/audit-log.md"


@pytest.mark.parametrize(
    ("name", "decision"),
    [
        (events.PROMPTED, "ask"),
        (events.APPROVED, "allow"),
        (events.AUTO_APPROVED, "allow"),
        (events.DENIED, "deny"),
        (events.AUTO_DENIED, "deny"),
        (events.FILE_REJECTED, None),
    ],
)
def test_the_review_log_reads_a_decision_from_a_forwarded_event(
    name: str, decision: str | None
) -> None:
    assert decision_of({"event": name}) == decision
