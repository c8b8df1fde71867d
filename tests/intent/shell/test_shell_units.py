"""Units: splitting, stripping, substitutions, compounds, heredocs, wrappers (docs/shell-analysis.md, "What is seen through")."""

from __future__ import annotations

from typing import Any

import pytest
from shell_unit_table import UNIT_CASES

from clearance.intent.shell import Unit
from conftest import expected_fields, run, unit_fields


@pytest.mark.parametrize(("command", "units"), UNIT_CASES, ids=[c[:60] for c, _ in UNIT_CASES])
def test_the_analyzer_finds_exactly_the_expected_units(command: str, units: list[Any]) -> None:
    assert unit_fields(run(command)) == [expected_fields(u) for u in units]


def test_the_table_covers_at_least_three_hundred_commands_with_paths_table() -> None:
    from shell_path_table import PATH_CASES

    assert len(UNIT_CASES) + len(PATH_CASES) >= 300


@pytest.mark.parametrize(
    ("command", "canonical"),
    [
        ("\\rm -rf x", "rm -rf x"),
        ("r''m x", "rm x"),
        ('"rm" z', "rm z"),
        ("'rm' -rf x", "rm -rf x"),
        ("/bin/rm w", "rm w"),
        ("/usr/bin/sudo rm x", "sudo rm x"),
        ("$'rm' -rf v", "rm -rf v"),
        ("$'\\x72m' -rf v", "rm -rf v"),
        ('"git" push', "git push"),
        ("g\\it status", "git status"),
        ("git status", "git status"),
        ("$(which rm) -rf x", "$(which rm) -rf x"),
        ("./scripts/build.sh --release", "build.sh --release"),
    ],
)
def test_canonical_replaces_the_command_word_by_its_unquoted_basename(
    command: str, canonical: str
) -> None:
    assert run(command).units[0].canonical == canonical


def test_a_unit_keeps_its_source_spacing_and_reads_line_continuations_as_bash_joins_them() -> None:
    assert run("git  push \\\n  --force").units[0].text == "git  push   --force"
    assert run("echo '\\\n'").units[0].text == "echo '\\\n'"  # single quotes keep it


@pytest.mark.parametrize("command", ["", "   ", "\n\n", "# only a comment", "# a\n# b\n"])
def test_empty_and_comment_only_commands_have_no_units_and_are_not_unparseable(
    command: str,
) -> None:
    analysis = run(command)
    assert analysis.units == ()
    assert not analysis.unparseable


def test_a_heredoc_with_a_tab_stripping_delimiter_is_searched_for_substitutions() -> None:
    units = run("cat <<-EOF\n\thello $(id)\n\tEOF").units
    assert [(u.text, u.context) for u in units] == [("cat", ""), ("id", "heredoc")]


@pytest.mark.parametrize(
    ("body", "end"),
    [("${x#{}$(echo R)}", 6), ("${x#'}'}", 8), ("${x:-${y}}", 10), ('${x#"}"}', 8), ("${x", -1)],
)
def test_a_parameter_expansion_ends_where_bash_ends_it(body: str, end: int) -> None:
    """A bare ``{`` inside ``${…}`` opens nothing: bash ends ``${x#{}`` at its first ``}``,
    in a here-document as on a line, and runs the ``$(…)`` after it (real bash, below)."""
    import subprocess

    from clearance.intent.shell.heredoc import close_brace

    assert close_brace(body, 2) == end
    if end > 0:
        script = f"x=a; y=b; cat <<EOF\n{body}\nEOF"
        shown = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
        rest = subprocess.run(["bash", "-c", f"x=a; y=b; cat <<EOF\n{body[end:]}\nEOF"],
                              capture_output=True, text=True, timeout=30)  # fmt: skip
        assert shown.stdout.endswith(rest.stdout)


def test_a_commit_message_heredoc_inside_a_substitution_yields_its_cat() -> None:
    command = "git commit -m \"$(cat <<'EOF'\nfix: handle /etc/hosts\n$(rm x)\nEOF\n)\""
    analysis = run(command)
    assert [u.context for u in analysis.units] == ["", "command_substitution"]
    assert analysis.units[1].text == "cat"
    assert analysis.paths == ()


def test_units_are_frozen_values() -> None:
    unit = run("ls").units[0]
    assert isinstance(unit, Unit)
    with pytest.raises(AttributeError):
        unit.text = "rm"
    assert unit == Unit("ls", spellings=unit.spellings)


def test_a_very_long_command_is_analysed_whole() -> None:
    command = " && ".join(f"echo {i}" for i in range(12_000))
    assert len(command) > 100_000
    analysis = run(command)
    assert len(analysis.units) == 12_000
    assert not any(u.unresolved for u in analysis.units)


def test_a_very_long_single_argument_is_kept() -> None:
    command = "echo " + "a" * 100_000 + " && rm x"
    assert [u.canonical[:4] for u in run(command).units] == ["echo", "rm x"]


def test_moderately_nested_substitutions_are_all_found() -> None:
    command = "echo " + "$(" * 20 + "rm x" + ")" * 20
    units = run(command).units
    assert units[-1].text == "rm x"
    assert units[-1].context == "command_substitution"
    assert len(units) == 21


def test_the_package_exports_a_sorted_public_surface() -> None:
    import clearance.intent.shell as shell

    assert shell.__all__ == sorted(shell.__all__)
    assert set(shell.__all__) == {"Analysis", "PathToken", "Unit", "analyze"}


def test_importing_the_package_does_not_load_tree_sitter() -> None:
    import subprocess
    import sys

    code = "import sys, clearance.intent.shell; print('tree_sitter' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
