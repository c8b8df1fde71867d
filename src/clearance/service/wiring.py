"""Wiring the service into ``clearance serve``: the broker, the engines, the auth, the listener.

Kept apart from the command line so that ``cli/serve.py`` only calls :func:`prepare`, hands the
broker to its serving session, and starts the listener once the session serves.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.audit.log import ReviewLog
    from clearance.service.broker import Broker
    from clearance.service.run import Listener

__all__ = ["LOGIN_IN_FILE", "Web", "login_file", "prepare"]

# How the banner names the file that holds the login URL, when it does not show the URL.
LOGIN_IN_FILE = "Log in to the console once with the URL in: "


def login_file(state: str) -> str:
    """Where ``serve`` keeps its printed one-time login URL: clearance's state, whose
    ``console`` directory an agent's read asks about (``policy.protected``)."""
    return os.path.join(state, "console", "login-url")


class Web:
    def __init__(
        self,
        service: Any,
        host: str,
        port: int,
        tls: tuple[str, str] | None,
        public: str | None = None,
    ) -> None:
        self.service = service
        self.public = public
        self.last_banner = ""
        self.host = host
        self.port = port
        self.tls = tls

    def start(self) -> Listener:
        from clearance.service.run import socket_path, start

        cert, key = self.tls if self.tls else (None, None)
        listener = start(self.service, self.host, self.port, tls_cert=cert, tls_key=key,
                         uds=socket_path(self.service.state))  # fmt: skip
        self.service.broker.base = (self.public or listener.base).rstrip("/")
        return listener

    def banner(
        self, listener: Listener, *, open_browser: bool = False, show_login: bool = True
    ) -> str:
        """What ``serve`` prints: the hook's URL, and the one-time login URL on its own line
        (with ``open_browser``, a second one-time URL is handed to the browser instead). The
        URL is also written to :func:`login_file`; with ``show_login`` false (the output goes to
        a log, a journal or a pipe, which an agent may read) only that file is named."""
        link = self.service.auth.new_link(ttl=None)
        local = (f"The same on the Unix socket {listener.uds}\n" if listener.uds
                 else f"({listener.uds_note})\n" if listener.uds_note else "")  # fmt: skip
        url = f"{listener.base}/login?t={link}"
        where = login_file(self.service.state)
        from clearance.policy.state import atomic_write, ensure_private_dir

        ensure_private_dir(os.path.dirname(where))
        atomic_write(where, (url + "\n").encode())
        login = (f"Log in to the console once with:\n{url}\n" if show_login
                 else f"{LOGIN_IN_FILE}{where}\n")  # fmt: skip
        self.last_banner = (
            f"HTTP hook: {listener.base}/hooks/claude-code  console: {listener.base}/\n"
            + local
            + login
        )
        if open_browser:
            import webbrowser

            other = self.service.auth.new_link(ttl=None)
            try:
                webbrowser.open(f"{listener.base}/login?t={other}")
            except Exception:  # no browser: the printed URL still works
                pass
        return self.last_banner


def prepare(
    args: Any, *, session: str, state: str, log: ReviewLog | None, human: bool
) -> tuple[Broker | None, Web]:
    """The broker (``None`` with ``--no-human``: nobody answers asks) and the web side, from
    ``--listen``, ``--tls-cert``, ``--tls-key`` and ``--behind-proxy``. Raises ValueError with
    a sentence for the user."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise ValueError("--listen needs the web stack: pip install 'clearance[serve]'") from None
    from clearance.authority.forwarding.broker.keys import env_seconds
    from clearance.hosts.claude_code.http_token import hook_token
    from clearance.service.app import Service
    from clearance.service.auth import Auth
    from clearance.service.broker import Broker
    from clearance.service.engines import RECHECK, RECHECK_VARIABLE, EngineCache
    from clearance.service.run import check_exposure, parse_listen

    host, port = parse_listen(args.value("--listen"))
    cert, key = args.value("--tls-cert"), args.value("--tls-key")
    if (cert is None) != (key is None):
        raise ValueError("--tls-cert and --tls-key go together")
    for path in (cert, key):
        if path is not None and not os.path.isfile(path):
            raise ValueError(f"{path} is not a file (--tls-cert/--tls-key)")
    check_exposure(host, tls=cert is not None, behind_proxy=args.on("--behind-proxy"))
    try:
        token = hook_token(state)
    except OSError as exc:
        raise ValueError(f"the hook token cannot be read: {exc}") from None
    write = log.write if log is not None else None
    broker = Broker(session=session, state=state,
                    log_path=log.path if log is not None else None, write=write)  # fmt: skip
    engines = EngineCache(recheck=env_seconds(os.environ, RECHECK_VARIABLE, RECHECK))
    service = Service(broker=broker, engines=engines, auth=Auth(token), env=os.environ,
                      state=state, tls=cert is not None or args.on("--behind-proxy"),
                      write=write, info=f"Serving session {session}.")  # fmt: skip
    tls = (cert, key) if cert is not None and key is not None else None
    public = args.value("--public-url")
    if public is not None and not public.startswith(("http://", "https://")):
        raise ValueError(f"--public-url {public}: expected http(s)://HOST[:PORT]")
    return (broker if human else None), Web(service, host, port, tls, public)
