"""clearance.authority.forwarding: asks from agents without a screen, answered by a serving session.

A headless agent or subagent that must ask writes a request into a serving session's inbox and
waits for the answer (:mod:`~clearance.authority.forwarding.child`); the serving session resolves
it by its own base policy first and asks its human only when that policy asks
(:mod:`~clearance.authority.forwarding.server`). DESIGN §6, notes §11, ``docs/forwarding.md``.

Modules: ``protocol`` (request and response values, validation), ``inbox`` (directories, private
files, atomic writes, claims), ``heartbeat`` (who is serving, and are they alive), ``wake``
(inotify or polling), ``child``, ``resolution`` (a request against the serving policy),
``server``. This ``__init__`` imports nothing: the child side runs inside a hook process.
"""
