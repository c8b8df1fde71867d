"""Property tests: the analyzer never raises and never hides an embedded command."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from clearance.intent.shell import analyze

FRAGMENTS = [
    ";",
    "&&",
    "||",
    "|",
    "&",
    "$(",
    ")",
    "(",
    "`",
    "'",
    '"',
    "<<EOF",
    "<<'EOF'",
    "EOF",
    "{",
    "}",
    "\\",
    "\n",
    " ",
    "rm",
    "-rf",
    "x",
    "if",
    "then",
    "fi",
    "do",
    "done",
    "for",
    "in",
    "case",
    "esac",
    ";;",
    ">",
    ">>",
    "<",
    "<<<",
    "2>&1",
    "$x",
    "${",
    "~",
    "/etc",
    "sudo",
    "bash",
    "-c",
    "eval",
    "=",
    "A=1",
    "[[",
    "]]",
    "!",
    "#",
    "$'",
    "<(",
    ">(",
]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.text())
def test_analyze_never_raises_on_arbitrary_text(text: str) -> None:
    analysis = analyze(text, cwd="/w", home="/h", exists=lambda p: False)
    assert analysis.command == text


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_analyze_never_raises_on_shell_fragments(parts: list[str]) -> None:
    command = "".join(parts)
    analysis = analyze(command, cwd="/w", home="/h", exists=lambda p: False)
    if command.strip() and not analysis.unparseable:
        assert analysis.units or command.lstrip().startswith("#") or analysis.paths == ()


INNER = "rm -rf x"

# Each embedding puts a command where bash runs it; `{}` stands for the embedded command.
EMBEDDINGS = [
    "ls; {}",
    "ls && {}",
    "ls || {}",
    "ls | {}",
    "ls\n{}",
    "ls & {}",
    "echo $({})",
    "echo `{}`",
    'echo "$({})"',
    "({})",
    "{{ {}; }}",
    "if true; then {}; fi",
    "if {}; then :; fi",
    "while false; do {}; done",
    "for f in a; do {}; done",
    "case a in a) {};; esac",
    "f() {{ {}; }}",
    "! {}",
    "X=$({})",
    "local y=$({})",
    "cat <(  {} )",
    "cat > >({})",
    "echo hi > $({})",
    "cat <<EOF\n$({})\nEOF",
    "sudo {}",
    "sudo -u root {}",
    "env {}",
    "env A=1 {}",
    "xargs {}",
    "timeout 5 {}",
    "nice -n 5 {}",
    "nohup {}",
    "time {}",
]
# Spellings of the inner command word that must still be seen as `rm`.
SPELLINGS = ["rm -rf x", "\\rm -rf x", "'rm' -rf x", '"rm" -rf x', "/bin/rm -rf x", "r''m -rf x"]
OPAQUE = ["bash -c '{}'", "sh -c '{}'", "eval '{}'", "eval {}"]


def _embed(command: str, template: str) -> str:
    return (
        template.replace("{{", "\x01")
        .replace("}}", "\x02")
        .replace("{}", command)
        .replace("\x01", "{")
        .replace("\x02", "}")
    )


def _visible(command: str) -> bool:
    analysis = analyze(command, cwd="/w", home="/h", exists=lambda p: False)
    return any(
        u.canonical.startswith("rm ") or u.wrapper is not None or u.unresolved
        for u in analysis.units
    )


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.sampled_from(SPELLINGS),
    st.lists(st.sampled_from(EMBEDDINGS), min_size=0, max_size=3),
)
def test_an_embedded_rm_is_never_hidden(spelling: str, templates: list[str]) -> None:
    assume(templates.count("echo `{}`") < 2)  # nested backticks unnest in bash: nothing runs
    command = spelling
    for template in templates:
        command = _embed(command, template)
    assert _visible(command), command


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.sampled_from(OPAQUE),
    st.lists(st.sampled_from(EMBEDDINGS), min_size=0, max_size=2),
)
def test_an_rm_inside_an_opaque_payload_is_never_hidden(opaque: str, templates: list[str]) -> None:
    assume(templates.count("echo `{}`") < 2)
    command = _embed(INNER, opaque)
    for template in templates:
        command = _embed(command, template)
    assert _visible(command), command


# Wrappers are excluded (their inner unit keeps wrapper syntax such as `sudo { …`), and so is
# `! {}`: the grammar cannot parse `! if/case/…` and the result is only guaranteed unresolved.
UNWRAPPED = [
    e
    for e in EMBEDDINGS
    if e.split()[0] not in {"sudo", "env", "xargs", "timeout", "nice", "nohup", "time", "!"}
]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(st.sampled_from(UNWRAPPED), min_size=1, max_size=3))
def test_an_embedded_rm_is_found_as_its_own_unit_when_no_quotes_interfere(
    templates: list[str],
) -> None:
    assume(templates.count("echo `{}`") < 2)
    command = INNER
    for template in templates:
        command = _embed(command, template)
    assume("((" not in command)  # `((…))`, `$((…))` are arithmetic, not nested subshells
    analysis = analyze(command, cwd="/w", home="/h", exists=lambda p: False)
    assert any(u.canonical == INNER for u in analysis.units), command
