"""Wildcards: ``*`` spans everything, ``?`` one character, anchored, trailing `` *`` optional."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.policy.wildcard import compile_pattern, expand_home


def reference(pattern: str, value: str) -> bool:
    """The straightforward definition (docs/configuration.md, "Wildcards"), as a regular expression."""
    body = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    if body.endswith(re.escape(" ") + ".*"):
        body = body[: -len(re.escape(" ") + ".*")] + "( .*)?"
    return re.fullmatch(body, value, flags=re.DOTALL) is not None


@pytest.mark.parametrize(
    ("pattern", "value", "expected"),
    [
        ("git *", "git", True),
        ("git *", "git status", True),
        ("git *", "gitx", False),
        ("git*", "gitx", True),
        ("g*t", "gust", True),
        ("g*t", "gusto", False),
        ("*", "", True),
        ("*", "a/b c\nd", True),
        ("a?c", "abc", True),
        ("a?c", "a/c", True),
        ("a?c", "ac", False),
        ("exact", "exact", True),
        ("exact", "exactly", False),
        ("*.env", "/proj/.env", True),
        ("*.env", "/proj/.env.example", False),
        ("/home/*/x", "/home/a/b/x", True),
        ("node -e *", "node -e 'line1\nline2'", True),
        ("git push --force*", "git push --force-with-lease", True),
        ("**", "anything", True),
        ("a*b*c", "abc", True),
        ("a*b*c", "acb", False),
        ("?*", "", False),
        ("x* *", "x", True),
        ("x* *", "xyz", True),
        ("git * --force", "git push --force", True),
        ("git * --force", "git --force", False),
    ],
)
def test_pattern_table(pattern: str, value: str, expected: bool) -> None:
    assert compile_pattern(pattern).match(value) is expected
    assert reference(pattern, value) is expected


alphabet = st.sampled_from(list("ab /*? \n"))
values = st.text(alphabet=st.sampled_from(list("ab /.\nx")), max_size=30)


@given(st.text(alphabet=alphabet, max_size=12), values)
@settings(max_examples=3000, deadline=None)
def test_matcher_agrees_with_reference_on_random_patterns(pattern: str, value: str) -> None:
    assert compile_pattern(pattern).match(value) is reference(pattern, value)


@given(st.text(max_size=8), st.text(max_size=40))
@settings(max_examples=1000, deadline=None)
def test_matcher_agrees_with_reference_on_any_unicode(pattern: str, value: str) -> None:
    assert compile_pattern(pattern).match(value) is reference(pattern, value)


@given(st.text(alphabet=st.sampled_from(list("ab/ ")), max_size=30))
def test_a_pattern_without_wildcards_matches_only_itself(value: str) -> None:
    assert compile_pattern(value).match(value)
    assert not compile_pattern(value).match(value + "x")


@pytest.mark.parametrize(
    "pattern",
    [
        "*a" * 30 + "*b",
        "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
        "?*" * 40 + "b",
        "*a?a*" * 15 + "b",
    ],
)
def test_adversarial_patterns_finish_quickly(pattern: str) -> None:
    value = "a" * 10_000
    started = time.perf_counter()
    assert compile_pattern(pattern).match(value) is False
    # Not a benchmark: a backtracking matcher takes years here, ours a few milliseconds.
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(
    ("pattern", "expanded"),
    [
        ("~", "/h/u"),
        ("~/x/*", "/h/u/x/*"),
        ("$HOME/x", "/h/u/x"),
        ("${HOME}/x", "/h/u/x"),
        ("~user/x", "~user/x"),
        ("$HOMEDIR/x", "$HOMEDIR/x"),
        ("${HOME:-/tmp}/x", "${HOME:-/tmp}/x"),
        ("/abs/~/x", "/abs/~/x"),
    ],
)
def test_home_expands_only_as_a_standalone_prefix(pattern: str, expanded: str) -> None:
    assert expand_home(pattern, "/h/u") == expanded
