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
from clearance.hosts.claude_code.payload import (
    MAX_PAYLOAD_BYTES,
    PayloadError,
    object_field,
    parse_object,
    required_text,
    text_field,
)
from clearance.hosts.claude_code.response import PREFIX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall

    # How the engine for a call is had: ``load(cwd, agent, env)``.
    Load = Callable[[str, str | None, Mapping[str, str]], Engine]

__all__ = [
    "FAILS_CLOSED",
    "PERMISSION",
    "PREFIX",
    "PRE_TOOL",
    "Adapter",
    "HookEvent",
    "PayloadError",
    "Reply",
    "answer",
    "call_fields",
    "decision_reply",
    "headless_reason",
    "json_block",
    "load_engine",
    "main",
    "object_field",
    "parse_object",
    "required_text",
    "stderr_block",
    "text_field",
]

PRE_TOOL = "pre_tool"  # before a tool runs: allow, deny or ask
PERMISSION = "permission"  # the host is about to show its own dialog: allow, deny or silence

FAILS_CLOSED = "clearance fails closed, so the call is denied"

_set = object.__setattr__


class HookEvent(Frozen):
    """What an adapter read from one payload: the kind of event, the host's event name, the
    call, and whether anyone can answer an ask in this run (``nobody`` says why not).

    ``answer`` is the user's choice in the host's own dialog (``once``, ``session``,
    ``session_both``, ``deny``), sent back by a plugin after it showed an ask: the call is
    decided again and, if it still asks, resolved by that choice (grants recorded, logged)."""

    __slots__ = ("answer", "call", "host_event", "kind", "nobody", "token")
    kind: str
    host_event: str
    call: ToolCall
    nobody: str | None
    answer: str | None
    token: str | None

    def __init__(
        self,
        kind: str,
        host_event: str,
        call: ToolCall,
        nobody: str | None,
        answer: str | None = None,
        token: str | None = None,
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "host_event", host_event)
        _set(self, "call", call)
        _set(self, "nobody", nobody)
        _set(self, "answer", answer)
        _set(self, "token", token)


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
    # Tools that only touch the host's own session state (plans, todo lists, a question to the
    # user). When no rule of the user's names them (only the universal "*" would ask), the
    # host's own rules apply; an explicit rule for them is enforced like any other.
    internal: frozenset[str] = frozenset()

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

    def encode_ask(self, event: HookEvent, reason: str, choices: list[dict[str, str]]) -> Reply:
        """An ask with the choices a host dialog may offer (``label``, ``choice``); by default
        the choices are not sent."""
        return self.encode(event, "ask", reason)


def call_fields(
    data: dict[str, Any],
    tool_key: str,
    arguments_key: str,
    session_key: str,
    agent_keys: tuple[str, ...],
    *,
    arguments_name: str | None = None,
    text: bool = False,
) -> tuple[str, str, dict[str, Any], str | None, str | None]:
    """``(tool, cwd, arguments, session, agent)`` of a tool-call payload, read under the host's
    own keys, in that order (the first wrong field is the one named): ``agent`` is the first of
    ``agent_keys`` that is set; ``arguments_name`` names the arguments in an error (default:
    their key); ``text``, the host may send them as JSON text."""
    tool = required_text(data, tool_key)
    cwd = required_text(data, "cwd")
    what = f"{arguments_name or arguments_key} of {tool}"
    arguments = object_field(data, arguments_key, what, text=text)
    session = text_field(data, session_key)
    agent = None
    for key in agent_keys:
        agent = text_field(data, key)
        if agent is not None:
            break
    return tool, cwd, arguments, session, agent


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


def headless_reason(env: Mapping[str, str]) -> str | None:
    """Why nobody can answer an ask, when ``CLEARANCE_HEADLESS`` makes the run headless."""
    return "this is a headless run" if headless(env) else None


def decision_reply(action: str, reason: str) -> Reply:
    """``{"decision", "reason"}``: the answer Gemini CLI and the plugins read."""
    from clearance._json import dumps

    return Reply(dumps({"decision": action, "reason": PREFIX + reason}) + "\n")


def json_block(out: dict[str, Any], reason: str) -> Reply:
    """The host's deny ``out`` on stdout, and exit 2 with the reason on stderr too: a block
    whichever of the two the host reads."""
    from clearance._json import dumps

    return Reply(dumps(out) + "\n", PREFIX + reason + "\n", exit=2)


def stderr_block(reason: str) -> Reply:
    """Exit 2 with the reason on stderr: how the hosts that let other failures run block."""
    return Reply(stderr=PREFIX + reason + "\n", exit=2)


class _Answered:
    """The last word for a call the host's dialog already answered (``HookEvent.answer``)."""

    def __init__(self, choice: str) -> None:
        self.choice = choice

    def authorize(self, ask: Any) -> Any:
        from clearance.authority.prompt import Answer
        from clearance.authority.terminal import verdict_from_answer

        return verdict_from_answer(Answer(self.choice), ask)  # type: ignore[arg-type]


class _Recording:
    """A last word that remembers the ask it saw (to offer its choices to the host)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.ask: Any = None

    def authorize(self, ask: Any) -> Any:
        self.ask = ask
        return self.inner.authorize(ask)


# An answer from a host dialog must redeem the one-time token its ask was given: the agent can
# run `clearance hook <host>` itself, but cannot read the token (clearance's state under
# ``hosts/`` is protected from agents' reads), so it cannot approve its own asks. A token is
# kept under the SHA-256 of its value, never its value: a listing of the directory (`ls -R`,
# which lists names without reading a file) must not hand a pending token to the agent.
_TOKEN_TTL = 3600.0


def _fingerprint(call: ToolCall) -> str:
    from clearance._json import dumps

    return dumps([call.tool, call.input, call.cwd, call.agent, call.session])


def _token_dir(state: str) -> str:
    return os.path.join(state, "hosts", "asks")


def _token_file(state: str, token: str) -> str:
    import hashlib

    return os.path.join(_token_dir(state), hashlib.sha256(token.encode()).hexdigest())


def issue_token(state: str, call: ToolCall) -> str:
    """A one-time token naming ``call``, for the host dialog's answer to redeem."""
    import secrets

    from clearance.policy.state import atomic_write, ensure_private_dir

    directory = _token_dir(state)
    ensure_private_dir(directory)
    token = secrets.token_hex(16)
    atomic_write(_token_file(state, token), _fingerprint(call).encode(), mode=0o600)
    return token


def redeem_token(state: str, token: str | None, call: ToolCall) -> None:
    """Consume ``token``; raise :class:`PayloadError` unless it was issued for ``call``."""
    import time

    if not token or not all(c in "0123456789abcdef" for c in token) or len(token) != 32:
        raise PayloadError("an answer needs the token its ask was given")
    path = _token_file(state, token)
    try:
        with open(path, encoding="utf-8") as f:
            fingerprint = f.read()
        age = time.time() - os.stat(path).st_mtime
        os.unlink(path)
    except OSError:
        raise PayloadError("the answer's token is unknown or already used") from None
    if age > _TOKEN_TTL or fingerprint != _fingerprint(call):
        raise PayloadError("the answer's token does not belong to this call, or has expired")


def choices(ask: Any) -> list[dict[str, str]]:
    """The options clearance's own dialog offers for ``ask``, as ``{label, choice}``."""
    from clearance.authority.terminal import build_prompt

    prompt = build_prompt(ask)
    out = [{"label": "Yes", "choice": "once"}]
    if prompt.suggestions:
        label = prompt.suggestions[0].label
        if len(prompt.grants) > 1:
            label = f"Yes, allow the {len(prompt.grants)} patterns listed for this session"
        out.append({"label": label, "choice": "session"})
    if prompt.both_label:
        out.append({"label": prompt.both_label, "choice": "session_both"})
    out.append({"label": "No", "choice": "deny"})
    return out


def load_engine(cwd: str, agent: str | None, env: Mapping[str, str]) -> Engine:
    """The engine for a command-hook or plugin host's call (no agent-host facts: the
    directories and MCP servers those facts know are Claude Code's and pi's own files)."""
    from clearance.decide.engine import Engine
    from clearance.hosts.facts import relocated_homes

    engine = Engine.load(cwd=cwd, agent=agent, env=env)
    engine.relocated = relocated_homes(env)
    return engine


def decide(adapter: Adapter, event: HookEvent, env: Mapping[str, str]) -> tuple[str, str]:
    """``(action, reason)`` for an event: the whole shared path (engine, grants, chain,
    forwarding, log and events). ``action`` is ``allow``, ``deny``, ``ask`` or ``silent``."""
    action, reason, _ = decide_full(adapter, event, env)
    return action, reason


def decide_full(
    adapter: Adapter, event: HookEvent, env: Mapping[str, str], load: Load | None = None
) -> tuple[str, str, list[dict[str, str]]]:
    """:func:`decide`, and for an ask left to the host's dialog the choices it may offer.
    ``load``: where the engine comes from (a service's engines held in memory); by default
    it is loaded for this call."""
    from clearance.hosts.claude_code.hook import HostLastWord, _config_note, _only_fallback
    from clearance.hosts.gatekeeper import Gatekeeper

    call = event.call
    engine = (load or load_engine)(call.cwd, call.agent, env)
    decision = engine.check(call)
    if decision.action == "ask" and call.tool in adapter.internal and _only_fallback(decision):
        return "silent", decision.reason, []
    note = _config_note(engine.policy)
    if event.kind == PERMISSION:
        if decision.action == "allow":
            return "allow", decision.reason, []
        if decision.action == "deny":
            return "deny", decision.reason + note, []
        return "silent", decision.reason, []
    recording = None
    if event.answer is not None:
        from clearance.policy.state import state_root

        redeem_token(engine.state or state_root(env), event.token, call)
        keeper = Gatekeeper.from_config(
            engine, env=env, last_word=_Answered(event.answer), host=adapter.name
        )
    else:
        mode = ask_mode(engine.policy, adapter.key)
        from clearance.hosts.gatekeeper import reporting
        from clearance.policy.state import state_root

        log, bus = reporting(engine.policy, engine.state or state_root(env))
        # Forwarding events go to the same review log as the gatekeeper's.
        last_word = HostLastWord(engine, mode, event.nobody, note, host=adapter.name,
                                report=None if log is None else log.record)  # fmt: skip
        recording = _Recording(last_word)
        keeper = Gatekeeper(engine, log=log, bus=bus, last_word=recording, host=adapter.name)
    outcome = keeper.resolve(call, decision)
    if outcome.action == "allow":
        return "allow", outcome.reason, []
    if outcome.action == "deny":
        reason = outcome.reason
        return "deny", reason if reason.endswith(note) else reason + note, []
    offered: list[dict[str, str]] = []
    if recording is not None and recording.ask is not None:
        from clearance.policy.state import state_root

        offered = choices(recording.ask)
        token = issue_token(engine.state or state_root(env), call)
        offered = [{**option, "token": token} for option in offered]
    return "ask", decision.reason + note, offered


def answer(
    adapter: Adapter, raw: bytes, env: Mapping[str, str] | None = None, load: Load | None = None
) -> Reply:
    """The hook's whole effect for one payload. Never raises: any failure blocks."""
    env = os.environ if env is None else env
    try:
        try:
            data = parse_object(raw)
            event = adapter.read(data, env)
        except PayloadError as exc:
            return adapter.failure(raw, f"Denied: {exc}; {FAILS_CLOSED}")
        action, reason, offered = decide_full(adapter, event, env, load)
        if action == "ask":
            return adapter.encode_ask(event, reason, offered)
        return adapter.encode(event, action, reason)
    except Exception as exc:
        from clearance._fault import describe

        return adapter.failure(
            raw,
            f"Denied: clearance could not decide this call ({describe(exc)}); "
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
    for stream, text in ((sys.stdout, reply.stdout), (sys.stderr, reply.stderr)):
        try:
            if text:
                stream.write(text)
            stream.flush()
        except Exception:
            pass
    return reply.exit
