"""The hosts a forwarded ask can come from: the name its request carries, and what a human is
shown for it (the web console, the serving terminal's live list). Below the hosts layer a host
is only its name (``Requester.host``)."""

from __future__ import annotations

__all__ = ["HOSTS", "host_label"]

HOSTS = {
    "claude-code": "Claude Code (command hook)",
    "claude-code-http": "Claude Code (HTTP hook)",
    "agent-sdk": "Claude Agent SDK",
    "gate": "clearance gate",
    "python": "clearance Python API",
    "codex": "Codex",
    "gemini": "Gemini CLI",
    "copilot": "GitHub Copilot CLI",
    "cursor": "Cursor",
    "qwen": "Qwen Code",
    "opencode": "OpenCode",
    "pi": "pi",
}


def host_label(host: str | None) -> str:
    """What the human is shown for ``host`` (a name of :data:`HOSTS`, else the name itself)."""
    if not host:
        return "unknown host"
    return HOSTS.get(host, host)
