"""Absolute and home spellings of a unit (docs/shell-analysis.md, "Paths")."""

from __future__ import annotations

import pytest

from clearance.intent.shell import analyze
from conftest import CWD, HOME, run


@pytest.mark.parametrize(
    ("command", "index", "spellings"),
    [
        ("rm agent-builds/x", 0, ("rm /work/proj/agent-builds/x",)),
        ("cd /tmp && rm agent-builds/x", 1, ("rm /tmp/agent-builds/x",)),
        ("cd /tmp; cd build && rm ./x ../y", 2, ("rm /tmp/build/x /tmp/y",)),
        ("git push origin feature/x", 0, ("git push origin /work/proj/feature/x",)),
        ("cat README.md notes", 0, ("cat /work/proj/README.md /work/proj/notes",)),
        ('rm "a b/c"', 0, ("rm /work/proj/a b/c",)),
        ("rm /tmp/../etc/x", 0, ("rm /etc/x",)),
        ("rm /etc/x", 0, ()),
        ("git status", 0, ()),
        ("rm missing", 0, ()),
        ("rm *.txt src/*.py", 0, ()),
        ("rm $DIR/x $(pwd)/y", 0, ()),
        ('cd "$D" && rm ./x', 1, ()),
        ("cd - && rm ./x", 1, ()),
        ("cat ~/notes", 0, ()),
        ("rm -rf ./build", 0, ("rm -rf /work/proj/build",)),
    ],
)
def test_the_absolute_spelling_replaces_every_path_argument(
    command: str, index: int, spellings: tuple[str, ...]
) -> None:
    assert run(command).units[index].spellings == spellings


@pytest.mark.parametrize(
    ("command", "spellings"),
    [
        (
            "~/bin/tool --now",
            ("$HOME/bin/tool --now", "${HOME}/bin/tool --now", "/home/me/bin/tool --now"),
        ),
        (
            "$HOME/bin/tool --now",
            ("~/bin/tool --now", "${HOME}/bin/tool --now", "/home/me/bin/tool --now"),
        ),
        (
            "${HOME}/bin/tool",
            ("~/bin/tool", "$HOME/bin/tool", "/home/me/bin/tool"),
        ),
        (
            "/home/me/bin/tool",
            ("~/bin/tool", "$HOME/bin/tool", "${HOME}/bin/tool"),
        ),
        ("$HOMEDIR/bin/tool", ()),
        ("/home/meow/tool", ()),
    ],
)
def test_a_unit_starting_at_home_gets_every_home_spelling(
    command: str, spellings: tuple[str, ...]
) -> None:
    assert run(command).units[0].spellings == spellings


def test_no_home_spelling_when_the_program_reassigns_home() -> None:
    analysis = run("HOME=/tmp/x; ~/bin/tool")
    assert analysis.home_reassigned
    assert analysis.units[1].spellings == ()


def test_a_wrapped_unit_gets_its_own_spelling() -> None:
    units = run("sudo rm ./x").units
    assert units[0].spellings == ("sudo rm /work/proj/x",)
    assert units[1].spellings == ("rm /work/proj/x",)


def test_spellings_never_repeat_the_text() -> None:
    for command in ("ls", "rm /etc/x", "~", "cat /home/me"):
        for unit in run(command).units:
            assert unit.text not in unit.spellings


def test_a_shells_script_is_no_path_operand() -> None:
    # The `-c` script is a string of commands: never spelled as a path nor looked up on disk,
    # even where an entry of that name exists (`notes` here); its commands get their own.
    asked: list[str] = []

    def probe(path: str) -> bool:
        asked.append(path)
        return path in ("/work/proj/notes", "/work/proj/cat notes")

    for shell in ("bash -c", "/bin/zsh -lc", "sh -ec"):
        asked.clear()
        units = analyze(f"{shell} 'cat notes'", cwd=CWD, home=HOME, exists=probe).units
        assert units[0].spellings == ()
        assert units[1].spellings == ("cat /work/proj/notes",)
        assert "/work/proj/cat notes" not in asked
    # A shell's other operands are still spelled: `bash notes` runs the file `notes`.
    assert run("bash notes").units[0].spellings == ("bash /work/proj/notes",)
