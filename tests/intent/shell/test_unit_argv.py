"""A unit's ``argv``: the words as bash passes them, which command rules read."""

from __future__ import annotations

import pytest

from clearance.intent.shell import analyze


def argvs(command: str) -> list[tuple[str | None, ...]]:
    return [u.argv for u in analyze(command, cwd="/work", home="/home/u").units]


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("rm -rf x", ("rm", "-rf", "x")),
        ("\\rm '-rf' \"x y\"", ("rm", "-rf", "x y")),
        ("/bin/rm -r -f x", ("/bin/rm", "-r", "-f", "x")),
        ("r\\m -rf x", ("rm", "-rf", "x")),
        ("rm -rf $X", ("rm", "-rf", None)),
        ("FOO=1 rm -rf x 2>/dev/null", ("rm", "-rf", "x")),
        ("rm -r\\\n-f x", ("rm", "-r-f", "x")),
    ],
)
def test_the_words_bash_passes(command: str, argv: tuple[str | None, ...]) -> None:
    assert argvs(command)[0] == argv


def test_inner_commands_carry_their_own_words() -> None:
    assert ("rm", "-rf", "x") in argvs("sudo rm -rf x")
    assert ("rm", "-fr", "y") in argvs("bash -c 'rm -fr y'")
    assert ("git", "reset", "--hard") in argvs("echo $(git reset --hard)")


def test_argv_takes_no_part_in_a_unit_s_identity() -> None:
    unit = analyze("ls -la", cwd="/work", home="/home/u").units[0]
    assert unit == unit.replace(argv=())
    assert hash(unit) == hash(unit.replace(argv=()))
