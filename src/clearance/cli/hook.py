"""``clearance hook HOST``: run as a host's hook; for now the host is ``claude-code``."""

from __future__ import annotations

__all__ = ["run_hook"]

HOSTS = ("claude-code",)


def run_hook(argv: list[str]) -> int:
    if argv != ["claude-code"]:
        from clearance.cli._args import UsageError

        raise UsageError(f"hook takes one host: {', '.join(HOSTS)}")
    from clearance.hosts.claude_code.hook import main

    return main()
