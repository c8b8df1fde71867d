"""The same app on a Unix socket: ``$state/service/http.sock`` in a 0700 directory, with the same
auth as over TCP. A real ``clearance serve --listen`` and a real HTTP client over the socket."""

from __future__ import annotations

import http.client
import json
import os
import socket
import stat
from pathlib import Path

from servicekit import Running, hook_payload


class UnixConnection(http.client.HTTPConnection):
    """``http.client`` over a Unix socket."""

    def __init__(self, path: Path) -> None:
        super().__init__("localhost", timeout=30)
        self.path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(self.path)


def request(
    path: Path,
    method: str,
    url: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], str]:
    conn = UnixConnection(path)
    conn.request(method, url, body, {"Host": "localhost", **(headers or {})})
    response = conn.getresponse()
    text = response.read().decode("utf-8", "replace")
    got = {k.lower(): v for k, v in response.getheaders()}
    conn.close()
    return response.status, got, text


def test_the_hook_and_the_console_answer_on_the_unix_socket_with_the_same_auth(  # type: ignore[no-untyped-def]
    running: Running, world
) -> None:
    sock = world.state / "service" / "http.sock"
    assert any(str(sock) in line for line in running.lines), "".join(running.lines)
    info = os.lstat(sock)
    assert stat.S_ISSOCK(info.st_mode)
    assert stat.S_IMODE(os.lstat(sock.parent).st_mode) == 0o700
    assert stat.S_IMODE(info.st_mode) & 0o077 == 0
    token = (world.state / "service" / "hook-token").read_text().strip()
    body = hook_payload(running.directory, "git status")
    # No token, a wrong token: refused, as over TCP.
    status, _, _ = request(sock, "POST", "/hooks/claude-code", body)
    assert status == 401
    status, _, _ = request(sock, "POST", "/hooks/claude-code", body,
                           {"Authorization": "Bearer " + "0" * 64})  # fmt: skip
    assert status == 401
    status, _, text = request(sock, "POST", "/hooks/claude-code", body,
                              {"Authorization": f"Bearer {token}"})  # fmt: skip
    assert status == 200
    assert json.loads(text)["hookSpecificOutput"]["permissionDecision"] == "allow"
    # The console: no cookie, no page; the one-time login works once, here too.
    status, _, _ = request(sock, "GET", "/", headers={"Accept": "application/json"})
    assert status == 401
    login = "/login?" + running.login_url.split("/login?", 1)[1]
    status, headers, _ = request(sock, "GET", login)
    assert status == 303 and "httponly" in headers.get("set-cookie", "").lower()
    cookie = headers["set-cookie"].split(";", 1)[0]
    status, _, page = request(sock, "GET", "/", headers={"Cookie": cookie})
    assert status == 200 and "csrf" in page
    status, _, _ = request(sock, "GET", login)
    assert status == 403  # replayed


def test_the_socket_is_removed_when_the_service_stops(world) -> None:  # type: ignore[no-untyped-def]
    from servicekit import POLICY

    world.global_config(POLICY)
    service = Running(world.env, world.project())
    sock = world.state / "service" / "http.sock"
    assert sock.exists()
    service.stop()
    assert not sock.exists()


def test_a_stale_socket_is_replaced_and_a_live_one_is_never_taken(tmp_path: Path) -> None:
    from clearance.service.run import _bind_unix

    directory = tmp_path / "s" / "service"
    path = directory / "http.sock"
    first = _bind_unix(str(path))  # listening: another service
    assert stat.S_IMODE(os.lstat(directory).st_mode) == 0o700
    try:
        try:
            _bind_unix(str(path))
        except OSError as exc:
            assert "another clearance serve already listens" in str(exc)
        else:
            raise AssertionError("a live socket was taken over")
    finally:
        first.close()  # that service died, leaving its socket behind
    assert path.exists()
    second = _bind_unix(str(path))
    second.close()
    path.unlink()
    path.write_text("not a socket")
    try:
        _bind_unix(str(path))
    except OSError as exc:
        assert "is not a socket" in str(exc)
    else:
        raise AssertionError("a file was replaced by a socket")
    long = tmp_path / ("d" * 120) / "http.sock"
    try:
        _bind_unix(str(long))
    except OSError as exc:
        assert "too long for a socket address" in str(exc)
    else:
        raise AssertionError("a path too long for a socket address was bound")
