"""Starting the HTTP side of ``clearance serve``: address checks, then uvicorn on a thread.

A loopback address is served as is. Any other address needs TLS (``--tls-cert`` and
``--tls-key``) or ``--behind-proxy`` (a reverse proxy terminates TLS in front of a loopback
listener): the console's cookie and the hook's token must never cross a network in clear.
"""

from __future__ import annotations

import ipaddress
import threading
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from clearance.service.app import Service

__all__ = ["DEFAULT_LISTEN", "ListenError", "Listener", "parse_listen", "start"]

DEFAULT_LISTEN = "127.0.0.1:8765"


class ListenError(ValueError):
    """The address or its TLS options are not usable (the sentence says how to fix it)."""


def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ListenError(f"--listen {text}: expected HOST:PORT, e.g. {DEFAULT_LISTEN}")
    host = host.strip("[]") or "127.0.0.1"
    return host, int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_exposure(host: str, *, tls: bool, behind_proxy: bool) -> None:
    if is_loopback(host) or tls or behind_proxy:
        return
    raise ListenError(
        f"--listen {host}: a non-loopback address needs TLS (--tls-cert FILE --tls-key FILE) "
        "or --behind-proxy (a reverse proxy serving HTTPS in front of it); the console's "
        "cookie and the hook's token must not cross the network in clear. See docs/console.md"
    )


class Listener:
    """uvicorn serving the app on a daemon thread."""

    def __init__(self, server: Any, thread: threading.Thread, base: str) -> None:
        self.server = server
        self.thread = thread
        self.base = base

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)


def start(
    service: Service,
    host: str,
    port: int,
    *,
    tls_cert: str | None = None,
    tls_key: str | None = None,
    on_error: Callable[[str], None] | None = None,
) -> Listener:
    """Serve; returns once the socket listens (raises :class:`ListenError` when it cannot)."""
    import uvicorn

    from clearance.service.app import build_app

    config = uvicorn.Config(
        build_app(service), host=host, port=port, log_level="warning", access_log=False,
        ssl_certfile=tls_cert, ssl_keyfile=tls_key, lifespan="off", loop="asyncio",
        http="h11", ws="none", proxy_headers=False, server_header=False,
        timeout_graceful_shutdown=1,
    )  # fmt: skip
    server = uvicorn.Server(config)
    failed: list[BaseException] = []

    def run() -> None:
        try:
            server.run()
        except BaseException as exc:  # SystemExit from a failed bind, too
            failed.append(exc)

    thread = threading.Thread(target=run, name="clearance-http", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    if not server.started:
        server.should_exit = True
        raise ListenError(f"cannot listen on {host}:{port} (the address is in use, or not "
                          "this machine's); choose another with --listen HOST:PORT")  # fmt: skip
    bound = port
    for listener in getattr(server, "servers", []) or []:
        for sock in listener.sockets:
            bound = sock.getsockname()[1]
            break
    scheme = "https" if tls_cert else "http"
    shown = f"[{host}]" if ":" in host else host
    return Listener(server, thread, f"{scheme}://{shown}:{bound}")
