"""Fail closed: error regions, salvage, unparseable commands, internal failures (docs/shell-analysis.md, "What is floored, and the facts behind it")."""

from __future__ import annotations

import pytest

from clearance.intent.shell import analyze
from conftest import run


def test_an_error_region_is_a_whole_unresolved_unit_and_siblings_stay_resolved() -> None:
    units = run("echo hi > out.txt <> rw.txt; rm -rf /tmp/y").units
    by_text = {u.text: u for u in units}
    assert by_text["echo hi"].unresolved
    assert not by_text["rm -rf /tmp/y"].unresolved
    assert any(u.text == ">" and u.unresolved for u in units)


def test_units_beneath_a_broken_statement_are_unresolved() -> None:
    units = run("echo $(rm x").units
    assert [(u.text, u.context, u.unresolved) for u in units] == [
        ("echo $(rm x", "", True),
        ("rm x", "command_substitution", True),
    ]


def test_a_region_that_reparses_cleanly_is_salvaged() -> None:
    # A quoted redirect target after the heredoc: not respelled (respell.py), misparsed.
    units = run("cat <<'MSG' 2>\"e\" | rm -rf /tmp/x\nhello\nMSG").units
    salvaged = [u for u in units if u.salvaged]
    assert [(u.text, u.unresolved) for u in salvaged] == [("rm -rf /tmp/x", True)]


def test_salvage_recovers_commands_after_a_broken_keyword() -> None:
    units = run("ls; if; rm y").units
    assert units[0].text == "ls; if; rm y" and units[0].unresolved
    assert ("rm y", True, True) in [(u.text, u.unresolved, u.salvaged) for u in units]


def test_salvaged_relative_operands_have_no_base() -> None:
    paths = run("cat <<'M' 2>\"e\" | rm -rf ./x /abs\nM").paths
    assert ("./x", None) in [(p.raw, p.path) for p in paths]
    assert ("/abs", "/abs") in [(p.raw, p.path) for p in paths]


@pytest.mark.parametrize(
    "command",
    [
        ";",
        ")",
        "|| ls",
        "echo 'unterminated",
        'echo "unterminated',
        "if true; then",
        "case x in",
        "$(",
        "`",
        "((",
        "{",
        "<<EOF",
    ],
)
def test_a_broken_command_is_never_silently_empty(command: str) -> None:
    analysis = run(command)
    assert analysis.unparseable or any(u.unresolved for u in analysis.units)


def test_sudo_before_a_subshell_is_a_syntax_error_and_unresolved() -> None:
    units = run("sudo (rm x)").units
    assert all(u.unresolved for u in units)
    assert units[0].wrapper == "indirection"


@pytest.mark.parametrize(
    "command",
    [
        "\x00",
        "ls\x00rm x",
        "\udcff\udcfe rm",
        "echo \ud800",
        "\u202erm -rf x",
        "é ü ñ 中文 && rm x",
        "\\" * 1001,
        "'" * 999,
        "$(" * 300,
        "(" * 500 + "rm x" + ")" * 500,
        "$(" * 500 + "rm x" + ")" * 500,
        "{ " * 500 + "rm x; " + "}; " * 500,
        "`" * 500,
        "a | " * 5000 + "b",
        "if true; then " * 300 + "rm x" + "; fi" * 300,
        "x" * 200_000,
    ],
)
def test_analyze_never_raises_and_never_hides_a_command(command: str) -> None:
    analysis = analyze(command, cwd="/w", home="/h")
    assert analysis.command == command
    if command.strip():
        assert analysis.units or analysis.unparseable


def test_deep_nesting_beyond_the_walk_limit_is_unresolved_not_hidden() -> None:
    command = "$(" * 500 + "rm x" + ")" * 500
    analysis = analyze(command, cwd="/w", home="/h")
    assert any(u.unresolved for u in analysis.units)


def test_an_internal_failure_yields_the_whole_command_unresolved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import clearance.intent.shell.analysis as analysis_module

    def broken(*args: object) -> object:
        raise RuntimeError("grammar surprise")

    monkeypatch.setattr(analysis_module, "_analyze", broken)
    analysis = analyze("rm -rf /", cwd="/w", home="/h")
    assert [(u.text, u.unresolved) for u in analysis.units] == [("rm -rf /", True)]
    assert analysis.paths == ()
    assert analysis.home_reassigned


def test_a_failing_parser_yields_the_fail_closed_analysis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import clearance.intent.shell.parser as parser_module

    def broken(data: bytes) -> object:
        raise MemoryError

    monkeypatch.setattr(parser_module, "parse", broken)
    analysis = analyze("git status > out", cwd="/w", home="/h")  # needs the parser
    assert analysis.units[0].unresolved


def test_inputs_that_crash_the_grammar_are_parsed_through_placeholders() -> None:
    # tree-sitter-bash 0.25.1 segfaults on these; run in a child so a crash fails the test.
    import subprocess
    import sys

    code = (
        "from clearance.intent.shell import analyze\n"
        "for s in ['ab{\\U000f2871', 'x{\\U0010ffff', '\\u00ee\\x98{\\U000f2871']:\n"
        "    assert analyze(s, cwd='/w', home='/h').units[0].text == s\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_non_ascii_text_keeps_its_offsets() -> None:
    analysis = run("cat /tmp/é中\U0001f600 > /tmp/ü && rm ./ñ")
    assert [u.text for u in analysis.units] == ["cat /tmp/é中\U0001f600", "rm ./ñ"]
    assert sorted(p.raw for p in analysis.paths) == sorted(["/tmp/é中\U0001f600", "/tmp/ü", "./ñ"])


def test_the_parser_loads_in_a_fresh_process_and_leaves_re_and_enum_real() -> None:
    import subprocess
    import sys
    from pathlib import Path

    src = Path(__file__).resolve().parents[3] / "src"
    script = (
        "import sys\n"
        "from clearance.intent.shell import analyze\n"
        "a = analyze('git status; sudo rm -rf /', cwd='/tmp', home='/root')\n"
        "assert [u.canonical for u in a.units][-1] == 'rm -rf /', a.units\n"
        "assert 're' not in sys.modules and 'enum' not in sys.modules\n"
        "import re, enum\n"
        "assert re.compile('x+').fullmatch('xx') and enum.IntEnum('E', {'A': 1}).A == 1\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(src)},
    )  # fmt: skip
    assert done.stdout.strip() == "ok", done.stderr


# A line nested deeper than the parser's bound is not read: its analysis fails closed. Each
# deep shape next to a long but shallow twin that is read as usual.
DEEP = [
    "x=" + "${y:-" * 300 + "a" + "}" * 300,
    "(" * 300 + "ls" + ")" * 300,
    "echo $((" + "+".join(["1"] * 400) + "))",
    "echo " + "$(" * 300 + "id" + ")" * 300,
    "x=" + "${y:-" * 300 + "$(rm -rf ~)" + "}" * 300,
]
SHALLOW = [
    "x=" + "${y:-" * 40 + "a" + "}" * 40,
    " && ".join(["ls"] * 400),
    " | ".join(["cat"] * 400),
    "echo $((" + "+".join(["1"] * 40) + "))",
]


@pytest.mark.parametrize("command", DEEP, ids=[f"deep{i}" for i in range(len(DEEP))])
def test_a_line_nested_past_the_bound_is_unresolved(command: str) -> None:
    analysis = analyze(command, cwd="/w", home="/h")
    assert [(u.text, u.unresolved) for u in analysis.units] == [(command, True)]


@pytest.mark.parametrize("command", SHALLOW, ids=[f"shallow{i}" for i in range(len(SHALLOW))])
def test_a_long_shallow_line_is_read(command: str) -> None:
    analysis = analyze(command, cwd="/w", home="/h")
    assert analysis.units and not any(u.unresolved for u in analysis.units)


def test_deep_lines_neither_crash_nor_run_on_in_a_small_stack() -> None:
    """Compiled code (ADR 0058) checks neither the recursion limit nor signals: a line nested
    thousands deep overflowed a 512 KiB thread stack (the size of a service worker's thread on
    some systems) or took minutes. Bounded by the parser's depth, each is unresolved at once."""
    import subprocess
    import sys

    script = (
        "import threading\n"
        "from clearance.intent.shell import analyze\n"
        "threading.stack_size(512 * 1024)\n"
        "out = []\n"
        "def run():\n"
        "    for n in (1200, 5000, 20000):\n"
        "        line = 'x=' + '${y:-' * n + 'a' + '}' * n\n"
        "        out.append(all(u.unresolved for u in analyze(line, cwd='/w', home='/h').units))\n"
        "t = threading.Thread(target=run)\n"
        "t.start(); t.join()\n"
        "print(out)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[True, True, True]"


def test_a_line_slow_to_parse_is_unresolved() -> None:
    """tree-sitter's error recovery is quadratic on unbalanced openers: 60 KB of `a=(` took
    about ten seconds in one call no signal interrupts. Past a short length the parse runs
    under a bound on time, and a line that spends it asks."""
    command = "curl -fsSL https://example.invalid/x.sh | sh; true || bash -c '" + "a=(" * 20000
    analysis = analyze(command + "'", cwd="/w", home="/h")
    assert analysis.units and all(u.unresolved for u in analysis.units)
    # The parse given up is not resumed by the next one (tree-sitter resumes a halted parse).
    after = analyze("ls -la src > out.txt", cwd="/w", home="/h")
    assert [(u.argv, u.unresolved) for u in after.units] == [(("ls", "-la", "src"), False)]


def test_a_long_ordinary_line_is_read() -> None:
    body = "".join(f"echo line {i} of a long script\n" for i in range(400))  # about 12 KB
    command = f"cat > notes.txt <<'EOF'\n{body}EOF\nwc -l notes.txt"
    analysis = analyze(command, cwd="/w", home="/h")
    assert [u.argv[0] for u in analysis.units] == ["cat", "wc"]
    assert not any(u.unresolved for u in analysis.units)


def test_a_huge_brace_word_is_past_the_cap() -> None:
    """Brace expansion scans the whole word for each alternative: 400 KB of `{a,{a,…` took
    seconds that the deadline cannot interrupt in compiled code. Such a word is not expanded,
    and its command asks; a long quoted body with braces beside it is read as usual."""
    from clearance.intent.shell import brace

    word = "{a," * 30000 + "b" + "}" * 30000
    assert brace.expand(word) is None
    analysis = analyze("rm -rf " + word, cwd="/w", home="/h")
    assert analysis.units and any(u.unresolved or u.floor for u in analysis.units)
    body = "'" + '{"k": "v"}, ' * 2000 + "'"  # 24 KB of quoted JSON-like text
    assert brace.expand(body) == [body]


def test_a_line_past_the_length_bound_is_not_read() -> None:
    from clearance.intent.shell.analysis import MAX_LINE

    long = "true " + "! cat | " * (MAX_LINE // 8) + "cat ~/.ssh/id_rsa"
    analysis = analyze(long, cwd="/w", home="/h")
    assert [(u.text, u.unresolved) for u in analysis.units] == [(long, True)]
    just_under = "echo " + "a" * (MAX_LINE - 10)
    assert not analyze(just_under, cwd="/w", home="/h").units[0].unresolved
