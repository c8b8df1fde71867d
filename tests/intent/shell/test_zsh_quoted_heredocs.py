"""A zsh script is read as bash only where zsh reads it alike (``script.zsh_reads_as_bash``);
the bodies of its quoted heredocs are data to both shells and are left out of that check. Which
``<<`` is a heredoc operator follows quoting across lines, comments, substitutions and the
bodies themselves: a ``<<'X'`` inside a string is text, so the lines after it are code, and zsh
reads them (``=rm`` runs ``/usr/bin/rm``; bash would look for a program named ``=rm``).

Real zsh is the reference: each attack's hidden command runs in zsh."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell.script import zsh_reads_as_bash

ZSH = shutil.which("zsh")

# Scripts whose last lines zsh runs as `=rm`, hidden after a `<<'X'` that is not an operator.
ATTACKS = [
    "echo \"start\n<<'X'\"\n=rm -f victim\nX",
    "echo 'a\n<<\"X\"'\n=rm -f victim\nX",
    "cat <<EOF\ndon't\nEOF\necho '<<\"X\"'\n=rm -f victim\nX",
    "echo x # it's <<'X'\n=rm -f victim\nX",
    # a shift in arithmetic, text in a parameter expansion, a line that goes on
    "true || echo $[1<<'1']\n=rm -f victim\n1",
    "true || echo \"$((1<<'1'))\"\n=rm -f victim\n1",
    "echo ${x:-<<'X'}\n=rm -f victim\nX",
    'cat <<"X" \\\n&& =rm -f victim\nX',
    # the delimiter is the whole word; only the line that is the delimiter alone ends the body
    "cat <<\\X-Y\nX-Y\n=rm -f victim\nX",
    "cat <<'X'\n\tX\ncat <<'true'\nX\n=rm -f victim\ntrue",
    # a backslash inside the quotes is part of the delimiter (`\\X`, not `X`)
    "cat <<'\\X'\n\\X\n=rm -f victim\nX",
    # zsh counts braces inside `${…}`: no heredoc there to zsh
    "echo ${x:-{a}<<\\X}Y\n=rm -f victim\nX}Y",
]
# Benign twins: quoted heredocs whose bodies hold what zsh would read otherwise, and a script
# run by a shell that is itself a script (`zsh -lc "zsh -lc 'python - <<\"PY\" …'"`).
BENIGN = [
    "python3 - <<'PY'\nprint(f'{1:4d}', [x for x in (1, 2)])\nPY",
    "cat <<\"B\"\n(b) it's\nB\necho '<<X'",
    "x=$(cat <<'EOF'\n(body)\nEOF\n)\necho \"$x\"",
    "echo $(( 1 << 2 )); cat <<<'x'",
    "zsh -lc 'python3 - <<\"PY\"\nprint((1, 2))\nPY'",
]


@pytest.mark.parametrize("script", ATTACKS)
def test_a_heredoc_operator_inside_quotes_hides_no_line(script: str, tmp_path: Path) -> None:
    assert not zsh_reads_as_bash(script)
    policy = {"*": "allow", "bash": {"*": "allow", "rm *": "deny"}}
    engine = Engine.load(cwd=str(tmp_path), policy=json.dumps({"permission": policy}),
                         env={"HOME": str(tmp_path)}, use_cache=False)  # fmt: skip
    line = "zsh -c " + shlex.quote(script)
    decision = engine.check(ToolCall("bash", {"command": line}, str(tmp_path)))
    assert decision.action != "allow", line
    if ZSH is not None:  # the attack is real: zsh removes the file
        (tmp_path / "victim").write_text("x")
        subprocess.run([ZSH, "-c", script], cwd=tmp_path, capture_output=True, timeout=30)
        assert not (tmp_path / "victim").exists()


@pytest.mark.parametrize("script", BENIGN)
def test_quoted_heredoc_bodies_are_data(script: str, tmp_path: Path) -> None:
    assert zsh_reads_as_bash(script)
    policy = {"*": "allow", "bash": {"*": "ask", "python3 *": "allow", "cat *": "allow",
                                     "echo *": "allow", "zsh *": "allow"}}  # fmt: skip
    engine = Engine.load(cwd=str(tmp_path), policy=json.dumps({"permission": policy}),
                         env={"HOME": str(tmp_path)}, use_cache=False)  # fmt: skip
    line = "/bin/zsh -lc " + shlex.quote(script)
    decision = engine.check(ToolCall("bash", {"command": line}, str(tmp_path)))
    assert decision.action == "allow", decision.reason
