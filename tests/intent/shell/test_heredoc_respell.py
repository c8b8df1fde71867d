"""Heredoc shapes agents write on one line with redirects and a pipe (issue 13, point 4): the
respelled line (intent/shell/respell.py) is parsed, and real bash gives the same
output for it as for the line as written."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from clearance.intent.shell import analyze
from clearance.intent.shell.respell import respell

BASH = shutil.which("bash")

# (line, the units the analysis must find). Every program here is harmless, so bash runs it.
SHAPES: list[tuple[str, list[str]]] = [
    ("cat - <<'MSG' 2>&1 | tail -3\nFix the thing\n\nMore text\nMSG", ["cat '-'", "tail -3"]),
    ("cat - <<'PY' 2>&1 | head\nimport os\nprint(1)\nPY", ["cat '-'", "head"]),
    ("cat <<EOF > a.txt 2>&1 && cat a.txt\nhello\nEOF", ["cat", "cat a.txt"]),
    ("cat <<'EOF' >> b.txt 2>/dev/null; cat b.txt\nx\nEOF", ["cat", "cat b.txt"]),
    ("cat <<A 2> err.log | tr a-z A-Z\nabc\nA", ["cat", "tr a-z A-Z"]),
    ("cat <<-EOF 2>&1 | wc -l\n\tone\n\ttwo\n\tEOF", ["cat", "wc -l"]),
    ("cat <<A 2>&1; cat <<B > c.txt 2>&1; cat c.txt\none\nA\ntwo\nB", ["cat", "cat", "cat c.txt"]),
    ("cat <<'A'; cat <<B\none\nA\ntwo\nB", ["cat", "cat"]),
    ("cat - 2>&1\necho next", ["cat '-'", "echo next"]),
    ("cat <<'MSG' &> d.txt | cat\nbody <<X 2>&1\nMSG", ["cat", "cat"]),
]


@pytest.mark.parametrize(("line", "units"), SHAPES)
def test_a_heredoc_shape_parses_into_its_commands(line: str, units: list[str]) -> None:
    analysis = analyze(line, cwd="/work/proj", home="/home/me")
    assert [u.text for u in analysis.units] == units
    assert not any(u.unresolved for u in analysis.units)


def _run(line: str, where: Path) -> tuple[str, dict[str, str]]:
    assert BASH is not None
    done = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", line],
        cwd=where, capture_output=True, text=True, timeout=10, input="stdin\n", check=False,
    )  # fmt: skip
    files = {p.name: p.read_text() for p in sorted(where.iterdir())}
    return done.stdout + "|" + done.stderr + f"|{done.returncode}", files


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
@pytest.mark.parametrize(("line", "units"), SHAPES)
def test_real_bash_reads_the_respelled_line_as_the_line_written(
    tmp_path: Path, line: str, units: list[str]
) -> None:
    again = respell(line)
    assert again is not None
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    assert _run(line, first) == _run(again, second)


@pytest.mark.parametrize(
    "line",
    [
        "cat <<A 2>&0\nA",  # descriptor 0 is involved: the order matters, nothing is moved
        "cat <<A 0<x\nA",
        "cat > f <<EOF\nx\nEOF",  # already read right
        'cat <<A >"o"\nA',  # a quoted target: not understood, left alone
        "echo 'x <<A 2>&1'",  # inside quotes
        "cat <<'A' | x\nbody - >y <<B 2>&1\nA",  # the body is data, never respelled
    ],
)
def test_lines_the_respelling_leaves_alone(line: str) -> None:
    assert respell(line) is None


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
def test_a_moved_heredoc_does_not_hide_a_command(tmp_path: Path) -> None:
    line = "cat <<A 2>&1 | rm -rf x\nbody\nA"
    assert [u.text for u in analyze(line, cwd=str(tmp_path), home="/h").units] == [
        "cat",
        "rm -rf x",
    ]


def test_two_heredocs_joined_on_one_line_stay_unresolved() -> None:
    # Not respelled (the grammar misreads it either way): the line asks, whole.
    line = "cat <<A | cat <<B\none\nA\ntwo\nB"
    assert any(u.unresolved for u in analyze(line, cwd="/work/proj", home="/h").units)
