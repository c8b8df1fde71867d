"""bench/corpus/cwd_replay.py: the working directory of each command of a Claude Code session,
replayed from the ``cd``s before it, as the agent-command corpus records it."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent


def _module() -> Any:
    """bench/corpus/cwd_replay.py (bench is no package)."""
    path = ROOT / "bench" / "corpus" / "cwd_replay.py"
    spec = importlib.util.spec_from_file_location("cwd_replay", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


Replay = _module().Replay
START, HOME = "/Users/dev/proj", "/Users/dev"

# (what the session ran: command, or (command, output); the directory each ran in, relative to
# START; the directory the shell is in after the last). A `cd` to a literal place in the
# session's shell moves it; one it cannot follow leaves the shell in START.
SESSIONS = [
    (["cd specs", "ls"], [".", "specs"], "specs"),
    (["cd specs && pytest", "cd .. && git status", "git add ."], [".", "specs", "."], "."),
    (["cd specs; ls", "cd ../docs/ && ls"], [".", "specs"], "docs"),
    (["mkdir -p build && cd build && cmake ..", "make"], [".", "build"], "build"),
    (["cd a && cd b", "ls"], [".", "a/b"], "a/b"),
    (["cd specs 2>/dev/null && ls", "pwd"], [".", "specs"], "specs"),
    (["cd " + START + "/docs && ls", "cat x"], [".", "docs"], "docs"),
    # A subshell's cd leaves the shell where it was.
    (["(cd specs && make)", "ls"], [".", "."], "."),
    (["echo $(cd specs; pwd)", "ls"], [".", "."], "."),
    (["bash -c 'cd specs && make'", "ls"], [".", "."], "."),
    (["git -C specs status", "ls"], [".", "."], "."),
    (["git commit -m 'cd specs'", "ls"], [".", "."], "."),
    (["cat > notes <<EOF\nhello\nEOF", "ls"], [".", "."], "."),
]

# A cd out of the directory the session started in was refused, the whole command with it.
REFUSED = [
    ["cd specs", "cd .. && cd .. && ls", "ls"],
    ["cd specs", "cd /tmp && ls", "ls"],
    ["cd specs", "cd ~/other && ls", "ls"],
    ["cd specs", "cd " + HOME + " && ls", "ls"],
]

# A cd the replay cannot follow: the shell falls back to START.
LOST = [
    'cd "$DIR" && ls',
    "cd `dirname x` && ls",
    "cd - && ls",
    "cd",
    "pushd docs",
    "popd",
    "false || cd docs",
    "cd docs | cat",
    "cd docs & wait",
    "if true; then cd docs; fi",
    "{ cd docs; }",
    "cd ~bob",
    "cat <<EOF\nx\nEOF\ncd docs",
    "cd d*",
]


def _run(replay: Any, step: str | tuple[str, str]) -> str:
    command, output = step if isinstance(step, tuple) else (step, "")
    return str(replay.run(command, output=output))


def _rel(path: str) -> str:
    return "." if path == START else path.removeprefix(START + "/")


@pytest.mark.parametrize(("steps", "ran_in", "after"), SESSIONS)
def test_cds_of_the_session_move_the_next_commands(
    steps: list[str], ran_in: list[str], after: str
) -> None:
    replay = Replay(START, HOME)
    assert [_rel(_run(replay, step)) for step in steps] == ran_in
    assert _rel(replay.cwd) == after
    assert replay.unknown == 0


@pytest.mark.parametrize("steps", REFUSED)
def test_a_cd_out_of_the_start_refuses_the_whole_command(steps: list[str]) -> None:
    replay = Replay(START, HOME)
    assert [_rel(_run(replay, step)) for step in steps] == [".", "specs", "specs"]
    assert replay.blocked == 1


@pytest.mark.parametrize("command", LOST)
def test_a_cd_not_followed_falls_back_to_the_start_and_is_counted(command: str) -> None:
    replay = Replay(START, HOME)
    replay.run("cd specs")
    assert replay.run(command) == START + "/specs"
    assert replay.cwd == START
    assert replay.unknown == 1


@pytest.mark.parametrize(
    "output",
    [
        "No (tell Claude what to do differently)",
        "Error: Bash operation blocked by hook:\n - [check]",
        "Error: The user doesn't want to proceed with this tool use.",
        "Error: cd to '/tmp' was blocked. For security, …",
        "Error: (eval):cd:1: no such file or directory: specs",
        "bash: line 1: cd: specs: No such file or directory",
    ],
)
def test_a_command_that_did_not_run_or_whose_cd_failed_moves_nothing(output: str) -> None:
    replay = Replay(START, HOME)
    assert replay.run("cd specs && ls", output=output) == START
    assert replay.cwd == START


def test_a_failed_cd_keeps_the_moves_before_it() -> None:
    replay = Replay(START, HOME)
    replay.run("cd a && cd b && ls", output="(eval):cd:1: no such file or directory: b")
    assert replay.cwd == START + "/a"


def test_a_command_cut_short_is_read_up_to_its_last_complete_part() -> None:
    replay = Replay(START, HOME)
    replay.run('cd specs && git commit -m "Long message', cut=True)
    assert replay.cwd == START + "/specs"
    replay.run("git add . && cd do", cut=True)  # the cut part is a cd: lost
    assert (replay.cwd, replay.unknown) == (START, 1)


def test_a_pwd_shows_where_the_shell_is() -> None:
    replay = Replay(START, HOME)
    assert replay.run("pwd", output="  ⎿  " + START + "/docs\n") == START + "/docs"
    assert replay.run("ls") == START + "/docs"
    replay.run("pwd && ls", output="Error: /Users/dev/elsewhere\n")
    assert replay.outside  # the session did not start where its banner says


@given(st.lists(st.text(alphabet="cd .~/$;&|()'\"\nab-", max_size=30), max_size=6))
def test_the_shell_never_leaves_the_start(commands: list[str]) -> None:
    replay = Replay(START, HOME)
    for command in commands:
        ran_in = replay.run(command)
        for path in (ran_in, replay.cwd):
            assert path == START or path.startswith(START + "/")


def test_later_versions_run_a_cd_out_of_the_start_then_reset_the_shell() -> None:
    replay = Replay(START, HOME, refuse=False)
    replay.run("cd specs")
    assert replay.run("cd /tmp && ls") == START + "/specs"  # it ran, from where the shell was
    assert (replay.cwd, replay.blocked) == (START, 1)


def test_a_cd_to_a_directory_that_did_not_exist_failed() -> None:
    replay = Replay(START, HOME, exists=lambda path: not path.endswith("/web/web"))
    replay.run("cd web && npx tsc")
    replay.run("cd web && npm run lint")
    assert replay.cwd == START + "/web"
