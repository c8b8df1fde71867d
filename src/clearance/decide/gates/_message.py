"""The sentences gates put in front of humans and agents. Never a stack trace."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.policy.rule import Rule

__all__ = ["describe_rule", "gate_message"]

_ORIGIN_WORDS = {
    "builtin": "built-in policy",
    "default": "nothing else matched: least privilege",
    "global": "global config",
    "project": "project config",
    "agent": "agent config",
    "project_agent": "project agent config",
    "inline": "inline policy",
    "session": "session grant",
    "yolo": "yolo",
    "fail_closed": "fail-closed: a config file is invalid",
}

_VERBS = {"deny": "Denied by policy", "ask": "Needs approval", "allow": "Allowed"}


# Descriptions by rule identity; each entry holds its rule, so an id is not reused while cached.
_described: dict[int, tuple[Rule, str]] = {}
_DESCRIBED_MAX = 4096


def describe_rule(rule: Rule | None) -> str:
    if rule is None:
        return "no rule"
    hit = _described.get(id(rule))
    if hit is not None and hit[0] is rule:
        return hit[1]
    text = _describe(rule)
    if len(_described) >= _DESCRIBED_MAX:
        _described.clear()
    _described[id(rule)] = (rule, text)
    return text


def _describe(rule: Rule) -> str:
    if rule.universal:
        head = f'the universal rule "*": {rule.action}'
    else:
        head = f'{rule.surface} "{rule.pattern}"'
    origin = _ORIGIN_WORDS.get(rule.origin, rule.origin)
    where = f", {rule.source}" if rule.source and rule.origin not in ("session",) else ""
    return f"{head} ({origin}{where})"


def gate_message(action: str, what: str, rule: Rule | None, *, extra: str = "") -> str:
    """``what`` names the thing decided, e.g. ``bash command "git push --force"``."""
    text = f"{_VERBS[action]}: {what} matched {describe_rule(rule)}"
    if extra:
        text += f" {extra}"
    if rule is not None and rule.reason:
        text += f": {rule.reason}"
    return text
