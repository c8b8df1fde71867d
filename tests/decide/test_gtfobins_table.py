"""The GTFOBins-style table, decided through the real engine (see ``gtfobins_table.py``)."""

from __future__ import annotations

import json

import pytest
from gtfobins_table import ROWS, policy

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

ENGINES: dict[str, Engine] = {}


def engine(program: str) -> Engine:
    if program not in ENGINES:
        ENGINES[program] = Engine.load(
            cwd="/work/proj", policy=json.dumps(policy(program)), env={"HOME": "/home/me"}
        )
    return ENGINES[program]


@pytest.mark.parametrize(
    ("program", "command", "expected"), ROWS, ids=[f"{p}: {c[:60]}" for p, c, _ in ROWS]
)
def test_a_program_allowed_outright_runs_nothing_else(
    program: str, command: str, expected: str
) -> None:
    found = engine(program).check(ToolCall("bash", {"command": command}, "/work/proj"))
    assert found.action in expected.split("|"), found.reason


GIT_POLICY = {
    "permission": {
        "*": "ask",
        "bash": {"*": "ask", "git *": "allow", "git push *": "deny", "git status *": "allow"},
        "external_directory": "ask",
    }
}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git push origin main", "deny"),
        ("git -C repo push --force", "deny"),
        ("git --no-pager -c x.y=z push", "deny"),
        ("git --git-dir=.git --work-tree=. push", "deny"),
        ("git -P --literal-pathspecs push", "deny"),
        ("sudo git -C repo push", "deny"),
        ("git -C repo status", "allow"),
        ("git --no-pager log", "allow"),
        ("git -C /etc status", "ask"),
        ("git -c alias.status='!sh -c id' status", "ask"),
        ("git pushx", "allow"),  # not a built-in: only `git pushx` / `git *` rules match it
    ],
)
def test_git_global_options_never_hide_the_subcommand(command: str, expected: str) -> None:
    if "git:global" not in ENGINES:
        ENGINES["git:global"] = Engine.load(
            cwd="/work/proj", policy=json.dumps(GIT_POLICY), env={"HOME": "/home/me"}
        )
    found = ENGINES["git:global"].check(ToolCall("bash", {"command": command}, "/work/proj"))
    assert found.action == expected, found.reason


def test_every_program_of_the_issue_has_rows() -> None:
    wanted = {"cat", "head", "tail", "grep", "rg", "find", "sed", "awk", "git", "tar", "zip"}
    wanted |= {"less", "man", "rsync", "split", "env", "xargs", "timeout", "nice", "curl", "dd"}
    wanted.add("diff")
    have = {p for p, _, _ in ROWS}
    assert wanted <= have
    for program in wanted:
        kinds = {e for p, _, e in ROWS if p == program}
        assert kinds - {"allow"}, program  # at least one trick per program
