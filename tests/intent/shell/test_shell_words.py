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


# The grammar ends a word before a backslash that follows a `{` (`a{\z}` as `a{` and `\z}`);
# bash reads one word. Known text on both sides is that one word, braces and globs read again
# from its whole text; a computed side leaves the command unresolved (`$f\nv` is `.env`).
SPLIT_BY_THE_GRAMMAR = [
    "flag{IoDJuvwxy\\tuvyxwxvwzx{\\z{vwxyz}",
    "a{\\z}",
    "{\\z}",
    "x{a\\t{b}",
    "a{\\/,b}",
    "/tmp/{\\.,x}",
    "x{\\*,y}",
]


def _bash_words(word: str) -> list[str]:
    import shutil
    import subprocess

    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    done = subprocess.run(
        [bash, "-c", f"printf '%s\\n' {word}"], capture_output=True, text=True, check=True,
        cwd="/",
    )  # fmt: skip
    return done.stdout.split("\n")[:-1]


@pytest.mark.parametrize("word", SPLIT_BY_THE_GRAMMAR)
def test_a_word_the_grammar_splits_at_an_escape_is_the_word_bash_reads(word: str) -> None:
    from clearance.intent.shell import analyze

    units = analyze(f"echo {word}", cwd="/w", home="/h").units
    assert not any(u.unresolved for u in units), units
    # the last unit holds the words bash passes (a brace expansion is a unit of its own)
    assert units[-1].canonical.split(" ")[1:] == _bash_words(word)


@pytest.mark.parametrize(
    ("attack", "twin"),
    [
        # a brace alternative the escape hid from the grammar still reaches its path
        ("rm -rf {\\/,x}", "rm -rf {\\z,x}"),
        ("rm -rf a{\\/../../..,b}", "rm -rf a{\\z,b}"),
        # a command word joined by bash is the program it runs
        ("r{\\m,x} -rf /", "e{\\c,x}ho -rf /"),
    ],
)
def test_the_joined_word_meets_the_rules_its_twin_does_not(attack: str, twin: str) -> None:
    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall

    engine = Engine.load(cwd="/", policy='{"permission": {"*": "allow"}}', use_cache=False)
    assert engine.check(ToolCall("bash", {"command": attack}, "/")).action == "deny"
    assert engine.check(ToolCall("bash", {"command": twin}, "/")).action != "deny"


@pytest.mark.parametrize("line", ["cat $f\\nv", 'cat "$f"\\nv', "cat ${f}{\\nv}"])
def test_a_computed_piece_before_the_escape_stays_unresolved(line: str) -> None:
    from clearance.intent.shell import analyze

    assert analyze(line, cwd="/w", home="/h").units[0].unresolved
