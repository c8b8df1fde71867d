"""A real ``redis-server`` on a random loopback port, and ``clearance serve --broker`` processes.

Never a mock: the tests start the Debian ``redis-server`` themselves (``.ci/run`` installs it
where missing), with an append-only file so a restart keeps what was written. Every wait is
bounded.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SRC = Path(__file__).resolve().parents[3] / "src"
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"

needs_redis = pytest.mark.skipif(
    not os.path.exists(REDIS), reason="redis-server is not installed (.ci/run installs it)"
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class RedisServer:
    """``redis-server`` on 127.0.0.1 at a random port, its data in ``directory``."""

    def __init__(self, directory: Path, *extra: str, tls: Path | None = None) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.extra = extra
        self.tls = tls  # a directory with ca.pem, server.pem, server.key: serve TLS only
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        if self.tls is not None:
            return f"rediss://127.0.0.1:{self.port}/0?ssl_ca_certs={self.tls / 'ca.pem'}"
        return f"redis://127.0.0.1:{self.port}/0"

    def _ports(self) -> list[str]:
        if self.tls is None:
            return ["--port", str(self.port)]
        return ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file",
                str(self.tls / "server.pem"), "--tls-key-file", str(self.tls / "server.key"),
                "--tls-ca-cert-file", str(self.tls / "ca.pem"), "--tls-auth-clients", "no"]  # fmt: skip

    def start(self) -> None:
        for _attempt in range(5):
            self.process = subprocess.Popen(
                [REDIS, *self._ports(), "--bind", "127.0.0.1", "--dir",
                 str(self.directory), "--appendonly", "yes", "--appendfsync", "everysec",
                 "--save", "", "--protected-mode", "no", "--daemonize", "no", *self.extra],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    break
                try:
                    if self.client().ping():
                        return
                except Exception:
                    time.sleep(0.02)
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.port = free_port()  # the port was taken meanwhile: another one
        raise AssertionError("redis-server never started")

    def client(self, **options: Any) -> Any:
        import redis

        if self.tls is not None:
            options = {"ssl": True, "ssl_ca_certs": str(self.tls / "ca.pem"), **options}
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5, **options)

    def stop(self) -> None:
        """A clean stop (SIGTERM): Redis writes its append-only file out first."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self, down: float = 0.0) -> None:
        self.stop()
        time.sleep(down)
        self.start()

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def keygen(home: Path, env: dict[str, str]) -> str:
    """Run ``clearance serve --broker-keygen`` for the state root ``home``; the public key."""
    result = subprocess.run(
        [sys.executable, "-m", "clearance", "serve", "--broker-keygen"],
        capture_output=True, text=True, timeout=60,
        env={**env, "PYTHONPATH": str(SRC), "CLEARANCE_HOME": str(home)},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    line = next(x for x in result.stdout.splitlines() if x.startswith("export "))
    return line.split("=", 1)[1]


class BrokerServing:
    """``clearance serve --broker URL --no-human`` in a subprocess (its own state root ``home``,
    as on another machine)."""

    def __init__(
        self,
        env: dict[str, str],
        home: Path,
        session: str,
        url: str,
        directory: Path,
        policy: dict[str, Any],
        *,
        extra_env: dict[str, str] | None = None,
        human: bool = False,
    ) -> None:
        self.session = session
        self.url = url
        self.master = -1
        args = ["serve", "--session", session, "--dir", str(directory), "--policy",
                json.dumps(policy), "--broker", url]  # fmt: skip
        slave = -1
        if human:  # a dialog on a pty nobody answers: its ask stays in flight
            self.master, slave = os.openpty()
            args += ["--tty", os.ttyname(slave)]
        else:
            args.append("--no-human")
        home.mkdir(parents=True, exist_ok=True)
        self.log = home / f"serve-{os.urandom(3).hex()}.out"  # a file: a full pipe never blocks it
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
            [sys.executable, "-m", "clearance", *args],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            env={**env, "PYTHONPATH": str(SRC), "CLEARANCE_HOME": str(home),
                 **(extra_env or {})},
            cwd=str(directory), start_new_session=True,
        )  # fmt: skip
        if slave >= 0:
            os.close(slave)

    def wait_serving(self, client: Any, timeout: float = 20.0) -> None:
        """Until this process' beacon is in the broker."""
        from clearance.authority.forwarding.broker import Keys

        key = Keys("clearance", self.session).beacon
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            raw = client.get(key)
            if raw and json.loads(raw)["pid"] == self.process.pid:
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        self.close()
        raise AssertionError(f"serve --broker never started: {self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


def a_request(session: str, command: str, *, expires: float = 60.0) -> Any:
    from clearance.authority.ask import Requester
    from clearance.authority.forwarding.protocol import GateFact, Request, new_id, new_nonce

    now = time.time()
    return Request(
        id=new_id(), nonce=new_nonce(), target=session, created=now, expires=now + expires,
        requester=Requester("explore", "C1", "/w/lib", "bash", "bash", command),
        reason="asked", gates=(GateFact("bash", "bash", command, (command,)),),
    )  # fmt: skip


def audit(client: Any, session: str) -> list[dict[str, str]]:
    """The session's audit stream, each entry's fields as text."""
    from clearance.authority.forwarding.broker import Keys

    entries = client.xrange(Keys("clearance", session).audit)
    return [{k.decode(): v.decode() for k, v in fields.items()} for _eid, fields in entries]


def transport(url: str, public: str, *, session: str = "alice", grace: float = 2.0) -> Any:
    from clearance.authority.forwarding.broker import BrokerConfig, RedisTransport
    from clearance.policy.broker import parse_public_key

    config = BrokerConfig(url, session=session, keys=(parse_public_key(public),))
    return RedisTransport(config, grace)


DRIVE = """
import json, sys, time
sys.path.insert(0, {here!r})
from redisharness import a_request, transport
from clearance.authority.forwarding.child import ForwardingAuthorizer

t = transport({url!r}, {public!r}, session={session!r}, grace={grace!r})
child = ForwardingAuthorizer(state={state!r}, transport=t)
for i in range({count!r}):
    request = a_request({session!r}, {command!r})
    print(json.dumps({{"id": request.id, "event": "sent"}}), flush=True)
    verdict = child.forward(request)
    print(json.dumps({{"id": request.id, "event": "verdict", "action": verdict.action,
                      "reason": verdict.reason}}), flush=True)
"""


class Driver:
    """A child process forwarding ``count`` asks one after another through the broker, printing
    each request id as it is sent and each verdict as JSON lines."""

    def __init__(self, env: dict[str, str], state: Path, url: str, public: str, *,
                 count: int, command: str = "git status", session: str = "alice",
                 grace: float = 2.0) -> None:  # fmt: skip
        code = DRIVE.format(here=str(Path(__file__).parent), url=url, public=public,
                            session=session, grace=grace, state=str(state), count=count,
                            command=command)  # fmt: skip
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**env, "PYTHONPATH": str(SRC)}, start_new_session=True,
        )  # fmt: skip

    def first_sent(self, timeout: float = 20.0) -> str:
        """The id of the first request, once it was sent."""
        import select

        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "the child sent nothing"
        line = json.loads(self.process.stdout.readline())
        assert line["event"] == "sent"
        sent: str = line["id"]
        return sent

    def results(self, timeout: float = 60.0) -> list[dict[str, Any]]:
        try:
            out, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
            raise AssertionError(f"a child hung: {err.decode()[-2000:]}") from None
        assert self.process.returncode in (0, -9), err.decode()[-2000:]
        return [json.loads(x) for x in out.decode().splitlines() if x.strip()]

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)


def withdrawn(client: Any, key: str) -> bool:
    """Whether the reply stream ``key`` holds only the signed notice that the ask was withdrawn
    (never an answer)."""
    entries = client.xrange(key)
    bodies = [json.loads(fields[b"m"]) for _eid, fields in entries]
    return bool(bodies) and all(
        b["kind"] == "refused" and "withdrew the request" in b["reason"] for b in bodies
    )


def make_tls(directory: Path) -> Path:
    """A private CA and a certificate for 127.0.0.1 signed by it (ca.pem, server.pem,
    server.key in ``directory``)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    directory.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "clearance test CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
        .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(
            "127.0.0.1"))]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )  # fmt: skip
    pem = serialization.Encoding.PEM
    (directory / "ca.pem").write_bytes(ca.public_bytes(pem))
    (directory / "server.pem").write_bytes(cert.public_bytes(pem))
    (directory / "server.key").write_bytes(
        key.private_bytes(
            pem, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()
        )
    )
    (directory / "server.key").chmod(0o600)
    return directory
