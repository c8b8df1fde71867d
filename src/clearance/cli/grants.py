"""``clearance grants [--clear ID | --clear-all | --prune]``: session grants on disk."""

from __future__ import annotations

import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args

__all__ = ["run_grants"]


def run_grants(args: Args) -> int:
    from clearance._display import escape
    from clearance.decide.grant import DiskGrants, list_sessions, remove_session
    from clearance.policy.state import state_root

    state = state_root()
    target = args.value("--clear")
    if target is not None:
        found = remove_session(state, target)
        sys.stdout.write(f"{'cleared' if found else 'no grants for'} session {escape(target)}\n")
        return 0 if found else 1
    shown = args.value("--show")
    if shown is not None:
        grants = list(DiskGrants(state, shown).grants())
        if not grants:
            sys.stdout.write(f"no grants for session {escape(shown)}\n")
            return 1
        for grant in grants:
            sys.stdout.write(escape(f'{grant.surface} "{grant.pattern}"') + "\n")
        return 0
    sessions = list_sessions(state)
    if args.on("--clear-all") or args.on("--prune"):
        count = 0
        for session, _, _, expired in sessions:
            if args.on("--clear-all") or expired:
                count += remove_session(state, session)
        sys.stdout.write(f"cleared {count} session(s)\n")
        return 0
    if not sessions:
        sys.stdout.write("no session grants\n")
        return 0
    for session, updated, count, expired in sessions:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(updated))
        state_word = "expired" if expired else "active"
        sys.stdout.write(f"{escape(session)}\t{count} grant(s)\tupdated {when}\t{state_word}\n")
    return 0
