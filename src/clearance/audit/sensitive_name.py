"""Whether a name (a JSON key, a shell variable, an HTTP header field) names a secret.

The predicate is the one `docs/audit-log.md` describes ("Sensitive keys"), written as a hand
scanner so the
review log's append path never imports ``re``::

    /authorization|api[-_]?keys?|private[-_]?keys?|secret|token|password|passwd|credential|cookie
     |(?:^|[-_])keys?(?:$|[-_])/i
    or, case-sensitively, /[a-z0-9](?:Key|Keys)(?:$|[A-Z_-])/

So ``OPENROUTER_KEY``, ``x-api-key``, ``apiKey``, ``sortKeys`` and ``key`` are sensitive; ``monkey``
and ``keyboard`` are not. A name that is not ASCII goes to the regular expressions themselves
(imported lazily), because ``str.lower`` and ``re.IGNORECASE`` fold some letters differently.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["REDACTED", "SENSITIVE_NAME_PATTERN", "is_sensitive_name"]

# What a sensitive name's value becomes in the review log and its events.
REDACTED = "[redacted]"

SENSITIVE_NAME_PATTERN = (
    r"authorization|api[-_]?keys?|private[-_]?keys?|secret|token|password|passwd|credential"
    r"|cookie|(?:^|[-_])keys?(?:$|[-_])"
)
CAMEL_KEY_PATTERN = r"[a-z0-9](?:Key|Keys)(?:$|[A-Z_-])"

_WORDS = (
    "authorization",
    "apikey",
    "api-key",
    "api_key",
    "privatekey",
    "private-key",
    "private_key",
    "secret",
    "token",
    "password",
    "passwd",
    "credential",
    "cookie",
)
_CAMEL_BEFORE = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_CAMEL_AFTER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ_-")
_CACHE: dict[str, bool] = {}
_CACHE_LIMIT = 4096
_regex: Callable[[str], bool] | None = None


def is_sensitive_name(name: str) -> bool:
    """True when a value stored under ``name`` must not be written to the log."""
    hit = _CACHE.get(name)
    if hit is None:
        hit = _scan(name) if name.isascii() else _match_regex(name)
        if len(_CACHE) < _CACHE_LIMIT:
            _CACHE[name] = hit
    return hit


def _scan(name: str) -> bool:
    lower = name.lower()
    for word in _WORDS:
        if word in lower:
            return True
    if "key" in lower and _has_key_segment(lower):
        return True
    return "Key" in name and _has_camel_key(name)


def _has_key_segment(lower: str) -> bool:
    # (?:^|[-_])keys?(?:$|[-_]) is "some segment between '-'/'_' separators is key or keys".
    return any(part in ("key", "keys") for part in lower.replace("-", "_").split("_"))


def _has_camel_key(name: str) -> bool:
    end = len(name)
    index = name.find("Key", 1)
    while index != -1:
        if name[index - 1] in _CAMEL_BEFORE:
            after = index + 3
            if after == end or name[after] in _CAMEL_AFTER:
                return True
            if name[after] == "s" and (after + 1 == end or name[after + 1] in _CAMEL_AFTER):
                return True
        index = name.find("Key", index + 1)
    return False


def _match_regex(name: str) -> bool:
    global _regex
    if _regex is None:
        import re

        words = re.compile(SENSITIVE_NAME_PATTERN, re.IGNORECASE).search
        camel = re.compile(CAMEL_KEY_PATTERN).search

        def matches(text: str) -> bool:
            return words(text) is not None or camel(text) is not None

        _regex = matches
    return _regex(name)
