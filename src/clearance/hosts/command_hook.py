"""The shared path of every command-hook host: one payload in, the host's own answer out.

A host adapter (``hosts/<host>/hook.py``) knows only three things: how its payload maps to a
host-neutral :class:`~clearance.intent.call.ToolCall` (tool and argument names), how an answer is
encoded for it, and how it blocks when clearance itself fails. Everything else is here and is the
same for every host: the size cap and JSON parsing, the engine, session grants, the authorizer
chain, forwarding an ask to a serving session (``clearance serve``), the review log and events.

Asks: a host with a dialog gets ``ask`` (after forwarding, when a serving session serves the
call); a host without one (``codex exec``, ``-p`` modes, Codex's PreToolUse) gets the ask
forwarded, else a deny that says how to allow the call. The per-host setting
``hosts.<host>.ask`` (``auto`` | ``native`` | ``forward`` | ``deny``) works as for Claude Code.
"""

from __future__ import annotations

import os
import sys

from clearance._frozen import Frozen
from clearance.hosts.claude_code.payload import MAX_PAYLOAD_BYTES, PayloadError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from clearance.intent.call import ToolCall

__all__ = [
    "FAILS_CLOSED",
    "PERMISSION",
    "PRE_TOOL",
    "Adapter",
    "HookEvent",
    "PayloadError",
    "Reply",
    "answer",
    "main",
    "parse_object",
]

PRE_TOOL = "pre_tool"  # before a tool runs: allow, deny or ask
PERMISSION = "permission"  # the host is about to show its own dialog: allow, deny or silence

FAILS_CLOSED = "clearance fails closed, so the call is denied"
PREFIX = "[clearance] "

_set = object.__setattr__


class HookEvent(Frozen):
    """What an adapter read from one payload: the kind of event, the host's event name, the
    call, and whether anyone can answer an ask in this run (``nobody`` says why not)."""

    __slots__ = ("call", "host_event", "kind", "nobody")
    kind: str
    host_event: str
    call: ToolCall
    nobody: str | None

    def __init__(self, kind: str, host_event: str, call: ToolCall, nobody: str | None) -> None:
        _set(self, "kind", kind)
        _set(self, "host_event", host_event)
        _set(self, "call", call)
        _set(self, "nobody", nobody)


class Reply(Frozen):
    """The hook process's whole effect: stdout, stderr and exit status."""

    __slots__ = ("exit", "stderr", "stdout")
    stdout: str
    stderr: str
    exit: int

    def __init__(self, stdout: str = "", stderr: str = "", exit: int = 0) -> None:
        _set(self, "stdout", stdout)
        _set(self, "stderr", stderr)
        _set(self, "exit", exit)


class Adapter:
    """One host's mapping and encoding; subclasses override every method but ``setting``."""

    name = ""  # the host's name on the command line: ``clearance hook <name>``
    key = ""  # its key under ``hosts`` in the configuration (``hosts.codex.ask``)

    def read(self, data: dict[str, Any], env: Mapping[str, str]) -> HookEvent:
        """The event for a parsed payload; raises :class:`PayloadError` saying what is wrong."""
        raise NotImplementedError

    def encode(self, event: HookEvent, action: str, reason: str) -> Reply:
        """The host's answer: ``action`` is ``allow``, ``deny``, ``ask`` or ``silent`` (leave
        the host to its own rules)."""
        raise NotImplementedError

    def failure(self, raw: bytes, reason: str) -> Reply:
        """A block in the host's blocking form, for a payload or failure without a decision."""
        raise NotImplementedError


def parse_object(raw: bytes | str) -> dict[str, Any]:
    """One JSON object from a hook's stdin; raises :class:`PayloadError` saying what is wrong."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise PayloadError(
            f"the hook payload is larger than {MAX_PAYLOAD_BYTES // (1024 * 1024)} MiB"
        )
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PayloadError(f"the hook payload is not UTF-8 ({exc.reason})") from None
    if not raw.strip():
        raise PayloadError("the hook payload is empty; expected one JSON object on stdin")
    from clearance._json import loads

    try:
        data = loads(raw)
    except ValueError as exc:
        raise PayloadError(f"the hook payload is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise PayloadError(f"the hook payload is a JSON {type(data).__name__}, not an object")
    return data


def text_field(data: dict[str, Any], key: str, *, required: bool = False) -> str | None:
    """``data[key]`` as a non-empty string, ``None`` when absent; a wrong type is an error."""
    value = data.get(key)
    if value is None or value == "":
        if required:
            raise PayloadError(f"the hook payload has no {key}")
        return None
    if not isinstance(value, str):
        raise PayloadError(f"field {key!r} must be a string, not {type(value).__name__}")
    return value


def require_strings(tool: str, data: dict[str, Any], *keys: str) -> None:
    """Each of ``keys`` must be a non-empty string in ``data`` (the gates decide on them)."""
    for key in keys:
        value = data.get(key)
        if value is None:
            raise PayloadError(f"the arguments of {tool} have no {key!r}")
        if not isinstance(value, str):
            raise PayloadError(
                f"the arguments of {tool}: {key!r} is a {type(value).__name__}, not a string"
            )
        if not value:
            raise PayloadError(f"the arguments of {tool}: {key!r} is empty")


def ask_mode(policy: Any, key: str) -> str:
    """``hosts.<key>.ask`` from the configuration; ``auto`` when unset or unknown."""
    from clearance.hosts.claude_code.hook import ASK_MODES

    hosts = policy.setting("hosts")
    host = hosts.get(key) if isinstance(hosts, dict) else None
    mode = host.get("ask") if isinstance(host, dict) else None
    return mode if mode in ASK_MODES else "auto"


def headless(env: Mapping[str, str]) -> bool | None:
    """``CLEARANCE_HEADLESS`` forces a run headless (``1``) or attended (``0``); else ``None``."""
    forced = env.get("CLEARANCE_HEADLESS")
    if not forced:
        return None
    return forced not in ("0", "false", "no")


def decide(adapter: Adapter, event: HookEvent, env: Mapping[str, str]) -> tuple[str, str]:
    """``(action, reason)`` for an event: the whole shared path (engine, grants, chain,
    forwarding, log and events). ``action`` is ``allow``, ``deny``, ``ask`` or ``silent``."""
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.hook import HostTerminal, _config_note
    from clearance.hosts.gatekeeper import Gatekeeper

    call = event.call
    engine = Engine.load(cwd=call.cwd, agent=call.agent, env=env)
    decision = engine.check(call)
    note = _config_note(engine.policy)
    if event.kind == PERMISSION:
        if decision.action == "allow":
            return "allow", decision.reason
        if decision.action == "deny":
            return "deny", decision.reason + note
        return "silent", decision.reason
    terminal = HostTerminal(engine, ask_mode(engine.policy, adapter.key), event.nobody, note)
    keeper = Gatekeeper.from_config(engine, env=env, terminal=terminal)
    terminal.report = keeper.write  # forwarding events go to the same review log
    outcome = keeper.resolve(call, decision)
    if outcome.action == "allow":
        return "allow", outcome.reason
    if outcome.action == "deny":
        reason = outcome.reason
        return "deny", reason if reason.endswith(note) else reason + note
    return "ask", decision.reason + note


def answer(adapter: Adapter, raw: bytes, env: Mapping[str, str] | None = None) -> Reply:
    """The hook's whole effect for one payload. Never raises: any failure blocks."""
    env = os.environ if env is None else env
    try:
        try:
            data = parse_object(raw)
            event = adapter.read(data, env)
        except PayloadError as exc:
            return adapter.failure(raw, f"Denied: {exc}; {FAILS_CLOSED}")
        action, reason = decide(adapter, event, env)
        return adapter.encode(event, action, reason)
    except Exception as exc:
        return adapter.failure(
            raw,
            f"Denied: clearance could not decide this call ({type(exc).__name__}: {exc}); "
            f"{FAILS_CLOSED}. The user can run `clearance doctor {adapter.name}` to find the fault",
        )


def main(adapter: Adapter) -> int:
    """Read stdin, answer on stdout/stderr, exit with the status the answer needs."""
    try:
        raw = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
    except Exception as exc:
        reply = adapter.failure(b"", f"Denied: the hook could not read its payload ({exc})")
    else:
        reply = answer(adapter, raw)
    try:
        if reply.stdout:
            sys.stdout.write(reply.stdout)
        sys.stdout.flush()
    except Exception:
        pass
    try:
        if reply.stderr:
            sys.stderr.write(reply.stderr)
        sys.stderr.flush()
    except Exception:
        pass
    return reply.exit
