"""Lines tree-sitter-bash reads otherwise than bash (docs/shell-analysis.md, "Where the grammar
is wrong"): an ANSI-C string run past its end, a carriage return or form feed taken for a blank,
an escaped blank before `#`, a blank inside a word, a `${…}` or a command run past its end, a
comment glued to a word, `>&` before a quoted expansion. Each shape is run in real bash first,
to show that the command hidden in it runs; clearance must not allow the line under a policy
that denies that command. Their twins, read as bash reads them, are allowed.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

SHAPES = [
    # ANSI-C strings: `\\'` is an escaped backslash, then the closing quote
    "echo $'\\\\'; CMD #'",
    "echo $'\\\\' && CMD #'",
    "x=$'\\\\'; CMD #'",
    "echo $'a\\\\\\\\'; CMD #'",
    "ls $'\\\\' | CMD #'",
    "echo $'\\\\'\nCMD #'",
    # a carriage return, form feed or vertical tab is a word character to bash
    "echo x\r#; CMD",
    "echo a\f#; CMD",
    "echo a\v#; CMD",
    "x=\r# CMD",
    "echo \\\r\nCMD",
    # an escaped blank before `#` is a word, not a comment
    "echo \\ #;CMD",
    # a blank inside what the grammar takes for one word
    "x=$ CMD",
    "x=\\  CMD",
    "echo 1# $(CMD)",
    "echo 64#$(CMD)",
    "echo 0x$(CMD)",
    # an expansion, a command or a comment run past where bash ends them
    "echo ${x#{};CMD }",
    "x=()# CMD",
    "echo =~\nCMD",
    "x=]\\echo CMD",
    "ls # see <<notes\n\\\nCMD",
    # `>&WORD` is `&>WORD`, its word expanded again
    "echo hi >&'$(CMD)'",
    # an escaped blank the grammar drops before a newline, inside a redirect or an assignment
    "git status <\\ \nCMD",
    "git status <<<\\ \nCMD",
    "x=1\\\techo CMD",
    "<<<\\  CMD",
    # a redirect's target cut short before a word glued to it
    ">a{\\echo CMD",
    # a comment glued to an array
    "x=( a )#; CMD",
    # a redirect taken to hold a command's words
    "</dev/null >b CMD >c",
    # a here-document body's line continuations, which bash removes first: `${x@P}`
    "x='$(CMD)'; cat <<EOF\n${x@\\\nP}\nEOF",
]
TWINS = [
    "echo $'\\\\'",
    "echo $'it\\'s' x",
    "printf $'a\\\\b\\n'",
    "echo $'a\\\\\\'b' x",
    "echo hi # a comment",
    "echo ${x:-default} ${#x} ${x%.*} ${x//a/b}",
    "echo 16#ff $((16#ff))",
    "arr=(a b c); echo ${arr[@]}",
    "echo a\\ b",
    "(cd src && ls) # x",
    "echo hi >&2",
    "echo flag{a\\tb{\\z{c}",  # split by the grammar, joined again: the word bash reads
    "(ls)# x",
    "f()# c\n{ echo; }",
    'echo $"hello"',
    'for f in a b; do echo "$f"\\ done; done',
    "ls 2>/dev/null",
    "echo a\\ b c",
    "cat <<EOF\nline one \\\nline two $HOME\nEOF",
]
POLICY = {"permission": {"*": "allow", "bash": {"*": "allow", "touch *": "deny"}}}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, str]:
    root = tmp_path_factory.mktemp("misread")
    project = root / "project"
    (project / ".git").mkdir(parents=True)
    env = {"HOME": str(root), "CLEARANCE_HOME": str(root / "state")}
    return Engine.load(cwd=str(project), policy=json.dumps(POLICY), env=env), str(project)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_command_the_grammar_hides_runs_and_is_not_allowed(  # type: ignore[no-untyped-def]
    engine, tmp_path: Path, shape: str
) -> None:
    line = shape.replace("CMD", "touch ran")
    subprocess.run(["bash", "-c", line], cwd=tmp_path, capture_output=True, timeout=30,
                   env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)})  # fmt: skip
    assert (tmp_path / "ran").exists(), f"bash did not run the command in {line!r}"
    found, cwd = engine
    decision = found.check(ToolCall("bash", {"command": line}, cwd))
    assert decision.action != "allow", decision.reason


@pytest.mark.parametrize("line", TWINS)
def test_a_twin_read_as_bash_reads_it_is_allowed(engine, line: str) -> None:  # type: ignore[no-untyped-def]
    found, cwd = engine
    decision = found.check(ToolCall("bash", {"command": line}, cwd))
    assert decision.action == "allow", decision.reason
