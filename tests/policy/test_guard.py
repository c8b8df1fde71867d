"""examples/policies/guard.jsonc, run through the real engine over clearance's own table of
destructive command lines and their benign twins (tests/policy/guard_cases.py, and
tests/policy/guard_service_cases.py for cloud resources, backups, databases, disks and services).

Every destructive line is stopped as the guard's design says (denied, or asked about), every
benign twin is allowed (or, where the shell analyzer asks about the line whatever the policy
says, at least not denied). The public test suites of two other guards are not part of the
repository; bench/bench_guard.py measures the guard on them from a local copy.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from guard_cases import ALLOW, DENY, NOT_DENY, STOPPED, Case
from guard_cases import CASES as FILE_AND_GIT_CASES
from guard_service_cases import SERVICE_CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

ROOT = Path(__file__).resolve().parents[2]
GUARD = ROOT / "examples" / "policies" / "guard.jsonc"
CASES = [*FILE_AND_GIT_CASES, *SERVICE_CASES]
GROUPS = sorted({c.group for c in CASES})


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, str]:
    root = tmp_path_factory.mktemp("guard")
    project = root / "project"
    (project / ".git").mkdir(parents=True)
    env = {"HOME": str(root / "home"), "CLEARANCE_HOME": str(root / "state")}
    return Engine.load(cwd=str(project), policy=GUARD.read_text(), env=env), str(project)


def _decide(engine: tuple[Engine, str], line: str) -> tuple[str, str]:
    """The action for ``line``, and which rule (or gate) decided, for a failure message."""
    found, cwd = engine
    decision = found.check(ToolCall("bash", {"command": line}, cwd))
    rule = decision.rule
    by = getattr(rule, "pattern", None) or decision.reason
    return decision.action, f"{by}"


def _meets(case: Case, action: str) -> bool:
    if case.expected == NOT_DENY:
        return action != DENY
    return action == case.expected


@pytest.mark.parametrize("group", GROUPS)
def test_the_guard_answers_each_line_of_the_table(engine, group: str) -> None:  # type: ignore[no-untyped-def]
    failures = []
    for case in (c for c in CASES if c.group == group):
        action, by = _decide(engine, case.line)
        if not _meets(case, action):
            kind = "destructive" if case.expected in STOPPED else "benign"
            note = f" ({case.note})" if case.note else ""
            failures.append(
                f"  {case.line!r}: {kind}, expected {case.expected}, decided {action} by {by}{note}"
            )
    assert not failures, f"{group}: {len(failures)} line(s) answered otherwise\n" + "\n".join(
        failures
    )


def test_the_table_pairs_every_class_with_benign_twins() -> None:
    kinds = Counter((c.group, c.expected in STOPPED) for c in CASES)
    for group in GROUPS:
        assert kinds[(group, True)] and kinds[(group, False)], group
    assert {c.expected for c in CASES} <= {*STOPPED, ALLOW, NOT_DENY}
    assert len({c.line for c in CASES}) == len(CASES)


# -- properties: any spelling of a destructive option set is stopped, its twin is not ------------

_R = ["-r", "-R", "--recursive", "--recur"]
_F = ["-f", "--force"]
_EXTRA = ["-v", "--verbose", "-d", "--one-file-system", "-I"]
_TARGETS = ["build", "src", ".", "~", "/", "/home/user", "*", "../x", "/tmp/../etc"]
# Each temporary root on its own: an allow rule covers every operand by itself, and /tmp and
# /var/tmp are two rules (tests/policy/guard_cases.py lists a line mixing them).
_TEMP = {"/tmp": ["/tmp/build", "/tmp/a/b", "/tmp/.cache"], "/var/tmp": ["/var/tmp/cache"]}


@st.composite
def _rm_line(draw: st.DrawFn, force: bool, targets: list[str]) -> str:
    words = [draw(st.sampled_from(_R))]
    if force:
        words.append(draw(st.sampled_from(_F)))
    words += draw(st.lists(st.sampled_from(_EXTRA), max_size=2, unique=True))
    shorts = [w for w in words if len(w) == 2]
    if len(shorts) > 1 and draw(st.booleans()):  # cluster the short ones: -rfv
        words = [w for w in words if len(w) != 2] + ["-" + "".join(w[1] for w in shorts)]
    words += draw(st.lists(st.sampled_from(targets), min_size=1, max_size=3))
    words = draw(st.permutations(words))
    prefix = draw(st.sampled_from(["", "/bin/", "\\"]))
    return " ".join([prefix + "rm", *words])


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_recursive_forced_removal_is_denied_in_any_spelling(engine, data: st.DataObject) -> None:  # type: ignore[no-untyped-def]
    line = data.draw(_rm_line(True, _TARGETS))
    assert _decide(engine, line)[0] == DENY, line


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_its_twins_are_allowed(engine, data: st.DataObject) -> None:  # type: ignore[no-untyped-def]
    # `rm -r /`, `rm -r ~` and `rm -r /tmp/../etc` without force are still denied: the
    # built-in policy's floor of destruction denies removing the filesystem, a system directory
    # or the home directory recursively in any spelling.
    floor = ("/", "~", "/tmp/../etc")
    without_force = data.draw(_rm_line(False, [t for t in _TARGETS if t not in floor]))
    assert _decide(engine, without_force)[0] == ALLOW, without_force
    in_temp = data.draw(_rm_line(True, _TEMP[data.draw(st.sampled_from(sorted(_TEMP)))]))
    assert _decide(engine, in_temp)[0] == ALLOW, in_temp


_GIT_GLOBAL = ["-C repo", "-Crepo", "--no-pager", "--git-dir=.git", "-P", "--work-tree=."]
_FORCES = ["-f", "--force", "-fu", "-qf", "-uf"]
_LEASES = ["--force-with-lease", "--force-with-lease=main", "--force-if-includes"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(_GIT_GLOBAL), max_size=3),
    st.sampled_from(_FORCES),
    st.sampled_from(_LEASES),
    st.integers(0, 2),
)
def test_a_force_push_is_denied_and_a_lease_allowed_wherever_it_stands(  # type: ignore[no-untyped-def]
    engine, globals_: list[str], force: str, lease: str, where: int
) -> None:
    operands = ["origin", "main"]
    for option, expected in ((force, DENY), (lease, ALLOW)):
        words = [*operands[:where], option, *operands[where:]]
        line = " ".join(["git", *globals_, "push", *words])
        assert _decide(engine, line)[0] == expected, line


# -- the guard's own self-tests, and the bench ---------------------------------------------------


def test_the_guard_validates_with_its_self_tests(world) -> None:  # type: ignore[no-untyped-def]
    result = subprocess.run(
        [sys.executable, "-m", "clearance", "validate", str(GUARD)],
        capture_output=True, text=True, timeout=120, env={**world.env, "PYTHONPATH": str(ROOT / "src")},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid" in result.stdout


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("CLEARANCE_GUARD_SUITES", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_guard.py"), *args],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip


def test_the_bench_measures_a_local_suite_file(tmp_path: Path) -> None:
    suites = tmp_path / "suites.py"
    suites.write_text(
        "CASES = [\n"
        "    ('one', 'a', 'rm -rf build', 'destructive'),\n"
        "    ('one', 'a', 'git reset --hard', 'destructive'),\n"
        "    ('one', 'a', 'git status', 'safe'),\n"
        "    ('two', 'b', 'git push -f', 'destructive|destructive-in-cwd'),\n"
        "    ('two', 'b', 'ls', 'safe'),\n"
        "    ('two', 'b', 'rm -rf /tmp/x', 'safe'),\n"
        "]\n"
    )
    result = _bench("--suites", str(suites))
    assert result.returncode == 0, result.stderr
    assert "one: stops 2 of 2 destructive (2 denied, 0 asked), allows 1 of 1 safe" in result.stdout
    assert "two: stops 1 of 1 destructive (1 denied, 0 asked), allows 2 of 2 safe" in result.stdout


def _git(repo: Path, *args: str) -> str:
    env = {"HOME": str(repo.parent), "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.environ["PATH"]}
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    return done.stdout


def _scratch(root: Path) -> tuple[Path, Path]:
    """A repository with a remote it is behind and ahead of (so only a push by force would
    succeed), a committed file changed, a file staged and a file untracked."""
    remote, work, other = root / "remote.git", root / "work", root / "other"
    root.mkdir()
    (root / ".gitconfig").write_text(
        "[user]\n\tname = t\n\temail = t@x\n[init]\n\tdefaultBranch = main\n"
    )
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True, timeout=60,
                   env={"HOME": str(root), "PATH": os.environ["PATH"]})  # fmt: skip
    for clone in (work, other):
        clone.mkdir()
        _git(clone, "init", "-q")
        _git(clone, "remote", "add", "origin", str(remote))
    (work / "a.txt").write_text("one\n")
    _git(work, "add", "a.txt")
    _git(work, "commit", "-qm", "one")
    _git(work, "push", "-q", "origin", "main")
    _git(other, "pull", "-q", "origin", "main")
    (other / "r.txt").write_text("theirs\n")
    _git(other, "add", "r.txt")
    _git(other, "commit", "-qm", "theirs")
    _git(other, "push", "-q", "origin", "main")
    (work / "l.txt").write_text("mine\n")
    _git(work, "add", "l.txt")
    _git(work, "commit", "-qm", "mine")
    _git(work, "fetch", "-q", "origin")
    (work / "a.txt").write_text("changed\n")
    (work / "b.txt").write_text("staged\n")
    _git(work, "add", "b.txt")
    (work / "c.txt").write_text("untracked\n")
    return work, remote


def _kept(work: Path, remote: Path) -> tuple[object, ...]:
    files = {p.name: p.read_text() for p in work.iterdir() if p.is_file()}
    return files, _git(work, "rev-parse", "HEAD"), _git(remote, "rev-parse", "main")


def test_the_suites_destructive_lines_it_allows_destroy_nothing(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Each line the bench reports as allowed although a suite counts it destructive
    (``bench_guard.HARMLESS``) runs in real bash and git and loses nothing: no file of the work
    tree, no commit, no commit of the remote."""
    import runpy

    harmless = runpy.run_path(str(ROOT / "bench" / "bench_guard.py"))["HARMLESS"]
    for i, line in enumerate(harmless):
        assert _decide(engine, line)[0] == "allow", line
        work, remote = _scratch(tmp_path / str(i))
        before = _kept(work, remote)
        env = {"HOME": str(work.parent), "GIT_CONFIG_NOSYSTEM": "1", "PATH": os.environ["PATH"]}
        subprocess.run(["bash", "-c", line], cwd=work, env=env, capture_output=True, timeout=60)
        assert _kept(work, remote) == before, line


def test_without_a_suite_file_the_bench_says_where_to_get_one(tmp_path: Path) -> None:
    result = _bench("--suites", str(tmp_path / "absent.py"))
    assert result.returncode == 2
    assert "absent.py" in result.stderr
    assert "claude-code-safety-net" in result.stderr
    assert "Traceback" not in result.stderr
