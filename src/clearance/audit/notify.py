"""Notification consumers built from the ``notify`` config key: a command and a webhook.

```jsonc
"notify": {
  "events": ["ui_prompt"],                          // default for every consumer; default ui_prompt
  "timeout": 2,                                     // seconds, default 2, at most 30
  "command": ["notify-send", "clearance", "{summary}"],
  "webhook": {"url": "https://hooks.example/x", "headers": {"X-Token": "…"}}
}
```

``command`` is an argv list (no shell), an object ``{"argv", "events"?, "timeout"?}``, or a list
of such objects; the event JSON is written to its stdin and ``{kind}`` / ``{summary}`` (and
``{link}``, the ask's address in the web console of ``clearance serve --listen``) in an
argument are replaced. ``webhook`` is a URL, an object ``{"url", "headers"?, "events"?,
"timeout"?}``, or a list of them; the event JSON is POSTed. Both are bounded by their timeout: a
command still running is killed, a webhook still in flight is abandoned, and either failure is
reported by the bus — a notification never blocks or changes a decision beyond its timeout.
``subprocess``, ``threading`` and ``urllib`` are imported only when an event is delivered.
"""

from __future__ import annotations

from _collections_abc import Mapping

from clearance._frozen import Frozen
from clearance.audit.bus import Consumer
from clearance.audit.event_kind import EVENT_KINDS, UI_PROMPT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeGuard

    from clearance.audit.event import Event

__all__ = [
    "DEFAULT_EVENTS",
    "DEFAULT_TIMEOUT",
    "CommandConsumer",
    "NotifyConfigError",
    "WebhookConsumer",
    "consumers_from_config",
]

DEFAULT_EVENTS = (UI_PROMPT,)
DEFAULT_TIMEOUT = 2.0
MAX_TIMEOUT = 30.0
_set = object.__setattr__
_TOP_KEYS = ("command", "events", "timeout", "webhook")
_COMMAND_KEYS = ("argv", "events", "timeout")
_WEBHOOK_KEYS = ("events", "headers", "timeout", "url")

Path = tuple["str | int", ...]


class NotifyConfigError(ValueError):
    """A bad ``notify`` value; ``path`` locates it (``("notify", "webhook", "url")``)."""

    def __init__(self, path: Path, message: str) -> None:
        super().__init__(f"{_spell(path)}: {message}")
        self.path = path


class _Bounded(Consumer, Frozen):
    """A consumer of the event ``kinds`` it was configured for, bounded by ``timeout`` seconds."""

    __slots__ = ("kinds", "timeout")
    kinds: frozenset[str]
    timeout: float

    def __init__(self, kinds: frozenset[str], timeout: float) -> None:
        _set(self, "kinds", frozenset(kinds))
        _set(self, "timeout", float(timeout))

    def accepts(self, kind: str) -> bool:
        return kind in self.kinds


class CommandConsumer(_Bounded):
    """Runs ``argv`` with the event JSON on stdin; kills it after ``timeout`` seconds."""

    __slots__ = ("argv",)
    argv: tuple[str, ...]

    def __init__(
        self,
        argv: tuple[str, ...],
        *,
        kinds: frozenset[str] = frozenset(DEFAULT_EVENTS),
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        _set(self, "argv", tuple(argv))
        super().__init__(kinds, timeout)

    def describe(self) -> str:
        return f"command {self.argv[0]}"

    def consume(self, event: Event) -> None:
        import subprocess

        summary = event.summary()
        link = event.payload.get("link")
        link = link if isinstance(link, str) else ""
        # {summary} last: it quotes the agent's command, which may itself contain "{link}".
        argv = [
            arg.replace("{kind}", event.kind).replace("{link}", link).replace("{summary}", summary)
            for arg in self.argv
        ]
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            close_fds=True,
            start_new_session=True,
        )
        try:
            _, stderr = process.communicate(event.to_json().encode("ascii") + b"\n", self.timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise TimeoutError(f"still running after {self.timeout:g}s; killed") from None
        if process.returncode != 0:
            detail = stderr.decode("utf-8", "replace").strip()[:200]
            raise RuntimeError(f"exited with status {process.returncode}: {detail}".rstrip(": "))


class WebhookConsumer(_Bounded):
    """POSTs the event JSON to ``url``; gives up after ``timeout`` seconds."""

    __slots__ = ("headers", "url")
    url: str
    headers: tuple[tuple[str, str], ...]

    def __init__(
        self,
        url: str,
        *,
        headers: tuple[tuple[str, str], ...] = (),
        kinds: frozenset[str] = frozenset(DEFAULT_EVENTS),
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        _set(self, "url", url)
        _set(self, "headers", tuple(headers))
        super().__init__(kinds, timeout)

    def describe(self) -> str:
        # Scheme and host only: a webhook URL's path is often its secret (Slack, Discord).
        scheme, _, rest = self.url.partition("://")
        host = rest.split("/", 1)[0].rpartition("@")[2]
        return f"webhook {scheme}://{host}"

    def consume(self, event: Event) -> None:
        body = event.to_json().encode("ascii")
        _within(self.timeout, lambda: self._post(body))

    def _post(self, body: bytes) -> None:
        from urllib.request import Request, urlopen

        headers = {"Content-Type": "application/json", "User-Agent": "clearance"}
        headers.update(self.headers)
        request = Request(self.url, data=body, headers=headers, method="POST")
        with urlopen(request, timeout=self.timeout) as response:
            response.read(65536)


def _within(timeout: float, work: Callable[[], None]) -> None:
    """Run ``work`` in a daemon thread; raise its error, or TimeoutError after ``timeout``."""
    import threading

    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run, name="clearance-notify", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {timeout:g}s; abandoned")
    if errors:
        raise errors[0]


def consumers_from_config(notify: Mapping[str, object]) -> list[Consumer]:
    """The consumers a ``notify`` object asks for; :class:`NotifyConfigError` if it is invalid."""
    root: Path = ("notify",)
    if not _is_mapping(notify):
        raise NotifyConfigError(root, f"expected an object, got {_show(notify)}")
    _known_keys(notify, _TOP_KEYS, root)
    kinds = _kinds(notify.get("events"), (*root, "events"), frozenset(DEFAULT_EVENTS))
    timeout = _timeout(notify.get("timeout"), (*root, "timeout"), DEFAULT_TIMEOUT)
    consumers: list[Consumer] = []
    if "command" in notify:
        consumers.extend(_commands(notify["command"], (*root, "command"), kinds, timeout))
    if "webhook" in notify:
        consumers.extend(_webhooks(notify["webhook"], (*root, "webhook"), kinds, timeout))
    return consumers


def _commands(value: object, path: Path, kinds: frozenset[str], timeout: float) -> list[Consumer]:
    if isinstance(value, list) and value and all(_is_mapping(item) for item in value):
        return [_command(item, (*path, index), kinds, timeout) for index, item in enumerate(value)]
    return [_command(value, path, kinds, timeout)]


def _command(value: object, path: Path, kinds: frozenset[str], timeout: float) -> Consumer:
    if _is_mapping(value):
        kinds, timeout = _own(value, path, _COMMAND_KEYS, "argv", kinds, timeout)
        return CommandConsumer(_argv(value["argv"], (*path, "argv")), kinds=kinds, timeout=timeout)
    return CommandConsumer(_argv(value, path), kinds=kinds, timeout=timeout)


_REQUIRED_HINTS = {"argv": "a list of strings", "url": "an http:// or https:// URL"}


def _own(
    value: Mapping[str, object],
    path: Path,
    keys: tuple[str, ...],
    required: str,
    kinds: frozenset[str],
    timeout: float,
) -> tuple[frozenset[str], float]:
    """A consumer object's checked keys, and its own ``events`` and ``timeout`` (else those of
    the whole ``notify`` block)."""
    _known_keys(value, keys, path)
    if required not in value:
        raise NotifyConfigError(path, f'missing "{required}" ({_REQUIRED_HINTS[required]})')
    kinds = _kinds(value.get("events"), (*path, "events"), kinds)
    return kinds, _timeout(value.get("timeout"), (*path, "timeout"), timeout)


def _argv(value: object, path: Path) -> tuple[str, ...]:
    hint = 'a non-empty list of strings such as ["notify-send", "clearance", "{summary}"]'
    if not isinstance(value, list) or not value:
        raise NotifyConfigError(path, f"expected {hint}, got {_show(value)}")
    for index, item in enumerate(value):
        if not isinstance(item, str) or (index == 0 and not item):
            raise NotifyConfigError((*path, index), f"expected a string, got {_show(item)}")
    return tuple(value)


def _webhooks(value: object, path: Path, kinds: frozenset[str], timeout: float) -> list[Consumer]:
    if isinstance(value, list):
        if not value:
            raise NotifyConfigError(path, "expected a URL, an object or a non-empty list")
        return [_webhook(item, (*path, index), kinds, timeout) for index, item in enumerate(value)]
    return [_webhook(value, path, kinds, timeout)]


def _webhook(value: object, path: Path, kinds: frozenset[str], timeout: float) -> Consumer:
    headers: tuple[tuple[str, str], ...] = ()
    if _is_mapping(value):
        kinds, timeout = _own(value, path, _WEBHOOK_KEYS, "url", kinds, timeout)
        headers = _headers(value.get("headers"), (*path, "headers"))
        url, path = value["url"], (*path, "url")
    else:
        url = value
    if not isinstance(url, str) or not _is_http_url(url):
        raise NotifyConfigError(path, f"expected an http:// or https:// URL, got {_show(url)}")
    return WebhookConsumer(url, headers=headers, kinds=kinds, timeout=timeout)


def _is_http_url(url: str) -> bool:
    scheme, sep, rest = url.partition("://")
    host = rest.split("/", 1)[0]
    return bool(sep) and scheme.lower() in ("http", "https") and bool(host) and url.isprintable()


def _headers(value: object, path: Path) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not _is_mapping(value):
        raise NotifyConfigError(
            path, f"expected an object of header: value strings, got {_show(value)}"
        )
    pairs: list[tuple[str, str]] = []
    for name, text in value.items():
        if not isinstance(name, str) or not name or not name.isascii() or ":" in name:
            raise NotifyConfigError(path, f"invalid header name {_show(name)}")
        if not isinstance(text, str) or "\n" in text or "\r" in text:
            raise NotifyConfigError((*path, name), f"expected a one-line string, got {_show(text)}")
        pairs.append((name, text))
    return tuple(pairs)


def _kinds(value: object, path: Path, default: frozenset[str]) -> frozenset[str]:
    if value is None:
        return default
    allowed = ", ".join(EVENT_KINDS)
    if not isinstance(value, list) or not value:
        raise NotifyConfigError(path, f"expected a non-empty list of event kinds ({allowed})")
    for index, kind in enumerate(value):
        if kind not in EVENT_KINDS:
            raise NotifyConfigError(
                (*path, index), f"unknown event kind {_show(kind)} (allowed: {allowed})"
            )
    return frozenset(value)


def _timeout(value: object, path: Path, default: float) -> float:
    if value is None:
        return default
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not 0 < value <= MAX_TIMEOUT
    ):
        raise NotifyConfigError(
            path,
            f"expected a number of seconds above 0 and at most {MAX_TIMEOUT:g}, got {_show(value)}",
        )
    return float(value)


def _known_keys(value: Mapping[str, object], allowed: tuple[str, ...], path: Path) -> None:
    for key in value:
        if key not in allowed:
            raise NotifyConfigError(
                (*path, str(key)), f"unknown key {_show(key)} (allowed: {', '.join(allowed)})"
            )


def _is_mapping(value: object) -> TypeGuard[Mapping[str, object]]:
    return isinstance(value, Mapping)


def _show(value: object) -> str:
    if isinstance(value, str):
        text = value if len(value) <= 60 else value[:60] + "…"
        return f'"{text}"' if text.isprintable() and '"' not in text else repr(text)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "a list"
    return "an object" if isinstance(value, Mapping) else type(value).__name__


def _spell(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out
