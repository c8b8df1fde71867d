"""``clearance check`` / ``explain``: output, JSON shape, exit statuses, batch mode."""

from __future__ import annotations

import json

import pytest

from clearance.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "code", "word"),
    [
        (["check", "bash", "git status"], 0, "allow"),
        (["check", "bash", "git push --force"], 3, "ask"),
        (["check", "bash", "rm -rf /"], 4, "deny"),
        (["check", "read", "README.md"], 0, "allow"),
        (["check", "webfetch", "https://example.com"], 3, "ask"),
    ],
)
def test_exit_status_is_0_allow_3_ask_4_deny_on_the_builtin_policy(  # type: ignore[no-untyped-def]
    world,
    capsys,
    argv: list[str],
    code: int,
    word: str,
) -> None:
    status, out, _ = run(capsys, *argv)
    assert status == code
    assert out.startswith(word + ": ")


def test_the_decision_says_why(world, capsys) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run(capsys, "check", "bash", "git push --force")
    assert "git push --force*" in out and "builtin:" in out and "force-push" in out


def test_the_readme_quotes_the_answer_of_its_first_command(world, capsys) -> None:  # type: ignore[no-untyped-def]
    # The README's first lines quote what `clearance check bash "git push --force"` prints,
    # the built-in rule's line and column included: they move when the built-in policy does.
    import pathlib

    readme = (pathlib.Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    quoted = " ".join(readme.split("(`ask: ", 1)[1].split("`)", 1)[0].split())
    _, out, _ = run(capsys, "check", "bash", "git push --force")
    assert out.strip() == "ask: " + quoted


def test_json_output_has_the_documented_fields(world, capsys) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = run(capsys, "check", "--json", "bash", "rm -rf /")
    data = json.loads(out)
    assert status == 4
    assert data["decision"] == "deny"
    assert data["rule"]["surface"] == "bash" and data["rule"]["pattern"] == "rm -rf /"
    assert data["units"][0]["text"] == "rm -rf /"
    assert {"reason", "paths", "suggestions", "gates"} <= set(data)
    assert data["gates"][0]["gate"] == "bash"


def test_json_input_is_accepted(world, capsys) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = run(
        capsys, "check", "--policy", '{"permission": {"mcp": {"gh:*": "allow"}}}',
        "mcp", '{"server": "gh", "tool": "search"}',
    )  # fmt: skip
    assert status == 0, out


def test_an_inline_policy_replaces_the_files(world, capsys) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{"permission": {"bash": "deny"}}')
    status, _, _ = run(
        capsys, "check", "--policy", '{"permission": {"bash": "allow"}}', "bash", "ls"
    )
    assert status == 0
    status, _, _ = run(capsys, "check", "bash", "ls")
    assert status == 4


def test_agent_and_yolo_flags(world, capsys) -> None:  # type: ignore[no-untyped-def]
    world.global_config(
        '{"permission": {"*": "ask"}, "agents": {"ro": {"permission": {"write": "deny"}}}}'
    )
    assert run(capsys, "check", "--agent", "ro", "write", "x")[0] == 4
    assert run(capsys, "check", "write", "x")[0] == 3
    assert run(capsys, "check", "--yolo", "write", "x")[0] == 0
    assert run(capsys, "check", "--yolo", "--agent", "ro", "write", "x")[0] == 4


@pytest.mark.parametrize(
    "argv",
    [["check"], ["check", "--bogus", "bash", "ls"], ["check", "bash", "a", "b"], ["frobnicate"],
     ["check", "--cwd"]],
)  # fmt: skip
def test_usage_errors_exit_2(world, capsys, argv: list[str]) -> None:  # type: ignore[no-untyped-def]
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err


def test_a_command_line_given_as_the_tool_says_how_to_ask_for_bash(world, capsys) -> None:  # type: ignore[no-untyped-def]
    status, out, err = run(capsys, "check", "git log --oneline")
    assert (status, out) == (2, "")
    assert "clearance check bash 'git log --oneline'" in err
    # a tool name without a blank is still a tool (an MCP tool, a host's own)
    assert run(capsys, "check", "mcp__srv__tool")[0] in (0, 3, 4)


def test_a_broken_config_exits_1_with_the_location_and_fails_closed(world, capsys) -> None:  # type: ignore[no-untyped-def]
    world.global_config('{\n  "permission": {"read": "alow"}\n}')
    status, out, err = run(capsys, "check", "read", "x")
    assert status == 1
    assert out.startswith("ask: ")
    assert "config.jsonc:2:26" in err and 'unknown action "alow"' in err
    assert "Traceback" not in err


def test_explain_traces_every_gate_and_rule(world, capsys) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = run(capsys, "explain", "bash", "git push --force")
    assert status == 3
    assert "policy files: builtin" in out
    assert "gates:" in out and 'bash "git push --force*"' in out
    assert out.strip().splitlines()[-1].startswith("decision: ask") or "decision: ask" in out


def test_batch_decides_json_lines_in_one_process(world, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    lines = [
        {"tool": "bash", "input": "git status"},
        {"tool": "bash", "input": "rm -rf /"},
        {"tool": "read", "input": {"path": "x"}, "policy": {"permission": {"read": "deny"}}},
        {"tool": "write", "input": "x", "agent": "ro"},
        "not json",
        {"input": "missing tool"},
    ]
    world.global_config(
        '{"permission": {"*": "ask"}, "agents": {"ro": {"permission": {"write": "deny"}}}}'
    )
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    status, out, _ = run(capsys, "check", "--batch")
    results = [json.loads(line) for line in out.splitlines()]
    # `rm -rf /` meets the built-in base deny beneath the user's "*": "ask".
    assert [r.get("decision") for r in results] == ["ask", "deny", "deny", "deny", None, None]
    assert [r["line"] for r in results] == [1, 2, 3, 4, 5, 6]
    assert "error" in results[4] and "error" in results[5]
    assert status == 1


def test_the_real_command_runs_in_a_subprocess(world) -> None:  # type: ignore[no-untyped-def]
    result = world.run("check", "bash", "git push --force")
    assert result.returncode == 3
    assert result.stdout.startswith("ask: ")
    result = world.run("check", "--json", "read", "notes.md")
    assert result.returncode == 0 and json.loads(result.stdout)["decision"] == "allow"


def test_batch_survives_any_bad_line(world, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import io

    lines = [
        {"tool": "bash", "input": "ls", "policy": '{"permission": {"bash": {"x": "al'},
        {"tool": "bash", "input": "ls", "session": 5},
        {"tool": "bash", "input": "git status"},
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(json.dumps(x) for x in lines) + "\n"))
    status, out, _ = run(capsys, "check", "--batch")
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == 3 and results[2]["decision"] == "allow"
    assert "error" in results[1]
    assert status == 1
