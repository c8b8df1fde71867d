"""``clearance trust [DIR] [--remove|--list]``: which projects may shape the policy."""

from __future__ import annotations

import os
import sys

from clearance.cli._args import UsageError
from clearance.policy.state import state_root
from clearance.policy.trust import read_trusted, trust, untrust

__all__ = ["run_trust"]


TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args


def run_trust(args: Args) -> int:
    state = state_root()
    if args.on("--list"):
        for root, record in read_trusted(state).items():
            files = ", ".join(sorted(record)) or "no policy files"
            sys.stdout.write(f"{root}  ({files})\n")
        return 0
    if len(args.positionals) > 1:
        raise UsageError("trust takes at most one directory")
    directory = args.positionals[0] if args.positionals else os.getcwd()
    from clearance.policy.discovery import find_project
    from clearance.policy.state import home_dir

    # Trust is recorded for the project a directory belongs to, as the loader looks it up.
    directory = find_project(os.path.abspath(directory), home_dir()) or directory
    real_dir = os.path.realpath(directory)
    if not args.on("--remove") and real_dir in (
        os.path.realpath(home_dir()),
        os.path.realpath(os.sep),
    ):
        what = "your home directory" if real_dir != os.path.realpath(os.sep) else "/"
        sys.stderr.write(
            f"clearance trust: refusing to trust {what} ({real_dir}): every directory under it "
            "would take its policy from there; run `clearance trust` inside a project, or put "
            "rules for everything in the global config (`clearance init`)\n"
        )
        return 1
    if args.on("--remove"):
        if untrust(state, directory):
            sys.stdout.write(f"no longer trusted: {os.path.realpath(directory)}\n")
        else:
            sys.stdout.write(f"was not trusted: {os.path.realpath(directory)}\n")
        return 0
    try:
        real = trust(state, directory)
    except ValueError as exc:
        sys.stderr.write(f"clearance trust: {exc}\n")
        return 1
    except OSError as exc:
        from clearance.cli._errors import describe

        sys.stderr.write(f"clearance trust: cannot trust {directory}: {describe(exc)}\n")
        return 1
    config = os.path.join(real, ".clearance", "config.jsonc")
    note = "" if os.path.exists(config) else " (it has no .clearance/config.jsonc yet)"
    sys.stdout.write(f"trusted: {real}{note}\n")
    sys.stdout.write(
        "trust is pinned to the content of its policy files: after any change to them, review "
        "it and run `clearance trust` again\n"
    )
    return 0
