"""``clearance hook HOST``: run as a host's hook (one payload on stdin, the host's answer out)."""

from __future__ import annotations

__all__ = ["HOSTS", "run_hook"]

# host -> the module whose ``run``/``main`` answers its hook payloads
HOSTS = {
    "claude-code": "clearance.hosts.claude_code.hook",
    "codex": "clearance.hosts.codex.hook",
    "gemini": "clearance.hosts.gemini.hook",
    "copilot": "clearance.hosts.copilot.hook",
    "cursor": "clearance.hosts.cursor.hook",
    "qwen": "clearance.hosts.qwen.hook",
    "opencode": "clearance.hosts.opencode.hook",
    "pi": "clearance.hosts.pi.hook",
}


def run_hook(argv: list[str]) -> int:
    module = HOSTS.get(argv[0]) if len(argv) == 1 else None
    if module is None:
        from clearance.cli._args import UsageError

        raise UsageError(f"hook takes one host: {', '.join(HOSTS)}")
    hook = __import__(module, fromlist=["run"])
    run = getattr(hook, "run", None) or hook.main
    return int(run())
