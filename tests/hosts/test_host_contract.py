"""One contract, every command-hook host: the same calls, each in its host's recorded payload
shape, must come back as the same decisions in that host's answer format.

The cases: a denied command, an allowed one, one that asks, a read of a denied path, garbage,
an oversized payload, an unknown tool, and a subagent held to its own policy. Each host's
``decode`` reads its answer back as ``allow`` / ``deny`` / ``ask``, and hosts that cannot show
an ask (Codex's PreToolUse) must turn it into a deny with a reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from clearance.hosts.claude_code.payload import MAX_PAYLOAD_BYTES
from clearance.hosts.codex.hook import CodexAdapter
from clearance.hosts.command_hook import Adapter, Reply, answer
from clearance.hosts.copilot.hook import CopilotAdapter
from clearance.hosts.cursor.hook import CursorAdapter
from clearance.hosts.gemini.hook import GeminiAdapter
from clearance.hosts.opencode.hook import OpenCodeAdapter
from clearance.hosts.pi.hook import PiAdapter
from clearance.hosts.qwen.hook import QwenAdapter

SRC = Path(__file__).resolve().parents[2] / "src"

POLICY = """{
  "permission": {
    "*": "ask",
    "read": "allow",
    "bash": {"*": "ask", "cat *": "allow", "ls *": "allow",
             "rm *": {"action": "deny", "reason": "deleting files is not allowed here"}},
    "path": {"*.env": {"action": "deny", "reason": "secrets stay private"}}
  },
  "agents": {"reviewer": {"permission": {"bash": "deny"}}}
}"""

Payload = Callable[[str, str, dict[str, Any]], dict[str, Any]]


class Host:
    """A host's recorded payload shapes and how to read its answers."""

    def __init__(
        self,
        adapter: Adapter,
        bash: Payload,
        read: Payload,
        unknown: Payload,
        subagent: Callable[[dict[str, Any]], dict[str, Any]],
        decode: Callable[[Reply], str],
        can_ask: bool = True,
        subagent_id: str | None = None,
    ) -> None:
        self.adapter = adapter
        self.subagent_id = subagent_id  # the instance id the subagent payload carries
        self.bash = bash
        self.read = read
        self.unknown = unknown
        self.subagent = subagent
        self.decode = decode
        self.can_ask = can_ask


def _claude_style(event: str) -> Callable[[str, str, dict[str, Any]], dict[str, Any]]:
    def make(cwd: str, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
        return {"session_id": "s-1", "transcript_path": "/dev/null", "cwd": cwd,
                "hook_event_name": event, "tool_name": tool, "tool_input": tool_input}  # fmt: skip

    return make


def _codex(cwd: str, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"session_id": "019a-s", "turn_id": "t-1", "transcript_path": None, "cwd": cwd,
            "hook_event_name": "PreToolUse", "model": "gpt-e2e", "permission_mode": "default",
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": "call_1"}  # fmt: skip


def _decode_codex(reply: Reply) -> str:
    if reply.exit == 2:
        assert reply.stderr.strip(), "exit 2 needs a reason on stderr"
        return "deny"
    assert reply.exit == 0
    if not reply.stdout.strip():
        return "allow"
    out = json.loads(reply.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert out["permissionDecisionReason"].strip()
    return "deny"


def _decode_gemini(reply: Reply) -> str:
    if reply.exit == 2:
        assert reply.stderr.strip()
        return "deny"
    assert reply.exit == 0
    out = json.loads(reply.stdout)
    assert out["reason"].strip()
    return str(out["decision"])


def _decode_claude_style(reply: Reply) -> str:
    if reply.exit == 2:
        assert reply.stderr.strip()
        return "deny"
    out = json.loads(reply.stdout)["hookSpecificOutput"]
    return str(out["permissionDecision"])


def _copilot(cwd: str, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    return {"sessionId": "c-1", "timestamp": 1764640000000, "cwd": cwd, "toolName": tool,
            "toolArgs": json.dumps(tool_input)}  # fmt: skip


def _decode_copilot(reply: Reply) -> str:
    out = json.loads(reply.stdout)
    if reply.exit == 2:
        assert out["permissionDecision"] == "deny"
    return str(out["permissionDecision"])


def _cursor(cwd: str, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    base = {"conversation_id": "cv-1", "generation_id": "g-1", "workspace_roots": [cwd]}
    if tool == "Shell":
        return {**base, "hook_event_name": "beforeShellExecution", "cwd": cwd, **tool_input}
    if tool == "Read":
        return {**base, "hook_event_name": "beforeReadFile", "content": "", **tool_input}
    return {**base, "hook_event_name": "preToolUse", "tool_name": tool,
            "tool_input": tool_input}  # fmt: skip


def _decode_cursor(reply: Reply) -> str:
    out = json.loads(reply.stdout)
    return str(out.get("permission") or out["decision"])


def _plugin(ui: bool) -> Callable[[str, str, dict[str, Any]], dict[str, Any]]:
    def make(cwd: str, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        return {"tool": tool, "args": args, "cwd": cwd, "sessionID": "ses_1", "ui": ui}

    return make


def _decode_plugin(reply: Reply) -> str:
    out = json.loads(reply.stdout)
    if reply.exit != 0:
        assert out["decision"] == "deny"
    assert out["reason"].strip()
    return str(out["decision"])


HOSTS = {
    "codex": Host(
        CodexAdapter(),
        bash=lambda cwd, command, _: _codex(cwd, "Bash", {"command": command}),
        read=lambda cwd, path, _: _codex(cwd, "read_file", {"path": path}),
        unknown=lambda cwd, tool, args: _codex(cwd, tool, args),
        subagent=lambda p: {**p, "agent_id": "a-7", "agent_type": "reviewer"},
        decode=_decode_codex,
        can_ask=False,
        subagent_id="a-7",
    ),
    "gemini": Host(
        GeminiAdapter(),
        bash=lambda cwd, command, _: _claude_style("BeforeTool")(
            cwd, "run_shell_command", {"command": command, "description": "x"}
        ),
        read=lambda cwd, path, _: _claude_style("BeforeTool")(
            cwd, "read_file", {"file_path": path}
        ),
        unknown=lambda cwd, tool, args: _claude_style("BeforeTool")(cwd, tool, args),
        subagent=lambda p: {**p, "agent_type": "reviewer"},
        decode=_decode_gemini,
    ),
    "qwen": Host(
        QwenAdapter(),
        bash=lambda cwd, command, _: _claude_style("PreToolUse")(
            cwd, "run_shell_command", {"command": command}
        ),
        read=lambda cwd, path, _: _claude_style("PreToolUse")(
            cwd, "read_file", {"absolute_path": path}
        ),
        unknown=lambda cwd, tool, args: _claude_style("PreToolUse")(cwd, tool, args),
        subagent=lambda p: {**p, "agent_type": "reviewer"},
        decode=_decode_claude_style,
    ),
    "copilot": Host(
        CopilotAdapter(),
        bash=lambda cwd, command, _: _copilot(cwd, "bash", {"command": command}),
        read=lambda cwd, path, _: _copilot(cwd, "view", {"path": path}),
        unknown=lambda cwd, tool, args: _copilot(cwd, tool, args),
        subagent=lambda p: {**p, "agentName": "reviewer"},
        decode=_decode_copilot,
    ),
    "cursor": Host(
        CursorAdapter(),
        bash=lambda cwd, command, _: _cursor(cwd, "Shell", {"command": command}),
        read=lambda cwd, path, _: _cursor(cwd, "Read", {"file_path": path}),
        unknown=lambda cwd, tool, args: _cursor(cwd, tool, args),
        subagent=lambda p: p,  # Cursor's payloads name no subagent
        decode=_decode_cursor,
    ),
    "opencode": Host(
        OpenCodeAdapter(),
        bash=lambda cwd, command, _: _plugin(False)(cwd, "bash", {"command": command}),
        read=lambda cwd, path, _: _plugin(False)(cwd, "read", {"filePath": path}),
        unknown=lambda cwd, tool, args: _plugin(False)(cwd, tool, args),
        subagent=lambda p: {**p, "agent": "reviewer"},
        decode=_decode_plugin,
        can_ask=False,
    ),
    "pi": Host(
        PiAdapter(),
        bash=lambda cwd, command, _: _plugin(True)(cwd, "bash", {"command": command}),
        read=lambda cwd, path, _: _plugin(True)(cwd, "read", {"path": path}),
        unknown=lambda cwd, tool, args: _plugin(True)(cwd, tool, args),
        subagent=lambda p: {**p, "agent": "reviewer"},
        decode=_decode_plugin,
    ),
}


@pytest.fixture(params=sorted(HOSTS))
def host(request: pytest.FixtureRequest) -> Host:
    return HOSTS[request.param]


@pytest.fixture
def setup(world: Any) -> tuple[Any, str, dict[str, str]]:
    world.global_config(POLICY)
    project = world.project()
    (project / "notes.txt").write_text("hello\n")
    (project / ".env").write_text("TOKEN=1\n")
    # An ask must not reach a human or a serving session here: none serves this state root.
    return world, str(project), {**world.env, "CLEARANCE_HEADLESS": "1"}


def decide(host: Host, payload: Any, env: dict[str, str]) -> tuple[str, Reply]:
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    reply = answer(host.adapter, raw, env)
    return host.decode(reply), reply


def test_a_denied_command_is_denied_with_the_policy_reason(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    verdict, reply = decide(host, host.bash(cwd, "rm -rf victim.txt", {}), env)
    assert verdict == "deny"
    assert "deleting files is not allowed here" in reply.stdout + reply.stderr


def test_an_allowed_command_is_allowed(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    verdict, _ = decide(host, host.bash(cwd, "cat notes.txt", {}), env)
    assert verdict == "allow"


def test_a_command_that_asks_is_an_ask_or_a_reasoned_deny(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    attended = {k: v for k, v in env.items() if k != "CLEARANCE_HEADLESS"}
    verdict, reply = decide(host, host.bash(cwd, "mkdir build", {}), attended)
    if host.can_ask:
        assert verdict == "ask"
    else:
        assert verdict == "deny"
        assert "allow it in clearance's policy" in reply.stdout + reply.stderr


def test_a_headless_ask_no_one_can_answer_is_denied(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    verdict, reply = decide(host, host.bash(cwd, "mkdir build", {}), env)
    assert verdict == "deny"
    assert "approv" in reply.stdout + reply.stderr


def test_a_read_of_a_denied_path_is_denied(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    verdict, reply = decide(host, host.read(cwd, f"{cwd}/.env", {}), env)
    assert verdict == "deny"
    assert "secrets stay private" in reply.stdout + reply.stderr
    verdict, _ = decide(host, host.read(cwd, f"{cwd}/notes.txt", {}), env)
    assert verdict == "allow"


@pytest.mark.parametrize(
    "raw",
    [b"", b"not json", b"[1, 2]", b"\xff\xfe", b'{"hook_event_name": 3}', b"{}"],
    ids=["empty", "text", "array", "not-utf8", "wrong-type", "empty-object"],
)
def test_garbage_blocks_in_the_hosts_blocking_form(host: Host, setup: Any, raw: bytes) -> None:
    _, _, env = setup
    verdict, reply = decide(host, raw, env)
    assert verdict == "deny"
    assert "Traceback" not in reply.stdout + reply.stderr


def test_a_payload_with_a_malformed_command_blocks(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    payload = host.bash(cwd, 42, {})  # type: ignore[arg-type]
    verdict, _ = decide(host, payload, env)
    assert verdict == "deny"


def test_an_oversized_payload_blocks(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    raw = json.dumps(host.bash(cwd, "cat " + "x" * (MAX_PAYLOAD_BYTES + 1), {})).encode()
    verdict, reply = decide(host, raw, env)
    assert verdict == "deny"
    assert "larger than" in reply.stdout + reply.stderr


def test_an_unknown_tool_is_decided_by_the_universal_rule(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    verdict, _ = decide(host, host.unknown(cwd, "frobnicate", {"level": 3}), env)
    assert verdict == "deny"  # "*" asks, and no one can answer headless


def test_a_subagent_is_held_to_its_own_policy(host: Host, setup: Any) -> None:
    _, cwd, env = setup
    payload = host.subagent(host.bash(cwd, "cat notes.txt", {}))
    verdict, _ = decide(host, payload, env)
    if payload == host.bash(cwd, "cat notes.txt", {}):
        pytest.skip("this host's payloads name no subagent")
    assert verdict == "deny"


def test_a_subagents_identity_reaches_its_policy_and_a_forwarded_asks_provenance(
    host: Host, setup: Any
) -> None:
    from clearance.authority.ask import Ask
    from clearance.authority.forwarding.child import ForwardingAuthorizer
    from clearance.decide.engine import Engine

    _, cwd, env = setup
    plain = host.bash(cwd, "npm publish", {})
    payload = host.subagent(plain)
    if payload == plain:
        pytest.skip("this host's payloads name no subagent")
    call = host.adapter.read(payload, env).call
    assert (call.agent, call.agent_id) == ("reviewer", host.subagent_id)
    # The plain payload's call asks; the forwarded request says which agent asked.
    main = host.adapter.read(plain, env).call
    decision = Engine.load(cwd=cwd, env=env).check(main)
    assert decision.action == "ask"
    from clearance.decide.decision import Decision

    asked = Decision(decision.action, decision.reason, decision.rule, decision.gates, call)
    name = host.adapter.name
    forwarding = ForwardingAuthorizer(env=env, state=str(setup[0].state), host=name)
    who = forwarding.request_for(Ask(asked, "ask-1"), "P").requester
    assert (who.agent, who.agent_id, who.session) == ("reviewer", host.subagent_id, call.session)
    assert who.describe().startswith(f"(Subagent) · host {name} · agent reviewer")


@pytest.mark.parametrize("name", sorted(HOSTS))
def test_the_hook_command_answers_as_a_process(world: Any, name: str) -> None:
    """``clearance hook <host>`` end to end as a process: stdout, stderr and exit status."""
    world.global_config(POLICY)
    cwd = str(world.project())
    host = HOSTS[name]
    proc = subprocess.run(
        [sys.executable, "-m", "clearance", "hook", name],
        input=json.dumps(host.bash(cwd, "rm -rf victim.txt", {})),
        capture_output=True, text=True, timeout=60,
        env={**world.env, "PYTHONPATH": str(SRC)},
    )  # fmt: skip
    assert "Traceback" not in proc.stderr
    verdict = host.decode(Reply(proc.stdout, proc.stderr, proc.returncode))
    assert verdict == "deny"


# Payloads recorded from the real CLIs (Codex 0.171.0, Gemini CLI 0.61.0, Copilot CLI 1.0.102),
# with the project directory replaced by @CWD@, and what the contract policy makes of them.
RECORDED = Path(__file__).parent / "payloads"
EXPECTED = {
    ("codex", "echo hi > made.txt"): "deny",  # asks; Codex's PreToolUse cannot ask
    ("copilot", "echo hi > made.txt"): "deny",  # asks; headless, no serving session
    ("gemini", "notes.txt"): "allow",
    ("gemini", "cat notes.txt"): "allow",
}


def _recorded() -> list[tuple[str, str, str]]:
    out = []
    for host, value in EXPECTED:
        for line in (RECORDED / f"{host}.jsonl").read_text().splitlines():
            if value in line:
                out.append((host, value, line))
    return out


@pytest.mark.parametrize(("host", "value", "line"), _recorded())
def test_recorded_payloads_of_the_real_clis(setup: Any, host: str, value: str, line: str) -> None:
    _, cwd, env = setup
    verdict, reply = decide(HOSTS[host], line.replace("@CWD@", cwd).encode(), env)
    assert verdict == EXPECTED[(host, value)], reply


@pytest.mark.parametrize("held", [False, True], ids=["loaded", "held"])
def test_a_plugin_dialog_answer_redeems_its_token_once_and_records_a_session_grant(
    world: Any, held: bool
) -> None:
    # ``held``: one engine serves every call, as the service's plugin endpoint holds it.
    from clearance.hosts.command_hook import load_engine
    from clearance.service.engines import EngineCache

    loads: list[str] = []

    def counted(cwd: str, agent: str | None, env: Any) -> Any:
        loads.append(cwd)
        return load_engine(cwd, agent, env)

    load = EngineCache(counted, recheck=3600).engine if held else None
    world.global_config(POLICY)
    cwd = str(world.project())
    env = world.env
    adapter = PiAdapter()
    call = {"tool": "bash", "args": {"command": "mkdir build"}, "cwd": cwd,
            "sessionID": "ses_dialog", "ui": True}  # fmt: skip
    asked = json.loads(answer(adapter, json.dumps(call).encode(), env, load).stdout)
    assert asked["decision"] == "ask"
    assert asked["choices"][0]["choice"] == "once"
    assert "session" in [c["choice"] for c in asked["choices"]]
    token = asked["token"]

    # Without the token (an agent running `clearance hook pi` itself), an answer is refused.
    forged = {**call, "answer": "session"}
    reply = answer(adapter, json.dumps(forged).encode(), env, load)
    assert json.loads(reply.stdout)["decision"] == "deny" and reply.exit == 2
    # A listing of clearance's state (`ls -R`, which names files without reading one) does not
    # show the pending token (found by an adversarial review).
    for _, _, names in os.walk(world.state):
        assert token not in names
    # A token for another call is refused, and spent.
    other = {**call, "args": {"command": "mkdir other"}, "answer": "session", "token": token}
    assert (
        json.loads(answer(adapter, json.dumps(other).encode(), env, load).stdout)["decision"]
        == "deny"
    )

    asked = json.loads(answer(adapter, json.dumps(call).encode(), env, load).stdout)
    chosen = {**call, "answer": "session", "token": asked["token"]}
    assert json.loads(answer(adapter, json.dumps(chosen).encode(), env, load).stdout)[
        "decision"
    ] == ("allow")
    # Spent: the same token cannot approve twice.
    assert json.loads(answer(adapter, json.dumps(chosen).encode(), env, load).stdout)[
        "decision"
    ] == ("deny")
    # The session grant now allows the call without asking.
    again = json.loads(answer(adapter, json.dumps(call).encode(), env, load).stdout)
    assert again["decision"] == "allow"
    assert len(loads) == (1 if held else 0)


def test_codex_reports_a_commands_workdir_as_the_payloads_cwd() -> None:
    # Recorded: the model ran `cat passwd` with workdir /etc; Codex sent cwd /etc, so relative
    # paths of the command resolve where it really runs.
    line = (RECORDED / "codex.jsonl").read_text().splitlines()[-1]
    event = CodexAdapter().read(json.loads(line), {})
    assert event.call.cwd == "/etc"
    assert event.call.input == {"command": "cat passwd"}


@pytest.mark.parametrize(
    ("host", "tool"),
    [("codex", "update_plan"), ("gemini", "write_todos"), ("qwen", "todo_write"),
     ("opencode", "todowrite")],
)  # fmt: skip
def test_a_hosts_own_bookkeeping_tool_is_left_to_the_host_unless_a_rule_names_it(
    setup: Any, host: str, tool: str
) -> None:
    world, cwd, env = setup
    h = HOSTS[host]
    reply = answer(h.adapter, json.dumps(h.unknown(cwd, tool, {"plan": []})).encode(), env)
    assert (reply.exit == 0 and reply.stdout == "") or json.loads(reply.stdout).get("decision") in (
        "allow",
    ), reply
    world.global_config(POLICY.replace('"read": "allow",', f'"read": "allow", "{tool}": "deny",'))
    verdict, _ = decide(h, h.unknown(cwd, tool, {"plan": []}), env)
    assert verdict == "deny"
