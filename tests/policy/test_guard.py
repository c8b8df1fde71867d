"""examples/policies/guard.jsonc on the public test suites of two other guards.

Every destructive case of tests/policy/guard_suites.py is stopped (denied or asked) and every
safe case is allowed, except the cases listed below, each with the reason the guard cannot meet
the suite. ``bench/bench_guard.py`` prints the totals.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from guard_suites import CASES

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

ROOT = Path(__file__).resolve().parents[2]
GUARD = ROOT / "examples" / "policies" / "guard.jsonc"

_TMPDIR = (
    "needs the value of $TMPDIR when the command runs; a computed operand is not a path in /tmp"
)
_RELATIVE = (
    "the suites disagree: destructive_command_guard stops rm -rf ./build, claude-code-safety-net "
    "allows rm -rf inside its working directory; the guard stops recursive removal outside the "
    "temporary directories (add your own build directories as allow rules)"
)
_ATTACHED = (
    "git(1) takes the value of --track and --recurse-submodules only attached (--track=direct); "
    "given apart, git reads the word as a branch or path, which the guard treats as a checkout "
    "of paths"
)
_INLINE = "inline interpreter code is not read by clearance: the guard asks about it"

# A case the guard answers differently from the suite, by design, with its answer.
BY_DESIGN: dict[str, tuple[str, str]] = {
    "rm -rf $TMPDIR/build": ("deny", _TMPDIR),
    "rm -rf ${TMPDIR}/build": ("deny", _TMPDIR),
    'rm -rf "$TMPDIR/build"': ("deny", _TMPDIR),
    "rm -rf ${TMPDIR:-/tmp}/build": ("deny", _TMPDIR),
    "rm -rf $TMPDIR/test-dir": ("deny", _TMPDIR),
    "rm -rf ${TMPDIR}/test-dir": ("deny", _TMPDIR),
    'rm -rf "$TMPDIR/test-dir"': ("deny", _TMPDIR),
    "rm -rf $TMPDIR": ("deny", _TMPDIR),
    "rm -rf $TMPDIR/test": ("deny", _TMPDIR),
    "rm -rf ${TMPDIR}/test": ("deny", _TMPDIR),
    'rm -rf "$TMPDIR/test"': ("deny", _TMPDIR),
    "TMPDIR=/tmp/subdir rm -rf $TMPDIR/test-dir": ("deny", _TMPDIR),
    "rm -rf ./dist": ("deny", _RELATIVE),
    "rm -rf ./subdir 2>/dev/null": ("deny", _RELATIVE),
    "parallel rm -rf {} ::: build": ("deny", _RELATIVE),
    "parallel bash -c 'rm -rf {}' ::: build": ("deny", _RELATIVE),
    "parallel busybox rm -rf {} ::: build": ("deny", _RELATIVE),
    "parallel rm -rf {} ::: build dist node_modules": ("deny", _RELATIVE),
    "git checkout --recurse-submodules checkout main": ("deny", _ATTACHED),
    "git checkout --recurse-submodules on-demand main": ("deny", _ATTACHED),
    "git checkout --track direct main": ("deny", _ATTACHED),
    "git checkout --track inherit main": ("deny", _ATTACHED),
    'node -e "console.log(\\"ok\\")"': ("ask", _INLINE),
    "ruby -e \"puts 'ok'\"": ("ask", _INLINE),
    "perl -e \"print 'ok'\"": ("ask", _INLINE),
    "command -V git reset --hard": ("allow", "command -V only describes git; nothing runs"),
    "A-B=2 git reset --hard": (
        "allow",
        "A-B=2 is no assignment: bash runs a program named A-B=2 (not found), never git",
    ),
    "git push --force-with-lease-if-includes origin main": (
        "allow",
        "git(1) has no such option and refuses to run; it is neither --force nor an "
        "abbreviation of one",
    ),
    "=2 git reset --hard": (
        "allow",
        "=2 is no assignment: bash runs a program named =2 (not found), never git",
    ),
}

# Safe cases the shell analyzer asks about whatever the policy says (docs/shell-analysis.md): a
# wrapper it does not see through, a line that does not parse, a hazardous variable. They are
# never denied; they may become allowed as the analyzer learns more.
FLOORED: dict[str, str] = {
    "sudo git status": "sudo is an indirection wrapper",
    "env FOO=1 git status": "env is an indirection wrapper",
    "command git status": "command is an indirection wrapper",
    "sudo env VAR=1 git status": "sudo is an indirection wrapper",
    "GIT_DIR=/home/user echo $GIT_DIR": "GIT_DIR is a variable that changes what git reads",
    "bash -c 'echo ok'": "bash -c is an opaque wrapper",
    "busybox rm -rf /tmp/test-dir": "busybox is an indirection wrapper",
    "busybox find . -name foo": "busybox is an indirection wrapper",
    "find . -name -delete -print": "the analyzer reads -delete as find's action wherever it is",
    "find . -exec echo -delete \\; -print": "find -exec runs a command",
    "find . -exec echo -delete + -print": "find -exec runs a command",
    "find . -exec rm -r {} \\;": "find -exec runs a command",
    "find . -exec rm -f {} \\;": "find -exec runs a command",
    "echo 'unterminated": "the line does not parse",
    "git restore --help 'unterminated": "the line does not parse",
    'echo "find . -delete': "the line does not parse",
    'rg "find . -delete': "the line does not parse",
    "bash -c": "bash -c is an opaque wrapper",
    "bash": "bash reads its commands from standard input",
    "bash -lc": "bash -c is an opaque wrapper",
    "echo ok | xargs -n1": "xargs is an indirection wrapper",
    "echo ok | xargs sudo --": "xargs is an indirection wrapper",
    "echo ok | xargs busybox rm -f /tmp/test": "xargs is an indirection wrapper",
    "echo ok | xargs": "xargs is an indirection wrapper",
    "echo ok | xargs rm -- -rf": "xargs is an indirection wrapper",
    "parallel find . -name foo ::: ok": "parallel runs its arguments as a command line",
    "parallel busybox find . -name foo ::: ok": "parallel runs its arguments as a command line",
    "echo ok | parallel": "parallel runs its input as command lines",
    "parallel :::": "parallel runs its arguments as command lines",
    "parallel ::: 'echo ok' 'true'": "parallel runs its arguments as command lines",
    "parallel bash -c 'echo ok' ::: ok": "parallel runs its arguments as a command line",
}


@pytest.fixture(scope="module")
def decide(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("guard")
    project = root / "project"
    (project / ".git").mkdir(parents=True)
    env = {"HOME": str(root / "home"), "CLEARANCE_HOME": str(root / "state")}
    engine = Engine.load(cwd=str(project), policy=GUARD.read_text(), env=env)

    def run(command: str) -> str:
        return engine.check(ToolCall("bash", {"command": command}, str(project))).action

    return run


def _destructive(verdict: str) -> bool:
    """A case a suite blocks in any of its settings is one the guard must stop."""
    return "destructive" in verdict


@pytest.mark.parametrize(
    ("suite", "command", "verdict"),
    [(s, c, v) for s, _f, c, v in CASES],
    ids=[f"{s[:3]}-{i}" for i, (s, _f, _c, _v) in enumerate(CASES)],
)
def test_the_guard_meets_each_suite_case(decide, suite: str, command: str, verdict: str) -> None:  # type: ignore[no-untyped-def]
    action = decide(command)
    if command in BY_DESIGN:
        assert action == BY_DESIGN[command][0], BY_DESIGN[command][1]
    elif command in FLOORED:
        assert action != "deny" and not _destructive(verdict), FLOORED[command]
    elif _destructive(verdict):
        assert action in ("deny", "ask"), f"{suite} lists {command!r} as destructive"
    else:
        assert action == "allow", f"{suite} lists {command!r} as safe"


def test_every_listed_exception_is_a_suite_case() -> None:
    commands = {c for _s, _f, c, _v in CASES}
    assert set(BY_DESIGN) <= commands
    assert set(FLOORED) <= commands


def test_the_figures_hold() -> None:
    """No destructive case is let through but the four by-design ones (none of which runs what
    it seems to); at most a fifth of the safe ones are not allowed (each listed above)."""
    destructive = [c for _s, _f, c, v in CASES if _destructive(v)]
    safe = [c for _s, _f, c, v in CASES if not _destructive(v)]
    passed = [c for c in destructive if BY_DESIGN.get(c, ("",))[0] == "allow"]
    assert len(passed) == 4
    listed = [c for c in safe if c in BY_DESIGN or c in FLOORED]
    assert len(listed) <= 0.2 * len(safe)


def test_the_guard_validates_with_its_self_tests(world) -> None:  # type: ignore[no-untyped-def]
    result = subprocess.run(
        [sys.executable, "-m", "clearance", "validate", str(GUARD)],
        capture_output=True, text=True, timeout=120, env={**world.env, "PYTHONPATH": str(ROOT / "src")},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid" in result.stdout


def test_the_bench_prints_the_figures() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_guard.py")],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "destructive_command_guard: stops 106 of 107 destructive" in result.stdout
    assert "claude-code-safety-net: stops 286 of 289 destructive" in result.stdout
