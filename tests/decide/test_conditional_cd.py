"""A ``cd`` that may not take effect, decided in a real work tree and compared with bash.

The policy denies one project file by pattern. A ``cd`` that may not run (after ``&&`` or
``||``, in a branch, a loop or a function body) or may fail (its target is no directory) leaves
the shell in either directory, so what follows must not be judged from the ``cd``'s target
alone; a ``cd`` later in a loop body moves the next pass (docs/shell-analysis.md, "Paths";
ADR 0046). The benign twins keep their precise decision.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

POLICY = {
    "permission": {
        "*": "allow",
        "bash": {"*": "allow"},
        "path": {"**/p3/secret.txt": "deny"},
        "external_directory": "ask",
    }
}

# Lines after which bash reads the denied ./secret.txt (each prints its text, `SECRET`).
ATTACKS = [
    "false && cd other; cat secret.txt",
    "if false; then cd other; fi; cat secret.txt",
    "[ -d nope ] && cd other; cat secret.txt",
    "cd nonexistent || true; cat secret.txt",
    "cd nonexistent 2>/dev/null; cat secret.txt",
    "case x in y) cd other;; esac; cat secret.txt",
    "true || cd other; cat secret.txt",
    "false && pushd other >/dev/null; cat secret.txt",
    "if true; then if false; then cd other; fi; fi; cat secret.txt",
    "f() { cd other; }; cat secret.txt",
    "{ false && cd other; }; cat secret.txt",
    "true | true | false && cd other; cat secret.txt",
    "cd nonexistent && true; cat secret.txt",
    "cd plain.txt; cat secret.txt",  # a file, no directory: `cd` fails
    "cd nonexistent 2>/dev/null; cat ../p3/secret.txt",
    # the second pass reads other/../secret.txt
    "for i in 1 2; do cat ../secret.txt; cd other; done",
    "i=0; while [ $i -lt 2 ]; do cat ../secret.txt; cd other; i=$((i+1)); done",
    "i=0; until [ $i -ge 2 ]; do cat ../secret.txt; cd other; i=$((i+1)); done",
]

# Lines whose relative paths stay precise: (line, decision).
TWINS = [
    ("cd src; cat a.py", "allow"),
    ("cd src && cat a.py", "allow"),
    ("cd src || exit 1; cat a.py", "allow"),
    ("(cd other && ls)", "allow"),
    ("(cd nonexistent); cat src/a.py", "allow"),
    ("cd nonexistent && cat secret.txt", "allow"),  # runs only where `cd` succeeded
    ("false && cd other && cat secret.txt", "allow"),
    ("cd other && cat ../secret.txt", "deny"),
    ("cd src; cat ../secret.txt", "deny"),
    ("for i in 1 2; do cat src/a.py; done", "allow"),
    ("for d in src other; do (cd $d && ls); done", "allow"),
]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tree") / "p3"
    (root / "other").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "secret.txt").write_text("SECRET\n")
    (root / "plain.txt").write_text("plain\n")
    (root / "src" / "a.py").write_text("a\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def decide(tree: Path, line: str) -> str:
    home = tree.parent / "home"
    engine = Engine.load(cwd=str(tree), policy=json.dumps(POLICY), env={"HOME": str(home)})
    return engine.check(ToolCall("bash", {"command": line}, str(tree))).action


def test_the_project_file_is_denied_by_its_pattern(tree: Path) -> None:
    assert decide(tree, "cat secret.txt") == "deny"


@pytest.mark.parametrize("line", ATTACKS)
def test_a_cd_that_may_not_take_effect_is_not_taken_for_granted(tree: Path, line: str) -> None:
    ran = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", line],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=10,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tree.parent / "home")},
    )
    assert "SECRET" in ran.stdout  # bash reads the denied file
    assert decide(tree, line) != "allow", line


@pytest.mark.parametrize(("line", "decision"), TWINS)
def test_a_cd_that_takes_effect_keeps_its_precise_decision(
    tree: Path, line: str, decision: str
) -> None:
    assert decide(tree, line) == decision, line
