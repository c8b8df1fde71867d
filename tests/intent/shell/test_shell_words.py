"""Word values: what bash makes of a word, read from a real tree-sitter parse."""

from __future__ import annotations

import pytest

from clearance.intent.shell import parser
from clearance.intent.shell.source import Source
from clearance.intent.shell.statement import Scope
from clearance.intent.shell.walk import Walk


def _values(text: str) -> list[str | None]:
    src = Source(text)
    walk = Walk(src, True, True)
    walk.run(parser.parse(src.parsed), "", Scope(None, "/w"))
    return [w.value for s in walk.statements for w in s.words]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # the grammar folds blanks before the closing quote into the quote's token
        ('echo " "', " "),
        ('echo "a  "', "a  "),
        ('echo "a\n  "', "a\n  "),
        ('echo "  a"', "  a"),
        ('echo "x" " " "y" > f', " "),
        # ... and blanks before an expansion into the expansion's token
        ('echo " $PWD"', None),  # computed all the same
    ],
)
def test_blanks_inside_double_quotes_are_kept(text: str, value: str | None) -> None:
    values = _values(text)
    assert value in values[1:], values


def test_blanks_before_home_stay_in_the_value() -> None:
    from clearance.intent.shell import analyze

    # `cd "  $HOME"` enters the directory named two blanks and the home path, relative to /w
    analysis = analyze('cd "  $HOME" && cat x/y', cwd="/w", home="/h")
    assert [p.path for p in analysis.paths] == ["/w/  /h/x/y"]
