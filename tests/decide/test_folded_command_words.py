"""A wrapper, shell or launcher named in another case (``Sudo``, ``Bash``, ``ENV``, ``Xargs``):
on a volume that folds case bash runs the lower-case program's file, so the line decides as its
lower-case spelling does; on a case-sensitive volume it is another program and keeps its answer
(ADR 0042). A folding volume is modelled as the other tests model it: the capitalised spelling
is a hard link to the program in a directory on ``PATH``; a file of its own is a case-sensitive
volume's other program."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.sentinel import CASE_FOLDED
from clearance.intent.shell import analyze
from clearance.intent.volume import program_folds

ROOT = Path(__file__).resolve().parents[2]
GUARD = (ROOT / "examples" / "policies" / "guard.jsonc").read_text()
PROGRAMS = ("sudo", "bash", "sh", "env", "xargs", "timeout", "nice", "command", "find", "uv",
            "git", "rm", "ls", "grep")  # fmt: skip

# (line, its lower-case twin, under the guard, under the built-in policy) where the volume folds
# case, then (under the guard, under the built-in policy) on a case-sensitive volume, where the
# capitalised name is a program clearance does not know: the guard asks where its words name a
# command the guard denies (ADR 0062), and allows a command inside a shell string it is given.
ATTACKS = [
    ("Sudo rm -rf /", "sudo rm -rf /", "deny", "deny", "ask", "ask"),
    ("Bash -c 'rm -rf ~'", "bash -c 'rm -rf ~'", "deny", "deny", "allow", "ask"),
    ("ENV rm -rf /", "env rm -rf /", "deny", "deny", "ask", "ask"),
    ("Xargs rm -rf", "xargs rm -rf", "deny", "ask", "ask", "ask"),
    ("Timeout 5 git reset --hard", "timeout 5 git reset --hard", "deny", "ask", "ask", "ask"),
    ("Uv run rm -rf /", "uv run rm -rf /", "deny", "deny", "ask", "ask"),
    ("Command rm -rf /", "command rm -rf /", "deny", "deny", "ask", "ask"),
    ("Nice git reset --hard", "nice git reset --hard", "deny", "ask", "ask", "ask"),
    ("Find . -exec rm -rf {} +", "find . -exec rm -rf {} +", "deny", "ask", "ask", "ask"),
    # every layer: a wrapper in a wrapper, a pipeline, a shell's payload, after `!`
    ("sudo Bash -c 'rm -rf ~'", "sudo bash -c 'rm -rf ~'", "deny", "deny", "ask", "ask"),
    ("echo x | Xargs Sudo rm -rf /", "echo x | xargs sudo rm -rf /", "deny", "deny", "ask",
     "ask"),
    ("Bash -c 'Sudo rm -rf /'", "bash -c 'sudo rm -rf /'", "deny", "deny", "allow", "ask"),
    ("! Sudo rm -rf /", "! sudo rm -rf /", "deny", "deny", "ask", "ask"),
    # the knowledge of a program's options: git's pager runs a shell command
    ("Git -c core.pager='rm -rf ~' log", "git -c core.pager='rm -rf ~' log", "deny", "deny",
     "allow", "ask"),
]  # fmt: skip
BENIGN = [
    ("Bash -c 'ls'", "bash -c 'ls'", "allow", "allow", "allow", "ask"),
    ("Timeout 5 ls", "timeout 5 ls", "allow", "allow", "allow", "ask"),
    ("Xargs grep -l x", "xargs grep -l x", "allow", "allow", "allow", "ask"),
    ("Sudo ls", "sudo ls", "allow", "ask", "allow", "ask"),
    ("git commit -m 'Fix Sudo'", "git commit -m 'Fix Sudo'", "allow", "ask", "allow", "ask"),
]
ROWS = ATTACKS + BENIGN


class _World:
    """A project, and a directory on ``PATH`` holding the programs and their capitalised
    spellings: the same files (a folding volume), files of their own (a case-sensitive one), or
    none (``None``)."""

    def __init__(self, root: Path, folds: bool | None) -> None:
        home = root / "home"
        self.project = home / "proj"
        (self.project / ".git").mkdir(parents=True)
        self.bin = root / "bin"
        self.bin.mkdir()
        for name in PROGRAMS:
            _program(self.bin / name)
            for other in {name.capitalize(), name.upper()} if folds is not None else ():
                if folds:
                    os.link(self.bin / name, self.bin / other)
                else:
                    _program(self.bin / other)
        env = {"HOME": str(home), "XDG_CONFIG_HOME": str(root / "config"),
               "CLEARANCE_HOME": str(root / "state")}  # fmt: skip
        self.engines = {
            "guard": Engine.load(cwd=str(self.project), policy=GUARD, env=env, use_cache=False),
            "builtin": Engine.load(cwd=str(self.project), policy=None, env=env, use_cache=False),
        }

    def decide(self, policy: str, line: str) -> tuple[str, str]:
        found = self.engines[policy].check(ToolCall("bash", {"command": line}, str(self.project)))
        return found.action, found.reason


def _program(path: Path) -> None:
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)


@pytest.fixture(scope="module", params=[True, False], ids=["folding", "case-sensitive"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    made = _World(tmp_path_factory.mktemp("folded"), request.param)
    saved = os.environ.get("PATH", "")
    os.environ["PATH"] = f"{made.bin}{os.pathsep}{saved}"
    yield request.param, made
    os.environ["PATH"] = saved


@pytest.mark.parametrize("row", ROWS, ids=[row[0] for row in ROWS])
def test_a_capitalised_wrapper_decides_as_the_program_bash_runs(  # type: ignore[no-untyped-def]
    world, row: tuple[str, str, str, str, str, str]
) -> None:
    folds, made = world
    line, twin, guard, builtin, guard_today, builtin_today = row
    expected = {"guard": guard, "builtin": builtin} if folds else {
        "guard": guard_today, "builtin": builtin_today}  # fmt: skip
    for policy, action in expected.items():
        found, reason = made.decide(policy, line)
        assert found == action, (policy, reason)
        if folds:  # the same decision as the lower-case spelling
            assert found == made.decide(policy, twin)[0], (policy, twin)
        assert CASE_FOLDED not in reason  # known either way: never "cannot tell"


def test_each_attack_has_a_benign_twin() -> None:
    assert all("allow" in (row[2], row[3]) for row in BENIGN)
    assert all("allow" not in (row[2], row[3]) for row in ATTACKS)


def test_the_analysis_reads_the_lower_case_program_and_keeps_the_line_as_typed(  # type: ignore[no-untyped-def]
    world,
) -> None:
    folds, made = world
    analysis = analyze("Sudo rm -rf /", cwd=str(made.project), home=str(made.project.parent))
    first = analysis.units[0]
    assert first.text == "Sudo rm -rf /"
    if folds:
        assert first.canonical == "sudo rm -rf /"
        assert first.wrapper == "indirection"
        assert [u.text for u in analysis.units] == ["Sudo rm -rf /", "rm -rf /"]
    else:
        assert first.canonical == "Sudo rm -rf /"
        assert [u.text for u in analysis.units] == ["Sudo rm -rf /"]


WRAPPERS = ["sudo {} rm -rf /", "env {} rm -rf /", "timeout 5 {} rm -rf /", "nice {} rm -rf /",
            "command {} rm -rf /", "bash -c '{} rm -rf /'"]  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_spelling_of_a_wrapper_is_seen_through_where_the_volume_folds(  # type: ignore[no-untyped-def]
    world, data: st.DataObject
) -> None:
    """``SuDO``, ``eNv``, ``TIMEOUT`` …: every case spelling of a wrapper bash finds as its file
    runs the command it wraps, at any layer."""
    folds, made = world
    outer = data.draw(st.sampled_from(["sudo", "env", "timeout 5", "nice", "command", "bash -c"]))
    name, _, rest = outer.partition(" ")
    spelled = "".join(c.upper() if data.draw(st.booleans()) else c for c in name)
    if spelled == name:
        spelled = name.capitalize()
    if not (made.bin / spelled).exists():  # one more spelling of the same file (or another)
        if folds:
            os.link(made.bin / name, made.bin / spelled)
        else:
            _program(made.bin / spelled)
    line = f"{spelled} {rest} 'rm -rf /'" if name == "bash" else f"{spelled} {rest} rm -rf /"
    line = " ".join(line.split())
    assert made.decide("guard", line)[0] == ("deny" if folds else "allow" if name == "bash"
                                             else "ask"), line  # fmt: skip


def test_where_it_cannot_be_told_the_line_asks_and_a_deny_still_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A capitalised wrapper found nowhere on this process's ``PATH`` while a directory on it
    folds case (the agent's shell may search further) reads as the wrapper and asks, never
    allows; with no such directory (a case-sensitive ``PATH``) it runs nothing and keeps its
    answer."""
    made = _World(tmp_path / "w", folds=None)
    folding = tmp_path / "folding"  # a directory whose names fold: a swapped name, the same file
    folding.mkdir()
    (folding / "Name").write_text("")
    os.link(folding / "Name", folding / "nAME")
    sensitive = f"{made.bin}{os.pathsep}/usr/bin{os.pathsep}/bin"  # this machine's: ext4
    for path, unknown in ((f"{folding}{os.pathsep}{sensitive}", True), (sensitive, False)):
        monkeypatch.setenv("PATH", path)
        assert program_folds("Timeout") is (None if unknown else False)
        action, reason = made.decide("guard", "Timeout 5 ls")
        assert (action, CASE_FOLDED in reason) == (("ask", True) if unknown else ("allow", False))
        assert made.decide("guard", "Sudo rm -rf /")[0] == ("deny" if unknown else "ask")
        assert made.decide("builtin", "Sudo rm -rf /")[0] == ("deny" if unknown else "ask")
        assert made.decide("guard", "Nosuch -rf x")[0] == "allow"  # no wrapper: the rules fold it


def test_whether_a_command_word_folds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _program(tmp_path / "sudo")
    os.link(tmp_path / "sudo", tmp_path / "Sudo")
    _program(tmp_path / "Bash")  # another program: no `bash` beside it
    monkeypatch.setenv("PATH", str(tmp_path))
    assert program_folds("Sudo") is True
    assert program_folds(f"{tmp_path}/Sudo") is True
    assert program_folds("./Sudo", str(tmp_path)) is True
    assert program_folds("./Sudo", None) is None  # from a directory not known
    assert program_folds("Bash") is False
    assert program_folds("Nosuch") is False  # found nowhere, on a case-sensitive volume
    assert program_folds("sudo") is False  # nothing to fold
