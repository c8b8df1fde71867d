"""A loop variable used unquoted (``for f in src/*.py; do cat $f; done``): bash splits each value
and globs it again, so the analysis gives such a use the pattern's values only where every
match is one word that is itself (docs/shell-analysis.md, "Loop variables"; ADR 0044).

Real bash is the reference: for every set of file names, when the analysis gives the use its
values, the words bash hands the command are exactly the matches of the pattern."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.intent.glob import expand_pattern_bounded
from clearance.intent.shell import analyze

BASH = shutil.which("bash")


def _given(line: str, project: Path) -> bool:
    """Whether the analysis gave the loop variable's use in ``line`` its values (no unknown
    path is left for it)."""
    found = analyze(line, cwd=str(project), home=str(project.parent))
    return not any(token.path is None and "$f" in token.raw for token in found.paths)


def _project(root: Path, names: list[str]) -> Path:
    project = root / "proj"
    (project / "d").mkdir(parents=True)
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("a\n")
    (project / ".env").write_text("S\n")
    for name in names:
        (project / "d" / name).write_text("x\n")
    return project


# (names in d/, line, whether the use gets the values)
CASES: list[tuple[list[str], str, bool]] = [
    # attacks: a match that splits or globs again, a line that may make such a match first
    (["x .env y.md"], "for f in d/*.md; do cat $f; done", False),
    (["x\t.env"], "for f in d/*; do cat $f; done", False),
    (["x\n.env"], "for f in d/*; do cat $f; done", False),
    (["*"], "for f in d/?; do cat $f; done", False),
    (["[.]env"], "for f in d/*; do cat $f; done", False),
    (["\\.env"], "for f in d/*; do cat $f; done", False),
    (["@(x)"], "for f in d/*; do cat $f; done", False),
    (["a.md"], "touch 'd/x .env'; for f in d/*; do cat $f; done", False),
    (["a.md"], "for f in d/*; do cat $f; done & touch 'd/x .env'", False),
    (["a.md"], "for f in d/*; do cat $f; done > out.txt", False),
    (["a.md"], "for f in d/*; do cat $f; mv d/a.md 'd/x .env'; done", False),
    (["a.md"], "for f in d/*; do cat $f; done; cd d", False),
    (["a.md"], "X=1 cat src/a.py; for f in d/*; do cat $f; done", False),
    (["a.md"], "for f in d/*; do cat $f; done; cat $(touch 'd/x .env')", False),
    (["a.md"], "for f in d/*; do sed -i s/a/b/ $f; done", False),
    (["a.md"], "for f in d/*; do sort -o out $f; done", False),
    # a shell's literal script: the line around it must make nothing either
    (["a.md"], "touch 'd/x .env'; bash -c 'for f in d/*; do cat $f; done'", False),
    (["a.md"], "bash -c 'for f in d/*; do cat $f; done' > 'd/x .env'", False),
    (["a.md"], "bash -c 'for f in d/*; do cat $f; done' | tee 'd/x .env'", False),
    (["a.md"], "zsh -lc 'for f in d/*; do cat $f; done' | bash -c 'touch \"d/x .env\"'", False),
    (["a.md"], "bash -c 'for f in d/*; do cat $f; done'; bash -c 'touch \"d/x .env\"'", False),
    (["a.md"], "zsh -lc 'touch \"d/x .env\"; for f in d/*; do cat $f; done'", False),
    (["x .env y.md"], "zsh -lc 'for f in d/*.md; do cat $f; done'", False),
    (["a.md"], "for f in d/[ab].md; do cat $f; done", False),
    (["a.md"], 'for f in "d"/*; do cat $f; done', False),
    (["a.md"], "for f in d/*; do cat ${f}; done; cat $f", False),
    # benign twins: every match is one word that is itself, and the line only reads
    (["a.md", "b-c.md", "my_notes.v2.md"], "for f in d/*.md; do cat $f; done", True),
    (["a.md"], 'ls d && for f in d/*.md; do echo "--- $f"; head -n 30 $f; done', True),
    (["a.md"], "for f in d/* src/*.py; do wc -l $f; done | sort -n", True),
    (["a.md"], "for f in d/*; do grep -n x $f /dev/null; done 2>/dev/null", True),
    (["a.md"], "for f in d/*; do sed -n 1p $f; done", True),
    (["a.md"], "for f in d/*; do [ -f $f ] && head -5 $f; done", True),
    (["x .env y.md"], 'for f in d/*.md; do cat "$f"; done', True),
    ([], "for f in d/*.md; do cat $f; done", True),  # no match: the pattern itself
    (["a.md"], "bash -c 'for f in d/*; do cat $f; done'", True),
    (["a.md"], "/bin/zsh -lc 'ls d && for f in d/*.md; do head -n 30 $f; done'", True),
    (["a.md"], "ls d; zsh -lc \"zsh -lc 'for f in d/*; do cat \\$f; done'\"", True),
]


@pytest.mark.parametrize(("names", "line", "given"), CASES, ids=[c[1][:50] for c in CASES])
def test_an_unquoted_use_gets_the_values_only_where_bash_reads_each_match_whole(
    tmp_path: Path, names: list[str], line: str, given: bool
) -> None:
    assert _given(line, _project(tmp_path, names)) is given


_NAMES = st.lists(
    st.text(alphabet="ae.-_ \t\n*?[]\\(|!@+~'\"$", min_size=1, max_size=6).filter(
        lambda n: n not in (".", "..")
    ),
    min_size=0,
    max_size=4,
    unique=True,
)


ZSH = shutil.which("zsh")


@pytest.mark.skipif(BASH is None or ZSH is None, reason="bash or zsh is not installed")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=_NAMES, pattern=st.sampled_from(["d/*", "d/?", "d/*e*", "d/a*"]),
       shell=st.sampled_from(["bash", "zsh"]))  # fmt: skip
def test_where_a_scripts_use_gets_the_values_the_shell_hands_over_each_match_whole(
    names: list[str], pattern: str, shell: str
) -> None:
    """The same, for a loop in a shell's literal script (`zsh -lc '…'`, as Codex sends it)."""
    with tempfile.TemporaryDirectory() as root:
        project = _project(Path(root), names)
        if not _given(f"{shell} -lc 'for f in {pattern}; do cat $f; done'", project):
            return
        run = subprocess.run(
            [str(ZSH if shell == "zsh" else BASH), "-c",
             f"for f in {pattern}; do printf '%s\\0' $f; done"],
            cwd=project, capture_output=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "HOME": root},
        )  # fmt: skip
        words = run.stdout.decode().split("\0")[:-1]
        matches, _ = expand_pattern_bounded(f"{project}/{pattern}")
        relative = sorted(m[len(str(project)) + 1 :] for m in matches)
        # zsh runs no loop over a pattern that matches nothing (its NOMATCH error)
        assert sorted(words) == (relative or ([pattern] if shell == "bash" else []))


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=_NAMES, pattern=st.sampled_from(["d/*", "d/?", "d/*e*", "d/a*"]))
def test_where_the_use_gets_the_values_bash_hands_over_each_match_whole(
    names: list[str], pattern: str
) -> None:
    with tempfile.TemporaryDirectory() as root:
        project = _project(Path(root), names)
        if not _given(f"for f in {pattern}; do cat $f; done", project):
            return
        run = subprocess.run(
            [str(BASH), "-c", f"for f in {pattern}; do printf '%s\\0' $f; done"],
            cwd=project,
            capture_output=True,
            check=True,
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"},
        )
        words = run.stdout.decode().split("\0")[:-1]
        matches, _ = expand_pattern_bounded(f"{project}/{pattern}")
        relative = sorted(m[len(str(project)) + 1 :] for m in matches) or [pattern]
        assert sorted(words) == relative
