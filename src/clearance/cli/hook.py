"""``clearance hook HOST``: run as a host's hook (one payload on stdin, the host's answer out)."""

from __future__ import annotations

__all__ = ["run_hook"]

HOSTS = ("claude-code", "codex", "gemini", "copilot", "cursor", "qwen", "opencode", "pi")
# host -> the module whose ``run`` (``main`` for Claude Code) answers its hook payloads
_MODULES = {host: f"clearance.hosts.{host.replace('-', '_')}.hook" for host in HOSTS}


TYPE_CHECKING = False
if TYPE_CHECKING:
    from clearance.cli._args import Args


def run_hook(args: Args) -> int:
    module = _MODULES.get(args.positionals[0]) if len(args.positionals) == 1 else None
    if module is None:
        from clearance.cli._args import UsageError

        raise UsageError(f"hook takes one host: {', '.join(HOSTS)}")
    hook = __import__(module, fromlist=["run"])
    run = getattr(hook, "run", None) or hook.main
    return int(run())
