"""A heredoc's body ends at the line that is its delimiter alone (after leading tabs, for
``<<-``), as bash reads it. tree-sitter-bash also ends it at the delimiter among blanks (``\\tX``,
``X ``, ``X\\r``): what bash reads on as the body, and the lines after it, are then not what bash
runs, and the line asks.

Real bash is the reference: each attack removes the file ``victim``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

BASH = shutil.which("bash")

ATTACKS = [
    "cat <<'X'\n\tX\ncat <<'true'\nX\nrm -f victim\ntrue",
    "cat <<'X'\nX \ncat <<'true'\nX\nrm -f victim\ntrue",
    "cat <<X\n  X\ncat <<true\nX\nrm -f victim\ntrue",
    "cat <<'X'\nX\r\ncat <<'true'\nX\nrm -f victim\ntrue",
    "cat <<-'X'\n \tX\ncat <<'true'\nX\nrm -f victim\ntrue",
    # bash's delimiter keeps a backslash inside quotes; the grammar's drops it
    "cat <<'\\X'\nhello\n\\X\nrm -f victim\nX\n",
    'cat <<"a\\b"\nhello\na\\b\nrm -f victim\nab\n',
    "cat <<'\\X'\nhello\n\\X\nrm -f victim",
    # bash's word ends at the operator; the grammar's takes it along
    "cat <<X|cat\nfoo\nX\nrm -f victim\nX|cat\n",
    # a backslash-newline: the grammar goes on with the command line where bash has begun the
    # body; bash joins it in an unquoted body (`X\` and `Y` are the line `XY`)
    "cat <<X\n\\\nX\nrm -f victim\nX",
    "cat <<'X'\n\\\nX\nrm -f victim\nX",
    "cat <<XY\nhi\nX\\\nY\nrm -f victim\nXY",
    "x=$(cat <<XY\nhi\nX\\\nY\nrm -f victim\nXY\n)",
]
BENIGN = [
    "cat <<'X'\nhello\nX",
    "cat <<-EOF\n\thello\n\tEOF",
    'cat <<"E O"\nx\nE O',
    "cat <<'X' | head -1\na X b\nX",
    "cat <<X | cat\nfoo\nX",
    "cat <<\\EOF\n$HOME\nEOF",
    "cat <<'EOF' | head\ncurl -X POST \\\n  -H x\nEOF",
    "cat <<EOF\nhello \\\nworld\nEOF",
]


@pytest.mark.parametrize("line", ATTACKS)
def test_a_body_the_grammar_ends_early_asks(line: str, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    engine = Engine.load(cwd=str(tmp_path), env={"HOME": str(tmp_path)}, use_cache=False)
    decision = engine.check(ToolCall("bash", {"command": line}, str(tmp_path)))
    assert decision.action != "allow", decision.reason
    if BASH is not None:  # the attack is real: bash runs the hidden rm
        (tmp_path / "victim").write_text("x")
        subprocess.run([BASH, "-c", line], cwd=tmp_path, capture_output=True, timeout=30)
        assert not (tmp_path / "victim").exists()


@pytest.mark.parametrize("line", BENIGN)
def test_a_body_ended_as_bash_ends_it_is_read(line: str, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    engine = Engine.load(cwd=str(tmp_path), env={"HOME": str(tmp_path)}, use_cache=False)
    decision = engine.check(ToolCall("bash", {"command": line}, str(tmp_path)))
    assert decision.action == "allow", decision.reason
