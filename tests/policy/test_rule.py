"""Rules: last match wins inside a surface; the index agrees with a plain scan."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.policy.rule import Rule, RuleSet, most_restrictive
from clearance.policy.wildcard import compile_pattern


def rule(surface: str, pattern: str, action: str = "allow") -> Rule:
    return Rule(surface, pattern, action, "global")  # type: ignore[arg-type]


def test_the_last_matching_rule_wins() -> None:
    rules = RuleSet([rule("bash", "git *", "allow"), rule("bash", "git push *", "deny")])
    assert rules.evaluate("bash", ["git push origin"]).action == "deny"
    assert rules.evaluate("bash", ["git status"]).action == "allow"


def test_an_earlier_broad_rule_does_not_beat_a_later_narrow_one_and_vice_versa() -> None:
    rules = RuleSet([rule("bash", "git push *", "deny"), rule("bash", "git *", "allow")])
    assert rules.evaluate("bash", ["git push origin"]).action == "allow"


def test_the_universal_rule_is_the_fallback_of_every_surface() -> None:
    rules = RuleSet([rule("*", "*", "deny"), rule("read", "*.md", "allow")])
    assert rules.evaluate("read", ["a.md"]).action == "allow"
    assert rules.evaluate("read", ["a.py"]).action == "deny"
    assert rules.evaluate("webfetch", ["x"]).action == "deny"


def test_no_rules_at_all_means_ask() -> None:
    found = RuleSet([]).evaluate("bash", ["ls"])
    assert (found.action, found.origin) == ("ask", "default")


def test_any_alias_of_a_value_can_match_and_rule_position_decides() -> None:
    rules = RuleSet([rule("read", "/real/*", "deny"), rule("read", "link/*", "allow")])
    assert rules.evaluate("read", ["link/x", "/real/x"]).action == "allow"
    rules = RuleSet([rule("read", "link/*", "allow"), rule("read", "/real/*", "deny")])
    assert rules.evaluate("read", ["link/x", "/real/x"]).action == "deny"


def test_path_patterns_expand_home() -> None:
    rules = RuleSet([rule("path_read", "~/.ssh/*", "deny")], expand=("path_read",), home="/h")
    assert rules.evaluate("path_read", ["/h/.ssh/id_rsa"]).action == "deny"


def test_explicit_ignores_the_universal_fallback() -> None:
    rules = RuleSet([rule("*", "*", "deny")])
    assert rules.explicit("path_read", ["/x"]) is None


def test_most_restrictive_orders_deny_over_ask_over_allow() -> None:
    assert most_restrictive(["allow", "ask"]) == "ask"
    assert most_restrictive(["ask", "deny", "allow"]) == "deny"
    assert most_restrictive([]) == "allow"


patterns = st.text(alphabet=st.sampled_from(list("gitab /:.@=*?")), min_size=1, max_size=10)
values = st.text(alphabet=st.sampled_from(list("gitab /:.@=")), max_size=14)


@given(
    st.lists(st.tuples(patterns, st.sampled_from(["allow", "ask", "deny"])), max_size=25),
    st.lists(values, min_size=1, max_size=3),
)
@settings(max_examples=3000, deadline=None)
def test_the_index_finds_exactly_what_a_backwards_scan_finds(
    entries: list[tuple[str, str]], probe: list[str]
) -> None:
    rules = [rule("*", "*", "ask")] + [rule("bash", p, a) for p, a in entries]
    expected = rules[0]
    for candidate in reversed(rules[1:]):
        if any(compile_pattern(candidate.pattern).match(v) for v in probe):
            expected = candidate
            break
    assert RuleSet(rules).evaluate("bash", probe) is expected
