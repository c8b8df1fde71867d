"""Relative globs and links a line makes: the path tokens that let the gate see what bash
reaches (docs/shell-analysis.md, "Globs" and "Links made in the line")."""

from __future__ import annotations

import pytest

from conftest import run


@pytest.mark.parametrize(
    ("command", "raw", "path"),
    [
        ("cat *", "*", "/work/proj/*"),
        ("cat l*k", "l*k", "/work/proj/l*k"),
        ("grep . l*", "l*", "/work/proj/l*"),
        ('cat "l"*', "l*", "/work/proj/l*"),
        ("cat [l]ink", "[l]ink", "/work/proj/[l]ink"),
        ("cat {l*k,x}", "l*k", "/work/proj/l*k"),
        ("cat .*", ".*", "/work/proj/.*"),
    ],
)
def test_an_unquoted_glob_is_a_path_token_whatever_its_shape(
    command: str, raw: str, path: str
) -> None:
    assert (raw, path) in [(p.raw, p.path) for p in run(command).paths]


@pytest.mark.parametrize("command", ["cat '*'", "cat 'l*k'", 'cat "l*k"', "cat l\\*k", "ls -*"])
def test_a_quoted_or_escaped_glob_character_is_literal(command: str) -> None:
    assert run(command).paths == ()


def test_a_glob_in_a_directory_not_known_is_an_unknown_path() -> None:
    paths = run('cd "$d" && cat l*').paths
    assert [(p.raw, p.path) for p in paths] == [("l*", None)]


@pytest.mark.parametrize(
    ("command", "reached"),
    [
        ("ln -s .. up; cat up/.ssh/id_rsa", "/work/.ssh/id_rsa"),
        ("ln -sf .. up && cat up/x", "/work/x"),
        ("ln --symbolic .. up; cat up/x", "/work/x"),
        ("ln -s ~ h; cat h/.ssh/id_rsa", "/home/me/.ssh/id_rsa"),
        ("mkdir d; ln -s ../.. d/up; cat d/up/x", "/work/x"),  # relative to the link's place
        ("ln -sr ../x d/up; cat d/up", "/work/x"),  # -r: relative to here
        ("ln -s .. x; mv x up; cat up/y", "/work/y"),  # a chain
        ("mkdir -p d; ln -t d -s /etc; cat d/etc/passwd", "/etc/passwd"),
        ("cp -rs ~ h; cat h/.ssh/id_rsa", "/home/me/.ssh/id_rsa"),
        ("cp -r ~/.ssh s; cat s/id_rsa", "/home/me/.ssh/id_rsa"),
        ("ln -s .. up; cd up && cat ./y", "/work/y"),
        ("ln -s ~/proj/src/deep q; cat q/../../../x", "/home/me/x"),  # the link, then ..
        ("$(ln -s .. up); cat up/y", "/work/y"),
    ],
)
def test_a_path_under_a_name_the_line_made_is_judged_as_what_it_reaches(
    command: str, reached: str
) -> None:
    assert reached in [p.path for p in run(command).paths]


def test_a_name_made_with_a_computed_target_makes_the_paths_under_it_unknown() -> None:
    paths = run('ln -s "$t" up; cat up/x').paths
    assert ("up/x", None) in [(p.raw, p.path) for p in paths]


def test_a_path_not_under_a_made_name_is_unaffected() -> None:
    paths = run("ln -s .. up; cat README.md").paths
    assert [p.path for p in paths if p.command == "cat README.md"] == ["/work/proj/README.md"]


@pytest.mark.parametrize(
    "command",
    [
        "echo 'rm x' > f; . ./f",
        "echo 'rm x' > f; source f",
        "echo 'rm x' | tee f; bash f",
        "cp a f; sh ./f",
        "echo 'rm x' > f; chmod +x f; ./f",
        "bash -c \"echo 'rm x' > f\"; . ./f",
        "history -s rm x; fc -s",
        "fc -e true",
        "fc",
        "enable -f ./evil.so evil",
    ],
)
def test_code_the_line_does_not_show_floors_its_unit(command: str) -> None:
    assert any(u.floor is not None for u in run(command).units)


@pytest.mark.parametrize(
    "command", ["fc -l", "fc -ln -5", "history", ". ./env.sh", "bash build.sh", "./run.sh"]
)
def test_listing_history_and_running_a_file_the_line_did_not_write_carry_no_floor(
    command: str,
) -> None:
    assert all(u.floor is None for u in run(command).units)


def test_history_s_stores_a_command_line_whose_units_are_judged() -> None:
    texts = [u.text for u in run("history -s rm -rf x").units]
    assert "rm -rf x" in texts
