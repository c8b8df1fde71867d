"""``clearance install|uninstall|sync|doctor <host>`` for the hosts besides Claude Code.

Cold code. The command line is parsed by ``clearance.cli``; each host module provides
``install``/``uninstall`` (and ``sync`` where the host needs static rules); this module picks the
file, reports what changed, and runs the doctor's round trip: the installed command, run the way
the host runs it, must block a payload it cannot read and answer a readable one in the host's
format.
"""

from __future__ import annotations

import os
import subprocess
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["HOSTS", "run_parsed"]

HOSTS = ("codex", "gemini", "copilot", "cursor", "qwen", "opencode", "pi")


def run_parsed(verb: str, positionals: list[str], scope: str | None, where: str | None) -> int:
    """``clearance <verb> <host> [--user|--project] [--dir D]`` (``--cwd D`` for doctor), with
    the command line already parsed. ``scope`` ``None``: the project's file when clearance is
    installed there, else the user's."""
    if len(positionals) != 1 or positionals[0] not in HOSTS:
        sys.stderr.write(f"clearance {verb}: takes one host: {', '.join(HOSTS)}\n")
        return 2
    host = positionals[0]
    directory = os.path.abspath(where or os.getcwd())
    from clearance.hosts.hook_files import HookFileError

    try:
        module = __import__(f"clearance.hosts.{host}.install", fromlist=["install"])
        if scope is None:
            scope = "user"
            installed = getattr(module, "installed_command", None)
            project = module.hooks_path("project", directory)
            codex_there = host == "codex" and module.installed(project)[0]
            if codex_there or (installed is not None and installed(project) is not None):
                scope = "project"
        if verb == "doctor":
            return _doctor(host, scope, directory)
        path = module.hooks_path(scope, directory)
        if verb == "install":
            change = module.install(path, scope=scope, directory=directory)
            _report(change, "installed")
        elif verb == "uninstall":
            _report(module.uninstall(path), "uninstalled")
        else:
            sync = getattr(module, "sync", None)
            if sync is None:
                sys.stdout.write(f"{host} needs no static rules; nothing to sync\n")
                return 0
            _report(sync(scope=scope, directory=directory), "in sync")
    except (HookFileError, OSError) as exc:
        sys.stderr.write(f"clearance {verb} {host}: {exc}\n")
        return 1
    return 0


def _report(change: object, what: str) -> None:
    path = getattr(change, "path", "")
    if not getattr(change, "changed", False):
        sys.stdout.write(f"{path}: already {what}, nothing to change\n")
    else:
        sys.stdout.write(f"{path}: {what}\n")
        backup = getattr(change, "backup", None)
        if backup:
            sys.stdout.write(f"  previous file kept as {backup}\n")
    for note in getattr(change, "notes", []):
        sys.stdout.write(f"  {note}\n")


# --- doctor --------------------------------------------------------------------------------


def round_trip(command: str, payload: str, env: Mapping[str, str] | None = None,
               timeout: float = 60) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Run an installed hook command the way hosts do (``sh -c``) with one payload."""
    return subprocess.run(
        ["sh", "-c", command], input=payload, capture_output=True, text=True,
        timeout=timeout, env=dict(os.environ if env is None else env),
    )  # fmt: skip


def _line(ok: bool, name: str, summary: str, fix: str | None = None) -> bool:
    from clearance._display import escape

    sys.stdout.write(f"{'ok  ' if ok else 'FAIL'}  {name}: {escape(summary)}\n")
    if fix and not ok:
        sys.stdout.write(f"      fix: {escape(fix)}\n")
    return ok


def _version(binary: str) -> str | None:
    import shutil

    found = shutil.which(binary)
    if not found:
        return None
    try:
        proc = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (proc.stdout.strip().splitlines() or ["?"])[-1]


def _doctor(host: str, scope: str, directory: str) -> int:
    checks: dict[str, Callable[[str, str], list[bool]]] = {"codex": _doctor_codex}
    doctor = checks.get(host)
    results = _doctor_hook(host, scope, directory) if doctor is None else doctor(scope, directory)
    failed = results.count(False)
    if failed:
        sys.stdout.write(f"\n{failed} problem(s)\n")
        return 1
    sys.stdout.write(f"\nclearance is guarding {host} here.\n")
    return 0


def _doctor_codex(scope: str, directory: str) -> list[bool]:
    from clearance.hosts.codex import install as codex

    results = []
    version = _version("codex")
    results.append(_line(True, "codex", version or "not on PATH (the checks below still hold)"))
    path = codex.hooks_path(scope, directory)
    hooked, untrusted = codex.installed(path)
    missing = [e for e in codex.EVENTS if e not in hooked]
    results.append(_line(not missing, "hooks", f"{path}: " + (
        "PreToolUse and PermissionRequest" if not missing else f"missing {', '.join(missing)}"
    ), f"clearance install codex --{scope}"))  # fmt: skip
    if missing:
        return results
    results.append(_line(not untrusted, "trust", "Codex trusts the hooks" if not untrusted else
                         f"Codex skips the untrusted hooks of {', '.join(untrusted)}",
                         f"clearance install codex --{scope} (it records the trust)"))  # fmt: skip
    from clearance.hosts.hook_files import read_json

    data, _ = read_json(path)
    command = data["hooks"]["PreToolUse"][-1]["hooks"][0]["command"]
    broken = round_trip(command, "{not json")
    results.append(_line(broken.returncode == 2 and "[clearance]" in broken.stderr,
                         "fails closed", "a payload it cannot read is blocked (exit 2)"
                         if broken.returncode == 2 else
                         f"a bad payload exited {broken.returncode}, which Codex lets through",
                         f"clearance install codex --{scope}"))  # fmt: skip
    from clearance._json import dumps

    payload = dumps({"session_id": "doctor", "turn_id": "doctor", "cwd": directory,
                     "hook_event_name": "PreToolUse", "tool_name": "Bash",
                     "tool_input": {"command": "true"}, "tool_use_id": "doctor"})  # fmt: skip
    env = {**os.environ, "CLEARANCE_HEADLESS": "1"}
    proc = round_trip(command, payload, env)
    ok = proc.returncode == 0 or (proc.returncode == 2 and proc.stderr.strip() != "")
    results.append(_line(ok, "round trip", "the hook answered a Bash call "
                         + ("(allowed)" if proc.returncode == 0 and not proc.stdout.strip()
                            else "(denied or asked)"),
                         "run the hook command by hand to see its error"))  # fmt: skip
    return results


# A call each host's hook must answer, in that host's payload shape.
_PROBES: dict[str, Callable[[str], dict[str, object]]] = {
    "gemini": lambda cwd: {
        "session_id": "doctor",
        "cwd": cwd,
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "true"},
    },
    "qwen": lambda cwd: {
        "session_id": "doctor",
        "cwd": cwd,
        "hook_event_name": "PreToolUse",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "true"},
    },
    "copilot": lambda cwd: {
        "sessionId": "doctor",
        "timestamp": 0,
        "cwd": cwd,
        "toolName": "bash",
        "toolArgs": '{"command": "true"}',
    },
    "cursor": lambda cwd: {
        "hook_event_name": "beforeShellExecution",
        "command": "true",
        "cwd": cwd,
        "conversation_id": "doctor",
        "workspace_roots": [cwd],
    },
    "opencode": lambda cwd: {
        "tool": "bash",
        "args": {"command": "true"},
        "cwd": cwd,
        "sessionID": "doctor",
    },
    "pi": lambda cwd: {
        "tool": "bash",
        "args": {"command": "true"},
        "cwd": cwd,
        "sessionID": "doctor",
    },
}
_BINARIES = {
    "gemini": "gemini",
    "qwen": "qwen",
    "copilot": "copilot",
    "cursor": "cursor-agent",
    "opencode": "opencode",
    "pi": "pi",
}


def _doctor_hook(host: str, scope: str, directory: str) -> list[bool]:
    """Installed, fails closed, and answers: the checks every command-hook host shares."""
    module = __import__(f"clearance.hosts.{host}.install", fromlist=["installed_command"])
    results = []
    version = _version(_BINARIES[host])
    results.append(_line(True, host, version or "not on PATH (the checks below still hold)"))
    path = module.hooks_path(scope, directory)
    command = module.installed_command(path)
    results.append(_line(command is not None, "hook", f"{path}: "
                         + ("installed" if command else "clearance is not installed here"),
                         f"clearance install {host} --{scope}"))  # fmt: skip
    if command is None:
        return results
    is_current = getattr(module, "is_current", None)  # the plugin hosts
    if is_current is not None:
        same = is_current(path)
        summary = (
            "the file this clearance writes"
            if same
            else (
                "the file differs from the one this clearance writes (edited, or left by another "
                "version)"
            )
        )
        results.append(_line(same, "plugin", summary, f"clearance install {host} --{scope}"))
    broken = round_trip(command, "{not json")
    results.append(_line(broken.returncode == 2 and "[clearance]" in broken.stderr + broken.stdout,
                         "fails closed", "a payload it cannot read is blocked (exit 2)"
                         if broken.returncode == 2 else
                         f"a bad payload exited {broken.returncode}, which {host} may let through",
                         f"clearance install {host} --{scope}"))  # fmt: skip
    from clearance._json import dumps

    env = {**os.environ, "CLEARANCE_HEADLESS": "1"}
    proc = round_trip(command, dumps(_PROBES[host](directory)), env)
    ok = proc.returncode == 0 and proc.stdout.strip() != ""
    results.append(_line(ok, "round trip", "the hook answered a shell call"
                         if ok else f"no answer (exit {proc.returncode}): {proc.stderr[-300:]}",
                         "run the hook command by hand to see its error"))  # fmt: skip
    return results
