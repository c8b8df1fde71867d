"""``clearance serve``: a serving session that answers forwarded asks (docs/forwarding.md).

Agents without a screen (subagents, ``claude -p``, CI jobs) forward their asks here: to the
session named by ``CLEARANCE_PARENT_SESSION``, or to the serving session whose directory holds
their cwd. Each request is resolved by this session's base policy first (no prompt for a recorded
allow or deny); only asks reach the human at this terminal. Without a terminal (stdin is not a
TTY, e.g. under a process manager) asks are denied at once with "no human at the serving
session" — or, with ``--relay``, forwarded one hop further up. Ctrl-C or SIGTERM stops serving
and closes its socket. The terminal shows a live list of pending and recent requests.
"""

from __future__ import annotations

import os
import sys
import time

from clearance.cli._args import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import threading
    from types import FrameType
    from typing import Any

    from clearance.authority.forwarding.protocol import Request
    from clearance.cli._args import Args

__all__ = ["run_serve"]

_RECENT = 10
_LISTENER_STOPPED = "the HTTP listener stopped"


class _Panel:
    """The live list: pending and recent requests (redrawn on a terminal, one line each
    otherwise)."""

    def __init__(self, header: str, *, live: bool) -> None:
        self.header = header
        self.live = live
        self.pending: dict[str, str] = {}
        self.recent: list[str] = []
        self.paused = False

    def __call__(self, event: str, request: Request | None, text: str) -> None:
        from clearance._display import escape

        text = escape(text)
        stamp = time.strftime("%H:%M:%S")
        if event == "dialog_open":
            self.paused = True
            return
        if event == "dialog_closed":
            self.paused = False
            self.draw()
            return
        line = f"{stamp}  {text}" if request is None else f"{stamp}  {_who(request)}  {text}"
        if event == "pending" and request is not None:
            # Listed under Pending until it is answered; Recent holds what happened to it.
            self.pending[request.id] = f"{stamp}  {_who(request)}"
            line = f"{stamp}  ? {_who(request)}  waiting for you"
        else:
            if event == "answered" and request is not None:
                self.pending.pop(request.id, None)
            self.recent = [*self.recent, line][-_RECENT:]
        if self.live:
            self.draw()
        else:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def draw(self) -> None:
        if not self.live or self.paused:
            return
        rows = [self.header, "", f"Pending ({len(self.pending)}):"]
        rows += [f"  {p}" for p in self.pending.values()] or ["  (none)"]
        rows += ["", "Recent:"] + ([f"  {r}" for r in self.recent] or ["  (none)"])
        rows += ["", "Ctrl-C stops serving."]
        sys.stdout.write("\x1b[H\x1b[2J" + "\n".join(rows) + "\n")
        sys.stdout.flush()


def _who(request: Request) -> str:
    who = request.requester
    first = request.gates[0] if request.gates else None
    value = (first.unit or first.value) if first else (who.value or "")
    if len(value) > 60:
        value = value[:59] + "…"
    agent = who.agent or "headless"
    from clearance._display import escape
    from clearance.hosts.names import host_label

    machine = f" on {who.machine}" if who.machine else ""
    return (escape(f"{agent} · {host_label(who.host)}{machine} · {who.session} · {who.tool} ")
            + '"' + escape(value) + '"')  # fmt: skip


def _logging(engine: Any, state: str) -> tuple[Any, Any]:
    from clearance.hosts.gatekeeper import reporting

    return reporting(engine.policy, state)


def _argv(args: Args) -> list[str]:
    """The options ``args`` was given, as words again (the service's unit runs them)."""
    words: list[str] = []
    for name, value in args.flags.items():
        if value is True:
            words.append(name)
        elif isinstance(value, str):
            words += [name, value]
    return words


def run_serve(args: Args) -> int:
    import signal
    import threading

    from clearance.authority.dialog import terminal_available
    from clearance.authority.forwarding.server import Server
    from clearance.decide.engine import Engine
    from clearance.policy.state import state_root

    if args.on("--install-service"):  # the service's unit (clearance.service.unit)
        from clearance.service.unit import install_service

        return install_service(_argv(args))
    # -- broker (docs/forwarding.md, "Broker"): --broker-keygen makes the answer key pair ------
    if args.on("--broker-keygen"):
        return _broker_keygen(state_root())
    # -- end broker --
    session = args.value("--session") or "serve-" + os.urandom(6).hex()
    directory = os.path.realpath(os.path.abspath(args.value("--dir") or os.getcwd()))
    if not os.path.isdir(directory):
        raise UsageError(f"--dir {directory} is not a directory")
    tty_path: str | None = args.value("--tty")
    if args.on("--no-human"):
        tty_path = None
    elif tty_path is None and sys.stdin.isatty() and terminal_available("/dev/tty"):
        tty_path = "/dev/tty"

    from clearance.hosts.facts import HOST_FACTS

    # The one file the serving policy comes from, when one is named (--config, else
    # CLEARANCE_CONFIG): pinned to its content (ADR 0050); the dialog's "always" writes there.
    config = None
    pin = None
    if args.value("--policy") is None:
        config = args.value("--config") or os.environ.get("CLEARANCE_CONFIG") or None
    if config is not None:
        from clearance.policy.trust import PinnedFile

        pin = PinnedFile(config)
        config = pin.path

    def load() -> Engine:
        if pin is not None:
            pin.check()  # raises: the server keeps the policy it has, and says why
        # The base policy, agent-neutral: the requester already applied its per-agent policy.
        # The loader hashes the bytes it parses: a file swapped between the check above and
        # the read fails closed, never loosens.
        return Engine.load(cwd=directory, agent=None, config=config,
                           policy=args.value("--policy"),
                           yolo=True if args.on("--yolo") else None, host=HOST_FACTS,
                           config_pin=None if pin is None else pin.digest)  # fmt: skip

    state = state_root()
    engine = load()
    log, bus = _logging(engine, state)
    mode = "asks go to you here" if tty_path else (
        "no human: asks are relayed one hop up" if args.on("--relay")
        else "no human: asks are denied"
    )  # fmt: skip
    from clearance._display import escape

    # The export line stays in the header, so it is on the screen after every redraw.
    header = (
        escape(
            f"clearance serve — session {session} serving {directory} (pid {os.getpid()}; {mode})"
        )
        + "\n"
        + escape(f"export CLEARANCE_PARENT_SESSION={session}")
    )
    panel = _Panel(header, live=sys.stdout.isatty() and tty_path is not None)

    def emit(kind: Any, payload: dict[str, Any]) -> None:
        from clearance.audit.event import Event

        bus.emit(Event(kind, payload))

    # --- the HTTP hook and web console (clearance.service): begin ---
    listen = args.value("--listen")
    broker = None
    if listen is not None:
        from clearance.service.wiring import prepare

        try:
            broker, web = prepare(args, session=session, state=state, log=log,
                                  human=not args.on("--no-human"))  # fmt: skip
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    always = None  # the dialog's "always" answer writes here (clearance.service.always)
    if args.value("--policy") is None:
        from clearance.service.always import writer

        always = writer(config, state, pin=pin)
    # --- end ---
    # -- broker: --broker URL serves the asks of other machines beside the local socket's ------
    inbound = None
    broker_url = args.value("--broker")
    if broker_url is not None:
        from clearance.authority.forwarding.broker import serve_inbound
        from clearance.policy.broker import BrokerSettingError

        try:
            inbound = serve_inbound(broker_url, state, engine.policy.setting("forwarding"))
        except (OSError, BrokerSettingError) as exc:
            sys.stderr.write(f"clearance serve: --broker: {escape(str(exc))}\n")
            return 1
    # -- end broker --
    server = Server(load, session=session, directory=directory, state=state, tty_path=tty_path,
                    relay=args.on("--relay"), parent=args.value("--parent"),
                    report=log.write if log is not None else None, emit=emit,
                    observe=panel, remote=broker, always=always, inbound=inbound)  # fmt: skip
    if listen is not None:  # the console lists and revokes the grants the serving session honours
        web.service.broker.use_grants(server.session_grants)
        recent_audit = getattr(server.inbound, "recent_audit", None)
        if broker_url is not None and recent_audit is not None:  # the other instances' decisions
            web.service.broker.use_audit(recent_audit)
    saved = _save_terminal(tty_path)
    stop = threading.Event()
    why = ["stopped"]

    def on_signal(number: int, frame: FrameType | None) -> None:
        why[0] = signal.Signals(number).name
        stop.set()

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, on_signal)
    try:
        server.start()
    except OSError as exc:
        sys.stderr.write(
            f"clearance serve: cannot serve session {escape(session)}: {escape(str(exc))}\n"
        )
        return 1
    sys.stdout.write(f"{header}\n")
    sys.stdout.flush()
    # --- the HTTP hook and web console: begin ---
    listener = None
    if listen is not None:
        try:
            listener = web.start()
        except ValueError as exc:
            server.stop("the HTTP listener failed")
            sys.stderr.write(f"clearance serve: {escape(str(exc))}\n")
            return 1
        if not args.on("--relay"):
            os.environ["CLEARANCE_PARENT_SESSION"] = session  # the HTTP hook's asks come here
        # Only a terminal sees the login URL; a log or a journal, which an agent may read,
        # is told the protected file that holds it.
        shown = sys.stdout.isatty()
        sys.stdout.write(web.banner(listener, open_browser=args.on("--open"), show_login=shown))
        sys.stdout.flush()
        panel.header += "\n" + web.last_banner.rstrip("\n")
    # --- end ---
    panel.draw()
    if listener is not None:
        threading.Thread(target=_watch_listener, args=(listener, stop, why), daemon=True).start()
    try:
        server.run(stop)
    finally:
        if listener is not None:
            listener.stop()
        server.stop(why[0])
        if server.dialog_open:
            _restore_terminal(tty_path, saved)
        sys.stdout.write(f"clearance serve: session {escape(session)} stopped ({why[0]})\n")
        sys.stdout.flush()
    return 1 if why[0] == _LISTENER_STOPPED else 0  # a failure: the service manager restarts


def _broker_keygen(state: str) -> int:
    """``--broker-keygen``: create the broker answer key pair in the state directory (an existing
    one is kept) and print the public key children need."""
    from clearance.authority.forwarding.signing import generate, key_path

    try:
        public, created = generate(state)
    except (OSError, ImportError) as exc:
        sys.stderr.write(f"clearance serve: --broker-keygen: {exc}\n")
        return 1
    said = "created" if created else "kept the existing key"
    sys.stdout.write(f"clearance serve: broker answer key {said}: {key_path(state)}\n"
                     f"export CLEARANCE_BROKER_PUBLIC_KEY={public}\n")  # fmt: skip
    return 0


def _save_terminal(tty_path: str | None) -> Any:
    if tty_path is None:
        return None
    import termios

    try:
        fd = os.open(tty_path, os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return None
    try:
        return termios.tcgetattr(fd)
    except termios.error:
        return None
    finally:
        os.close(fd)


def _restore_terminal(tty_path: str | None, saved: Any) -> None:
    """A dialog was open when serving stopped: leave its screen and raw mode behind."""
    if tty_path is None:
        return
    import termios

    try:
        fd = os.open(tty_path, os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return
    try:
        os.write(fd, b"\x1b[0m\x1b[?25h\x1b[?1049l")
        if saved is not None:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    except (OSError, termios.error):
        pass
    finally:
        os.close(fd)


def _watch_listener(listener: Any, stop: threading.Event, why: list[str]) -> None:
    """Stop ``serve`` when its HTTP listener's thread has ended without being asked to: a
    service that goes on without it would serve nothing while looking alive (Claude Code's
    http hook, installed with ``"onFailure": "block"``, blocks every call meanwhile)."""
    while not stop.wait(1.0):
        if not listener.thread.is_alive():
            why[0] = _LISTENER_STOPPED
            stop.set()
