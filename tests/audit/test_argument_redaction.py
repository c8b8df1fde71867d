"""Secrets agents actually type as arguments: one table row per shape, and the real log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from clearance.audit.command_redaction import redact_argv, redact_command

R = "[redacted]"

# (command, logged as, the secret that must not appear)
SHAPES = [
    ("tool --password=pw1 x", f"tool --password={R} x", "pw1"),
    ("tool --password pw2 x", f"tool --password {R} x", "pw2"),
    ("gh --token tk3 api", f"gh --token {R} api", "tk3"),
    ("cli --api-key=ak4", f"cli --api-key={R}", "ak4"),
    ("cli --api-key ak5 run", f"cli --api-key {R} run", "ak5"),
    ("vault --secret 'sc 6x'", f"vault --secret {R}", "sc 6x"),
    ("mysql -h db -u root -pmy7 app", f"mysql -h db -u root -p{R} app", "my7"),
    ("mysql --password=my8 app", f"mysql --password={R} app", "my8"),
    (
        "docker run -e API_TOKEN=dk9 -e DEBUG=1 img",
        f"docker run -e API_TOKEN={R} -e DEBUG=1 img",
        "dk9",
    ),
    ("docker run --env DB_PASSWORD=dk10 img", f"docker run --env DB_PASSWORD={R} img", "dk10"),
    ("docker run --env=MY_SECRET=dk11 img", f"docker run --env=MY_SECRET={R} img", "dk11"),
    ("podman run -eGH_TOKEN=dk12 img", f"podman run -eGH_TOKEN={R} img", "dk12"),
    (
        "curl 'https://a.io/b?access_token=q13&x=1&token=q14&api_key=q15&sig=q16'",
        f"curl 'https://a.io/b?access_token={R}&x=1&token={R}&api_key={R}&sig={R}'",
        "q13",
    ),
    ("git clone https://bob:up17@github.com/x", f"git clone https://bob:{R}@github.com/x", "up17"),
    (
        "aws configure set aws_secret_access_key aw18",
        f"aws configure set aws_secret_access_key {R}",
        "aw18",
    ),
    (
        "aws configure set profile.dev.aws_secret_access_key aw19",
        f"aws configure set profile.dev.aws_secret_access_key {R}",
        "aw19",
    ),
    (
        "npm config set //registry.npmjs.org/:_authToken np20",
        f"npm config set //registry.npmjs.org/:_authToken {R}",
        "np20",
    ),
    ("npm config set //r.io/:_authToken=np21", f"npm config set //r.io/:_authToken={R}", "np21"),
    ("sshpass -p sp22 ssh host", f"sshpass -p {R} ssh host", "sp22"),
    ("sshpass -psp23 ssh host", f"sshpass -p{R} ssh host", "sp23"),
    ("curl -u bob:cu24 https://x", f"curl -u bob:{R} https://x", "cu24"),
    ("curl -b 'session=ck25' u", f"curl -b {R} u", "ck25"),
    ("curl --cookie 'sid=ck26; a=b' u", f"curl --cookie {R} u", "ck26"),
    ("curl --cookie=sid=ck27 u", f"curl --cookie={R} u", "ck27"),
    ("curl -H 'Cookie: sid=ck28' u", f"curl -H 'Cookie:{R}' u", "ck28"),
    ("curl -H 'Authorization: Bearer be29' u", f"curl -H 'Authorization:{R}' u", "be29"),
    (
        """curl -d '{"password":"js30","user":"bob"}' u""",
        f"""curl -d '{{"password":"{R}","user":"bob"}}' u""",
        "js30",
    ),
    (
        """curl --data-raw '{"auth": {"token": "js31"}}' u""",
        f"""curl --data-raw '{{"auth": {{"token": "{R}"}}}}' u""",
        "js31",
    ),
    (
        """curl -d "{\\"api_key\\":\\"js32\\"}" u""",
        f"""curl -d "{{\\"api_key\\":\\"{R}\\"}}" u""",
        "js32",
    ),
    ("curl -d 'user=bob&password=fm33' u", f"curl -d 'user=bob&password={R}' u", "fm33"),
    (
        "kubectl create secret generic s --from-literal=password=kb34",
        f"kubectl create secret generic s --from-literal=password={R}",
        "kb34",
    ),
]

BENIGN = [
    "ls -p",
    "mkdir -p a/b",
    "mysql -h host -u root -p app",
    "docker run -e DEBUG=1 img",
    'git commit -m "add --password flag docs"',
    "docker login --password-stdin registry.io",
    "gh auth login --with-token",
    "sort --key 2 file",
    "tool --no-password host",
    "curl 'https://a.io/search?q=token&page=2'",
    "grep -e 'x' file",
]


@pytest.mark.parametrize(("command", "expected", "secret"), SHAPES)
def test_each_shape_is_redacted(command: str, expected: str, secret: str) -> None:
    assert redact_command(command) == expected
    assert secret not in redact_command(command)


@pytest.mark.parametrize("command", BENIGN)
def test_benign_twins_are_left_alone(command: str) -> None:
    assert redact_command(command) == command


def test_an_argument_vector_is_redacted_the_same_way() -> None:
    argv = ["mysql", "-pS1", "--password", "S2", "-e", "x"]
    assert redact_argv(argv) == ["mysql", f"-p{R}", "--password", R, "-e", "x"]
    assert redact_argv(["docker", "run", "-e", "API_KEY=S3"]) == [
        "docker", "run", "-e", f"API_KEY={R}",
    ]  # fmt: skip


def test_no_secret_reaches_the_review_log_through_real_decisions(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    state = tmp_path / "state"
    env = {**os.environ, "HOME": str(home), "CLEARANCE_HOME": str(state)}
    policy = json.dumps({"permission": {"*": "deny"}})
    for command, _expected, _secret in SHAPES:
        result = subprocess.run(
            [sys.executable, "-m", "clearance", "gate", "--policy", policy, "--cwd",
             str(tmp_path), "bash", command],
            capture_output=True, env=env, timeout=60,
        )  # fmt: skip
        assert result.returncode == 4, result.stderr
    log = state / "logs" / "review.jsonl"
    data = log.read_bytes()
    assert data.count(b"\n") >= len(SHAPES)
    # Random request ids are hex, as some secrets are: they are left out of the search.
    records = [json.loads(line) for line in data.splitlines()]
    for record in records:
        for key in ("requestId", "askId"):
            record.pop(key, None)
    text = json.dumps(records).encode()
    for _command, _expected, secret in SHAPES:
        assert secret.encode() not in text, f"{secret!r} reached the review log"
    assert data.count(R.encode()) >= len(SHAPES)
