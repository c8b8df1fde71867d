"""Real processes for the forwarding tests: a serving session and headless children.

A uniquely named helper module (test directories have no ``__init__.py``). Every wait is bounded:
nothing here can hang a test run.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SRC = Path(__file__).resolve().parents[3] / "src"
ASK_ALL = json.dumps({"permission": {"*": "ask", "bash": {"*": "ask"}}})


def base_env(world: Any, **extra: str) -> dict[str, str]:
    return {**world.env, "PYTHONPATH": str(SRC), **extra}


class Serving:
    """``clearance serve`` in a subprocess, optionally with its dialog on a fresh pty."""

    def __init__(
        self,
        world: Any,
        session: str,
        directory: Path,
        policy: dict[str, Any],
        *,
        human: bool = False,
        relay: bool = False,
        parent: str | None = None,
        env: dict[str, str] | None = None,
        config: Path | None = None,
        config_env: bool = False,
    ) -> None:
        self.world = world
        self.session = session
        self.master = -1
        self.screen = b""
        args = ["serve", "--session", session, "--dir", str(directory)]
        if config is not None:  # the policy from this file (``policy`` written into it)
            config.write_text(json.dumps(policy))
            if config_env:  # named by CLEARANCE_CONFIG instead of --config
                env = {**(env or {}), "CLEARANCE_CONFIG": str(config)}
            else:
                args += ["--config", str(config)]
        else:
            args += ["--policy", json.dumps(policy)]
        slave = -1
        if human:
            self.master, slave = os.openpty()
            # Wide enough that the requester line (agent, session, cwd) is shown whole.
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 250, 0, 0))
            args += ["--tty", os.ttyname(slave)]
        else:
            args += ["--no-human"]
        if relay:
            args.append("--relay")
        if parent:
            args += ["--parent", parent]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "clearance", *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**base_env(world), **(env or {})}, cwd=str(directory), start_new_session=True,
        )  # fmt: skip
        if slave >= 0:
            os.close(slave)
        self.wait_serving()

    @property
    def socket(self) -> Path:
        return self.world.state / "forwarding" / self.session / "serve.sock"  # type: ignore[no-any-return]

    def alive(self) -> bool:
        """Whether this process answers a ping on its session's socket."""
        from clearance.authority.forwarding.local_child import LocalTransport
        from clearance.authority.forwarding.transport import Unreachable

        try:
            [beacon] = LocalTransport(str(self.world.state), 1.0).probe(self.session)
        except Unreachable:
            return False
        return beacon.pid == self.process.pid

    def wait_serving(self, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.socket.exists() and self.alive():
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        out, err = (
            self.process.communicate(timeout=5) if self.process.poll() is not None else (b"", b"")
        )
        raise AssertionError(f"serve never started: {out.decode()} {err.decode()}")

    def read_screen(self, text: str, timeout: float = 15.0) -> str:
        """Read the pty until ``text`` shows; the screen so far, as text."""
        deadline = time.monotonic() + timeout
        while text.encode() not in self.screen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"{text!r} never shown; screen:\n{self.screen.decode(errors='replace')}"
                )
            ready, _, _ = select.select([self.master], [], [], min(left, 0.1))
            if ready:
                try:
                    self.screen += os.read(self.master, 65536)
                except OSError:
                    time.sleep(0.02)
        return self.screen.decode(errors="replace")

    def press(self, keys: str) -> None:
        self.screen = b""
        os.write(self.master, keys.encode())

    def stop(self, timeout: float = 10.0) -> tuple[int, str]:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        out, _ = self.process.communicate(timeout=timeout)
        self.close()
        return self.process.returncode, out.decode()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


def serve(servers: list[Serving], *args: Any, **options: Any) -> Serving:
    """Start a serving session that the ``servers`` fixture stops at the end of the test."""
    server = Serving(*args, **options)
    servers.append(server)
    return server


class Child:
    """A headless agent: ``clearance gate`` with no terminal, run in the background."""

    def __init__(
        self,
        world: Any,
        session: str,
        command: str,
        *,
        cwd: Path,
        parent: str | None = None,
        policy: str = ASK_ALL,
        agent: str | None = None,
        tool: str = "bash",
        env: dict[str, str] | None = None,
    ) -> None:
        extra = {"CLEARANCE_PARENT_SESSION": parent} if parent else {}
        # No terminal: a new session (below) has no controlling one, so /dev/tty cannot open.
        args = ["gate", "--json", "--session", session, "--policy", policy,
                "--cwd", str(cwd)]  # fmt: skip
        if agent:
            args += ["--agent", agent]
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "clearance", *args, tool, command],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**base_env(world, **extra), **(env or {})}, cwd=str(cwd),
            start_new_session=True,
        )  # fmt: skip

    def result(self, timeout: float = 30.0) -> dict[str, Any]:
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()
            raise AssertionError("the child hung") from None
        self.elapsed = time.monotonic() - self.started
        assert out, err.decode()
        body: dict[str, Any] = json.loads(out)
        return body


def ask(world: Any, session: str, command: str, **options: Any) -> dict[str, Any]:
    return Child(world, session, command, **options).result()


def review(world: Any) -> list[dict[str, Any]]:
    path = world.state / "logs" / "review.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def events(world: Any, prefix: str = "forwarded_permission.") -> list[dict[str, Any]]:
    return [r for r in review(world) if r["event"].startswith(prefix)]


def inbox(world: Any, session: str) -> Path:
    """The directory of ``session``'s socket."""
    return world.state / "forwarding" / session  # type: ignore[no-any-return]


def wait_for(check: Any, timeout: float = 15.0) -> Any:
    """``check()`` once it is truthy (polled; bounded so nothing hangs)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("never happened")


def connect(world: Any, session: str) -> socket.socket:
    """A raw, checked connection to ``session``'s socket, for hand-made messages."""
    from clearance.authority.forwarding.local_child import connect as _connect
    from clearance.authority.forwarding.private import safe_name

    sock, _pid = _connect(str(world.state), safe_name(session), 5.0)
    return sock


def exchange_raw(world: Any, session: str, data: bytes) -> dict[str, Any]:
    """Send ``data`` on a fresh connection and return the first message that is not
    ``pending``."""
    with connect(world, session) as sock:
        sock.settimeout(15)
        sock.sendall(data)
        buffer = b""
        while True:
            while b"\n" not in buffer:
                chunk = sock.recv(65536)
                assert chunk, "the connection closed without an answer"
                buffer += chunk
            line, _, buffer = buffer.partition(b"\n")
            message: dict[str, Any] = json.loads(line)
            if message["kind"] != "pending":
                return message


def a_request(session: str, command: str, **fields: Any) -> dict[str, Any]:
    """A request as a requester writes it, for ``session``."""
    from clearance.authority.ask import Requester
    from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce

    now = time.time()
    body: dict[str, Any] = Request(
        id=new_id(), nonce=new_nonce(), target=session, created=now, expires=now + 60,
        requester=Requester(None, "C1", "/tmp", "bash", "bash", command),
        reason="asked", gates=(GateFact("bash", "bash", command),),
    ).as_json()  # fmt: skip
    return {**body, **fields}


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def named(world: Any, event: str) -> list[dict[str, Any]]:
    return [e for e in events(world) if e["event"] == f"forwarded_permission.{event}"]
