"""clearance.authority.forwarding: asks from agents without a screen, answered by a serving session.

A headless agent or subagent that must ask sends a request to a serving session over a transport
(a Unix-domain socket by default) and waits for the answer on the same connection
(:mod:`~clearance.authority.forwarding.child`); the serving session resolves it by its own base
policy first and asks its human only when that policy asks
(:mod:`~clearance.authority.forwarding.server`). docs/forwarding.md.

Modules: ``protocol`` (request and response values, validation), ``transport`` (the seam
between the logic and how bytes move), ``local`` (the Unix-domain socket transport), ``private``
(private directories), ``child``, ``resolution`` (a request against the serving policy),
``relay``, ``scope``, ``server``. This ``__init__`` imports nothing: the child side runs inside a
hook process.
"""
