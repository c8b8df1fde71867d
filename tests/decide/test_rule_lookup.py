"""Rule lookup as decisions see it: the index filters and the wildcard shortcuts never change an
answer."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.policy import rule_index
from clearance.policy.rule import Rule, RuleSet
from clearance.policy.wildcard import compile_pattern

patterns = st.text(alphabet=st.sampled_from(list("gitab /:.@=*?")), min_size=1, max_size=10)
values = st.text(alphabet=st.sampled_from(list("gitab /:.@=\n")), max_size=14)


def _regex(pattern: str) -> str:
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


def _reference(pattern: str, value: str) -> bool:
    """The documented semantics, spelled as a regular expression: a trailing ``" *"`` also
    matches the bare command (once: ``"a * *"`` needs at least ``"a "``)."""
    if re.fullmatch(_regex(pattern), value, re.DOTALL):
        return True
    return pattern.endswith(" *") and bool(re.fullmatch(_regex(pattern[:-2]), value, re.DOTALL))


@given(patterns, values)
@settings(max_examples=3000, deadline=None)
def test_a_compiled_wildcard_matches_what_the_pattern_says(pattern: str, value: str) -> None:
    assert compile_pattern(pattern).match(value) is _reference(pattern, value)


def test_a_command_pattern_matches_its_arguments_and_the_bare_command() -> None:
    pattern = compile_pattern("git *")
    assert pattern.match("git status") and pattern.match("git ") and pattern.match("git")
    assert not pattern.match("gitk") and not pattern.match("git\tstatus")


@given(
    st.lists(st.tuples(patterns, st.sampled_from(["allow", "ask", "deny"])), max_size=80),
    st.lists(values, min_size=1, max_size=3),
)
@settings(max_examples=1500, deadline=None)
def test_the_sealed_key_filters_never_change_an_answer(
    entries: list[tuple[str, str]], probe: list[str]
) -> None:
    rules = [Rule("*", "*", "ask", "inline")]
    rules += [Rule("bash", p, a, "inline") for p, a in entries]  # type: ignore[arg-type]
    sealed = RuleSet(rules)
    expected = rules[0]
    for candidate in reversed(rules[1:]):
        if any(_reference(candidate.pattern, v) for v in probe):
            expected = candidate
            break
    assert sealed.evaluate("bash", probe) is expected
    unsealed = RuleSet(rules)
    for index in unsealed._index.values():
        index.prefix_keys = index.suffix_keys = None
    assert unsealed.evaluate("bash", probe) is expected
    unfiled = RuleSet(rules)  # every key length tried, not only those under the value's head
    for index in unfiled._index.values():
        index.prefix_keys = index.suffix_keys = index.heads = None
    assert unfiled.evaluate("bash", probe) is expected
    # Key lengths filed by head however few there are (the built-in bash rules have 16).
    few, rule_index._FEW_LENGTHS = rule_index._FEW_LENGTHS, 0
    try:
        filed = RuleSet(rules)
    finally:
        rule_index._FEW_LENGTHS = few
    assert all(index.heads is not None or not index.buckets for index in filed._index.values())
    assert filed.evaluate("bash", probe) is expected
    for index in filed._index.values():
        index.prefix_keys = index.suffix_keys = None
    assert filed.evaluate("bash", probe) is expected
