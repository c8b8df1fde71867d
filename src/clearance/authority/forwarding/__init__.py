"""clearance.authority.forwarding: asks from agents without a screen, answered by a serving session.

A headless agent or subagent that must ask sends a request to a serving session over a transport
(a Unix-domain socket by default) and waits for the answer on the same connection
(:mod:`~clearance.authority.forwarding.child`); the serving session resolves it by its own base
policy first and asks its human only when that policy asks
(:mod:`~clearance.authority.forwarding.server`). docs/forwarding.md.

Modules: ``protocol`` (request and response values, validation), ``transport`` (the seam
between the logic and how bytes move), ``local`` and ``local_child`` (the Unix-domain socket
transport: its serving side, its child side), ``private`` (private directories), ``child``,
``resolution`` (a request against the serving policy), ``server`` (receiving, resolving and
answering requests), ``escalation`` (asking the serving human, or a relay), ``liveness``
(whether a requester is gone), ``relay``, ``scope``, ``remote``. This ``__init__`` imports
nothing: the child side runs inside a hook process.
"""
