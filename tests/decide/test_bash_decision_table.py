"""Every command of the analyzer's unit and path tables, decided through the real engine.

Together with ``tests/intent/shell/shell_unit_table.py`` and ``shell_path_table.py`` (which
assert the units and paths of the same commands), this is the table of issue 4: well over 300
commands with their expected units and decisions.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from bash_decision_table import DECISIONS, POLICY

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "intent" / "shell"))

ENGINE: list[Engine] = []


def engine() -> Engine:
    if not ENGINE:
        ENGINE.append(
            Engine.load(cwd="/work/proj", policy=json.dumps(POLICY), env={"HOME": "/home/me"})
        )
    return ENGINE[0]


@pytest.mark.parametrize(
    ("command", "decision", "decided_by"), DECISIONS, ids=[c[:60] for c, _, _ in DECISIONS]
)
def test_the_decision_for_a_table_command(
    command: str, decision: str, decided_by: str | None
) -> None:
    found = engine().check(ToolCall("bash", {"command": command}, "/work/proj"))
    assert found.action == decision, found.reason
    if decided_by is None:
        return
    gate = found.deciding
    assert gate is not None
    if decided_by.startswith("<"):
        assert gate.sentinel == decided_by, found.reason
    else:
        assert gate.rule is not None and f"{gate.gate}:{gate.rule.pattern}" == decided_by, (
            found.reason
        )


def test_every_table_command_has_a_decision() -> None:
    from shell_path_table import PATH_CASES
    from shell_unit_table import UNIT_CASES

    commands = {c for c, _ in UNIT_CASES} | {c for c, _ in PATH_CASES}
    assert commands == {c for c, _, _ in DECISIONS}
    assert len(DECISIONS) >= 300
