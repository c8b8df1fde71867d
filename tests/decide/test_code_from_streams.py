"""A file run as code (``source f``, ``. f``, ``bash f``, ``jq -f f``) whose text is not on disk
asks: a link planted earlier to ``/dev/stdin`` or ``/proc/self/fd`` makes ``curl … | source lnk``
run what curl fetched, and a pipe (FIFO) runs what another process writes into it.

Real bash is the reference: each attack runs the text piped into it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

BASH = shutil.which("bash")
POLICY = {"*": "allow", "bash": {"*": "ask", "printf *": "allow", "source *": "allow",
                                 ". *": "allow", "bash *": "allow", "jq *": "allow",
                                 "zsh *": "allow"}}  # fmt: skip

# (attack, benign twin): the twin runs a file on disk, or a link to one.
PAIRS = [
    ("printf 'echo RAN' | source lnk", "printf x | source ok.sh"),
    ("printf 'echo RAN' | . ./lnk", "printf x | . ./ok-link.sh"),
    ("printf 'echo RAN' | source fds/0", "printf x | source ok.sh"),
    ("printf 'echo RAN' | bash lnk", "printf x | bash ok.sh"),
    ("source fifo", "source ok.sh"),
    ("printf '.' | jq -f lnk", "printf '{}' | jq -f prog.jq"),
    # a descriptor clearance's own process has not open, which the shell opens first
    ("source fd7 7< <(printf 'echo RAN')", "source ok.sh 7< <(printf x)"),
    ("printf 'echo RAN' | bash fd7 7<&0", "printf x | bash ok.sh 7<&0"),
    # standard input spelled another way than the shells' hazard reads it
    ("printf 'echo RAN' | bash //dev/stdin", "printf x | bash ok.sh"),
    ("printf 'echo RAN' | bash /dev/./stdin", "printf x | bash ./ok.sh"),
    ("printf 'echo RAN' | source /dev//stdin", "printf x | source ./ok.sh"),
    # an option that takes a value before the script
    ("printf 'echo RAN' | bash -O extglob lnk", "printf x | bash -O extglob ok.sh"),
    ("printf 'echo RAN' | bash -o posix lnk", "printf x | bash -o posix ok.sh"),
    ("printf 'echo RAN' | bash + lnk", "printf x | bash + ok.sh"),
    # `-` ends the options as `--` does: the script is the next word
    ("printf 'echo RAN' | bash - lnk", "printf x | bash - ok.sh"),
    # zsh's `-O` takes no value, its `-o` takes the rest of its word when there is one
    ("printf 'echo RAN' | zsh -O lnk ok.sh", "printf x | zsh -O ok.sh"),
    ("printf 'echo RAN' | zsh -onoglob lnk", "printf x | zsh -onoglob ok.sh"),
    # zsh ends its options at a lone `+` and after a word holding `b`: the script is `-o`
    ("printf 'echo RAN' | zsh + -o posix ok.sh", "printf x | zsh + ok.sh"),
    ("printf 'echo RAN' | zsh -b -o posix ok.sh", "printf x | zsh -b ok.sh"),
    ("printf 'echo RAN' | zsh -xb -o posix ok.sh", "printf x | zsh -xb ok.sh"),
]


def _project(root: Path) -> Path:
    project = root / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "ok.sh").write_text("true\n")
    (project / "prog.jq").write_text(".\n")
    (project / "ok-link.sh").symlink_to(project / "ok.sh")
    (project / "lnk").symlink_to("/dev/stdin")
    (project / "-o").symlink_to("/dev/stdin")  # the script of `zsh -b -o posix ok.sh`
    (project / "fds").symlink_to("/proc/self/fd")
    (project / "fd7").symlink_to("/dev/fd/7")
    os.mkfifo(project / "fifo")
    return project


@pytest.mark.parametrize(("attack", "twin"), PAIRS, ids=[a for a, _ in PAIRS])
def test_a_file_run_as_code_that_is_no_file_on_disk_asks(
    tmp_path: Path, attack: str, twin: str
) -> None:
    project = _project(tmp_path)
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                         env={"HOME": str(tmp_path)}, use_cache=False)  # fmt: skip
    decision = engine.check(ToolCall("bash", {"command": attack}, str(project)))
    assert decision.action == "ask" and "<opaque-bash-wrapper>" in decision.reason, attack
    decision = engine.check(ToolCall("bash", {"command": twin}, str(project)))
    assert decision.action == "allow", decision.reason


@pytest.mark.skipif(BASH is None, reason="bash is not installed")
@pytest.mark.parametrize("attack", [a for a, _ in PAIRS if "echo RAN" in a])
def test_each_attack_runs_the_piped_text_in_real_bash(tmp_path: Path, attack: str) -> None:
    if "| zsh" in attack and shutil.which("zsh") is None:
        pytest.skip("zsh is not installed")
    project = _project(tmp_path)
    run = subprocess.run([str(BASH), "-c", attack], cwd=project, capture_output=True,
                         text=True, timeout=30)  # fmt: skip
    assert "RAN" in run.stdout


def test_a_file_the_line_writes_first_is_met_through_a_link(tmp_path: Path) -> None:
    """`bash lnk` beside `lnk -> b.sh` runs what `echo … > b.sh` wrote (and a write through the
    link writes `b.sh`): compared where each leads."""
    project = _project(tmp_path)
    (project / "b.sh").write_text("true\n")
    (project / "to-b").symlink_to("b.sh")
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                         env={"HOME": str(tmp_path)}, use_cache=False)  # fmt: skip
    for attack in ("printf 'echo RAN' > b.sh; bash to-b", "printf 'echo RAN' > to-b; bash b.sh"):
        decision = engine.check(ToolCall("bash", {"command": attack}, str(project)))
        assert decision.action == "ask" and "<runs-written-file>" in decision.reason, attack
        if BASH is not None:
            run = subprocess.run([str(BASH), "-c", attack], cwd=project, capture_output=True,
                                 text=True, timeout=30)  # fmt: skip
            assert "RAN" in run.stdout
            (project / "b.sh").write_text("true\n")
    twin = engine.check(ToolCall("bash", {"command": "printf x > c.txt; bash to-b"},
                                 str(project)))  # fmt: skip
    assert twin.action == "allow", twin.reason


def test_a_descriptor_is_judged_as_the_shell_opens_it_not_as_clearance_holds_it(
    tmp_path: Path,
) -> None:
    """`fd7 -> /dev/fd/7` leads to whatever the shell has open as 7: where clearance's own
    process holds a regular file there, the link still leads to no file on disk."""
    project = _project(tmp_path)
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                         env={"HOME": str(tmp_path)}, use_cache=False)  # fmt: skip
    held = os.open(project / "ok.sh", os.O_RDONLY)
    saved = os.dup(7) if _is_open(7) else None
    os.dup2(held, 7)
    try:
        decision = engine.check(ToolCall("bash", {"command": "source fd7 7< <(printf 'echo RAN')"},
                                         str(project)))  # fmt: skip
    finally:
        if saved is None:
            os.close(7)
        else:
            os.dup2(saved, 7)
            os.close(saved)
        os.close(held)
    assert decision.action == "ask" and "<opaque-bash-wrapper>" in decision.reason


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


def test_the_script_a_shell_runs_is_placed_by_its_options_or_asks(tmp_path: Path) -> None:
    """`zsh -O w.sh ok.sh` runs `w.sh` (zsh's `-O` takes no value), which the line wrote; a
    shell whose options no real shell checks here asks where options stand before its script."""
    project = _project(tmp_path)
    bash = POLICY["bash"]
    assert isinstance(bash, dict)
    policy = {**POLICY, "bash": {**bash, "ksh *": "allow"}}
    engine = Engine.load(cwd=str(project), policy=json.dumps({"permission": policy}),
                         env={"HOME": str(tmp_path)}, use_cache=False)  # fmt: skip

    def decide(line: str) -> tuple[str, str]:
        decision = engine.check(ToolCall("bash", {"command": line}, str(project)))
        return decision.action, decision.reason

    action, reason = decide("printf 'echo RAN' > w.sh; zsh -O w.sh ok.sh")
    assert action == "ask" and "<runs-written-file>" in reason
    assert decide("printf 'echo RAN' > w.sh; zsh -O ok.sh")[0] == "allow"
    action, reason = decide("ksh -T x ok.sh")
    assert action == "ask" and "<code-running-option>" in reason
    assert decide("ksh ok.sh")[0] == "allow"
