"""Authorizers: who answers an ask. The whole seam is one method, ``authorize(ask)``.

The chain runs the configured links (``authorizerChain`` in config, names registered through
the Python API) in order; the first answer that is not ``defer`` wins. A link may not *allow* on
a path surface (``path*``, ``external_directory*``): such an allow is turned into ``defer`` —
where files may go stays with the human (docs/approvals.md, "Who answers an ask"). An unregistered
name
is skipped and reported. When every link defers, the last word decides.
"""

from __future__ import annotations

from clearance.authority.ask import Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Protocol

    from clearance.authority.ask import Ask

    class Authorizer(Protocol):
        def authorize(self, ask: Ask) -> Verdict: ...

else:
    Authorizer = object

__all__ = [
    "Authorizer",
    "Chain",
    "FunctionAuthorizer",
    "register_authorizer",
    "registered",
    "unregister_authorizer",
]

_REGISTRY: dict[str, Authorizer] = {}
_PATH_PREFIXES = ("path", "external_directory")


class FunctionAuthorizer:
    """An authorizer from a plain function ``ask -> Verdict``."""

    __slots__ = ("fn", "name")

    def __init__(self, name: str, fn: Callable[[Ask], Verdict]) -> None:
        self.name = name
        self.fn = fn

    def authorize(self, ask: Ask) -> Verdict:
        return self.fn(ask)


def register_authorizer(name: str, authorizer: Authorizer | Callable[[Ask], Verdict]) -> None:
    """Make ``authorizer`` available to ``authorizerChain`` under ``name``."""
    if name in _REGISTRY:
        raise ValueError(f"an authorizer named {name!r} is already registered")
    if not hasattr(authorizer, "authorize"):
        authorizer = FunctionAuthorizer(name, authorizer)
    _REGISTRY[name] = authorizer


def unregister_authorizer(name: str) -> None:
    _REGISTRY.pop(name, None)


def registered(name: str) -> Authorizer | None:
    return _REGISTRY.get(name)


def _touches_paths(ask: Ask) -> bool:
    surfaces = ask.surfaces
    return not surfaces or any(s.startswith(_PATH_PREFIXES) for s in surfaces)


class Chain:
    """The configured links, in order, then the last word."""

    __slots__ = ("last_word", "names", "report")

    def __init__(
        self,
        names: Sequence[str],
        last_word: Authorizer,
        *,
        report: Callable[[str, dict[str, object]], None] | None = None,
    ) -> None:
        self.names = tuple(names)
        self.last_word = last_word
        self.report = report or (lambda event, fields: None)

    def authorize(self, ask: Ask) -> Verdict:
        links = []
        for name in self.names:
            link = _REGISTRY.get(name)
            if link is None:
                self.report("authorizer_chain_unregistered_link",
                            {"requestId": ask.request_id, "name": name})  # fmt: skip
            else:
                links.append((name, link))
        if links:
            self.report("authorizer_chain_resolved",
                        {"requestId": ask.request_id, "links": [n for n, _ in links]})  # fmt: skip
        for _, link in links:
            verdict = link.authorize(ask)
            if verdict.action == "allow" and _touches_paths(ask):
                verdict = Verdict.defer()  # a link never allows where files may go
            if verdict.action != "defer":
                return Verdict(
                    verdict.action,
                    verdict.reason,
                    decided_by="authorizer",
                    resolution=f"authorizer_{'allowed' if verdict.action == 'allow' else 'denied'}",
                )
        return self.last_word.authorize(ask)
