"""The HTTP hooks of ``clearance serve --listen``: Claude Code's, and the plugin hosts'.

* ``POST /hooks/claude-code`` — Claude Code's ``http`` hook (PreToolUse, PermissionRequest),
  ``Authorization: Bearer <token>``; the answer is the command hook's JSON, ``{}`` for silence.
* ``POST /hooks/opencode``, ``POST /hooks/pi`` — the plugin hosts' payload, the same token; the
  answer is what ``clearance hook <host>`` prints (``{decision, reason}``), a deny on a failure.

A Claude Code call the policy settles at once is answered on the event loop: a payload of at
most :data:`SETTLE_MAX_BYTES`, an engine already held and fresh (:meth:`EngineCache.fresh`: no
loading on the loop), no notify consumer configured, and a bash analysis within
:data:`SETTLE_BUDGET` (the bash deadline, shortened: past it the line asks) ending in an allow,
a deny or a silence; its review-log line is written there too. Everything else — an ask, a line
past the budget, a large payload, an engine to (re)load — is decided from the start on a thread
of the service's own pool (:class:`HookThreads`): an ask holds its thread until someone
answers, and a pathological line holds one for the bash deadline, while the loop keeps serving
the console and the other calls. Handing every call to a thread cost more than most decisions
under concurrent calls (the threads' contention for the interpreter:
``docs/decisions/0049-settle-on-the-event-loop.md``); the hand-off itself is a plain
executor's (``docs/decisions/0031-one-process-cheap-hand-off.md``). The plugin hosts' hooks are
decided on the pool.

A Claude Code that gives up on a call closes its connection; the ask then leaves the console at
once and is abandoned (ADR 0021). Only a call still running after :data:`WATCH_AFTER` seconds
(an ask, in practice) is watched for that: an allow or a deny is answered first.
"""

from __future__ import annotations

import asyncio
import functools
import time

from starlette.responses import JSONResponse, Response

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from concurrent.futures import ThreadPoolExecutor
    from typing import Any, TypeVar

    from starlette.requests import Request

    from clearance.service.app import Service

    T = TypeVar("T")

__all__ = [
    "HOOK_THREADS",
    "SETTLE_BUDGET",
    "SETTLE_MAX_BYTES",
    "WATCH_AFTER",
    "HookThreads",
    "claude_code_hook",
    "plugin_hook",
]

HOOK_THREADS = 512
SETTLE_BUDGET = 0.05
SETTLE_MAX_BYTES = 16 * 1024
WATCH_AFTER = 0.2
_GAVE_UP = "Claude Code closed the HTTP hook's connection (it gave up on the call)"
_WRONG_TOKEN = "clearance: missing or wrong hook token"


class HookThreads:
    """The hook's threads, apart from the console's: a hundred asks waiting on the console hold
    a hundred threads and must not starve the allows and denies behind them. Made on first use;
    at most :data:`HOOK_THREADS` at once, more calls wait their turn."""

    def __init__(self, size: int = HOOK_THREADS) -> None:
        self.size = size
        self._pool: ThreadPoolExecutor | None = None

    def run(self, fn: Callable[[], T]) -> asyncio.Future[T]:
        """``fn()`` on a hook thread, as a future of the running loop."""
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(self.size, thread_name_prefix="clearance-hook")
        return asyncio.get_running_loop().run_in_executor(self._pool, fn)


async def _body(request: Request) -> bytes | Response:
    """The payload, cut one byte past the limit (the parser then refuses it), or the refusal."""
    from clearance.hosts.claude_code.payload import MAX_PAYLOAD_BYTES

    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_PAYLOAD_BYTES:
        return JSONResponse({"error": "clearance: the hook input is too large"}, 413)
    raw = await request.body()
    return raw[: MAX_PAYLOAD_BYTES + 1] if len(raw) > MAX_PAYLOAD_BYTES else raw


async def _disconnected(request: Request) -> None:
    """Returns when the client closes the connection (the body was already read)."""
    while True:
        try:
            message = await request.receive()
        except Exception:  # the connection broke: gone too
            return
        if message.get("type") == "http.disconnect":
            return


async def _watched(request: Request, work: asyncio.Future[T], gave_up: Callable[[], None]) -> T:
    """The result of ``work``; should it still run after :data:`WATCH_AFTER` seconds, the
    connection is watched from then on and ``gave_up()`` is called if the client closes it
    first. A timer, not a task per call: an allow or a deny never pays for the watch."""
    watch: list[asyncio.Task[None]] = []

    async def wait_for_hang_up() -> None:
        await _disconnected(request)
        if not work.done():
            gave_up()

    def start() -> None:
        watch.append(asyncio.ensure_future(wait_for_hang_up()))

    timer = asyncio.get_running_loop().call_later(WATCH_AFTER, start)
    try:
        return await work
    finally:
        timer.cancel()
        for task in watch:
            task.cancel()


async def claude_code_hook(service: Service, request: Request) -> Response:
    from clearance.audit.request_id import new_request_id
    from clearance.hosts.claude_code.hook import answer, settled_answer

    if not service.auth.hook_allowed(request.headers.get("authorization")):
        # Any non-2xx blocks the call under "onFailure": "block".
        return JSONResponse({"error": _WRONG_TOKEN}, 401)
    started = time.monotonic()
    raw = await _body(request)
    if isinstance(raw, Response):
        return raw
    ask_id = new_request_id()
    # What the policy settles at once is answered here, on the loop: a hand-off to a thread
    # costs more than most decisions (ADR 0049).
    if len(raw) <= SETTLE_MAX_BYTES:
        settled = settled_answer(raw, service.env, at_hand=service.engines.fresh,
                                 budget=SETTLE_BUDGET, started=started, host="claude-code-http",
                                 request_id=ask_id)  # fmt: skip
        if settled is not None:
            return Response(settled or "{}\n", media_type="application/json")
    call = functools.partial(answer, raw, service.env, load=service.engines.get,
                             started=started, host="claude-code-http",
                             request_id=ask_id)  # fmt: skip
    work = service.hook_threads.run(call)

    def gave_up() -> None:
        # Claude Code gave up on the call (its hook timed out, or it stopped waiting): nobody
        # will read this answer, so the ask leaves the console now and is abandoned, instead
        # of waiting there until its deadline.
        service.broker.withdraw(ask_id, _GAVE_UP)

    out = await _watched(request, work, gave_up)
    return Response(out or "{}\n", media_type="application/json")


async def plugin_hook(service: Service, request: Request) -> Response:
    from clearance.hosts.command_hook import answer

    adapter = _plugin_adapter(request.path_params.get("host", ""))
    if adapter is None:
        return JSONResponse({"error": "clearance: no such hook"}, 404)
    if not service.auth.hook_allowed(request.headers.get("authorization")):
        return JSONResponse({"error": _WRONG_TOKEN}, 401)
    raw = await _body(request)
    if isinstance(raw, Response):
        return raw
    call = functools.partial(answer, adapter, raw, service.env, service.plugin_engines.engine)
    reply = await service.hook_threads.run(call)
    # The plugin's answer is on stdout whatever the exit status (a failure is a deny).
    return Response(reply.stdout, media_type="application/json")


def _plugin_adapter(host: str) -> Any:
    """The adapter of a plugin host served at ``/hooks/<host>``, else ``None``."""
    if host == "opencode":
        from clearance.hosts.opencode.hook import OpenCodeAdapter

        return OpenCodeAdapter()
    if host == "pi":
        from clearance.hosts.pi.hook import PiAdapter

        return PiAdapter()
    return None
