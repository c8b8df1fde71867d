"""The project boundary: "outside" means outside the project, not outside the cwd of the moment
(issue 13, point 2), with attack rows next to the benign ones they resemble."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.hosts.facts import HOST_FACTS, AgentHostFacts
from clearance.intent.boundary import project_boundary, project_root
from clearance.intent.call import ToolCall

POLICY = json.dumps({"permission": {"*": "ask", "bash": {"*": "ask", "cat *": "allow",
                                                          "ls *": "allow", "find *": "allow"},
                                    "read": "allow", "external_directory": "ask"}})  # fmt: skip


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    root = tmp_path.resolve()
    home = root / "home"
    project = home / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "apps" / "web").mkdir(parents=True)
    (project / "README.md").write_text("# readme\n")
    sibling = home / "other"
    sibling.mkdir()
    (sibling / "notes.txt").write_text("x\n")
    worktree = project / ".worktrees" / "feature"
    worktree.mkdir(parents=True)
    (worktree / ".git").write_text("gitdir: ../../.git/worktrees/feature\n")
    return {"root": root, "home": home, "project": project, "sibling": sibling,
            "worktree": worktree}  # fmt: skip


def _decide(layout: dict[str, Path], cwd: Path, command: str) -> str:
    engine = Engine.load(cwd=str(cwd), policy=POLICY, env={"HOME": str(layout["home"])},
                         use_cache=False, host=AgentHostFacts())  # fmt: skip
    return engine.check(ToolCall("bash", {"command": command}, str(cwd))).action


def test_the_boundary_is_the_enclosing_work_tree(layout: dict[str, Path]) -> None:
    found = project_boundary(str(layout["project"] / "apps" / "web"), str(layout["home"]))
    assert found.root == str(layout["project"])
    assert found.contains(str(layout["project"] / "README.md"))
    assert not found.contains(str(layout["sibling"]))


def test_a_worktree_is_a_project_of_its_own(layout: dict[str, Path]) -> None:
    assert project_root(str(layout["worktree"]), str(layout["home"])) == str(layout["worktree"])


def test_a_work_tree_at_home_does_not_put_the_home_inside(tmp_path: Path) -> None:
    home = tmp_path.resolve() / "home"
    (home / ".git").mkdir(parents=True)
    (home / "proj").mkdir()
    assert project_root(str(home / "proj"), str(home)) == str(home / "proj")


def test_without_a_work_tree_the_boundary_is_the_cwd(tmp_path: Path) -> None:
    cwd = tmp_path.resolve() / "a" / "b"
    cwd.mkdir(parents=True)
    assert project_boundary(str(cwd), str(tmp_path / "h")).root == str(cwd)


@pytest.mark.parametrize(
    ("where", "command", "expected"),
    [
        # benign: inside the project though outside the cwd, or in the host's scratch space
        ("web", "cat ../../README.md", "allow"),
        ("web", "ls ../..", "allow"),
        ("web", "cat /tmp/claude/-home-proj/tasks/b1.output", "allow"),
        ("project", "find apps -name '*.ts'", "allow"),
        # attack twins: outside the project
        ("web", "cat ../../../other/notes.txt", "ask"),
        ("project", "ls ..", "ask"),
        ("project", "cat /etc/hostname", "ask"),
        ("web", "cat /tmp/claude-evil/x", "ask"),
        ("web", "cat /tmp/claude/../etc/passwd", "ask"),
    ],
)
def test_outside_means_outside_the_project(
    layout: dict[str, Path], where: str, command: str, expected: str
) -> None:
    cwd = layout["project"] / "apps" / "web" if where == "web" else layout["project"]
    assert _decide(layout, cwd, command) == expected


def test_additional_directories_from_claude_code_settings_are_inside(
    layout: dict[str, Path],
) -> None:
    settings = layout["project"] / ".claude"
    settings.mkdir()
    extra = layout["sibling"]
    (settings / "settings.json").write_text(
        json.dumps({"permissions": {"additionalDirectories": [str(extra), "/", "~"]}})
    )
    home = str(layout["home"])
    listed = AgentHostFacts().inside(str(layout["project"]), home)
    assert str(extra) in listed
    found = project_boundary(str(layout["project"]), home, listed)
    assert str(extra) in found.inside
    assert "/" not in found.inside
    assert home not in found.inside  # never the whole filesystem or home
    assert _decide(layout, layout["project"], f"cat {extra}/notes.txt") == "allow"
    assert _decide(layout, layout["project"], "cat /etc/hostname") == "ask"


def test_without_host_facts_the_host_scratch_is_outside(layout: dict[str, Path]) -> None:
    engine = Engine.load(cwd=str(layout["project"]), policy=POLICY,
                         env={"HOME": str(layout["home"])}, use_cache=False)  # fmt: skip
    call = ToolCall("bash", {"command": "cat /tmp/claude/x/tasks/b.output"}, str(layout["project"]))
    assert engine.check(call).action == "ask"
    assert "/tmp/claude" in HOST_FACTS.inside(str(layout["project"]), str(layout["home"]))


def test_explain_names_the_project_as_the_boundary(layout: dict[str, Path]) -> None:
    engine = Engine.load(cwd=str(layout["project"]), policy=POLICY,
                         env={"HOME": str(layout["home"])}, use_cache=False)  # fmt: skip
    decision = engine.check(ToolCall("bash", {"command": "ls .."}, str(layout["project"])))
    assert f"outside the project {layout['project']}" in decision.reason
    assert f"(outside {layout['project']})" in decision.paths[0].describe()


def test_explain_shows_what_counts_as_inside_and_which_directory_holds_each_path(
    layout: dict[str, Path],
) -> None:
    """The boundary line names the project and the further directories counted as inside
    (Claude Code's ``additionalDirectories``), and each path the directory that holds it."""
    from clearance.cli.render import explain_text

    settings = layout["project"] / ".claude"
    settings.mkdir()
    extra = layout["sibling"]
    (settings / "settings.json").write_text(
        json.dumps({"permissions": {"additionalDirectories": [str(extra)]}})
    )
    project = str(layout["project"])
    engine = Engine.load(cwd=project, policy=POLICY, env={"HOME": str(layout["home"])},
                         use_cache=False, host=AgentHostFacts())  # fmt: skip
    command = f"cat {extra}/notes.txt README.md /etc/hostname"
    decision = engine.check(ToolCall("bash", {"command": command}, project))
    text = explain_text(decision, engine.policy)
    boundary = next(line for line in text.splitlines() if line.startswith("outside means"))
    assert boundary.startswith(f"outside means outside: {project}; also inside: ")
    assert str(extra) in boundary
    assert f"{extra}/notes.txt  (inside {extra})" in text
    assert f"{project}/README.md  (inside {project})" in text
    assert f"/etc/hostname  (outside {project})" in text


def test_a_host_scratch_planted_as_a_link_puts_nothing_inside(
    layout: dict[str, Path], tmp_path: Path
) -> None:
    from clearance.hosts import facts

    home = str(layout["home"])
    for target in (layout["home"], Path("/"), layout["sibling"]):
        planted = tmp_path / f"claude-{target.name or 'root'}"
        planted.symlink_to(target)
        assert not facts._own_directory(str(planted))  # a link, not the host's own directory
        found = project_boundary(str(layout["project"]), home, (str(planted),))
        if target != layout["sibling"]:  # the home or a directory holding it: never inside
            assert not found.contains(str(layout["sibling"] / "notes.txt"))
    real = tmp_path / "claude-real"
    real.mkdir()
    assert facts._own_directory(str(real))
    assert facts._own_directory(str(tmp_path / "claude-missing"))
