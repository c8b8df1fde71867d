"""``clearance check --batch`` on worker processes (``--jobs``): the same answers in the same
order as one process, answers written while the caller waits, and a worker that dies leaves its
lines unanswered with an error, never allowed. Real processes throughout."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import pytest

from clearance.cli import batch

# Lines of every kind: tools, working directories, agents, inline policies, bad input.
_KINDS: list[object] = [
    {"tool": "bash", "input": "git status"},
    {"tool": "bash", "input": "rm -rf /"},
    {"tool": "bash", "input": "cat notes.md | grep x > out.txt"},
    {"tool": "bash", "input": "/bin/zsh -lc 'ls -la && git log -3'"},
    {"tool": "read", "input": {"path": "x"}, "policy": {"permission": {"read": "deny"}}},
    {"tool": "write", "input": "x", "agent": "ro"},
    {"tool": "bash", "input": "ls", "cwd": "sub"},
    {"tool": "read", "input": ".env"},
    "not json",
    "",
    {"input": "missing tool"},
    {"tool": "bash", "input": "ls", "session": 5},
]


def _text(count: int) -> str:
    lines = [_KINDS[i % len(_KINDS)] for i in range(count)]
    return "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"


@pytest.fixture
def batch_world(world):  # type: ignore[no-untyped-def]
    world.global_config(
        '{"permission": {"*": "ask", "bash": {"*": "ask", "git status": "allow", "ls": "allow"}},'
        ' "agents": {"ro": {"permission": {"write": "deny"}}}}'
    )
    os.makedirs(world.home / "sub", exist_ok=True)
    return world


def test_workers_answer_as_one_process_does_line_for_line(batch_world) -> None:  # type: ignore[no-untyped-def]
    text = _text(300)  # past the lines decided before any worker starts
    alone = batch_world.run("check", "--batch", "--jobs", "1", stdin=text)
    workers = batch_world.run("check", "--batch", "--jobs", "2", stdin=text)
    assert workers.stdout == alone.stdout
    assert workers.returncode == alone.returncode == 1  # bad lines among them
    answers = [json.loads(line) for line in workers.stdout.splitlines()]
    assert [a["line"] for a in answers] == [
        n for n, line in enumerate(text.splitlines(), 1) if line.strip()
    ]
    assert {a.get("decision") for a in answers} == {"allow", "ask", "deny", None}


def test_an_answer_comes_while_the_caller_waits(batch_world) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import SRC

    process = subprocess.Popen(
        [sys.executable, "-m", "clearance", "check", "--batch", "--jobs", "2"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**batch_world.env, "PYTHONPATH": str(SRC)},
        cwd=batch_world.home,
    )
    assert process.stdin is not None and process.stdout is not None
    stdout = process.stdout
    received: list[bytes] = [b""]

    def answers(count: int) -> list[dict[str, object]]:
        """Read until ``count`` answers have come, the batch's stdin left open."""
        deadline = time.monotonic() + 60
        while received[0].count(b"\n") < count:
            left = deadline - time.monotonic()
            assert left > 0, "no answer while stdin stays open"
            if select.select([stdout], [], [], left)[0]:
                chunk = os.read(stdout.fileno(), 1 << 16)
                assert chunk, "the batch ended"
                received[0] += chunk
        return [json.loads(line) for line in received[0].splitlines()]

    try:
        text = _text(150)  # the workers start
        process.stdin.write(text.encode())
        process.stdin.flush()
        first = sum(1 for line in text.splitlines() if line.strip())
        assert len(answers(first)) == first
        for number, (command, decision) in enumerate(
            (("git status", "allow"), ("rm -rf /", "deny")), 151
        ):
            process.stdin.write(json.dumps({"tool": "bash", "input": command}).encode() + b"\n")
            process.stdin.flush()
            last = answers(first + number - 150)[-1]
            assert (last["line"], last["decision"]) == (number, decision)
    finally:
        process.stdin.close()
        process.wait(timeout=60)
    assert process.returncode == 1  # bad lines among the first


class _Dies:
    """A decider whose worker process dies on the line ``die``."""

    encode = staticmethod(json.dumps)

    def prepare(self, items: list[tuple[int, bytes]]) -> None:
        pass

    def lines(self, items: list[tuple[int, bytes]]) -> tuple[str, int]:
        if any(raw.strip() == b"die" for _, raw in items) and os.getpid() != _PARENT[0]:
            os._exit(9)
        return "".join(json.dumps({"line": n, "decision": "allow"}) + "\n" for n, _ in items), 0


_PARENT = [0]


def test_a_worker_that_dies_leaves_errors_never_answers(capsys) -> None:  # type: ignore[no-untyped-def]
    _PARENT[0] = os.getpid()
    lines = [b"ok"] * 100 + [b"die"] + [b"ok"] * 100
    read, write = os.pipe()
    os.write(write, b"\n".join(lines) + b"\n")
    os.close(write)
    try:
        status = batch._Batch(_Dies(), 2, read).run()  # type: ignore[arg-type]
    finally:
        os.close(read)
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert [a["line"] for a in answers] == list(range(1, len(lines) + 1))
    died = [a for a in answers if "error" in a]
    assert any(a["line"] == 101 for a in died)
    assert all("worker process ended" in a["error"] for a in died)
    assert all(a.get("decision") == "allow" for a in answers if "error" not in a)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "--batch", "--jobs", "0"], "--jobs '0': give a whole number from 1 to 256"),
        (["check", "--batch", "--jobs", "two"], "--jobs 'two': give a whole number"),
        (["check", "--jobs", "2", "bash", "ls"], "--jobs works with --batch"),
    ],
)
def test_jobs_is_a_whole_number_for_a_batch(world, argv: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    result = world.run(*argv)
    assert result.returncode == 2
    assert message in result.stderr


class _Where:
    """A decider answering with the process that decided each line."""

    encode = staticmethod(json.dumps)

    def prepare(self, items: list[tuple[int, bytes]]) -> None:
        pass

    def lines(self, items: list[tuple[int, bytes]]) -> tuple[str, int]:
        time.sleep(0.01)  # long enough for the other worker to take the next chunk
        return "".join(json.dumps({"line": n, "pid": os.getpid()}) + "\n" for n, _ in items), 0


def test_lines_past_the_first_are_decided_by_the_workers(capsys) -> None:  # type: ignore[no-untyped-def]
    read, write = os.pipe()
    os.write(write, b"{}\n" * 1000)
    os.close(write)
    try:
        status = batch._Batch(_Where(), 2, read).run()  # type: ignore[arg-type]
    finally:
        os.close(read)
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and [a["line"] for a in answers] == list(range(1, 1001))
    workers = {a["pid"] for a in answers} - {os.getpid()}
    assert len(workers) == 2


class _Uneven:
    """A decider taking a random while over each line, answering with the line's own text."""

    encode = staticmethod(json.dumps)

    def prepare(self, items: list[tuple[int, bytes]]) -> None:
        pass

    def lines(self, items: list[tuple[int, bytes]]) -> tuple[str, int]:
        import random

        out = []
        for number, raw in items:
            time.sleep(random.random() / 500)
            if raw.strip():
                out.append(json.dumps({"line": number, "text": raw.decode()}) + "\n")
        return "".join(out), 0


def test_answers_keep_the_order_of_the_lines_whatever_the_workers_take(capsys) -> None:  # type: ignore[no-untyped-def]
    import random

    rng = random.Random(13)
    texts = [f"line {i} " + "x" * rng.randrange(0, 3000) if i % 17 else "" for i in range(1, 900)]
    read, write = os.pipe()
    writer = os.fork()
    if writer == 0:  # feed the pipe in uneven pieces, as a caller writing over time does
        os.close(read)
        data = ("\n".join(texts) + "\n").encode()
        at = 0
        while at < len(data):
            step = rng.randrange(1, 40000)
            os.write(write, data[at : at + step])
            at += step
            time.sleep(rng.random() / 200)
        os._exit(0)
    os.close(write)
    try:
        status = batch._Batch(_Uneven(), 3, read).run()  # type: ignore[arg-type]
    finally:
        os.close(read)
        os.waitpid(writer, 0)
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [(n, t) for n, t in enumerate(texts, 1) if t.strip()]
    assert status == 0 and [(a["line"], a["text"]) for a in answers] == expected


def test_a_line_read_in_many_pieces_is_read_once(capsys) -> None:  # type: ignore[no-untyped-def]
    """A long line arrives in many reads: its pieces are joined once it ends (joining them at
    every read made a line of tens of megabytes take a minute)."""
    joined: list[int] = []

    class _Sizes(_Where):
        def lines(self, items: list[tuple[int, bytes]]) -> tuple[str, int]:
            joined.extend(len(raw) for _, raw in items)
            return "".join(json.dumps({"line": n}) + "\n" for n, _ in items), 0

    read, write = os.pipe()
    writer = os.fork()
    if writer == 0:
        os.close(read)
        for _ in range(200):  # 200 reads of one line, then its end
            os.write(write, b"x" * 65536)
        os.write(write, b"\nshort\n")
        os._exit(0)
    os.close(write)
    try:
        status = batch._Batch(_Sizes(), 1, read).run()  # type: ignore[arg-type]
    finally:
        os.close(read)
        os.waitpid(writer, 0)
    assert status == 0 and joined == [200 * 65536, 5]
    assert [json.loads(x)["line"] for x in capsys.readouterr().out.splitlines()] == [1, 2]
