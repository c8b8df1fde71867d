from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.audit.bus import Consumer, EventBus
from clearance.audit.event import Event
from clearance.audit.log import ReviewLog


class Recorder(Consumer):
    __slots__ = ("kinds", "seen")

    def __init__(self, kinds: tuple[str, ...] = ("ui_prompt", "decision")) -> None:
        self.kinds = kinds
        self.seen: list[Event] = []

    def accepts(self, kind: str) -> bool:
        return kind in self.kinds

    def consume(self, event: Event) -> None:
        self.seen.append(event)


class Broken(Consumer):
    __slots__ = ()

    def describe(self) -> str:
        return "broken"

    def consume(self, event: Event) -> None:
        raise RuntimeError("socket on fire")


def prompt() -> Event:
    return Event("ui_prompt", {"requestId": "req-1", "tool": "bash", "value": "git push"})


def test_an_event_reaches_every_consumer_that_accepts_its_kind() -> None:
    everything, decisions = Recorder(), Recorder(("decision",))
    bus = EventBus([everything, decisions])
    assert bus.emit(prompt()) == []
    assert [e.kind for e in everything.seen] == ["ui_prompt"]
    assert decisions.seen == []


def test_a_failing_consumer_is_reported_and_the_next_one_still_runs(tmp_path: Path) -> None:
    log_path = tmp_path / "review.jsonl"
    after = Recorder()
    bus = EventBus([Broken(), after], log=ReviewLog(str(log_path)))
    warnings = bus.emit(prompt())
    assert warnings == ["clearance: notify consumer broken failed on ui_prompt: socket on fire"]
    assert len(after.seen) == 1
    (record,) = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert record["event"] == "notify.error"
    assert record["consumer"] == "broken" and record["kind"] == "ui_prompt"
    assert record["requestId"] == "req-1" and "socket on fire" in record["error"]


def test_a_failure_without_a_log_is_still_returned_and_never_raised() -> None:
    assert len(EventBus([Broken()]).emit(prompt())) == 1


def test_a_consumer_can_be_subscribed_and_unsubscribed() -> None:
    bus = EventBus()
    recorder = Recorder()
    unsubscribe = bus.subscribe(recorder)
    bus.emit(prompt())
    unsubscribe()
    unsubscribe()
    bus.emit(prompt())
    assert len(recorder.seen) == 1 and bus.consumers == ()


def test_an_event_of_an_unknown_kind_cannot_be_made() -> None:
    with pytest.raises(ValueError, match="ui_prompt"):
        Event("prompted", {})  # type: ignore[arg-type]


def test_an_events_json_is_redacted_and_capped() -> None:
    event = Event(
        "decision",
        {"surface": "bash", "value": "TOKEN=t deploy " + "x" * 50, "headers": {"Cookie": "c"}},
        timestamp=0,
    )
    document = json.loads(event.to_json(max_width=20))
    assert document == {
        "kind": "decision",
        "timestamp": "1970-01-01T00:00:00.000Z",
        "payload": {
            "surface": "bash",
            "value": "TOKEN=[redacted] deploy xxxxx\u2026",
            "headers": {"Cookie": "[redacted]"},
        },
    }


@pytest.mark.parametrize(
    ("kind", "payload", "summary"),
    [
        ("ui_prompt", {"surface": "bash", "value": "git push"}, "ask: bash git push"),
        (
            "ui_prompt",
            {"tool": "read", "value": "/etc/hosts", "agent": "rev"},
            "ask: read /etc/hosts (agent rev)",
        ),
        (
            "decision",
            {"surface": "mcp", "value": "github:x", "result": "deny"},
            "deny: mcp github:x",
        ),
        ("decision", {"tool": "task"}, "decision: task"),
        # As the gatekeeper emits it (docs/notifications.md): the word is under "decision".
        ("decision", {"surface": "bash", "value": "ls", "decision": "allow"}, "allow: bash ls"),
        (
            "ui_prompt",
            {"surface": "bash", "value": "API_KEY=k x"},
            "ask: bash API_KEY=[redacted] x",
        ),
    ],
)
def test_an_event_has_a_one_line_summary(
    kind: str, payload: dict[str, object], summary: str
) -> None:
    assert Event(kind, payload).summary() == summary  # type: ignore[arg-type]
