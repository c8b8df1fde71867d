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


def test_every_program_of_the_issue_has_rows() -> None:
    wanted = {"cat", "head", "tail", "grep", "rg", "find", "sed", "awk", "git", "tar", "zip"}
    wanted |= {"less", "man", "rsync", "split", "env", "xargs", "timeout", "nice", "curl", "dd"}
    wanted.add("diff")
    have = {p for p, _, _ in ROWS}
    assert wanted <= have
    for program in wanted:
        kinds = {e for p, _, e in ROWS if p == program}
        assert kinds - {"allow"}, program  # at least one trick per program
