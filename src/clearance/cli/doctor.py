"""``clearance doctor [--cwd D]``: check the Claude Code installation; exit 1 on a problem."""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args

__all__ = ["run_doctor"]


def run_doctor(args: Args) -> int:
    from clearance.hosts.setup import HOSTS

    if args.positionals and args.positionals[0] in HOSTS:  # codex, gemini, … (hosts/setup.py)
        from clearance.hosts.setup import run_parsed

        return run_parsed("doctor", args.positionals, None, args.value("--cwd"))
    if args.positionals not in ([], ["claude-code"]):
        raise UsageError("doctor takes no arguments but --cwd (and optionally claude-code)")
    from clearance.hosts.claude_code.doctor import run_checks

    cwd = os.path.abspath(args.value("--cwd") or os.getcwd())
    checks = run_checks(cwd)
    # -- the installed service (clearance.service.unit) --
    from clearance.service.unit import check_service

    checks.append(check_service())
    # --
    from clearance._display import escape
    from clearance.cli._color import paint

    for check in checks:
        mark = paint("ok  ", "ok", sys.stdout) if check.ok else paint("FAIL", "FAIL", sys.stdout)
        body = "\n      ".join(escape(line) for line in check.summary.split("\n"))
        sys.stdout.write(f"{mark}  {check.name}: {body}\n")
        if check.fix:
            sys.stdout.write(f"      fix: {escape(check.fix)}\n")
    failed = [c.name for c in checks if not c.ok]
    if failed:
        sys.stdout.write(f"\n{len(failed)} problem(s): {', '.join(failed)}\n")
        return 1
    sys.stdout.write("\nclearance is guarding Claude Code here.\n")
    return 0
