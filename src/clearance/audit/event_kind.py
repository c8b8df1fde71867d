"""The kinds of event the bus carries (docs/notifications.md), named once: a hook that emits
none loads only these names, not :mod:`clearance.audit.event`."""

from __future__ import annotations

__all__ = ["DECISION", "EVENT_KINDS", "UI_PROMPT"]

DECISION = "decision"  # a call was resolved
UI_PROMPT = "ui_prompt"  # a human is about to be asked
EVENT_KINDS = (DECISION, UI_PROMPT)
