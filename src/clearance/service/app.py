"""The ASGI application of ``clearance serve --listen``: the HTTP hook and the web console.

Routes:

* ``POST /hooks/claude-code``, ``POST /hooks/opencode``, ``POST /hooks/pi`` — the HTTP hooks
  (:mod:`clearance.service.hooks`).
* ``GET /login?t=…`` — the one-time login; ``GET /`` pending asks; ``GET /events`` the same list
  live (Server-Sent Events); ``POST /asks/{id}`` an answer; ``GET /decisions`` recent decisions;
  ``GET /grants`` and ``POST /grants/revoke``; ``POST /login-links`` a new one-time link;
  ``/static/*`` the stylesheet and the script.

Every console request needs the session cookie; every POST the CSRF token, and no request from
another origin is served.
"""

from __future__ import annotations

import asyncio
import json
import os

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from clearance.service import pages
from clearance.service.auth import COOKIE, Auth, ConsoleSession, cross_origin
from clearance.service.hooks import HookThreads, claude_code_hook, plugin_hook

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
    from typing import Any

    from clearance.service.broker import Broker
    from clearance.service.engines import EngineCache

__all__ = ["Service", "build_app"]

_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
}
_KEEPALIVE = 15.0
_CHOICES = {"once": "once", "agent": "session", "session": "session_both", "always": "once",
            "deny": "deny_reason"}  # fmt: skip


class Service:
    """Everything the routes need; built by ``clearance serve``."""

    def __init__(
        self,
        *,
        broker: Broker,
        engines: EngineCache,
        auth: Auth,
        env: Mapping[str, str],
        state: str,
        tls: bool = False,
        write: Callable[[str, dict[str, Any]], object] | None = None,
        info: str = "",
    ) -> None:
        self.broker = broker
        self.engines = engines
        # The plugin hosts' engines (without Claude Code's facts), held like ``engines``.
        from clearance.hosts.command_hook import load_engine
        from clearance.service.engines import EngineCache

        self.plugin_engines = EngineCache(load_engine)
        self.auth = auth
        self.env = env
        self.state = state
        self.tls = tls
        self.write = write
        self.info = info
        self.hook_threads = HookThreads()

    def config_files(self, cwd: str | None) -> list[tuple[str, str]]:
        """(key, label) of the files an "always" may go to: the global config, and the
        project's of the asking call's cwd."""
        out = [("global", f"global config ({self.global_config()})")]
        project = self.project_config(cwd)
        if project is not None:
            out.append(("project", f"project config ({project})"))
        return out

    def global_config(self) -> str:
        from clearance.policy.state import config_home

        return os.path.join(config_home(self.env), "config.jsonc")

    def project_config(self, cwd: str | None) -> str | None:
        from clearance.policy.discovery import policy_project
        from clearance.policy.state import home_dir, state_root

        if not cwd:
            return None
        project = policy_project(cwd, home_dir(self.env), state_root(self.env))[0]
        return None if project is None else os.path.join(project, ".clearance", "config.jsonc")


def _navigation(request: Request) -> bool:
    return (
        request.method == "GET"
        and request.headers.get("sec-fetch-mode") == "navigate"
        and request.url.path in ("/", "/decisions", "/grants")
    )


def _address(request: Request) -> str:
    client = request.client
    return f"{client.host}:{client.port}" if client else "the Unix socket"


def _secure(response: Response) -> Response:
    for name, value in _HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def build_app(service: Service) -> Starlette:
    auth = service.auth
    broker = service.broker

    def refuse(request: Request, status: int, text: str) -> Response:
        if "application/json" in request.headers.get("accept", ""):
            return _secure(JSONResponse({"message": text}, status_code=status))
        return _secure(HTMLResponse(pages.message_page("Refused", text), status_code=status))

    def console(
        *, post: bool = False
    ) -> Callable[
        [Callable[[Request, ConsoleSession], Awaitable[Response]]],
        Callable[[Request], Awaitable[Response]],
    ]:
        """Require the session cookie, same origin, and (for ``post``) the CSRF token."""

        def wrap(
            handler: Callable[[Request, ConsoleSession], Awaitable[Response]],
        ) -> Callable[[Request], Awaitable[Response]]:
            async def route(request: Request) -> Response:
                why = cross_origin(request.headers)
                if why is not None and not post and _navigation(request):
                    # A link from elsewhere (a notification's web page, a chat): the strict
                    # cookie is not sent on it, so offer a same-origin click that sends it.
                    return _secure(HTMLResponse(pages.continue_page(request.url.path)))
                if why is not None:
                    return refuse(request, 403, f"Refused: {why}.")
                session = auth.session(request.cookies)
                if session is None:
                    return refuse(request, 401, "Not logged in: open the one-time login URL "
                                  "that `clearance serve` printed.")  # fmt: skip
                if post:
                    form = await request.form()
                    given = request.headers.get("x-csrf-token") or form.get("csrf")
                    if not auth.csrf_ok(session, given if isinstance(given, str) else None):
                        return refuse(request, 403, "Refused: the request has no valid CSRF "
                                      "token; reload the console and try again.")  # fmt: skip
                return _secure(await handler(request, session))

            return route

        return wrap

    # -- the hooks (clearance.service.hooks) ---------------------------------------------------

    async def hook(request: Request) -> Response:
        return await claude_code_hook(service, request)

    async def plugin(request: Request) -> Response:
        return await plugin_hook(service, request)

    # -- login ---------------------------------------------------------------------------------

    async def login(request: Request) -> Response:
        why = cross_origin(request.headers)
        if why is not None:
            return refuse(request, 403, f"Refused: {why}.")
        result = auth.login(request.query_params.get("t", ""), _address(request))
        if isinstance(result, str):
            return refuse(request, 403, f"Refused: {result}.")
        if service.write is not None:
            service.write("console.login", {"console": result.label,
                                            "address": result.address})  # fmt: skip
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(COOKIE, result.id, httponly=True, samesite="strict",
                            secure=service.tls, path="/")  # fmt: skip
        return _secure(response)

    @console(post=True)
    async def login_link(request: Request, session: ConsoleSession) -> Response:
        token = auth.new_link()
        url = f"{request.url.scheme}://{request.headers.get('host', '')}/login?t={token}"
        text = f"Open this link once, within 10 minutes, on the other device: {url}"
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse({"message": text, "url": url})
        return HTMLResponse(pages.message_page("New login link", text, session))

    # -- pending asks --------------------------------------------------------------------------

    def views() -> list[dict[str, Any]]:
        return [p.view() for p in broker.pending()]

    def fragment(session: ConsoleSession) -> tuple[str, int]:
        asks = views()
        if not asks:
            return pages.asks_fragment([], session, []), 0
        parts = [pages.asks_fragment([a], session, service.config_files(a["cwd"])) for a in asks]
        return "".join(parts), len(asks)

    @console()
    async def home(request: Request, session: ConsoleSession) -> Response:
        body, count = fragment(session)
        return HTMLResponse(pages.home_page(body, count, session, service.info))

    @console()
    async def events(request: Request, session: ConsoleSession) -> Response:
        loop = asyncio.get_running_loop()
        changed = asyncio.Event()

        def wake() -> None:
            loop.call_soon_threadsafe(changed.set)

        cancel = broker.subscribe(wake)

        async def stream() -> AsyncIterator[str]:
            try:
                while True:
                    html, count = fragment(session)
                    yield f"event: asks\ndata: {json.dumps({'html': html, 'count': count})}\n\n"
                    try:
                        await asyncio.wait_for(changed.wait(), _KEEPALIVE)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    changed.clear()
            finally:
                cancel()

        headers = {"X-Accel-Buffering": "no", "Cache-Control": "no-store"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    @console(post=True)
    async def answer_ask(request: Request, session: ConsoleSession) -> Response:
        from clearance.authority.prompt import Answer

        form = await request.form()
        ask_id = request.path_params["ask_id"]
        action = str(form.get("action") or "")
        reason = str(form.get("reason") or "").strip()[:500] or None
        by = f"{session.label} from {session.address}"
        if action not in _CHOICES:
            return _result(request, 400, f"Unknown answer {action!r}.")
        found = broker.find(ask_id)
        if found is None:
            gone = broker.why_gone(ask_id)
            return _result(request, 409, gone[0].upper() + gone[1:] + ".")
        fields: dict[str, Any] = {
            "requestId": ask_id, "responderSession": broker.session, "answer": action,
            "console": session.label, "address": session.address,
            "requesterSession": found.request.requester.session,
            "requesterAgent": found.request.requester.agent,
            "machine": found.request.requester.machine,
            "tool": found.request.requester.tool, "value": found.view()["value"],
        }  # fmt: skip
        note = ""
        if action == "always":
            if not found.request.grants:
                return _result(request, 400, "This ask has no pattern to allow always.")
            first = found.request.grants[0]
            key = str(form.get("file") or "global")
            path = (service.global_config() if key == "global"
                    else service.project_config(found.request.requester.cwd))  # fmt: skip
            if path is None:
                return _result(request, 400, "This ask has no project configuration.")
            from clearance.service.always import AlwaysError, add_allow_rule

            try:
                backup = await run_in_threadpool(add_allow_rule, path, first.surface,
                                                 first.pattern, state=service.state)  # fmt: skip
            except (AlwaysError, OSError, UnicodeDecodeError) as exc:
                return _result(request, 400, f"Not written: {exc}")
            note = (f' Wrote {first.surface} "{first.pattern}": "allow" to {path}'
                    + (f" (previous file kept as {backup})." if backup else "."))  # fmt: skip
            if key == "project":
                note += " A project file's trust pin changes: run `clearance trust` to trust it."
            fields.update(
                file=path,
                backup=backup or None,
                rule={"surface": first.surface, "pattern": first.pattern},
            )
        choice = _CHOICES[action]
        if choice == "deny_reason" and reason is None:
            choice = "deny"
        why = broker.answer(ask_id, Answer(choice, reason), by)  # type: ignore[arg-type]
        if why is not None:
            return _result(request, 409, why[0].upper() + why[1:] + "." + note)
        fields["reason"] = reason
        if service.write is not None:
            service.write("console.answered", fields)
        verb = "Denied" if action == "deny" else "Approved"
        return _result(request, 200, f"{verb}.{note}")

    # -- decisions and grants ------------------------------------------------------------------

    @console()
    async def decisions(request: Request, session: ConsoleSession) -> Response:
        names = ("tool", "decision", "session", "since")
        filters = {n: request.query_params.get(n, "").strip() for n in names}
        try:
            records, note = await run_in_threadpool(lambda: broker.decisions(filters))
        except ValueError as exc:
            return HTMLResponse(pages.message_page("Bad filter", str(exc), session), 400)
        return HTMLResponse(pages.decisions_page(records, filters, session, note))

    @console()
    async def grants(request: Request, session: ConsoleSession) -> Response:
        try:
            found = broker.grants()
        except OSError as exc:
            page = pages.message_page("Grants unavailable", _unreachable(exc), session)
            return HTMLResponse(page, 503)
        return HTMLResponse(pages.grants_page(found, broker.session, session))

    @console(post=True)
    async def revoke(request: Request, session: ConsoleSession) -> Response:
        form = await request.form()
        surface, pattern = str(form.get("surface") or ""), str(form.get("pattern") or "")
        by = f"{session.label} from {session.address}"
        try:
            revoked = broker.revoke(surface, pattern, by)
        except OSError as exc:
            return _result(request, 503, f'{surface} "{pattern}" was not revoked, and stands: '
                           f"{_unreachable(exc)}")  # fmt: skip
        if not revoked:
            return _result(request, 404, f'No grant {surface} "{pattern}" to revoke.')
        return _result(request, 200, f'Revoked {surface} "{pattern}".', reload=True)

    async def root_text(request: Request) -> Response:
        return PlainTextResponse("clearance serve\n")

    from importlib.resources import files

    static = StaticFiles(directory=str(files("clearance.service") / "static"))
    routes = [
        Route("/hooks/claude-code", hook, methods=["POST"]),
        Route("/hooks/{host}", plugin, methods=["POST"]),
        Route("/login", login, methods=["GET"]),
        Route("/login-links", login_link, methods=["POST"]),
        Route("/", home, methods=["GET"]),
        Route("/events", events, methods=["GET"]),
        Route("/asks/{ask_id}", answer_ask, methods=["POST"]),
        Route("/decisions", decisions, methods=["GET"]),
        Route("/grants", grants, methods=["GET"]),
        Route("/grants/revoke", revoke, methods=["POST"]),
        Route("/health", root_text, methods=["GET"]),
        Mount("/static", app=static, name="static"),
    ]
    return Starlette(routes=routes)


def _result(request: Request, status: int, text: str, *, reload: bool = False) -> Response:
    if "application/json" in request.headers.get("accept", ""):
        return JSONResponse({"message": text, "reload": reload}, status_code=status)
    return HTMLResponse(pages.message_page("Done" if status < 300 else "Not done", text),
                        status_code=status)  # fmt: skip


def _unreachable(exc: OSError) -> str:
    """What a human reads when the session's grant store (its Redis broker, or its state
    directory) could not be reached."""
    from clearance._fault import os_reason

    return (f"the serving session's grant store could not be reached ({os_reason(exc)}); "
            "check that its broker is up, then try again.")  # fmt: skip
