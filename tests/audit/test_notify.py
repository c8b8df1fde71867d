from __future__ import annotations

import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from clearance.audit.bus import EventBus
from clearance.audit.event import Event
from clearance.audit.log import ReviewLog
from clearance.audit.notify import (
    CommandConsumer,
    NotifyConfigError,
    WebhookConsumer,
    consumers_from_config,
)


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


def prompt(**payload: object) -> Event:
    return Event("ui_prompt", {"requestId": "req-1", "surface": "bash", "value": "ls", **payload})


def test_a_command_receives_the_event_json_on_stdin(tmp_path: Path) -> None:
    out = tmp_path / "event.json"
    consumer = CommandConsumer(("sh", "-c", f"cat > '{out}'"))
    consumer.consume(prompt(token="t"))
    document = json.loads(out.read_text())
    assert document["kind"] == "ui_prompt"
    assert document["payload"] == {
        "requestId": "req-1",
        "surface": "bash",
        "value": "ls",
        "token": "[redacted]",
    }


def test_kind_and_summary_placeholders_are_filled_in_the_arguments(tmp_path: Path) -> None:
    out = tmp_path / "args.txt"
    consumer = CommandConsumer(
        ("sh", "-c", f'printf "%s|%s" "$1" "$2" > \'{out}\'', "-", "{kind}", "{summary}")
    )
    consumer.consume(prompt(value="git push"))
    assert out.read_text() == "ui_prompt|ask: bash git push"


def test_a_command_that_fails_is_an_error_with_its_status_and_stderr() -> None:
    consumer = CommandConsumer(("sh", "-c", "echo nope >&2; exit 3"))
    with pytest.raises(RuntimeError, match="status 3: nope"):
        consumer.consume(prompt())


def test_a_missing_program_is_an_error_the_bus_logs(tmp_path: Path) -> None:
    log = tmp_path / "review.jsonl"
    bus = EventBus([CommandConsumer(("/nonexistent/notifier",))], log=ReviewLog(str(log)))
    warnings = bus.emit(prompt())
    assert len(warnings) == 1 and "command /nonexistent/notifier" in warnings[0]
    assert json.loads(log.read_text())["event"] == "notify.error"


def test_a_command_running_past_its_timeout_is_killed_within_the_bound() -> None:
    consumer = CommandConsumer(("sleep", "30"), timeout=0.3)
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="killed"):
        consumer.consume(prompt())
    assert time.monotonic() - started < 5


class Catcher(BaseHTTPRequestHandler):
    received: ClassVar[list[tuple[str, dict[str, str], bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, dict(self.headers), body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve_once(server: HTTPServer) -> threading.Thread:
    server.timeout = 5
    thread = threading.Thread(target=server.handle_request, daemon=True)
    thread.start()
    return thread


def test_a_webhook_posts_the_event_json_to_a_real_server() -> None:
    Catcher.received = []
    with HTTPServer(("127.0.0.1", 0), Catcher) as server:
        thread = serve_once(server)
        url = f"http://127.0.0.1:{server.server_port}/hook/s3cr3t"
        consumer = WebhookConsumer(url, headers=(("X-Team", "ops"),), timeout=5)
        consumer.consume(prompt(apiKey="k"))
        thread.join(5)
    ((path, headers, body),) = Catcher.received
    assert path == "/hook/s3cr3t"
    assert headers["Content-Type"] == "application/json" and headers["X-Team"] == "ops"
    document = json.loads(body)
    assert document["kind"] == "ui_prompt" and document["payload"]["apiKey"] == "[redacted]"


def test_a_webhook_to_a_closed_port_fails_fast_and_is_logged_without_its_path(
    tmp_path: Path,
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "review.jsonl"
    bus = EventBus(
        [WebhookConsumer(f"http://127.0.0.1:{port}/hook/s3cr3t")], log=ReviewLog(str(log))
    )
    started = time.monotonic()
    warnings = bus.emit(prompt())
    assert time.monotonic() - started < 2
    assert len(warnings) == 1 and f"webhook http://127.0.0.1:{port} " in warnings[0]
    assert "s3cr3t" not in warnings[0] and "s3cr3t" not in log.read_text()
    assert json.loads(log.read_text())["event"] == "notify.error"


def test_a_webhook_that_never_answers_is_abandoned_at_the_timeout() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)  # accepts the connection, never answers
        consumer = WebhookConsumer(f"http://127.0.0.1:{silent.getsockname()[1]}/", timeout=0.3)
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            consumer.consume(prompt())
        assert time.monotonic() - started < 2


def test_consumers_are_built_from_config_with_shared_and_own_settings() -> None:
    consumers = consumers_from_config(
        {
            "events": ["ui_prompt", "decision"],
            "timeout": 1,
            "command": ["notify-send", "clearance", "{summary}"],
            "webhook": [
                "https://hooks.example/a",
                {
                    "url": "http://127.0.0.1:9/b",
                    "events": ["decision"],
                    "timeout": 0.5,
                    "headers": {"X-Token": "t"},
                },
            ],
        }
    )
    assert consumers == [
        CommandConsumer(
            ("notify-send", "clearance", "{summary}"),
            kinds=frozenset({"ui_prompt", "decision"}),
            timeout=1,
        ),
        WebhookConsumer(
            "https://hooks.example/a", kinds=frozenset({"ui_prompt", "decision"}), timeout=1
        ),
        WebhookConsumer(
            "http://127.0.0.1:9/b",
            headers=(("X-Token", "t"),),
            kinds=frozenset({"decision"}),
            timeout=0.5,
        ),
    ]


def test_the_default_is_prompts_only_with_a_two_second_timeout() -> None:
    (consumer,) = consumers_from_config({"command": {"argv": ["notify-send", "x"]}})
    assert isinstance(consumer, CommandConsumer)
    assert consumer.kinds == frozenset({"ui_prompt"}) and consumer.timeout == 2.0
    assert consumers_from_config({}) == []


@pytest.mark.parametrize(
    ("notify", "message"),
    [
        ([], "notify: expected an object, got a list"),
        (
            {"comand": ["x"]},
            'notify.comand: unknown key "comand" (allowed: command, events, timeout, webhook)',
        ),
        (
            {"command": "notify-send clearance"},
            'notify.command: expected a non-empty list of strings such as ["notify-send", "clearance", "{summary}"], got "notify-send clearance"',
        ),
        ({"command": []}, "notify.command: expected a non-empty list of strings"),
        ({"command": ["notify-send", 3]}, "notify.command[1]: expected a string, got 3"),
        (
            {"command": {"args": ["x"]}},
            'notify.command.args: unknown key "args" (allowed: argv, events, timeout)',
        ),
        ({"command": {"events": ["decision"]}}, 'notify.command: missing "argv"'),
        (
            {"events": ["decisions"]},
            'notify.events[0]: unknown event kind "decisions" (allowed: decision, ui_prompt)',
        ),
        ({"events": "ui_prompt"}, "notify.events: expected a non-empty list of event kinds"),
        (
            {"timeout": 0},
            "notify.timeout: expected a number of seconds above 0 and at most 30, got 0",
        ),
        (
            {"timeout": True},
            "notify.timeout: expected a number of seconds above 0 and at most 30, got true",
        ),
        (
            {"timeout": 60},
            "notify.timeout: expected a number of seconds above 0 and at most 30, got 60",
        ),
        (
            {"webhook": "ftp://x"},
            'notify.webhook: expected an http:// or https:// URL, got "ftp://x"',
        ),
        (
            {"webhook": {"url": "https:/x"}},
            'notify.webhook.url: expected an http:// or https:// URL, got "https:/x"',
        ),
        (
            {"webhook": {"uri": "https://x"}},
            'notify.webhook.uri: unknown key "uri" (allowed: events, headers, timeout, url)',
        ),
        (
            {"webhook": {"url": "https://x", "headers": {"X": 1}}},
            "notify.webhook.headers.X: expected a one-line string, got 1",
        ),
        (
            {"webhook": {"url": "https://x", "headers": {"X": "a\nb"}}},
            "notify.webhook.headers.X: expected a one-line string",
        ),
        (
            {"webhook": [{"url": "https://x", "timeout": "2"}]},
            'notify.webhook[0].timeout: expected a number of seconds above 0 and at most 30, got "2"',
        ),
        ({"webhook": []}, "notify.webhook: expected a URL, an object or a non-empty list"),
    ],
)
def test_an_invalid_notify_config_names_the_key_and_what_is_allowed(
    notify: object, message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        consumers_from_config(notify)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, NotifyConfigError)


def test_a_config_error_carries_the_path_of_the_bad_key() -> None:
    with pytest.raises(NotifyConfigError) as caught:
        consumers_from_config({"webhook": [{"url": "https://x"}, {"url": 5}]})
    assert caught.value.path == ("notify", "webhook", 1, "url")


def test_the_notifiers_heavy_imports_wait_until_an_event_is_delivered() -> None:
    import subprocess

    code = (
        "import sys, clearance.audit.notify as n; n.consumers_from_config({'webhook': 'https://x'});"
        "print(sorted(m for m in ('urllib.request', 'subprocess', 'threading', 'json') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
