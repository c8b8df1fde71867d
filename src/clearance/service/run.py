"""Starting the HTTP side of ``clearance serve``: address checks, then uvicorn on a thread.

A loopback address is served as is. Any other address needs TLS (``--tls-cert`` and
``--tls-key``) or ``--behind-proxy`` (a reverse proxy terminates TLS in front of a loopback
listener): the console's cookie and the hook's token must never cross a network in clear.

The same app is also served on a Unix socket, ``$state/service/http.sock``, in the 0700
directory that holds the hook's token (:func:`socket_path`): only the user can connect, and the
routes ask for the same token, cookie and CSRF token as over TCP. Both listeners run on one event
loop, on one thread.
"""

from __future__ import annotations

import ipaddress
import os
import threading
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from clearance.service.app import Service

__all__ = ["DEFAULT_LISTEN", "ListenError", "Listener", "parse_listen", "socket_path", "start"]

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


# What a decision may import on first use, beyond the modules of these packages (imported inside
# functions of theirs). Imported when serve starts, see _load_deciders.
_DECIDING = ("clearance.intent", "clearance.decide", "clearance.policy", "clearance.audit",
             "clearance.hosts.claude_code", "clearance.authority")  # fmt: skip
_LAZY_STDLIB = ("bisect", "binascii", "difflib", "fnmatch", "hashlib", "marshal", "re", "shlex",
                "shutil", "subprocess")  # fmt: skip


def _load_deciders() -> None:
    """Import every module a decision may import, and build the bash parser, before the event
    loop decides (ADR 0049). A first import on the loop would hold it; and the bash deadline's
    exception, arriving in the middle of an import, could leave that module's import lock held
    for good."""
    import importlib
    import pkgutil

    import clearance

    for name in _LAZY_STDLIB:
        importlib.import_module(name)
    for found in pkgutil.iter_modules(clearance.__path__, "clearance."):
        if not found.ispkg and found.name != "clearance.__main__":  # _json, _display, _fault…
            importlib.import_module(found.name)
    for package in _DECIDING:
        module = importlib.import_module(package)
        for found in pkgutil.walk_packages(module.__path__, package + "."):
            try:
                importlib.import_module(found.name)
            except ImportError:  # a module for an optional dependency: never on this path
                continue
    from clearance.intent.shell.parser import parse

    parse(b"true")


def _settle_heap() -> None:
    """Move everything loaded so far (the web stack, the policy, the parser: tens of thousands
    of objects) out of the cyclic collector's reach. A full collection walks every tracked object
    and costs about 10 ms with them on a busy machine; a long-lived service otherwise pays it
    every few hundred requests, in the middle of one (the hook's p99). What is allocated later
    is collected as usual."""
    import gc

    gc.collect()
    gc.freeze()


def socket_path(state: str) -> str:
    """Where the HTTP side listens on a Unix socket: beside the hook token, in a 0700 directory."""
    return os.path.join(state, "service", "http.sock")


class Listener:
    """uvicorn serving the app on a daemon thread (TCP, and the Unix socket ``uds`` unless
    ``uds_note`` says why not)."""

    def __init__(
        self,
        server: Any,
        thread: threading.Thread,
        base: str,
        unix: Any = None,
        uds: str | None = None,
        uds_note: str = "",
    ) -> None:
        self.server = server
        self.thread = thread
        self.base = base
        self.unix = unix
        self.uds = uds
        self.uds_note = uds_note

    def stop(self) -> None:
        self.server.should_exit = True
        if self.unix is not None:
            self.unix.should_exit = True
        self.thread.join(timeout=5)
        if self.uds is not None:
            try:
                os.unlink(self.uds)
            except OSError:
                pass


def _bind_unix(path: str) -> Any:
    """A listening Unix socket at ``path``, in a private directory; raises ``OSError`` saying
    why not (another service listens there, the path is too long, the directory is unsafe)."""
    import socket
    import stat

    from clearance.policy.state import ensure_private_dir

    if len(os.fsencode(path)) > 100:
        raise OSError(f"{path} is too long for a socket address; set CLEARANCE_HOME shorter")
    directory = ensure_private_dir(os.path.dirname(path))
    info = os.lstat(directory)
    if info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise OSError(f"{directory} is not a private directory of yours")
    try:
        existing = os.lstat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None:
        if not stat.S_ISSOCK(existing.st_mode):
            raise OSError(f"{path} exists and is not a socket; remove it")
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(path)
        except OSError:
            os.unlink(path)  # a socket left by a service that stopped
        else:
            raise OSError(f"another clearance serve already listens on {path}")
        finally:
            probe.close()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(path)
    except OSError:
        sock.close()
        raise
    finally:
        os.umask(old)
    sock.listen(128)
    sock.setblocking(False)
    return sock


def start(
    service: Service,
    host: str,
    port: int,
    *,
    tls_cert: str | None = None,
    tls_key: str | None = None,
    on_error: Callable[[str], None] | None = None,
    uds: str | None = None,
) -> Listener:
    """Serve on ``host:port`` and, with ``uds``, on that Unix socket too; returns once they
    listen (raises :class:`ListenError` when TCP cannot; a Unix socket that cannot be bound is
    left out, and :attr:`Listener.uds_note` says why)."""
    import asyncio

    import uvicorn

    from clearance.service.app import build_app

    app = build_app(service)
    # "auto": uvicorn's C parser (httptools, in the serve extra) when installed, else h11. The
    # parser is a quarter of a policy-resolved hook call's CPU with h11, and the service has one
    # core to spend (docs/decisions/0031-one-process-cheap-hand-off.md).
    common: dict[str, Any] = dict(
        log_level="warning", access_log=False, lifespan="off", loop="asyncio", http="auto",
        ws="none", proxy_headers=False, server_header=False, timeout_graceful_shutdown=1,
    )  # fmt: skip
    config = uvicorn.Config(app, host=host, port=port, ssl_certfile=tls_cert,
                            ssl_keyfile=tls_key, **common)  # fmt: skip
    server = uvicorn.Server(config)
    unix: Any = None
    unix_sock: Any = None
    note = ""
    if uds is not None:
        try:
            unix_sock = _bind_unix(uds)
        except OSError as exc:
            note = f"not served on a Unix socket: {exc}"
        else:
            unix = uvicorn.Server(uvicorn.Config(app, uds=uds, **common))
    failed: list[BaseException] = []

    async def serve_all() -> None:
        jobs = [server.serve()]
        if unix is not None:
            jobs.append(unix.serve(sockets=[unix_sock]))
        await asyncio.gather(*jobs)

    def run() -> None:
        try:
            asyncio.run(serve_all())
        except BaseException as exc:  # SystemExit from a failed bind, too
            failed.append(exc)

    _load_deciders()  # before the first call can be decided on the loop
    thread = threading.Thread(target=run, name="clearance-http", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    if unix is not None:
        while not unix.started and thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
    if not server.started:
        server.should_exit = True
        if unix is not None:
            unix.should_exit = True
        raise ListenError(f"cannot listen on {host}:{port} (the address is in use, or not "
                          "this machine's); choose another with --listen HOST:PORT")  # fmt: skip
    _settle_heap()
    bound = port
    for listener in getattr(server, "servers", []) or []:
        for sock in listener.sockets:
            bound = sock.getsockname()[1]
            break
    scheme = "https" if tls_cert else "http"
    shown = f"[{host}]" if ":" in host else host
    return Listener(server, thread, f"{scheme}://{shown}:{bound}", unix,
                    uds if unix is not None else None, note)  # fmt: skip
