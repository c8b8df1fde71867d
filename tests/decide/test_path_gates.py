"""The path gates and the fold, over a real project tree: a table of decisions.

Each row is (policy, tool, path, expected decision, gate that decides). The tree has a project
with a nested cwd, secrets outside it, and symlinks from inside to outside.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clearance.decide.engine import Engine
from clearance.decide.offer import suggestions
from clearance.intent.call import ToolCall


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "proj" / "src" / "nested").mkdir(parents=True)
    (tmp_path / "proj" / "src" / "app.py").write_text("x")
    (tmp_path / "proj" / ".env").write_text("SECRET=1")
    (tmp_path / "proj" / ".env.example").write_text("SECRET=")
    (tmp_path / "other" / "lib").mkdir(parents=True)
    (tmp_path / "other" / "lib" / "mod.py").write_text("x")
    (tmp_path / "home" / ".ssh").mkdir(parents=True)
    (tmp_path / "home" / ".ssh" / "id_rsa").write_text("k")
    (tmp_path / "proj" / "key").symlink_to(tmp_path / "home" / ".ssh" / "id_rsa")
    (tmp_path / "proj" / "envlink").symlink_to(tmp_path / "proj" / ".env")
    (tmp_path / "proj" / "out").symlink_to(tmp_path / "other")
    # a link named as an allowed exception, to the secret, and to the example itself
    (tmp_path / "proj" / "x.env.example").symlink_to(tmp_path / "proj" / ".env")
    (tmp_path / "proj" / "y.env.example").symlink_to(tmp_path / "proj" / ".env.example")
    return tmp_path


ALLOW_ALL = {"*": "allow"}
P_ENV = {"*": "allow", "path": {"*.env": "deny", "*.env.example": "allow"}}
P_SSH = {"*": "allow", "path": {"~/.ssh/*": "deny"}}
P_EXT_ASK = {"*": "allow", "external_directory": "ask"}
P_EXT_READ = {"*": "allow", "external_directory": "ask",
              "external_directory_read": {"*": "ask", "{root}/other/*": "allow"}}  # fmt: skip
P_EXT_DENY_WRITE = {"*": "allow", "external_directory_write": "deny"}
P_PATH_ALLOW_EXT_ASK = {
    "*": "allow",
    "path": {"{root}/other/*": "allow"},
    "external_directory": "ask",
}
P_TOOL_ALLOW_PATH_DENY = {"*": "ask", "read": "allow", "path_read": {"*.env": "deny"}}
P_TOOL_DENY = {"*": "allow", "write": "deny", "path": {"*": "allow"}}
P_WRITE_ONLY = {"*": "allow", "path_write": {"*/src/*": "ask"}}
P_READ_DENY = {"*": "allow", "path_read": {"*/src/*": "deny"}}
P_DEFAULT_ASK = {"*": "ask"}
P_RELATIVE = {"*": "allow", "path": {"src/*": "deny"}}
P_DIR = {"*": "allow", "external_directory_read": {"*": "deny"}}
P_SSH_DIR = {"*": "allow", "path": {"~/.ssh/*": "deny"}}
P_PATH_WRITE_ALLOW = {
    "*": "allow",
    "external_directory": "ask",
    "external_directory_write": {"*": "allow"},
}

CASES = [
    # (policy, tool, path, cwd-relative-to-root, expected, deciding gate)
    (ALLOW_ALL, "read", "src/app.py", "proj", "allow", "tool"),
    (ALLOW_ALL, "write", "src/app.py", "proj", "allow", "tool"),
    (ALLOW_ALL, "edit", "src/app.py", "proj", "allow", "tool"),
    (ALLOW_ALL, "read", "{root}/other/lib/mod.py", "proj", "allow", "tool"),
    # a link to an SSH key meets the built-in base deny beneath an allow-all policy
    (ALLOW_ALL, "read", "key", "proj", "deny", "path"),
    # .env protection
    (P_ENV, "read", ".env", "proj", "deny", "path"),
    (P_ENV, "write", ".env", "proj", "deny", "path"),
    (P_ENV, "edit", ".env", "proj", "deny", "path"),
    (P_ENV, "read", ".env.example", "proj", "allow", "tool"),
    (P_ENV, "read", "envlink", "proj", "deny", "path"),
    (P_ENV, "write", "envlink", "proj", "deny", "path"),
    # an exception for the name as typed never speaks for what a link makes of it
    (P_ENV, "read", "x.env.example", "proj", "deny", "path"),
    (P_ENV, "grep", "x.env.example", "proj", "deny", "path"),
    (P_ENV, "read", "y.env.example", "proj", "allow", "tool"),
    (P_ENV, "grep", ".env", "proj", "deny", "path"),
    (P_ENV, "ls", ".env", "proj", "deny", "path"),
    (P_ENV, "find", ".env", "proj", "deny", "path"),
    (P_ENV, "read", "src/app.py", "proj", "allow", "tool"),
    (P_ENV, "read", "{root}/proj/.env", "proj/src", "deny", "path"),
    (P_ENV, "read", "../.env", "proj/src", "deny", "path"),
    (P_ENV, "read", "src/../.env", "proj", "deny", "path"),
    # ~/.ssh protection, through a symlink
    (P_SSH, "read", "~/.ssh/id_rsa", "proj", "deny", "path"),
    (P_SSH, "read", "key", "proj", "deny", "path"),
    (P_SSH, "write", "key", "proj", "deny", "path"),
    (P_SSH, "read", "{root}/home/.ssh/id_rsa", "proj", "deny", "path"),
    (P_SSH, "read", "{root}/home/.ssh/new", "proj", "deny", "path"),
    (P_SSH, "read", "{root}/home/notes", "proj", "allow", "tool"),
    # external_directory asks
    (P_EXT_ASK, "read", "{root}/other/lib/mod.py", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "write", "{root}/other/lib/mod.py", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "edit", "{root}/other/lib/mod.py", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "read", "../other/lib/mod.py", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "read", "out/lib/mod.py", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "write", "out/new.py", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "read", "src/app.py", "proj", "allow", "tool"),
    (P_EXT_ASK, "read", "../app.py", "proj/src/nested", "ask", "external_directory"),
    (P_EXT_ASK, "read", "../nested/x.py", "proj/src/nested", "allow", "tool"),
    (P_EXT_ASK, "read", "../../.env", "proj/src/nested", "ask", "external_directory"),
    (P_EXT_ASK, "write", "/dev/null", "proj", "allow", "tool"),
    (P_EXT_ASK, "read", "/dev/stdin", "proj", "allow", "tool"),
    (P_EXT_ASK, "read", "/etc/hosts", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "read", "~/notes", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "ls", "{root}/other", "proj", "ask", "external_directory"),
    # Grep (ripgrep without --hidden) over / never descends into ~/.ssh.
    (P_EXT_ASK, "grep", "/", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "grep", "{root}/other", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "find", "{root}", "proj", "ask", "external_directory"),
    (P_EXT_ASK, "read", "{root}/proj/src/app.py", "proj", "allow", "tool"),
    # external_directory_read allow silences reads but not writes
    (P_EXT_READ, "read", "{root}/other/lib/mod.py", "proj", "allow", "tool"),
    (P_EXT_READ, "grep", "{root}/other/lib", "proj", "allow", "tool"),
    (P_EXT_READ, "write", "{root}/other/lib/mod.py", "proj", "ask", "external_directory"),
    (P_EXT_READ, "edit", "{root}/other/lib/mod.py", "proj", "ask", "external_directory"),
    (P_EXT_READ, "read", "out/lib/mod.py", "proj", "allow", "tool"),
    (P_EXT_READ, "read", "/etc/hosts", "proj", "ask", "external_directory"),
    (P_EXT_DENY_WRITE, "write", "/tmp/x", "proj", "deny", "external_directory"),
    (P_EXT_DENY_WRITE, "edit", "/tmp/x", "proj", "deny", "external_directory"),
    (P_EXT_DENY_WRITE, "read", "/tmp/x", "proj", "allow", "tool"),
    (P_EXT_DENY_WRITE, "write", "src/app.py", "proj", "allow", "tool"),
    (P_PATH_WRITE_ALLOW, "write", "/tmp/x", "proj", "allow", "tool"),
    (P_PATH_WRITE_ALLOW, "edit", "/tmp/x", "proj", "ask", "external_directory"),
    (P_PATH_WRITE_ALLOW, "read", "/tmp/x", "proj", "ask", "external_directory"),
    # a path allow does not loosen an external_directory ask
    (P_PATH_ALLOW_EXT_ASK, "read", "{root}/other/lib/mod.py", "proj", "ask", "external_directory"),
    (P_PATH_ALLOW_EXT_ASK, "write", "{root}/other/lib/mod.py", "proj", "ask", "external_directory"),
    # a per-tool allow does not override a path deny
    (P_TOOL_ALLOW_PATH_DENY, "read", ".env", "proj", "deny", "path"),
    (P_TOOL_ALLOW_PATH_DENY, "read", "src/app.py", "proj", "allow", "tool"),
    (P_TOOL_ALLOW_PATH_DENY, "write", ".env", "proj", "ask", "tool"),
    (P_TOOL_ALLOW_PATH_DENY, "edit", ".env", "proj", "deny", "path"),
    # a per-tool deny blocks even when path allows
    (P_TOOL_DENY, "write", "src/app.py", "proj", "deny", "tool"),
    (P_TOOL_DENY, "read", "src/app.py", "proj", "allow", "tool"),
    # directions
    (P_WRITE_ONLY, "read", "src/app.py", "proj", "allow", "tool"),
    (P_WRITE_ONLY, "write", "src/app.py", "proj", "ask", "path"),
    (P_WRITE_ONLY, "edit", "src/app.py", "proj", "ask", "path"),
    (P_READ_DENY, "read", "src/app.py", "proj", "deny", "path"),
    (P_READ_DENY, "write", "src/app.py", "proj", "allow", "tool"),
    (P_READ_DENY, "edit", "src/app.py", "proj", "deny", "path"),
    (P_READ_DENY, "grep", "src", "proj", "deny", "path"),  # a directory reaches its files
    (P_READ_DENY, "grep", "src/nested", "proj", "deny", "path"),
    # the universal fallback: counts for external_directory, not for path
    (P_DEFAULT_ASK, "read", "src/app.py", "proj", "ask", "tool"),
    (P_DEFAULT_ASK, "read", "/etc/hosts", "proj", "ask", "tool"),
    ({"*": "deny", "read": "allow"}, "read", "src/app.py", "proj", "allow", "tool"),
    ({"*": "deny", "read": "allow"}, "read", "/etc/hosts", "proj", "deny", "external_directory"),
    ({"*": "allow", "read": "allow"}, "read", "/etc/hosts", "proj", "allow", "tool"),
    # relative patterns match the spelling as written
    (P_RELATIVE, "read", "src/app.py", "proj", "deny", "path"),
    (P_RELATIVE, "read", "{root}/proj/src/app.py", "proj", "deny", "path"),  # cwd-relative alias
    (P_RELATIVE, "read", "./src/app.py", "proj", "deny", "path"),
    (
        P_RELATIVE,
        "read",
        "app.py",
        "proj/src",
        "allow",
        "tool",
    ),  # relative to the cwd, not the project
    (P_RELATIVE, "write", "src/new.py", "proj", "deny", "path"),
    # a directory
    (P_DIR, "ls", "{root}/other", "proj", "deny", "external_directory"),
    (P_SSH_DIR, "grep", "~/.ssh", "proj", "deny", "path"),
    (P_SSH_DIR, "read", "~/.ssh/", "proj", "deny", "path"),
    (P_DIR, "ls", "src", "proj", "allow", "tool"),
    # optional-path tools without a path are not path-gated
    (P_EXT_ASK, "grep", None, "proj", "allow", "tool"),
    (P_EXT_ASK, "find", None, "proj", "allow", "tool"),
    # Grep without a path searches the working directory, and reads every file beneath it.
    ({"*": "allow", "path": {"*": "deny"}}, "grep", None, "proj", "deny", "path"),
    ({"*": "allow", "path": {"*": "deny"}}, "grep", "src", "proj", "deny", "path"),
    # MCP tools with a path argument consult both directions
    (
        {"*": "allow", "path_write": {"*.env": "deny"}},
        "mcp__fs__read_file",
        ".env",
        "proj",
        "deny",
        "path",
    ),
    (
        {
            "*": "allow",
            "external_directory_read": {"*": "allow"},
            "external_directory_write": {"*": "ask"},
        },
        "mcp__fs__read_file",
        "/etc/hosts",
        "proj",
        "ask",
        "external_directory",
    ),
    ({"*": "allow", "path": {"*.env": "deny"}}, "mcp__fs__list", None, "proj", "allow", "mcp"),
]


def _fill(value, root: Path):  # type: ignore[no-untyped-def]
    if isinstance(value, str):
        return value.replace("{root}", str(root))
    if isinstance(value, dict):
        return {_fill(k, root): _fill(v, root) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, root) for v in value]
    return value


@pytest.mark.parametrize(("policy", "tool", "path", "cwd", "expected", "gate"), CASES)
def test_path_decision_table(
    root: Path,
    policy: dict[str, Any],
    tool: str,
    path: str | None,
    cwd: str,
    expected: str,
    gate: str,
) -> None:
    engine = Engine.load(
        cwd=str(root / cwd),
        policy=json.dumps({"permission": _fill(policy, root)}),
        env={"HOME": str(root / "home")},
    )
    engine.grep_skips_hidden = True  # Claude Code's Grep: ~/.ssh beneath `/` is not searched
    data: dict[str, object] = {}
    if path is not None:
        value = _fill(path, root)
        data = {"arguments": {"path": value}} if tool.startswith("mcp__") else {"file_path": value}
        if tool in ("grep", "find", "ls"):
            data = {"path": value}
    decision = engine.check(ToolCall(tool, data, str(root / cwd)))
    assert decision.action == expected, decision.reason
    deciding = decision.deciding
    assert deciding is not None and deciding.gate == gate, [g.as_json() for g in decision.gates]


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 80


def test_a_deny_on_one_gate_preempts_an_ask_on_another(root: Path) -> None:
    engine = Engine.load(
        cwd=str(root / "proj"),
        policy=json.dumps(
            {
                "permission": {
                    "*": "allow",
                    "external_directory": "ask",
                    "path": {"~/.ssh/*": "deny"},
                }
            }
        ),
        env={"HOME": str(root / "home")},
    )
    decision = engine.check(ToolCall("read", {"file_path": "key"}, str(root / "proj")))
    actions = sorted(g.action for g in decision.gates)
    assert actions == ["allow", "ask", "deny"]
    assert decision.action == "deny" and decision.rule is not None
    assert decision.rule.pattern == "~/.ssh/*"
    assert suggestions(decision) == ()


def test_an_ask_lists_every_reason_and_messages_name_path_boundary_and_rule(root: Path) -> None:
    engine = Engine.load(
        cwd=str(root / "proj"),
        policy=json.dumps({"permission": {"*": "ask"}}),
        env={"HOME": str(root / "home")},
    )
    decision = engine.check(ToolCall("write", {"file_path": "/etc/hosts"}, str(root / "proj")))
    assert decision.action == "ask"
    assert decision.reason.count("Needs approval") == 2
    external = next(g for g in decision.gates if g.gate == "external_directory")
    assert "/etc/hosts" in external.message
    assert f"outside the project {root / 'proj'}" in external.message
    assert 'universal rule "*"' in external.message
    assert "Traceback" not in decision.reason


def test_suggestions_are_directory_patterns(root: Path) -> None:
    engine = Engine.load(
        cwd=str(root / "proj"),
        policy=json.dumps({"permission": {"*": "allow", "external_directory": "ask"}}),
        env={"HOME": str(root / "home")},
    )
    decision = engine.check(
        ToolCall("read", {"file_path": str(root / "other/lib/mod.py")}, str(root / "proj"))
    )
    assert [(s.surface, s.pattern) for s in suggestions(decision)] == [
        ("external_directory_read", f"{root}/other/lib/*")
    ]
    decision = engine.check(ToolCall("ls", {"path": str(root / "other/lib")}, str(root / "proj")))
    assert [s.pattern for s in suggestions(decision)] == [
        f"{root}/other/lib",
        f"{root}/other/lib/*",
    ]


def test_check_json_lists_paths_with_aliases(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project()
    (project / "link").symlink_to("/etc/hosts")
    result = world.run("check", "--json", "read", "link", cwd=project)
    data = json.loads(result.stdout)
    assert data["paths"] == [
        {
            "path": str(project / "link"),
            "raw": "link",
            "surface": "path_read",
            "external": True,
            "aliases": [str(project / "link"), "link", "/etc/hosts"],
        }
    ]
    assert {g["gate"] for g in data["gates"]} >= {"tool", "external_directory"}
    assert data["suggestions"][0]["pattern"] == "/etc/*"


@pytest.mark.parametrize(
    "arguments",
    [
        {"source": "{root}/home/.ssh/id_rsa", "destination": "{root}/proj/stolen"},
        {"options": {"file": "{root}/home/.ssh/id_rsa"}},
        {"uri": "file://{root}/home/.ssh/id_rsa"},
        {"files": ["{root}/proj/src/app.py", "{root}/home/.ssh/id_rsa"]},
        {"items": [{"path": "{root}/home/.ssh/id_rsa"}]},
    ],
)
def test_mcp_paths_under_other_argument_names_are_gated(root: Path, arguments: dict) -> None:  # type: ignore[type-arg]
    policy = {"*": "ask", "mcp": {"fs:*": "allow"}, "path": {"~/.ssh/*": "deny"}}
    engine = Engine.load(cwd=str(root / "proj"), policy=json.dumps({"permission": policy}),
                         env={"HOME": str(root / "home")})  # fmt: skip
    call = ToolCall("mcp__fs__move_file", {"arguments": _fill(arguments, root)}, str(root / "proj"))
    assert engine.check(call).action == "deny"


def test_a_file_tool_with_two_path_keys_is_gated_on_both(root: Path) -> None:
    engine = Engine.load(cwd=str(root / "proj"), policy=json.dumps({"permission": P_ENV}),
                         env={"HOME": str(root / "home")})  # fmt: skip
    call = ToolCall("write", {"file_path": "ok.txt", "path": ".env"}, str(root / "proj"))
    assert engine.check(call).action == "deny"
