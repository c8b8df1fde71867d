"""The invariant, without bash: an allowed line runs no program the analysis did not list.

Lines embed the marker command ``zzmarker`` in every placement class of
``tests/differential/attack_lines.py``. Either ``zzmarker`` is the command word of a unit, or
the engine, under a policy that allows everything but ``zzmarker``, does not allow the line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "differential"))

from attack_lines import MARKER, PLACEMENTS
from strategies import line_in

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell import analyze

# Classes where the marker is neither listed nor the line held on this branch's base (the
# analysis is being extended to them): left out until it is. Enable one by removing it here.
PENDING_CLASSES: frozenset[str] = frozenset()
ENABLED_CLASSES = tuple(c for c in PLACEMENTS if c not in PENDING_CLASSES)
POLICY = {"permission": {"bash": {"*": "allow", "zzmarker *": "deny", "zzmarker": "deny"}}}
CWD, HOME = "/work/proj", "/home/me"
ENGINE: list[Engine] = []


def engine() -> Engine:
    if not ENGINE:
        env = {"HOME": HOME, "XDG_CONFIG_HOME": "/nonexistent/config"}
        ENGINE.append(Engine.load(cwd=CWD, policy=json.dumps(POLICY), env=env))
    return ENGINE[0]


def listed(line: str) -> bool:
    units = analyze(line, cwd=CWD, home=HOME, exists=lambda p: False).units
    return any(u.canonical.split()[:1] == [MARKER] for u in units)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(line_in(ENABLED_CLASSES))
def test_an_embedded_marker_is_listed_or_the_line_is_not_allowed(line: str) -> None:
    if listed(line):
        return
    decision = engine().check(ToolCall("bash", {"command": line}, CWD))
    assert decision.action != "allow", f"{line!r}: {decision.reason}"
