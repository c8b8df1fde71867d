"""The always-on side of ``clearance serve``: the HTTP hook for Claude Code and the web console.

Everything here is cold code: it is imported only by ``clearance serve`` (and the installer's
token helper), never on a hook's path. The web stack (Starlette + uvicorn) is the optional extra
``clearance[serve]``. The service reaches the serving session only through
:class:`~clearance.service.broker.Broker` (pending asks, recent decisions, session grants).
"""
