"""The loopback HTTP server under the scripted model endpoints (``model_server.py`` for Claude
Code, ``wire_server.py`` for the other hosts).

``http.server`` on 127.0.0.1 (a free port) in a thread, as a context manager. Every request is
recorded (method, path, headers, body: parsed JSON, the text when it is not JSON, ``None`` when
empty) before a subclass answers it in :meth:`ScriptedHTTP.post` or :meth:`ScriptedHTTP.get`
through an :class:`Exchange`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Exchange", "ScriptedHTTP"]


class Exchange:
    """One request: its ``path`` (without the query), its ``body``, and how to answer it."""

    def __init__(self, handler: BaseHTTPRequestHandler, body: Any) -> None:
        self._handler = handler
        self.path = handler.path.split("?")[0]
        self.body = body

    def send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        handler = self._handler
        handler.send_response(status)
        handler.send_header("content-type", kind)
        handler.send_header("content-length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def json(self, status: int, payload: Any) -> None:
        self.send(status, json.dumps(payload).encode())

    def stream(self, events: Iterable[tuple[str | None, Any]], tail: bytes = b"") -> None:
        """Server-sent events: ``(event name or None, data)``, then ``tail``; the connection
        closes after them."""
        handler = self._handler
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("cache-control", "no-cache")
        handler.send_header("connection", "close")
        handler.end_headers()
        handler.close_connection = True
        for event, data in events:
            head = f"event: {event}\n" if event else ""
            handler.wfile.write(f"{head}data: {json.dumps(data)}\n\n".encode())
            handler.wfile.flush()
        if tail:
            handler.wfile.write(tail)
            handler.wfile.flush()


class ScriptedHTTP:
    """Records every request in ``requests``; subclasses answer ``post`` and ``get``."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._ids = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                server.get(server._exchange(self, "GET", None))

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                server.post(server._exchange(self, "POST", body))

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> Any:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _exchange(self, handler: BaseHTTPRequestHandler, method: str, body: Any) -> Exchange:
        with self._lock:
            self.requests.append({"method": method, "path": handler.path,
                                  "headers": dict(handler.headers), "body": body})  # fmt: skip
        return Exchange(handler, body)

    def next_id(self, prefix: str) -> str:
        """``<prefix>_e2e_0001``, ``…0002``: ids unique within this server."""
        with self._lock:
            self._ids += 1
            return f"{prefix}_e2e_{self._ids:04d}"

    def everything_sent(self) -> str:
        """Every request body, as one JSON text (tool results included)."""
        return json.dumps([r["body"] for r in self.requests])

    def get(self, exchange: Exchange) -> None:
        exchange.json(404, {"error": {"message": "not scripted"}})

    def post(self, exchange: Exchange) -> None:
        exchange.json(404, {"error": {"message": "not scripted"}})
