"""``clearance hook claude-code`` as Claude Code runs it: a fresh process, JSON in, JSON out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clearance.hosts.claude_code import hook as hook_module

SRC = Path(__file__).resolve().parents[2] / "src"

POLICY = """{
  "permission": {
    "*": "ask",
    "read": "allow",
    "bash": {"*": "ask", "cat *": "allow", "rm *": {"action": "deny", "reason": "use trash"}},
    "path": {"*.env": "deny"},
    "webfetch": "deny",
    "TodoWrite": "ask"
  },
  "agents": {"reviewer": {"permission": {"write": "deny", "bash": "deny"}}}
}"""


def run_hook(
    world: Any, data: Any, *, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    text = data if isinstance(data, str) else json.dumps(data)
    full = {k: v for k, v in world.env.items() if not k.startswith("CLAUDE_CODE")}
    full.update(PYTHONPATH=str(SRC), **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "clearance", "hook", "claude-code"],
        input=text,
        capture_output=True,
        text=True,
        env=full,
        timeout=60,
    )


def answer_of(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout
    result: dict[str, Any] = json.loads(lines[0])
    return result


def pre(tool: str, tool_input: dict[str, Any], cwd: Path, **extra: Any) -> dict[str, Any]:
    return {
        "session_id": "sess-1", "transcript_path": "/dev/null", "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool,
        "tool_input": tool_input, "tool_use_id": "toolu_1", **extra,
    }  # fmt: skip


def decision_of(proc: subprocess.CompletedProcess[str]) -> tuple[str, str]:
    out = answer_of(proc)["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse"
    return out["permissionDecision"], out.get("permissionDecisionReason", "")


@pytest.fixture
def project(world: Any) -> Path:
    world.global_config(POLICY)
    proj: Path = world.project("proj")
    (proj / "notes.txt").write_text("hello\n")
    return proj


@pytest.mark.parametrize(
    ("tool", "tool_input", "expected"),
    [
        ("Bash", {"command": "cat notes.txt"}, "allow"),
        ("Bash", {"command": "rm notes.txt"}, "deny"),
        ("Bash", {"command": "make"}, "ask"),
        ("Read", {"file_path": "notes.txt"}, "allow"),
        ("Read", {"file_path": ".env"}, "deny"),
        ("Write", {"file_path": "out.txt", "content": "x"}, "ask"),
        ("WebFetch", {"url": "https://example.com", "prompt": "p"}, "deny"),
        ("mcp__github__search", {"q": "x"}, "ask"),
        ("TodoWrite", {"todos": []}, "ask"),
    ],
)
def test_pre_tool_use_answers_the_policys_decision(
    world: Any, project: Path, tool: str, tool_input: dict[str, Any], expected: str
) -> None:
    assert decision_of(run_hook(world, pre(tool, tool_input, project)))[0] == expected


def test_a_deny_carries_the_rules_reason_for_the_model(world: Any, project: Path) -> None:
    _, reason = decision_of(run_hook(world, pre("Bash", {"command": "rm notes.txt"}, project)))
    assert reason.startswith("[clearance] ")
    assert "use trash" in reason


def test_a_subagent_is_decided_by_its_agents_policy(world: Any, project: Path) -> None:
    call = pre("Bash", {"command": "cat notes.txt"}, project, agent_id="a1", agent_type="reviewer")
    assert decision_of(run_hook(world, call))[0] == "deny"
    main_thread = pre("Bash", {"command": "cat notes.txt"}, project)
    assert decision_of(run_hook(world, main_thread))[0] == "allow"


@pytest.mark.parametrize(
    ("mode_setting", "permission_mode", "env", "expected"),
    [
        (None, "default", {}, "ask"),
        (None, "dontAsk", {}, "deny"),
        (None, "default", {"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}, "deny"),
        (None, "default", {"CLAUDE_CODE_ENTRYPOINT": "cli"}, "ask"),
        (None, "default", {"CLEARANCE_HEADLESS": "1"}, "deny"),
        (None, "dontAsk", {"CLEARANCE_HEADLESS": "0"}, "ask"),
        ("native", "default", {}, "ask"),
        ("deny", "default", {}, "deny"),
        ("forward", "default", {}, "deny"),
        ("native", "default", {"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}, "deny"),
        ("forward", "default", {"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}, "deny"),
        ("bogus", "default", {}, "ask"),
    ],
)
def test_an_ask_is_answered_by_the_ask_setting_and_whether_anyone_can_answer(
    world: Any,
    tmp_path: Path,
    mode_setting: str | None,
    permission_mode: str,
    env: dict[str, str],
    expected: str,
) -> None:
    hosts = (
        "" if mode_setting is None else f', "hosts": {{"claudeCode": {{"ask": "{mode_setting}"}}}}'
    )
    world.global_config('{"permission": {"*": "ask"}' + hosts + "}")
    call = pre("Bash", {"command": "make"}, tmp_path, permission_mode=permission_mode)
    decision, reason = decision_of(run_hook(world, call, env=env))
    assert decision == expected
    if expected == "deny":
        assert "approv" in reason


def test_a_host_internal_tool_is_left_to_claude_code_when_only_the_fallback_asks(
    world: Any, tmp_path: Path
) -> None:
    world.global_config('{"permission": {"*": "ask"}}')
    proc = run_hook(world, pre("TodoWrite", {"todos": []}, tmp_path))
    assert proc.returncode == 0
    assert proc.stdout == ""


@pytest.mark.parametrize(("action", "behavior"), [("allow", "allow"), ("deny", "deny")])
def test_permission_request_answers_when_the_policy_decides(
    world: Any, tmp_path: Path, action: str, behavior: str
) -> None:
    world.global_config(f'{{"permission": {{"*": "ask", "bash": {{"ls*": "{action}"}}}}}}')
    data = pre("Bash", {"command": "ls"}, tmp_path, hook_event_name="PermissionRequest")
    out = answer_of(run_hook(world, data))["hookSpecificOutput"]
    assert out["hookEventName"] == "PermissionRequest"
    assert out["decision"]["behavior"] == behavior
    if behavior == "deny":
        assert out["decision"]["message"].startswith("[clearance] ")


def test_permission_request_stays_silent_on_ask_so_claude_code_shows_its_dialog(
    world: Any, tmp_path: Path
) -> None:
    world.global_config('{"permission": {"*": "ask"}}')
    data = pre("Bash", {"command": "make"}, tmp_path, hook_event_name="PermissionRequest")
    proc = run_hook(world, data)
    assert (proc.returncode, proc.stdout) == (0, "")


def test_a_broken_config_still_answers_json_and_never_allows_what_it_would_have_asked(
    world: Any, tmp_path: Path
) -> None:
    world.global_config('{"permission": {"*": "ask", "bash": {"cat *": "allow"}}, oops}')
    decision, reason = decision_of(run_hook(world, pre("Bash", {"command": "cat a"}, tmp_path)))
    assert decision == "ask"
    assert "clearance validate" in reason
    # A rule-local error costs only its rule: that rule asks, and the reason says why.
    world.global_config('{"permission": {"*": "ask", "bash": {"cat *": "allow", "x": "alow"}}}')
    decision, reason = decision_of(run_hook(world, pre("Bash", {"command": "x"}, tmp_path)))
    assert decision == "ask"
    assert "clearance validate" in reason


BIG = "x" * (33 * 1024 * 1024)


@pytest.mark.parametrize(
    ("raw", "shape"),
    [
        ("", "PreToolUse"),
        ("not json at all", "PreToolUse"),
        ("[1, 2, 3]", "PreToolUse"),
        ("null", "PreToolUse"),
        ('{"tool_name": "Bash"}', "PreToolUse"),
        ('{"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/"', "PreToolUse"),
        ('{"hook_event_name": "PreToolUse", "tool_input": {}, "cwd": "/"}', "PreToolUse"),
        ('{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": []}', "PreToolUse"),
        ('{"hook_event_name": "PermissionRequest", "tool_name": "Bash"}', "PermissionRequest"),
        ('{"hook_event_name": "PostToolUse", "tool_name": "Bash", "cwd": "/"}', "block"),
        ('{"hook_event_name": "Nonsense", "tool_name": "Bash", "cwd": "/"}', "block"),
        (
            '{"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": "/", "tool_input": {"content": "'
            + BIG
            + '"}}',
            "PreToolUse",
        ),
    ],
    ids=[
        "empty",
        "not-json",
        "array",
        "null",
        "no-event",
        "truncated",
        "no-tool",
        "no-cwd",
        "permission-request-no-cwd",
        "unknown-event",
        "nonsense-event",
        "huge",
    ],
)
def test_a_malformed_payload_gets_a_json_deny_and_exit_zero(
    world: Any, raw: str, shape: str
) -> None:
    out = answer_of(run_hook(world, raw))
    if shape == "PreToolUse":
        assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert out["hookSpecificOutput"]["permissionDecisionReason"].startswith(
            "[clearance] Denied"
        )
    elif shape == "PermissionRequest":
        assert out["hookSpecificOutput"]["decision"]["behavior"] == "deny"
    else:
        assert out["decision"] == "block"
        assert "does not handle" in out["reason"]


def test_an_internal_error_is_a_deny_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, world: Any
) -> None:
    from clearance.decide import engine

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(engine.Engine, "load", classmethod(explode))
    raw = json.dumps(pre("Bash", {"command": "ls"}, Path("/"))).encode()
    out = json.loads(hook_module.answer(raw, {}))
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "disk on fire" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_hook_without_a_known_host_is_a_usage_error(world: Any) -> None:
    proc = world.run("hook", "codex", stdin="{}")
    assert proc.returncode == 2
    assert proc.stdout == ""


def test_every_decision_of_the_hook_is_written_to_the_review_log(
    world: Any, tmp_path: Path
) -> None:
    world.global_config('{"permission": {"*": "ask", "bash": {"ls*": "allow", "rm *": "deny"}}}')
    for command in ("ls", "rm x", "make"):
        assert run_hook(world, pre("Bash", {"command": command}, tmp_path)).returncode == 0
    log = [json.loads(x) for x in (world.state / "logs" / "review.jsonl").read_text().splitlines()]
    assert [(r["event"], r["value"]) for r in log] == [
        ("permission_request.allowed", "ls"),
        ("permission_request.blocked", "rm x"),
        ("permission_request.waiting", "make"),
        ("permission_request.delegated", "make"),  # to Claude Code's own dialog
    ]
    assert {r["session"] for r in log} == {"sess-1"}


def test_a_session_grant_recorded_by_a_serving_answer_is_honoured_by_the_next_hook_call(
    world: Any, tmp_path: Path
) -> None:
    from clearance.decide.grant import DiskGrants, Grant

    world.global_config('{"permission": {"*": "ask"}}')
    DiskGrants(str(world.state), "sess-1").add([Grant("bash", "make *")])
    decision, _ = decision_of(run_hook(world, pre("Bash", {"command": "make test"}, tmp_path)))
    assert decision == "allow"


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [("Read", {}), ("Read", {"file_path": 123}), ("Bash", {"command": ["rm"]}), ("Bash", {})],
)
def test_a_malformed_tool_input_is_denied_with_a_reason(
    world: Any, tmp_path: Path, tool: str, tool_input: dict[str, Any]
) -> None:
    world.global_config(POLICY)
    out = answer_of(run_hook(world, pre(tool, tool_input, tmp_path)))
    specific = out["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert f"tool_input of {tool}" in specific["permissionDecisionReason"]


def _review_events(world: Any) -> list[str]:
    path = world.state / "logs" / "review.jsonl"
    if not path.exists():
        return []
    return [json.loads(line)["event"] for line in path.read_text().splitlines() if line]


def _at_hand(payload: Any, env: Any) -> Any:
    """An engine at hand, as ``clearance serve``'s cache holds one."""
    return hook_module._load(payload, env)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (("Bash", {"command": "cat README"}, "PreToolUse"), "allow"),
        (("Bash", {"command": "rm -rf build"}, "PreToolUse"), "deny"),
        (("TaskList", {}, "PreToolUse"), ""),  # the host's own, only "*" asks: silence
        (("Bash", {"command": "cat README"}, "PermissionRequest"), "allow"),
        (("Bash", {"command": "rm -rf build"}, "PermissionRequest"), "deny"),
    ],
)
def test_a_settled_answer_is_the_hooks_answer(
    world: Any, tmp_path: Path, call: tuple[str, dict[str, Any], str], expected: str
) -> None:
    """What the policy settles at once, ``settled_answer`` answers as the hook does, with the
    same review-log lines (ADR 0049)."""
    world.global_config(POLICY)
    tool, tool_input, event = call
    raw = json.dumps(pre(tool, tool_input, tmp_path, hook_event_name=event)).encode()
    settled = hook_module.settled_answer(raw, world.env, at_hand=_at_hand, budget=30.0)
    assert settled is not None
    logged = _review_events(world)
    assert settled == hook_module.answer(raw, world.env)
    assert _review_events(world) == logged + logged  # the same lines again, no more
    if expected:
        output = json.loads(settled)["hookSpecificOutput"]
        found = output.get("permissionDecision") or output["decision"]["behavior"]
        assert found == expected
    else:
        assert settled == ""


@pytest.mark.parametrize(
    ("command", "event", "budget", "notify", "at_hand"),
    [
        ("make", "PreToolUse", 30.0, False, True),  # an ask: a human answers it
        ("make", "PermissionRequest", 30.0, False, True),  # Claude Code's dialog, decided again
        # seconds to analyse: past a short bash deadline, the line asks there
        ("; ".join(f"cat f{i} > /tmp/x{i}" for i in range(20_000)), "PreToolUse", 0.01, False,
         True),
        ("cat README", "PreToolUse", 30.0, True, True),  # a notify consumer would run
        ("cat README", "PreToolUse", 30.0, False, False),  # the engine would have to load
        ("mcp", "PreToolUse", 30.0, False, True),  # finding its server reads MCP configuration
    ],
    ids=["ask", "permission-request-ask", "past-the-budget", "notify", "no-engine-at-hand",
         "mcp"],
)  # fmt: skip
def test_what_is_not_settled_at_once_returns_none_and_leaves_no_trace(
    world: Any, tmp_path: Path, command: str, event: str, budget: float, notify: bool,
    at_hand: bool,
) -> None:  # fmt: skip
    """Either way ``settled_answer`` returns ``None`` and writes nothing, so the call is logged
    once, by whoever answers it."""
    policy = json.loads(POLICY)
    if notify:
        policy["notify"] = {"events": ["decision"], "command": ["true"]}
    policy["permission"]["mcp"] = "allow"
    world.global_config(json.dumps(policy))
    tool, tool_input = ("mcp__srv__do", {}) if command == "mcp" else ("Bash", {"command": command})
    raw = json.dumps(pre(tool, tool_input, tmp_path, hook_event_name=event)).encode()
    found = hook_module.settled_answer(
        raw, world.env, at_hand=_at_hand if at_hand else (lambda p, e: None), budget=budget
    )
    assert found is None
    assert _review_events(world) == []


def test_a_line_past_the_loops_deadline_is_not_settled_even_under_yolo(
    world: Any, tmp_path: Path
) -> None:
    """Yolo would approve an ask; a deny may lie past where the shortened deadline stopped the
    analysis (the line fits 16 KiB), so the line is never allowed there: decided again under
    the usual deadline, it is denied."""
    world.global_config('{"permission": {"*": "ask", "bash": {"rm -rf ~": "deny"}}, "yolo": true}')
    line = "a;" * 7_000 + "rm -rf ~"
    raw = json.dumps(pre("Bash", {"command": line}, tmp_path)).encode()
    assert len(raw) < 16 * 1024
    settled = hook_module.settled_answer(raw, world.env, at_hand=_at_hand, budget=0.01)
    if settled is not None:  # a machine fast enough to reach the deny within 10 ms
        assert json.loads(settled)["hookSpecificOutput"]["permissionDecision"] == "deny"
    answer = json.loads(hook_module.answer(raw, world.env))["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"


def test_a_git_command_that_writes_the_work_tree_is_listed_off_the_loop(
    world: Any, tmp_path: Path
) -> None:
    """Listing what git writes runs git, which the event loop does not wait on (ADR 0051):
    ``settled_answer`` leaves the line to a worker thread, where it is listed and allowed."""
    world.global_config('{"permission": {"*": "ask", "bash": {"*": "ask", "git *": "allow"}}}')
    project = tmp_path / "repo"
    project.mkdir()
    for args in (("init", "-q", "-b", "main"), ("config", "user.email", "a@example.com"),
                 ("config", "user.name", "a"), ("commit", "-q", "--allow-empty", "-m", "x"),
                 ("branch", "feature")):  # fmt: skip
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)
    raw = json.dumps(pre("Bash", {"command": "git checkout feature"}, project)).encode()
    assert hook_module.settled_answer(raw, world.env, at_hand=_at_hand, budget=30.0) is None
    answer = json.loads(hook_module.answer(raw, world.env))["hookSpecificOutput"]
    assert answer["permissionDecision"] == "allow"
    status = json.dumps(pre("Bash", {"command": "git status"}, project)).encode()
    assert hook_module.settled_answer(status, world.env, at_hand=_at_hand, budget=30.0)
