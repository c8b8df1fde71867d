"""A real ``clearance serve --listen`` on 127.0.0.1 for the service tests, and a tiny client.

:class:`Running` starts the process (no terminal: asks go to the web console), reads the hook
URL and the one-time login URL it prints, and stops it. :class:`Client` is ``http.client`` with
a cookie jar of one cookie. :func:`ask_child` starts a real ``clearance hook claude-code`` child
that forwards an ask to the service and waits for the answer.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from clearance.service.wiring import LOGIN_IN_FILE

SRC = Path(__file__).resolve().parents[2] / "src"
POLICY = """{
  "permission": {
    "*": "ask",
    "read": "allow",
    "bash": {"*": "ask", "git status*": "allow",
             "rm *": {"action": "deny", "reason": "deleting files is not allowed here"}}
  }
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Running:
    def __init__(self, env: dict[str, str], directory: Path, *extra: str) -> None:
        self.env = {**env, "PYTHONPATH": str(SRC)}
        self.port = free_port()
        self.session = "console-test"
        self.directory = directory
        self.process = subprocess.Popen(
            [sys.executable, "-m", "clearance", "serve", "--listen", f"127.0.0.1:{self.port}",
             "--session", self.session, "--dir", str(directory), *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=self.env, cwd=str(directory), text=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self.login_url = ""
        deadline = time.monotonic() + 30
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.lines.append(line)
            if "/login?t=" in line:
                self.login_url = line.strip()
                break
            if line.startswith(LOGIN_IN_FILE):  # not a terminal: the URL is in a file
                self.login_url = Path(line[len(LOGIN_IN_FILE) :].strip()).read_text().strip()
                break
        assert self.login_url, "".join(self.lines) + (
            self.process.stderr.read() if self.process.stderr else ""
        )
        # Keep draining stdout so the service never blocks on a full pipe.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


class Client:
    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie: str | None = None
        self.csrf: str | None = None

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, str] | bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        data: bytes | None = None
        if isinstance(body, dict):
            data = urllib.parse.urlencode(body).encode()
            sent.setdefault("Content-Type", "application/x-www-form-urlencoded")
        elif body is not None:
            data = body
        conn.request(method, path, data, sent)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        got = {k.lower(): v for k, v in response.getheaders()}
        conn.close()
        return response.status, got, text

    def login(self, url: str) -> tuple[int, dict[str, str], str]:
        path = url.split(str(self.port), 1)[1]
        status, headers, text = self.request("GET", path)
        cookie = headers.get("set-cookie", "")
        if status == 303 and cookie:
            self.cookie = cookie.split(";", 1)[0]
            _, _, page = self.request("GET", "/")
            found = re.search(r'<meta name="csrf" content="([0-9a-f]+)">', page)
            self.csrf = found.group(1) if found else None
        return status, headers, text


def hook_payload(
    cwd: Path, command: str, session: str = "child-session", event: str = "PreToolUse"
) -> bytes:
    return json.dumps({
        "session_id": session, "transcript_path": "/dev/null", "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": event, "tool_name": "Bash",
        "tool_input": {"command": command, "description": "x"}, "tool_use_id": "toolu_1",
    }).encode()  # fmt: skip


def ask_child(running: Running, cwd: Path, command: str) -> subprocess.Popen[bytes]:
    """A real hook process, headless, whose ask is forwarded to the service and waits."""
    env = {**running.env, "CLEARANCE_PARENT_SESSION": running.session, "CLEARANCE_HEADLESS": "1"}
    child = subprocess.Popen(
        [sys.executable, "-m", "clearance", "hook", "claude-code"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=env, cwd=str(cwd),
    )  # fmt: skip
    assert child.stdin is not None
    child.stdin.write(hook_payload(cwd, command))
    child.stdin.close()
    child.stdin = None  # communicate() must not flush it again
    return child


def child_answer(child: subprocess.Popen[bytes]) -> dict[str, Any]:
    out, _ = child.communicate(timeout=60)
    answer: dict[str, Any] = json.loads(out)["hookSpecificOutput"]
    return answer


def pending_ids(client: Client, want: int, timeout: float = 30) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _, _, page = client.request("GET", "/")
        found = re.findall(r'<article class=ask id="ask-([^"]+)"', page)
        if len(found) >= want:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{want} pending asks did not appear")


def review_log(state: Path) -> list[dict[str, Any]]:
    path = state / "logs" / "review.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def environ_without_clearance() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("CLEARANCE_")}
