"""Multi-hop forwarding: a serving session with no human relays an ask one hop further up.

A relay (``clearance serve --relay``) resolves a request by its own policy like any serving
session; only what still asks is forwarded up — to ``--parent``, else ``CLEARANCE_PARENT_SESSION``,
else the live serving session serving the requester's cwd — as a new request carrying the
original requester's provenance and facts verbatim, with the relay added to ``via``. The answer
comes back down unchanged in meaning: "this subagent only" stays with the original requester;
"the whole session" is recorded where the human is. A hop that would revisit a session already
on the path is refused (no loops), and so is a path longer than :data:`MAX_HOPS`.
"""

from __future__ import annotations

import time

from clearance.authority.ask import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.authority.forwarding.protocol import Request
    from clearance.authority.forwarding.server import Server

__all__ = ["MAX_HOPS", "relay_up"]

MAX_HOPS = 4


def _nobody(reason: str) -> Verdict:
    return Verdict("deny", f"No one could approve this: {reason}", decided_by="unavailable",
                   resolution="confirmation_unavailable")  # fmt: skip


def relay_up(server: Server, request: Request) -> Verdict:
    from clearance.authority.forwarding.child import ForwardingAuthorizer
    from clearance.authority.forwarding.protocol import new_id, new_nonce

    path = (*request.via, server.session)
    visited = (*path, request.requester.session or "")
    upstream = ForwardingAuthorizer(state=server.state, target=server.parent, report=server.write)
    target = upstream.find_target(request.requester.cwd or server.directory, exclude=visited)
    if target is None:
        return _nobody(f"there is no human at the serving session '{server.session}' and no "
                       "session above it to relay to.")  # fmt: skip
    if target in visited:
        return _nobody(f"relaying to session '{target}' would loop ({' → '.join(path)}).")
    if len(path) > MAX_HOPS:
        return _nobody(f"the ask has already been relayed {len(path)} times.")
    upstream.timeout = max(request.expires - time.time(), 0.0)
    now = time.time()
    onward = request.replace(id=new_id(), nonce=new_nonce(), target=target, created=now,
                             expires=request.expires, via=path)  # fmt: skip
    verdict: Verdict = upstream.forward(onward)
    return verdict
