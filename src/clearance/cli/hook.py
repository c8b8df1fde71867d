"""``clearance hook HOST``: run as a host's hook (one payload on stdin, the host's answer out)."""

from __future__ import annotations

__all__ = ["HOSTS", "run_hook", "run_host"]

HOSTS = ("claude-code", "codex", "gemini", "copilot", "cursor", "qwen", "opencode", "pi")
# host -> the module whose ``run`` (``main`` for Claude Code) answers its hook payloads
_MODULES = {host: f"clearance.hosts.{host.replace('-', '_')}.hook" for host in HOSTS}


TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args


def run_host(host: str) -> int:
    """Answer one hook payload of ``host`` (one of :data:`HOSTS`): its hook module's ``run``."""
    hook = __import__(_MODULES[host], fromlist=["run"])
    run = getattr(hook, "run", None) or hook.main
    return int(run())


def run_hook(args: Args) -> int:
    if len(args.positionals) != 1 or args.positionals[0] not in _MODULES:
        from clearance.cli._args import UsageError

        raise UsageError(f"hook takes one host: {', '.join(HOSTS)}")
    return run_host(args.positionals[0])
