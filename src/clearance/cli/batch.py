"""``clearance check --batch``: JSON lines in, one JSON result per line out.

Each line is ``{"tool", "input", "cwd"?, "agent"?, "session"?, "policy"?}``; engines are loaded
once per distinct (cwd, agent, policy), so hundreds of calls cost one process start.

Past its first lines a batch is decided by worker processes, one per CPU this process may use
(``--jobs N``; ``--jobs 1`` decides every line here), forked once and fed chunks of the lines
read so far; the answers are written in the order of the lines. Input is read as it arrives and
every answer of the lines read is written before the batch waits for more, so a caller that
writes a line and waits for its answer gets it (``docs/decisions/0054-a-batch-on-every-cpu.md``).
"""

from __future__ import annotations

import json
import os
import sys

from clearance._json import dumps, loads
from clearance.cli.render import decision_json
from clearance.decide.deadline import Expired, Held

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import deque
    from collections.abc import Iterable
    from concurrent.futures import Future, ProcessPoolExecutor
    from typing import Any

    from clearance.cli._args import Args
    from clearance.decide.engine import Engine

__all__ = ["run_batch"]

# Lines decided here before any worker starts: a short batch never forks.
_ALONE = 64
# Lines per chunk a worker decides at once, and chunks in flight per worker.
_CHUNK = 32
_AHEAD = 4
_MAX_JOBS = 16


class _Decider:
    """Decides a batch's lines, loading an engine once per (cwd, agent, policy)."""

    def __init__(self, args: Args) -> None:
        from clearance.cli.calls import call_input, load_engine
        from clearance.intent.call import ToolCall

        self.args = args
        self.call_input = call_input
        self.load_engine = load_engine
        self.tool_call = ToolCall
        self.default_cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
        self.engines: dict[tuple[str, str | None, str | None], _Loaded] = {}
        self.absolute: dict[
            str, str
        ] = {}  # each line's cwd made absolute (the process never moves)
        self.agent, self.policy = args.value("--agent"), args.value("--policy")
        # The C encoder, made once; compact output is the same text as clearance._json.dumps.
        # (No cycle check: a result is a tree of fresh dicts and lists.)
        self.encode = json.JSONEncoder(
            separators=(",", ":"), default=str, check_circular=False
        ).encode

    def lines(self, items: Iterable[tuple[int, bytes]]) -> tuple[str, int]:
        """The answers to ``items`` (line number, raw line), one JSON text a line, and the exit
        status they call for (1 when one of them is an error or met a broken configuration)."""
        out: list[str] = []
        status = 0
        with Held():
            for number, raw in items:
                result, failed = self._line(number, raw)
                if result is not None:
                    out.append(self.encode(result) + "\n")
                    status |= failed
        return "".join(out), status

    def _line(self, number: int, raw: bytes) -> tuple[dict[str, object] | None, int]:
        if not raw.strip():
            return None, 0
        try:
            try:
                line = raw.decode()
            except UnicodeDecodeError as exc:
                raise ValueError(f"not UTF-8 text: byte {exc.start + 1} cannot be read") from None
            try:
                item = json.loads(line)  # the C reader: a batch is thousands of lines
            except json.JSONDecodeError as exc:
                try:
                    item = loads(line)  # comments, trailing commas
                except ValueError:
                    raise ValueError(
                        f"not a JSON object: {exc.msg.removesuffix(' at')} at column {exc.colno}"
                    ) from None
            if not isinstance(item, dict) or not isinstance(item.get("tool"), str):
                raise ValueError('expected an object with "tool" and "input"')
            engine, session = self._engine(item)
            data = item.get("input")
            data = self.call_input(item["tool"], data) if isinstance(data, str) else (data or {})
            call = self.tool_call(item["tool"], data, engine.cwd, engine.agent, session)
            result = decision_json(engine.check(call), engine.policy)
            result["line"] = number
            return result, 1 if engine.policy.errors else 0
        except ValueError as exc:
            return {"line": number, "error": str(exc)}, 1
        except (Exception, Expired) as exc:  # one bad line never stops the others
            from clearance.cli._errors import describe

            return {"line": number, "error": describe(exc)}, 1

    def _engine(self, item: dict[str, Any]) -> tuple[_Loaded, str | None]:
        """The engine for a line's (cwd, agent, policy), loaded on first use, and its session."""
        cwd = item.get("cwd") or self.default_cwd
        agent = item.get("agent") or self.agent
        policy = item.get("policy")
        if policy is not None and not isinstance(policy, str):
            policy = dumps(policy)
        policy = policy if policy is not None else self.policy
        session = item.get("session")
        if not isinstance(cwd, str) or any(
            v is not None and not isinstance(v, str) for v in (agent, session)
        ):
            raise ValueError('"cwd", "agent" and "session" must be strings')
        where = self.absolute.get(cwd)
        if where is None:
            where = self.absolute[cwd] = os.path.abspath(cwd)
        key = (where, agent, policy)
        loaded = self.engines.get(key)
        if loaded is None:
            engine = self.load_engine(where, self.args, agent, policy)
            loaded = self.engines[key] = _Loaded(engine, where, agent)
        return loaded, session

    def prepare(self, items: Iterable[tuple[int, bytes]]) -> None:
        """Load the engines ``items`` need, so that processes forked after share them."""
        for _, raw in items:
            try:
                item = json.loads(raw.decode())
                if isinstance(item, dict):
                    self._engine(item)
            except Exception:  # the line's own answer says what is wrong with it
                continue


class _Loaded:
    """An engine with the working directory and agent it was loaded for."""

    __slots__ = ("agent", "check", "cwd", "policy")

    def __init__(self, engine: Engine, cwd: str, agent: str | None) -> None:
        self.check = engine.check
        self.policy = engine.policy
        self.cwd = cwd
        self.agent = agent


def run_batch(args: Args) -> int:
    decider = _Decider(args)
    jobs = _jobs(args.value("--jobs"))
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # a stream in memory (an in-process caller)
        fd = -1
    if fd >= 0:
        return _Batch(decider, jobs if hasattr(os, "fork") else 1, fd).run()
    status = 0
    for number, line in enumerate(sys.stdin, 1):
        text, failed = decider.lines(((number, line.encode("utf-8", "surrogateescape")),))
        sys.stdout.write(text)
        status |= failed
    sys.stdout.flush()
    return status


def _jobs(value: str | None) -> int:
    if value is not None:
        return int(value)
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, _MAX_JOBS))


_Answer = tuple[str, int]  # the answers' text, one JSON line each, and the exit status


def _numbers(items: list[tuple[int, bytes]]) -> list[int]:
    return [number for number, raw in items if raw.strip()]


# The decider of a worker process: set before the workers are forked, inherited by each.
_WORKER: list[_Decider] = []


def _decide_chunk(items: list[tuple[int, bytes]]) -> _Answer:
    return _WORKER[0].lines(items)


class _Batch:
    """Lines read as they arrive, decided here (the first :data:`_ALONE`, or all of them with
    one job) or by ``jobs`` worker processes, answered in order."""

    def __init__(self, decider: _Decider, jobs: int, fd: int) -> None:
        from collections import deque

        self.decider = decider
        self.jobs = jobs
        self.fd = fd
        self.pool: ProcessPoolExecutor | None = None
        self.broken = False
        # Answers in line order: a chunk's future, or the answer of lines decided here, each
        # with the numbers of the chunk's lines that are not blank.
        self.pending: deque[tuple[Future[_Answer] | _Answer, list[int]]] = deque()
        self.status = 0
        self.number = 0  # the lines read so far (before the workers start, all decided here)

    def run(self) -> int:
        import select

        pending = self.pending
        rest: list[bytes] = []  # the pieces read of a line not yet ended (joined once it ends)
        eof = False
        try:
            while not eof or pending:
                if not eof and len(pending) < _AHEAD * self.jobs:
                    ready = not pending or select.select([self.fd], [], [], 0)[0]
                    if ready:
                        data = os.read(self.fd, 1 << 16)
                        end = data.rfind(b"\n")
                        if not data:
                            eof = True
                            lines = [b"".join(rest)] if rest else []
                        elif end < 0:
                            rest.append(data)
                            continue
                        else:
                            lines = b"".join((*rest, data[:end])).split(b"\n")
                            rest = [data[end + 1 :]] if end + 1 < len(data) else []
                        self._dispatch(lines)
                        continue
                self._answer(pending.popleft())
        finally:
            sys.stdout.flush()
            pool = self.pool
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        return self.status

    def _dispatch(self, lines: list[bytes]) -> None:
        items = [(self.number + i, line) for i, line in enumerate(lines, 1)]
        self.number += len(items)
        while items:
            if self.pool is None and self.jobs > 1 and not self.broken and self.number > _ALONE:
                self.decider.prepare(items)
                self._start()
            if self.pool is None:
                self.pending.append((self.decider.lines(items), _numbers(items)))
                return
            size = min(_CHUNK, max(1, -(-len(items) // self.jobs)))
            chunk, items = items[:size], items[size:]
            try:
                future = self.pool.submit(_decide_chunk, chunk)
            except RuntimeError:  # the pool broke: the rest is decided here
                self._lost()
                items = chunk + items
                continue
            self.pending.append((future, _numbers(chunk)))

    def _start(self) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # A worker flushes the standard streams it inherits when it ends: nothing of ours may
        # be waiting in them.
        sys.stdout.flush()
        sys.stderr.flush()
        _WORKER[:] = [self.decider]
        self.pool = ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("fork"))

    def _lost(self) -> None:
        pool = self.pool
        self.pool = None
        self.broken = True
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _answer(self, entry: tuple[Future[_Answer] | _Answer, list[int]]) -> None:
        answer, numbers = entry
        if not isinstance(answer, tuple):
            try:
                answer = answer.result()
            except Exception as exc:  # a worker died (killed, out of memory): no answer
                self._lost()
                why = f"a worker process ended before deciding it ({type(exc).__name__})"
                encode = self.decider.encode
                text = "".join(encode({"line": n, "error": why}) + "\n" for n in numbers)
                answer = (text, 1)
        text, failed = answer
        self.status |= failed
        sys.stdout.write(text)
        if not self.pending:  # every answer so far is out: a caller waiting for one sees it
            sys.stdout.flush()
