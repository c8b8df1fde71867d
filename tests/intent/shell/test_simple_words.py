"""The words of one simple command by their place in the text (``intent/shell/simple.py``), as
the suggested session pattern reads them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.intent.shell.simple import word_spans


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("git status --short", ["git", "status", "--short"]),
        ("FOO=1 git status", ["git", "status"]),  # an assignment is not a word
        ("git commit -m 'a b' >log", ["git", "commit", "-m", "'a b'"]),  # nor a redirect
        ("echo $(ls a b) `x y` c # d", ["echo", "$(ls a b)", "`x y`", "c"]),
        ("echo é x", ["echo", "é", "x"]),  # character offsets, not the parser's bytes
        ("git\tstatus", ["git", "status"]),
        ("echo $(for x in y; do z; done) w", ["echo", "$(for x in y; do z; done)", "w"]),
    ],
)
def test_the_words_of_one_simple_command(text: str, words: list[str]) -> None:
    spans = word_spans(text)
    assert spans is not None
    assert [text[a:b] for a, b in spans] == words


@pytest.mark.parametrize(
    "text",
    [
        "a && b",
        "a | b",
        "for f in x; do y; done",
        "{ a; } >f",
        "(a b)",
        "[ -f x ]",
        "A=1",
        "echo 'open",
        "",
    ],
)
def test_anything_but_one_simple_command_has_no_words(text: str) -> None:
    assert word_spans(text) is None


@given(st.text(max_size=40))
def test_the_words_are_in_order_within_the_text(text: str) -> None:
    spans = word_spans(text)
    if spans is None:
        return
    last = 0
    for start, end in spans:
        assert last <= start < end <= len(text)
        last = end
