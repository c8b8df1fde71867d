"""``clearance policy``: the effective layered policy, each rule with where it came from.

Like ``git config --list --show-origin``: one rule a line, in layering order, with its origin
(builtin, global, project, agent…) and the file:line:col it was written at.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args
    from clearance.policy.policy import Policy

__all__ = ["run_policy"]


def _builtin(cwd: str) -> Policy:
    """The built-in policy alone: loaded with no global file and no project around."""
    import tempfile

    from clearance.policy.loader import load_policy

    with tempfile.TemporaryDirectory(prefix="clearance-builtin-") as empty:
        env = {**os.environ, "XDG_CONFIG_HOME": empty, "HOME": empty}
        env.pop("CLEARANCE_CONFIG", None)
        env.pop("CLEARANCE_YOLO", None)
        return load_policy(cwd=empty, env=env, use_cache=False, yolo=False)


def run_policy(args: Args) -> int:
    from clearance._display import escape
    from clearance.cli._color import paint
    from clearance.policy.loader import load_policy

    cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
    if args.on("--builtin"):
        policy = _builtin(cwd)
    else:
        policy = load_policy(cwd=cwd, agent=args.value("--agent"), use_cache=False)
    rules = policy.rules.rules
    if args.on("--json"):
        from clearance._json import dumps

        body = {
            "files": list(policy.files),
            "project": policy.project,
            "trusted": policy.trusted,
            "agent": policy.agent,
            "yolo": policy.yolo,
            "rules": [{**r.as_json(), "action": r.action, "reason": r.reason} for r in rules],
            "warnings": list(policy.warnings),
            "errors": [str(e) for e in policy.errors],
        }
        sys.stdout.write(dumps(body, indent=2) + "\n")
        return 1 if policy.errors else 0
    out = sys.stdout
    width = max((len(_where(r.origin, r.source)) for r in rules), default=0)
    for rule in rules:
        where = _where(rule.origin, rule.source).ljust(width)
        action = paint(f"{rule.action:<5}", rule.action, out)
        what = "*" if rule.universal else f'{rule.surface} "{rule.pattern}"'
        reason = f"  — {rule.reason}" if rule.reason else ""
        out.write(f"{escape(where)}  {action}  {escape(what + reason)}\n")
    for warning in policy.warnings:
        sys.stderr.write(f"clearance policy: warning: {escape(warning)}\n")
    for error in policy.errors:
        sys.stderr.write(f"clearance policy: error: {escape(str(error))}\n")
    return 1 if policy.errors else 0


def _where(origin: str, source: str | None) -> str:
    if source is None or source.startswith(origin + ":"):
        return source or origin
    return f"{origin} {source}"
