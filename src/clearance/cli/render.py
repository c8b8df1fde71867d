"""Decisions as text for people and as JSON for programs (``check --json``, `clearance check
--help`)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from clearance.decide.decision import Decision
    from clearance.decide.suggestion import Suggestion
    from clearance.policy.policy import Policy

__all__ = ["EXIT", "decision_json", "decision_text", "explain_text"]

EXIT = {"allow": 0, "ask": 3, "deny": 4}


def decision_json(decision: Decision, policy: Policy | None = None) -> dict[str, Any]:
    suggestions = _SUGGESTIONS[0] if _SUGGESTIONS else _load_suggestions()
    rule = decision.rule
    out: dict[str, Any] = {
        "decision": decision.action,
        "reason": decision.reason,
        "rule": None if rule is None else rule.as_json(),
        "tool": decision.call.tool,
        "units": [
            {
                "text": u.text,
                "context": u.context,
                "wrapper": u.wrapper,
                "sentinel": u.sentinel,
                "decision": u.action,
                "rule": None if u.rule is None else u.rule.as_json(),
            }
            for u in decision.units
        ],
        "paths": [p.as_json() for p in decision.paths],
        "gates": [g.as_json() for g in decision.gates],
        "suggestions": [
            {"surface": s.surface, "pattern": s.pattern, "label": s.label}
            for s in suggestions(decision)
        ],
    }
    if policy is not None:
        out["warnings"] = list(policy.warnings)
        out["errors"] = [str(e) for e in policy.errors]
    return out


# clearance.decide.offer.suggestions, imported on the first decision shown as JSON (a batch
# shows thousands).
_SUGGESTIONS: list[Callable[[Decision], tuple[Suggestion, ...]]] = []


def _load_suggestions() -> Callable[[Decision], tuple[Suggestion, ...]]:
    from clearance.decide.offer import suggestions

    _SUGGESTIONS[:] = [suggestions]
    return suggestions


def decision_text(decision: Decision) -> str:
    from clearance._display import escape

    return f"{decision.action}: {escape(decision.reason)}\n"


def explain_text(decision: Decision, policy: Policy) -> str:
    from clearance.decide.offer import suggestions

    lines = [f"call: {decision.call.tool} {_short(decision.call.input)}"]
    lines.append(
        f"cwd: {decision.call.cwd}" + (f"   agent: {policy.agent}" if policy.agent else "")
    )
    if policy.project:
        state = "trusted" if policy.trusted else "not trusted"
        lines.append(f"project: {policy.project} ({state})")
    lines.append("policy files: " + (", ".join(policy.files) or "(none)"))
    if policy.yolo:
        lines.append("yolo: on (asks become allows; denies stand)")
    for warning in policy.warnings:
        lines.append(f"warning: {warning}")
    for error in policy.errors:
        lines.append(f"error: {error}")
        lines.append("  → failing closed: every allow is an ask until this is fixed")
    if decision.units:
        lines.append("units (nested units indented under the command that runs them):")
        for unit in decision.units:
            tags = [t for t in (unit.context, unit.wrapper and f"{unit.wrapper} wrapper",
                                unit.sentinel) if t]  # fmt: skip
            tag = f"  [{', '.join(tags)}]" if tags else ""
            rule = "" if unit.rule is None else f'  ← {unit.rule.surface} "{unit.rule.pattern}"'
            indent = "  └─ " if unit.context and unit.context != "compound" else ""
            lines.append(f"  {unit.action:5}  {indent}{unit.text}{tag}{rule}")
    if decision.paths:
        from clearance.hosts.facts import HOST_FACTS
        from clearance.intent.boundary import project_boundary, project_root

        cwd, home = decision.call.cwd, policy.home
        found = project_boundary(cwd, home, HOST_FACTS.inside(project_root(cwd, home), home))
        extra = f"; also inside: {', '.join(found.inside)}" if found.inside else ""
        lines.append(f"outside means outside: {found.root}{extra}")
        lines.append("paths:")
        for path in decision.paths:
            lines.append("  " + path.describe(found.holder(path.canonical or path.shown)))
    lines.append("gates:")
    for gate in decision.gates:
        lines.append(f"  {gate.action:5}  {gate.gate} [{gate.surface}] {gate.message}")
    lines.append(f"decision: {decision.action}: {decision.reason}")
    for s in suggestions(decision):
        lines.append(f"  option: {s.label}")
    from clearance._display import escape

    # Each line is one line of layout: a newline inside it came from agent text, so it is shown.
    return "\n".join(escape(line) for line in lines) + "\n"


def _short(value: object, limit: int = 200) -> str:
    from clearance._json import dumps

    text = value if isinstance(value, str) else dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
