"""``clearance hook HOST``: run as a host's hook; for now the host is ``claude-code``."""

from __future__ import annotations

__all__ = ["run_hook"]

HOSTS = ("claude-code",)


TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args


def run_hook(args: Args) -> int:
    if args.positionals != ["claude-code"]:
        from clearance.cli._args import UsageError

        raise UsageError(f"hook takes one host: {', '.join(HOSTS)}")
    from clearance.hosts.claude_code.hook import main

    return main()
