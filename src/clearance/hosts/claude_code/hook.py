"""``clearance hook claude-code``: one hook payload in on stdin, one answer out on stdout.

Claude Code lets a tool call proceed when a hook exits with any status but 0 or 2, or prints
something it cannot read, so this module never lets an error escape: a payload it cannot read,
a broken configuration or an exception anywhere becomes a JSON *deny* with a reason, exit 0,
and nothing but that JSON ever reaches stdout.

``PreToolUse``: allow → ``allow``; deny → ``deny`` with the reason; ask → by
``hosts.claudeCode.ask``: ``auto`` (default) forwards to a serving session when one serves the
call, else answers ``ask`` so Claude Code shows its own dialog; ``native`` never forwards;
``forward`` always does; ``deny`` refuses. A headless run (``permission_mode`` ``dontAsk``, or
``claude -p``: ``CLAUDE_CODE_ENTRYPOINT`` ``sdk-*``) has no dialog, so there an unforwarded ask is
a deny.
``PermissionRequest`` (Claude Code is about to show its dialog): allow or deny when the policy
decides; silence on ask, so the dialog shows.

What this module does not own: the policy (``clearance.policy``), deciding (``Engine``), session
grants (``Engine.check`` consults them for ``ToolCall.session``), forwarding (``clearance.serve``).
"""

from __future__ import annotations

import os
import sys
import time

_STARTED = time.monotonic()

from clearance.hosts.claude_code.payload import (  # noqa: E402 (after _STARTED, on purpose)
    MAX_PAYLOAD_BYTES,
    PayloadError,
    parse_payload,
    to_call,
)
from clearance.hosts.claude_code.response import (  # noqa: E402
    error_answer,
    permission_request,
    pre_tool_use,
)
from clearance.intent.sentinel import DEADLINE  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from clearance.authority.ask import Ask, Verdict
    from clearance.decide.decision import Decision
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.payload import Payload
    from clearance.intent.call import ToolCall
    from clearance.policy.policy import Policy

    Loader = Callable[[Payload, Mapping[str, str]], Engine]
    AtHand = Callable[[Payload, Mapping[str, str]], Engine | None]

__all__ = [
    "ASK_MODES",
    "HostLastWord",
    "answer",
    "ask_mode",
    "headless_reason",
    "main",
    "pre_tool_use_answer",
    "settled_answer",
]

ASK_MODES = ("auto", "native", "forward", "deny")

# Tools that only touch Claude Code's own session state (its todo and task lists, plan mode, a
# question to the user). When no rule of the user's names them — only the universal ``"*"``
# would ask — the hook stays silent and Claude Code's own rules apply; an explicit rule for
# them is enforced like any other.
HOST_INTERNAL_TOOLS = frozenset(
    {
        "TodoWrite", "TaskCreate", "TaskGet", "TaskUpdate", "TaskList", "TaskOutput",
        "ToolSearch", "ListAgents", "ReportFindings",
        "AskUserQuestion", "EnterPlanMode", "ExitPlanMode",
    }
)  # fmt: skip

_FAILS_CLOSED = "clearance fails closed, so the call is denied"


class HostLastWord:
    """The last word on an ask inside Claude Code (after the configured authorizer chain).

    ``auto`` (the default): a serving session when one serves this call (``clearance serve``,
    docs/forwarding.md), else Claude Code's own dialog (``defer``), else — a headless run — nobody.
    ``forward``: a serving session, else nobody. ``native``: Claude Code's dialog (nobody when
    headless). ``deny``: refuse whatever needs approval.
    """

    __slots__ = ("engine", "host", "mode", "nobody", "note", "report", "started")

    def __init__(
        self,
        engine: Engine,
        mode: str,
        nobody: str | None,
        note: str,
        report: Callable[[str, dict[str, Any]], None] | None = None,
        started: float | None = None,
        host: str = "claude-code",
    ) -> None:
        self.engine = engine
        self.host = host
        self.started = started
        self.mode = mode
        self.nobody = nobody
        self.note = note
        self.report = report

    def authorize(self, ask: Ask) -> Verdict:
        from clearance.authority.ask import Verdict

        reason = ask.decision.reason + self.note
        if self.mode == "deny":
            return Verdict(
                "deny",
                f"{reason}. It needs approval and this setup denies what needs approval "
                '(hosts.claudeCode.ask is "deny"); do it another way or ask the user',
                decided_by="rule",
                resolution="host_ask_denied",
            )
        if self.mode in ("auto", "forward"):
            from clearance.authority.forwarding.child import forward_decision

            verdict = forward_decision(
                self.engine,
                ask.decision,
                ask.request_id,
                report=self.report,
                max_wait=forwarding_budget(os.environ, self.started),
                host=self.host,
            )
            if verdict is not None:
                return verdict
            if self.mode == "forward":
                return _nobody(reason, "no serving session serves this call; start one with "
                                       "`clearance serve` in a terminal")  # fmt: skip
        if self.nobody is not None:
            return _nobody(reason, self.nobody)
        return Verdict.defer()


# Claude Code kills a hook after its timeout and then lets the call through, so a forwarded ask
# must be given up — and denied — well before that.
_MARGIN = 20.0


def forwarding_budget(env: Mapping[str, str], started: float | None = None) -> float:
    """Seconds this hook may still wait for a serving session: the installed hook timeout
    (``CLEARANCE_HOOK_TIMEOUT`` when it was changed in settings.json) less what has passed
    since ``started`` (default: this process's start) and a margin."""
    from clearance.hosts.claude_code.settings import HOOK_TIMEOUT

    try:
        limit = float(env.get("CLEARANCE_HOOK_TIMEOUT") or HOOK_TIMEOUT)
    except ValueError:
        limit = float(HOOK_TIMEOUT)
    margin = min(_MARGIN, limit / 4)
    began = _STARTED if started is None else started
    return max(0.0, limit - margin - (time.monotonic() - began))


def _nobody(reason: str, why: str) -> Verdict:
    from clearance.authority.ask import Verdict

    return Verdict(
        "deny",
        f"{reason}. It needs approval, but no one can approve it here ({why}); do it another "
        "way or ask the user to allow it in clearance's policy",
        decided_by="unavailable",
        resolution="confirmation_unavailable",
    )


def ask_mode(policy: Policy) -> str:
    """``hosts.claudeCode.ask`` from the configuration; ``auto`` when unset or unknown."""
    hosts = policy.setting("hosts")
    host = hosts.get("claudeCode") if isinstance(hosts, dict) else None
    mode = host.get("ask") if isinstance(host, dict) else None
    return mode if mode in ASK_MODES else "auto"


def headless_reason(payload: Payload, env: Mapping[str, str]) -> str | None:
    """Why no one can answer Claude Code's dialog in this run, or ``None`` when someone can.

    ``permission_mode`` ``dontAsk`` means Claude Code itself refuses whatever would ask.
    ``claude -p`` and the Agent SDK mark their process (and so this hook, its child) with
    ``CLAUDE_CODE_ENTRYPOINT=sdk-cli`` / ``sdk-py`` / ``sdk-ts`` (and
    ``CLAUDE_CODE_SESSION_ATTENDED=0``, as Claude Code 2.1 does); ``CLEARANCE_HEADLESS=1``
    forces it (``0`` forces an interactive run).
    """
    forced = env.get("CLEARANCE_HEADLESS")
    if forced:
        return None if forced in ("0", "false", "no") else "CLEARANCE_HEADLESS is set"
    if payload.permission_mode == "dontAsk":
        return "Claude Code runs in dontAsk mode"
    entry = env.get("CLAUDE_CODE_ENTRYPOINT", "")
    if entry.startswith("sdk"):
        return "this is a headless run (claude -p or the Agent SDK)"
    if env.get("CLAUDE_CODE_SESSION_ATTENDED") == "0":
        return "no one attends this Claude Code session"
    return None


def _only_fallback(decision: Decision) -> bool:
    """Whether every gate that asked was answered by the universal ``"*"`` rule alone."""
    asked = [g for g in decision.gates if g.action == "ask"]
    return bool(asked) and all(g.rule is not None and g.rule.universal for g in asked)


def _config_note(policy: Policy) -> str:
    if not policy.failed_closed:
        return ""
    first = str(policy.errors[0]).splitlines()[0]
    return (
        f" (clearance's configuration has errors, so every allow rule now asks: {first}; "
        "the user can run `clearance validate` to see them)"
    )


def _load(payload: Payload, env: Mapping[str, str]) -> Engine:
    from clearance.decide.engine import Engine
    from clearance.hosts.facts import HOST_FACTS, relocated_homes

    engine = Engine.load(cwd=payload.cwd, agent=payload.agent_type, env=env, host=HOST_FACTS)
    engine.relocated = relocated_homes(env)
    engine.grep_skips_hidden = True  # Claude Code's Grep runs ripgrep without --hidden
    return engine


def pre_tool_use_answer(
    payload: Payload,
    env: Mapping[str, str],
    load: Loader | None = None,
    started: float | None = None,
    *,
    host: str = "claude-code",
    request_id: str | None = None,
) -> tuple[str, str] | None:
    """``(permissionDecision, reason)`` for a PreToolUse payload; ``None`` for silence.

    The whole ask path runs here: session grants, yolo, the authorizer chain, forwarding to a
    serving session, and the review log and events; what is left asking goes to Claude Code's
    own dialog. ``load(payload, env)`` gives the engine (default: loaded for this call; a
    long-lived service passes its cached engines), ``started`` when the call arrived, ``host``
    the host named in a forwarded ask (``hosts.names.HOSTS``), ``request_id`` the ask's id
    (default: a new one).
    """
    checked = _checked(payload, env, load)
    return _pre_tool_use_resolved(payload, env, checked, started, host, request_id)


def _checked(
    payload: Payload, env: Mapping[str, str], load: Loader | None
) -> tuple[ToolCall, Engine, Decision]:
    """The call, its engine and the engine's decision: no review-log line, no ask yet."""
    call = to_call(payload)
    engine = (load or _load)(payload, env)
    return call, engine, engine.check(call)


def _settled(
    payload: Payload, env: Mapping[str, str], at_hand: AtHand, budget: float
) -> tuple[ToolCall, Engine, Decision] | None:
    """:func:`_checked` for :func:`settled_answer`: ``None`` when the engine is not at hand,
    when a notify consumer would run (a command or a webhook, up to its timeout), for an MCP
    call (finding its server reads the hosts' MCP configuration, which may be megabytes), or
    when the decision asks or met the shortened deadline (decided again under the usual one)."""
    engine = at_hand(payload, env)
    if engine is None or engine.policy.setting("notify"):
        return None
    call = to_call(payload)
    if call.kind == "mcp":
        return None
    from clearance.intent.shell.git_landings import not_here

    with not_here():  # git's listing waits on git: that is for a worker thread (ADR 0051)
        decision = engine.check(call, seconds=budget)
    if decision.action == "ask" and not _host_silent(payload, decision):
        return None
    if any(g.sentinel == DEADLINE for g in decision.gates):
        return None
    return call, engine, decision


def _host_silent(payload: Payload, decision: Decision) -> bool:
    """Whether the hook leaves this ask to Claude Code's own rules (a host-internal tool that
    only the universal ``"*"`` rule would ask about)."""
    return (
        decision.action == "ask"
        and payload.tool_name in HOST_INTERNAL_TOOLS
        and _only_fallback(decision)
    )


def _pre_tool_use_resolved(
    payload: Payload,
    env: Mapping[str, str],
    checked: tuple[ToolCall, Engine, Decision],
    started: float | None,
    host: str,
    request_id: str | None,
) -> tuple[str, str] | None:
    """:func:`pre_tool_use_answer` once the engine has decided."""
    from clearance.hosts.gatekeeper import Gatekeeper, reporting
    from clearance.policy.state import state_root

    call, engine, decision = checked
    if _host_silent(payload, decision):
        return None
    note = _config_note(engine.policy)
    mode = ask_mode(engine.policy)
    log, bus = reporting(engine.policy, engine.state or state_root(env))
    # Forwarding events go to the same review log as the gatekeeper's.
    last_word = HostLastWord(engine, mode, headless_reason(payload, env), note, started=started,
                            host=host, report=None if log is None else log.record)  # fmt: skip
    keeper = Gatekeeper(engine, log=log, bus=bus, last_word=last_word)
    outcome = keeper.resolve(call, decision, request_id)
    if outcome.action == "allow":
        return "allow", outcome.reason
    if outcome.action == "deny":
        return "deny", outcome.reason if outcome.reason.endswith(note) else outcome.reason + note
    return "ask", decision.reason + note


def _pre_tool_use(
    payload: Payload,
    env: Mapping[str, str],
    load: Loader | None,
    started: float | None,
    host: str,
    request_id: str | None,
    settle: tuple[AtHand, float] | None,
) -> str | None:
    if settle is None:
        answered = pre_tool_use_answer(payload, env, load, started, host=host,
                                       request_id=request_id)  # fmt: skip
    else:
        checked = _settled(payload, env, *settle)
        if checked is None:
            return None  # not settled: the caller answers again where waiting is fine
        answered = _pre_tool_use_resolved(payload, env, checked, started, host, request_id)
    return "" if answered is None else pre_tool_use(*answered)


def _permission_request(
    payload: Payload,
    env: Mapping[str, str],
    load: Loader | None,
    settle: tuple[AtHand, float] | None,
) -> str | None:
    if settle is None:
        _, engine, decision = _checked(payload, env, load)
    else:
        checked = _settled(payload, env, *settle)
        if checked is None or checked[2].action == "ask":
            return None
        _, engine, decision = checked
    if decision.action == "allow":
        return permission_request("allow")
    if decision.action == "deny":
        return permission_request("deny", decision.reason + _config_note(engine.policy))
    return ""  # ask: Claude Code shows its dialog


def _sniff_event(raw: bytes) -> str | None:
    """The event of a payload that did not parse, when its text names one."""
    for event in ("PermissionRequest", "PreToolUse"):
        if event.encode() in raw[:65536]:
            return event
    return None


def answer(
    raw: bytes,
    env: Mapping[str, str] | None = None,
    *,
    load: Loader | None = None,
    started: float | None = None,
    host: str = "claude-code",
    request_id: str | None = None,
) -> str:
    """The hook's whole stdout for one payload ("" for silence). Never raises. ``load``,
    ``started``, ``host`` and ``request_id``: as for :func:`pre_tool_use_answer` (the HTTP hook
    of ``clearance serve``)."""
    return _answer(raw, env, load, started, host, request_id, None) or ""


def settled_answer(
    raw: bytes,
    env: Mapping[str, str] | None = None,
    *,
    at_hand: AtHand,
    budget: float,
    started: float | None = None,
    host: str = "claude-code",
    request_id: str | None = None,
) -> str | None:
    """:func:`answer`, for a call the policy settles at once, or ``None``. Settled: the engine
    is at hand (``at_hand`` returns it without loading; ``None`` when it would have to load),
    no notify consumer is configured, the bash analysis finishes within ``budget`` seconds, and
    the answer is an allow, a deny, a silence or a payload that fails. Anything else (an ask, a
    line past the budget) returns ``None`` having written nothing to the review log, and the
    caller answers it with :func:`answer` where waiting is fine: ``clearance serve`` settles
    on its event loop and waits on a worker thread
    (``docs/decisions/0049-settle-on-the-event-loop.md``)."""
    return _answer(raw, env, None, started, host, request_id, (at_hand, budget))


def _answer(
    raw: bytes,
    env: Mapping[str, str] | None,
    load: Loader | None,
    started: float | None,
    host: str,
    request_id: str | None,
    settle: tuple[AtHand, float] | None,
) -> str | None:
    env = os.environ if env is None else env
    event: str | None = None
    try:
        try:
            payload = parse_payload(raw)
        except PayloadError as exc:
            event = _sniff_event(raw) or "PreToolUse"
            return error_answer(event, f"Denied: {exc}; {_FAILS_CLOSED}")
        event = payload.event
        if event == "PreToolUse":
            return _pre_tool_use(payload, env, load, started, host, request_id, settle)
        if event == "PermissionRequest":
            return _permission_request(payload, env, load, settle)
        return error_answer(
            None,
            f"Denied: clearance does not handle the {event} hook event; install it with "
            "`clearance install claude-code`, which hooks PreToolUse and PermissionRequest",
        )
    except PayloadError as exc:
        return error_answer(event or "PreToolUse", f"Denied: {exc}; {_FAILS_CLOSED}")
    except Exception as exc:
        from clearance._fault import describe

        return error_answer(
            event or "PreToolUse",
            f"Denied: clearance could not decide this call ({describe(exc)}); "
            f"{_FAILS_CLOSED}. The user can run `clearance doctor` to find the fault",
        )


def main() -> int:
    """Read stdin, answer on stdout, exit 0 whatever happens."""
    try:
        raw = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
    except Exception as exc:
        out = error_answer("PreToolUse", f"Denied: the hook could not read its payload ({exc})")
    else:
        out = answer(raw)
    try:
        if out:
            sys.stdout.write(out)
        sys.stdout.flush()
    except Exception:
        pass
    return 0
