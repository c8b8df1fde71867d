"""Command rules (``rm [-r -f] *``): syntax, matching by the option table, validation, order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.policy.command_rule import CommandPattern, CommandPatternError, parse_argv
from clearance.policy.config import parse_config
from clearance.policy.errors import ConfigError
from clearance.policy.programs import PROGRAMS
from clearance.policy.rule import Rule, RuleSet
from clearance.policy.wildcard import is_command_pattern


def meets(pattern: str, command: str, action: str = "deny") -> bool:
    compiled = CommandPattern(pattern, action)
    found = parse_argv(command.split())
    assert found is not None
    name, parsed = found
    return name == compiled.program and compiled.match(parsed)


# -- what is a command rule --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "command_rule"),
    [
        ("rm [-r -f] *", True),
        ("git push [--force]", True),
        ("git restore [!--staged] *", True),
        ("git checkout [] -- *", True),
        ("rm -rf *", False),  # a wildcard, as ever
        ("[ *", False),  # the test command
        ("[ -f x ]", False),  # ditto: the brackets are its first word
        ("echo [x]", False),
        ("ls [abc]*", False),
    ],
)
def test_a_command_rule_is_a_pattern_with_an_option_list(pattern: str, command_rule: bool) -> None:
    assert is_command_pattern(pattern) is command_rule


# -- spellings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf x", "rm -fr x", "rm -r -f x", "rm -f -r x", "rm -R -f x", "rm -Rf x",
        "rm --recursive --force x", "rm --force --recursive x", "rm -r --force x",
        "rm x -rf", "rm -r x -f", "rm --recur --fo x", "/bin/rm -rfv x", "rm -rf",
    ],
)  # fmt: skip
def test_every_spelling_of_rm_rf_meets_the_rule(command: str) -> None:
    assert meets("rm [-r -f] *", command)


@pytest.mark.parametrize(
    "command", ["rm -r x", "rm -f x", "rm x", "rm -- -rf x", "rm -i x", "rm --recursive x"]
)
def test_another_option_set_does_not(command: str) -> None:
    assert not meets("rm [-r -f] *", command)


@pytest.mark.parametrize(
    "command",
    [
        "git reset --hard", "git reset -q --hard", "git reset --hard HEAD~1",
        "git -C repo reset --hard", "git -Crepo reset --hard", "git -c k=v reset --hard",
        "git -C x -c k=v reset --hard", "git --git-dir=x/.git reset --hard",
        "git --git-dir x/.git --work-tree x reset --hard", "git --no-pager reset --hard",
        "git -- reset --hard", "git reset HEAD~1 --hard",
    ],
)  # fmt: skip
def test_global_options_before_the_subcommand_are_git_s_own(command: str) -> None:
    assert meets("git reset [--hard]", command)


@pytest.mark.parametrize(
    ("command", "force"),
    [
        ("git push --force", True),
        ("git push -f origin main", True),
        ("git push -qf", True),
        ("git push origin main --force", True),
        ("git push --force=true origin main", True),
        ("git push --force-with-lease", False),
        ("git push --force-with-lease=main", False),
        ("git push --force-if-includes", False),
        ("git push --forc", False),  # ambiguous in git too: it refuses to run
        ("git push origin --delete x", False),
        ("git -c push.default=x push", False),
    ],
)
def test_a_distinct_option_is_never_a_longer_one(command: str, force: bool) -> None:
    assert meets("git push [--force] *", command) is force


def test_value_taking_options_hide_their_values() -> None:
    assert not meets("git commit [--amend]", "git commit -m --amend")
    assert meets("git commit [--amend]", "git commit -m msg --amend")
    assert not meets("find [-delete] *", "find . -name -delete -print")
    assert meets("find [-delete] *", "find . -name x -delete")
    assert not meets("find [-delete] *", "find . -exec echo -delete ; -print")
    assert meets("kubectl delete [--all] *", "kubectl -n prod delete pods --all")
    assert meets("kubectl delete [--namespace=kube-*] *", "kubectl delete pod x -n kube-system")
    assert not meets("kubectl delete [--namespace=kube-*] *", "kubectl delete pod x -n prod")


def test_truncate_reads_its_size_in_every_spelling() -> None:
    for command in ("truncate -s 0 f", "truncate -s0 f", "truncate --size=0 f",
                    "truncate --si 0 f", "truncate -cs 0 f", "truncate f -s 0"):  # fmt: skip
        assert meets("truncate [-s=0*] *", command), command
    for command in ("truncate -s 10M f", "truncate -s +1M f", "truncate 0 f", "truncate -c f"):
        assert not meets("truncate [-s=0*] *", command), command


def test_one_spelling_can_stand_for_several_options() -> None:
    assert meets("git branch [-D] *", "git branch -d -f x")
    assert meets("git branch [-D] *", "git branch --delete --force x")
    assert meets("git branch [-D] *", "git branch -Dv x")
    assert not meets("git branch [-D] *", "git branch -d x")


def test_absent_options() -> None:
    rule = "git restore [--staged !--worktree] *"
    assert meets(rule, "git restore --staged x", "allow")
    assert meets(rule, "git restore -S x", "allow")
    assert not meets(rule, "git restore --staged --worktree x", "allow")
    assert not meets(rule, "git restore -SW x", "allow")


def test_single_dash_long_options() -> None:
    assert meets("terraform destroy [-auto-approve]", "terraform destroy -auto-approve")
    assert meets("terraform destroy [-auto-approve]", "terraform destroy --auto-approve")
    assert meets("terraform apply [-target=module.*] *", "terraform apply -target=module.db")


def test_posix_levels_end_their_options_at_the_first_operand() -> None:
    assert meets("docker run [--privileged] *", "docker run --privileged alpine sh")
    assert not meets("docker run [--privileged] *", "docker run alpine sh --privileged")


# -- operands ----------------------------------------------------------------------------------


def test_an_allow_covers_every_operand_a_deny_fires_on_any() -> None:
    assert meets("rm [-r -f] /tmp/*", "rm -rf /tmp/a /tmp/b", "allow")
    assert not meets("rm [-r -f] /tmp/*", "rm -rf /tmp/a /etc", "allow")
    assert meets("rm [-r -f] /", "rm -rf x /", "deny")
    assert not meets("rm [-r -f] /", "rm -rf x", "deny")
    assert meets("rm [-r -f] /", "rm -rf -- /", "deny")
    # an allow needs an operand to cover: `rm -rf` alone gets its operands elsewhere (`xargs`)
    assert not meets("rm [-r -f] /tmp/*", "rm -rf", "allow")
    assert not meets("rm [-r -f] /tmp/*", "rm -rf --", "allow")
    assert meets("rm [-r -f] /tmp/*", "rm -rf -- /tmp/a", "allow")
    assert meets("rm [-r -f] *", "rm -rf", "allow")  # any operands, none among them


def test_a_value_that_must_be_attached_can_be_matched() -> None:
    """rm's --interactive takes its value only attached (``--interactive=never``): a rule may
    name it; ``--interactive never`` is the flag and a file named never."""
    assert meets("rm [-r --interactive=n*] *", "rm -r --interactive=never src", "deny")
    assert meets("rm [-r --interactive=n*] *", "rm --inter=no -R src", "deny")
    assert not meets("rm [-r --interactive=n*] *", "rm -r --interactive=always src", "deny")
    assert not meets("rm [-r --interactive=n*] *", "rm -r --interactive never", "deny")
    assert meets("git push [--force-with-lease=main] *", "git push --force-with-lease=main", "ask")


def test_the_heads_of_the_rules_that_allow_nothing() -> None:
    rules = RuleSet([
        Rule("bash", "rm [-r -f] *", "deny", "global"), Rule("bash", "mkfs*", "deny", "global"),
        Rule("bash", "git push --force*", "ask", "global"), Rule("bash", "ls *", "allow", "global"),
        Rule("bash", "*", "allow", "global"), Rule("bash", "*rm -rf*", "deny", "global"),
        Rule("bash", "shred", "deny", "global"), Rule("path", "tool *", "deny", "global"),
    ])  # fmt: skip
    assert rules.strict_heads() == (frozenset({"rm", "git", "shred"}), ("mkfs",))


def test_operands_with_spaces_are_matched_joined() -> None:
    assert meets("git checkout [] -- *", "git checkout -- a b")
    assert not meets("git checkout [] -- *", "git checkout main")
    assert meets("git checkout [] ?* ?*", "git checkout main a.txt")
    assert not meets("git checkout [] ?* ?*", "git checkout -b new main")
    assert meets("git push [] origin *", "git push origin main")
    assert meets("git push [] origin *", "git push origin")


def test_subcommand_words_must_lead_the_operands() -> None:
    assert meets("git stash drop [] *", "git stash drop stash@{0}")
    assert not meets("git stash drop [] *", "git stash")
    assert not meets("git stash drop [] *", "git log stash drop")
    assert meets("docker system prune [--all] *", "docker --context x system prune -af")


def test_a_computed_word_is_no_option_and_meets_no_operand_pattern() -> None:
    compiled = CommandPattern("rm [-r -f] /tmp/*", "allow")
    parsed = parse_argv(["rm", "-rf", None])
    assert parsed is not None
    assert not compiled.match(parsed[1])
    assert parse_argv([None, "-rf"]) is None


# -- properties --------------------------------------------------------------------------------

RM = [("-r", "-R", "--recursive"), ("-f", "--force"), ("-v", "--verbose"), ("-d", "--dir")]


@st.composite
def rm_command(draw: st.DrawFn, chosen: frozenset[int]) -> str:
    """``rm`` with the options ``chosen`` (indexes into RM), each in a drawn spelling, short
    ones drawn into clusters, all shuffled among the operands."""
    shorts: list[str] = []
    words: list[str] = []
    for index in sorted(chosen):
        spelling = draw(st.sampled_from(RM[index]))
        if len(spelling) > 6 and draw(st.booleans()):  # a unique prefix (getopt_long)
            spelling = spelling[: draw(st.integers(min_value=6, max_value=len(spelling)))]
        (shorts if len(spelling) == 2 else words).append(spelling)
    while shorts:
        size = draw(st.integers(min_value=1, max_value=len(shorts)))
        words.append("-" + "".join(s[1] for s in shorts[:size]))
        shorts = shorts[size:]
    words.extend(draw(st.lists(st.sampled_from(["x", "build", "/tmp/y"]), max_size=3)))
    words = draw(st.permutations(words))
    return " ".join(["rm", *words])


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_permutation_of_an_option_set_meets_its_rule(data: st.DataObject) -> None:
    chosen = data.draw(st.frozensets(st.integers(0, len(RM) - 1), min_size=1))
    command = data.draw(rm_command(chosen))
    rule = "rm [" + " ".join(RM[i][0] for i in sorted(chosen)) + "] *"
    assert meets(rule, command), (rule, command)
    missing = [i for i in range(len(RM)) if i not in chosen]
    if missing:
        other = "rm [" + " ".join(RM[i][0] for i in sorted({*chosen, missing[0]})) + "] *"
        assert not meets(other, command), (other, command)


GIT_GLOBAL = ["-C repo", "-Crepo", "-c k=v", "-ck=v", "--no-pager", "--git-dir=.git", "-P"]
RESET_MODES = ["--hard", "--soft", "--mixed", "--merge", "--keep"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(GIT_GLOBAL), max_size=3),
    st.sampled_from(RESET_MODES),
    st.lists(st.sampled_from(["-q", "HEAD~1", "--quiet"]), max_size=2),
)
def test_git_global_options_never_hide_the_subcommand_s(
    globals_: list[str], mode: str, rest: list[str]
) -> None:
    command = " ".join(["git", *globals_, "reset", *rest, mode])
    for other in RESET_MODES:
        assert meets(f"git reset [{other}]", command) is (other == mode), command


# -- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("rm [-r -f", 'no closing "]"'),
        ("rm -r [-f] *", 'put it inside the brackets: "rm [-r]"'),
        ("r* [-f]", "a plain name"),
        ("git push [--force] [-x]", "two option lists"),
        ("rm [-r=x] *", '"-r" takes no value in rm'),
        ("git push [--force !--force]", "both requires and excludes"),
        ("git st* [-x]", "is literal"),
        ("rm [-r]x", "put a space after"),
    ],
)
def test_a_broken_command_rule_is_a_rule_local_error_that_asks(pattern: str, message: str) -> None:
    text = '{"permission": {"bash": {\n  "*": "allow",\n  "' + pattern + '": "deny"}}}'
    config = parse_config(text, "c.jsonc")
    assert len(config.errors) == 1
    error = config.errors[0]
    assert isinstance(error, ConfigError)
    assert message in str(error)
    assert "c.jsonc:3:3" in str(error)
    (_surface, _replace, entries) = config.permission.surfaces[0]
    program = pattern.split()[0]
    stand_in = [e for e in entries if e[0] != "*"]
    if program.isalpha():  # the program it names asks instead of the broken rule
        assert [(e[0], e[1]) for e in stand_in] == [(f"{program} *", "ask")]


def test_a_command_rule_only_reads_on_the_bash_surface() -> None:
    config = parse_config('{"permission": {"read": {"x [-r]": "deny"}}}', "c.jsonc")
    assert not config.errors


# -- rule order ------------------------------------------------------------------------------


def _rules(*pairs: tuple[str, str]) -> RuleSet:
    return RuleSet([Rule("bash", p, a, "global") for p, a in pairs])  # type: ignore[arg-type]


def _decide(rules: RuleSet, command: str) -> str:
    return rules.evaluate("bash", (command,), tuple(command.split())).action


def test_the_last_matching_rule_wins_across_both_kinds() -> None:
    rules = _rules(("*", "allow"), ("rm [-r -f] *", "deny"), ("rm -rf /tmp/*", "allow"))
    assert _decide(rules, "rm -rf /tmp/x") == "allow"
    assert _decide(rules, "rm -fr /tmp/x") == "deny"  # the wildcard is literal
    rules = _rules(("rm -rf /tmp/*", "allow"), ("rm [-r -f] *", "deny"))
    assert _decide(rules, "rm -rf /tmp/x") == "deny"


def test_without_words_only_wildcards_apply() -> None:
    rules = _rules(("*", "allow"), ("rm [-r -f] *", "deny"))
    assert rules.evaluate("bash", ("rm -rf x",)).action == "allow"
    assert _decide(rules, "rm -rf x") == "deny"


def test_the_table_covers_the_programs_that_matter() -> None:
    for name in (
        "git", "rm", "find", "docker", "kubectl", "npm", "pnpm", "yarn", "pip", "uv", "cargo",
        "terraform", "chmod", "chown", "mv", "cp", "dd", "sed", "curl", "truncate",
    ):  # fmt: skip
        assert name in PROGRAMS
    with pytest.raises(CommandPatternError):
        CommandPattern("rm [x]", "deny")


PATTERNS = [
    "*", "git *", "git push *", "git push --force*", "rm -rf *", "rm *",
    "git push [--force] *", "git push [--force-with-lease] *", "git reset [--hard]",
    "git [] *", "git stash drop [] *", "rm [-r -f] *", "rm [-r -f] /tmp/*", "rm [-f] x",
    "rm [!-i] *", "git push [] origin *",
]  # fmt: skip
COMMANDS = [
    "git push --force origin main", "git push -f", "git push --force-with-lease",
    "git -C r push -qf", "git reset --hard", "git -c a=b reset --hard x", "git status",
    "git stash drop", "git stash", "rm -rf /tmp/x", "rm -fr x", "rm -r -f /tmp/a /", "rm x",
    "rm -i x", "rm -f x", "ls -la",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(PATTERNS), st.sampled_from(["allow", "ask", "deny"])),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from(COMMANDS),
)
def test_the_rule_set_agrees_with_a_plain_backwards_scan(
    rules: list[tuple[str, str]], command: str
) -> None:
    from clearance.policy.wildcard import compile_pattern

    built = _rules(*rules)
    found = built.evaluate("bash", (command,), tuple(command.split()))
    expected = None
    for pattern, action in reversed(rules):
        if pattern == "*" or not is_command_pattern(pattern):
            hit = compile_pattern(pattern).match(command)
        else:
            hit = meets(pattern, command, action)
        if hit:
            expected = (pattern, action)
            break
    if expected is None:
        assert found.origin == "default"
    else:
        assert (found.pattern, found.action) == expected
