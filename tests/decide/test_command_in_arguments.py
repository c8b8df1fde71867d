"""A program clearance does not know may run the command its words name (``tool rm -rf /``):
where a rule that is not the catch-all denies or asks about that command, the unit asks with
``<command-in-arguments>`` (ADR 0062). It only ever tightens, and never past ask; programs the
analysis knows (``echo``, ``git``, ``sudo``) are not tried, nor is a unit a rule of its own
decides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.sentinel import NAMED_WITHIN

RULES = {
    "*": "allow",
    "python3": "ask",
    "drop *": "deny",
    "rm [-r -f] *": "deny",
    "rm [-r -f] /tmp/*": "allow",
    "git push [--force] *": "deny",
    "git reset [--hard] *": {"action": "deny", "reason": "it discards work"},
    "find [-delete] *": "ask",
    "mkfs*": "deny",
    "deploy.sh *": "allow",
}
POLICY = {"permission": {"*": "allow", "bash": RULES}}
BUILTIN_LIKE = {"permission": {"*": "allow", "bash": {"*": "ask", "rm -rf /": "deny"}}}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, str]:
    return _engine(tmp_path_factory.mktemp("named"), POLICY)


def _engine(root: Path, policy: object) -> tuple[Engine, str]:
    project = root / "project"
    (project / ".git").mkdir(parents=True)
    env = {"HOME": str(root / "home"), "CLEARANCE_HOME": str(root / "state")}
    return Engine.load(cwd=str(project), policy=json.dumps(policy), env=env), str(project)


def _check(engine: tuple[Engine, str], line: str) -> tuple[str, str, tuple[str | None, ...]]:
    found, cwd = engine
    decision = found.check(ToolCall("bash", {"command": line}, cwd))
    return decision.action, decision.reason, tuple(u.sentinel for u in decision.units)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("tool rm -rf /", "rm -rf /"),
        ("tool --yes rm -r -f build", "rm -r -f build"),
        ("./run.sh /bin/rm -fr ~/work", "rm -fr ~/work"),
        ("python3 scripts/x.py git push -f origin main", "git push -f origin main"),
        ("tool git -C repo reset --hard", "git -C repo reset --hard"),
        ("tool find . -name '*.pyc' -delete", "find . -name '*.pyc' -delete"),
        ("tool mkfs.ext4 /dev/sdb1", "mkfs.ext4 /dev/sdb1"),
        ('tool rm -rf "$HOME"', 'rm -rf "$HOME"'),
        ("tool rm -rf `echo a b`", "rm -rf $_"),  # (words not split as typed: shown by value)
        # not assignments but command words (`=2`, `A-B=2`), as bash reads them
        ("=2 git reset --hard", "git reset --hard"),
        ("A-B=2 git reset --hard", "git reset --hard"),
        # another case or `.exe` is another program on a case-sensitive volume: it may run too
        ("Tool rm -rf /", "rm -rf /"),
        ("sudo tool rm -rf /", "rm -rf /"),
        ("tool x; other git push --force", "git push --force"),
        ("echo hi | tool rm -rf build", "rm -rf build"),
        # operands spelled as the paths they reach, as for any command
        ("tool rm -r ~", "rm -r ~"),
        ('tool rm -r "${HOME}"', 'rm -r "${HOME}"'),
        ("tool rm -r /tmp/../etc", "rm -r /tmp/../etc"),
        ("cd / && tool rm -r usr", "rm -r usr"),
        # a command word computed from the home or the working directory is a file there
        ("~/bin/tool rm -rf build", "rm -rf build"),
        ("$PWD/deploy.sh git reset --hard", "git reset --hard"),
        # toolchain managers' subcommands that run a command
        ("rustup run stable rm -rf build", "rm -rf build"),
        ("pyenv exec rm -rf build", "rm -rf build"),
        # package runners hand a script the words after its name
        ("yarn task git push --force", "git push --force"),
        ("pnpm run task rm -rf build", "rm -rf build"),
        ("npm test git push --force", "git push --force"),
        ("bun x.ts rm -rf build", "rm -rf build"),
        # brace expansion: the words bash passes
        ("./deploy.sh r{m,} -rf build", "rm r -rf build"),
        # the words a known program hands to a program of the project
        ("bash run.sh git reset --hard", "git reset --hard"),
        ("source deploy.sh rm -rf build", "rm -rf build"),
        (". ./deploy.sh rm -rf build", "rm -rf build"),
        ("npm run task -- git push --force", "git push --force"),
        ("cargo run -- git reset --hard", "git reset --hard"),
        # a file of the project named as a known program is another program
        ("./echo rm -rf build", "rm -rf build"),
        ("bin/grep rm -rf build", "rm -rf build"),
        # the command word as another volume or a pattern may spell it
        ("tool /usr/bin/r[m] -rf build", "rm -rf build"),
        ("tool rm.exe -rf build", "rm -rf build"),
        # the program's own `--` goes no further than its options
        ("start-stop-daemon -S -x /bin/rm -- -rf ~", "rm -rf ~"),
        # a wrapper's or a shell's words are decided as a line: the command it runs, as the
        # analysis reads it
        ("logsave /dev/null sh -c 'rm -rf build'", "rm -rf build"),
        ("/lib64/ld-linux-x86-64.so.2 /bin/sh -c 'git reset --hard'", "git reset --hard"),
        ("./deploy.sh bash -c 'git push -f origin main'", "git push -f origin main"),
        ("tool env rm -rf build", "rm -rf build"),
        ("tool sudo -u x git push --force", "git push --force"),
        ("tool nice -n 5 find . -delete", "find . -delete"),
        ("asdf env python rm -rf build", "rm -rf build"),
        ("logsave log /usr/bin/s[h] -c 'rm -rf build'", "/usr/bin/s[h] -c 'rm -rf build'"),
        ("start-stop-daemon -S -a /bin/sh -- -c 'rm -rf build'", "rm -rf build"),
        ("logsave log git -c alias.x='!rm -rf build' x", "rm -rf build"),
        ("logsave log awk 'BEGIN{system(\"rm -rf build\")}'", "rm -rf build"),
        ("logsave log su -c 'git push --force'", "git push --force"),
        # what it runs would be asked about on its own: the input of a shell, a computed name,
        # a line not parsed, a command named among another unknown program's words
        ("logsave log sh", "sh"),
        ("logsave log sh -c 'x=rm; $x -rf build'", "$x -rf build"),
        # and within it, a command named among another unknown program's words
        ("tool sh -c 'tool2 sh -c \"rm -rf build\"'", 'tool2 sh -c "rm -rf build"'),
    ],
)
def test_a_command_named_among_an_unknown_programs_words_asks(  # type: ignore[no-untyped-def]
    engine, line: str, named: str
) -> None:
    action, reason, sentinels = _check(engine, line)
    assert action == "ask", reason
    assert NAMED_WITHIN in sentinels, reason
    assert f'may run the command "{named}"' in reason, reason


def test_the_ask_names_the_rule_and_what_it_says(engine) -> None:  # type: ignore[no-untyped-def]
    _, reason, _ = _check(engine, "tool git reset --hard")
    assert 'bash "git reset [--hard] *"' in reason and "denies" in reason, reason
    _, reason, _ = _check(engine, "tool find . -delete")
    assert "asks about" in reason, reason


@pytest.mark.parametrize(
    "line",
    [
        # the command named is one no rule denies or asks about
        "tool rm -rf /tmp/a",
        "tool git status",
        "tool git push --force-with-lease",
        "tool git reset --soft HEAD~1",
        "tool find . -print",
        "tool rmdir x",
        "tool mkdir rm",
        # the program is one the analysis knows: it runs none of its words, or what it runs is a
        # unit of its own
        "echo rm -rf /",
        "printf '%s\\n' git push --force",
        "grep -n -e rm -rf src",
        "git commit -m x -- rm",
        "type rm",
        "mkdir -p rm git",
        "timeout 5 rm -rf /tmp/x",
        # a rule of the unit's own decides it
        "deploy.sh git push --force",
        # the command is one word, as the program is given it
        "tool 'rm -rf /'",
        # package managers name packages; a rule for a program alone is for it reading input
        "brew install node",
        "apt-get install -y python3",
        "tool python3",
        # what a known program hands on names no such command
        "bash run.sh --verbose",
        "npm run build -- --watch",
        "cargo run -- --help",
        "/usr/bin/echo rm -rf /",
        "tool src/*.py",
        # a program named last is a test filter or a package far more often than a command
        "pytest -k drop",
        "go test -run Drop ./...",
        "tool RM x",  # (this volume tells case: RM is no rm)
        "yarn add rm",
        "pyenv install 3.12",
        "rustup toolchain list",
        "start-stop-daemon -S -x /bin/rm -- -rf /tmp/x",
        "logsave /dev/null sh -c 'make test'",
        "tool sh -c 'rm -rf /tmp/x'",
        "tool sh -c 'tool2 sh -c \"echo hi\"'",
        "tool timeout 5 make",
        # a wrapper's line that asks only for a sentinel of its own (sudo's indirection, env's)
        # is no command a rule names: only a shell's line may run anything
        "tool sudo make install",
        "go env GOPATH",
        "tool time make",
        "tool git status",
        "logsave log make test",
    ],
)
def test_benign_twins_keep_their_decision(engine, line: str) -> None:  # type: ignore[no-untyped-def]
    action, reason, sentinels = _check(engine, line)
    assert action == "allow", reason
    assert NAMED_WITHIN not in sentinels


def test_past_the_commands_it_tries_the_unit_asks(engine) -> None:  # type: ignore[no-untyped-def]
    """Each command tried is matched with the words after it: past 16, the unit asks rather
    than match more (a line of thousands of them would take seconds)."""
    action, reason, sentinels = _check(engine, "tool " + " ".join(["git status"] * 20))
    assert action == "ask" and NAMED_WITHIN in sentinels, reason
    assert "than clearance tries (16 commands" in reason, reason


def test_past_the_lines_it_decides_the_unit_asks(engine) -> None:  # type: ignore[no-untyped-def]
    """A wrapper's or a shell's words are decided as a line, as are those within it, up to 8
    lines a call: nested further, or named more often, the unit asks."""
    line = "tool " + " ".join(["sh -c x"] * 12)
    action, reason, sentinels = _check(engine, line)
    assert action == "ask" and NAMED_WITHIN in sentinels, reason
    assert "8 lines within a call" in reason, reason
    nested = "rm -rf build"
    for depth in range(10):
        quoted = "'" + nested.replace("'", "'\\''") + "'"
        nested = f"tool{depth} sh -c {quoted}"
    action, reason, sentinels = _check(engine, nested)
    assert action == "ask" and NAMED_WITHIN in sentinels, reason


def test_a_deny_of_the_unit_itself_still_stands(engine) -> None:  # type: ignore[no-untyped-def]
    action, reason, _ = _check(engine, "tool rm -rf / && rm -rf build")
    assert action == "deny", reason


def test_under_a_policy_that_asks_about_unknown_programs_nothing_changes(tmp_path: Path) -> None:
    built = _engine(tmp_path, BUILTIN_LIKE)
    action, reason, sentinels = _check(built, "tool rm -rf /")
    assert action == "ask", reason
    assert NAMED_WITHIN not in sentinels, reason


_WORDS = st.sampled_from(
    ["rm", "/bin/rm", "-rf", "-r", "-f", "/", "/tmp/a", "build", "git", "reset", "--hard",
     "push", "--force", "--force-with-lease", "status", "find", ".", "-delete", "-print", "x",
     "mkfs.ext4", "--"]
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=6))
def test_no_command_named_within_is_looser_than_standing_alone(engine, words: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Whatever follows the program: where some suffix of the words of two or more, run as a
    command of its own, is denied or asked about by a rule that is not the catch-all, ``tool``
    with those words is not allowed; otherwise it is. ``tool`` never denies, and ``echo`` with the same words is
    always allowed."""
    found, cwd = engine
    stopped = False
    for i, word in enumerate(words):
        if (
            word.startswith("-")
            or word in (".", "/", "/tmp/a", "build", "x")
            or i == len(words) - 1
        ):
            continue  # (a program named last, with nothing after it, is not tried)
        alone = found.check(ToolCall("bash", {"command": " ".join(words[i:])}, cwd))
        rule = alone.rule
        if alone.action != "allow" and rule is not None and rule.pattern != "*":
            stopped = True
    action, reason, _ = _check(engine, "tool " + " ".join(words))
    assert action == ("ask" if stopped else "allow"), reason
    action, reason, _ = _check(engine, "echo " + " ".join(words))
    assert action == "allow", reason
