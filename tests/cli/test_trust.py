"""``clearance trust``: a project's config loads only once its directory is trusted."""

from __future__ import annotations

from clearance.cli import main


def test_trust_makes_the_project_config_count(world, capsys) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config='{"permission": {"bash": {"make *": "allow"}}}')
    assert main(["check", "--cwd", str(project), "bash", "make test"]) == 3
    err = capsys.readouterr().err
    assert "not trusted" in err and f"clearance trust {project}" in err
    assert main(["trust", str(project)]) == 0
    assert f"trusted: {project}" in capsys.readouterr().out
    assert main(["check", "--cwd", str(project), "bash", "make test"]) == 0
    assert main(["trust", "--list"]) == 0
    assert str(project) in capsys.readouterr().out
    assert main(["trust", "--remove", str(project)]) == 0
    assert main(["check", "--cwd", str(project), "bash", "make test"]) == 3


def test_trusting_a_missing_directory_fails(world, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["trust", str(world.root / "missing")]) == 1


def test_trust_from_a_subdirectory_trusts_the_project_root(world, capsys) -> None:  # type: ignore[no-untyped-def]
    project = world.project(config='{"permission": {"bash": {"make *": "allow"}}}')
    deep = project / "src" / "deep"
    deep.mkdir(parents=True)
    assert main(["trust", str(deep)]) == 0
    assert f"trusted: {project}" in capsys.readouterr().out
    assert main(["check", "--cwd", str(deep), "bash", "make test"]) == 0


def test_a_repository_nested_in_a_trusted_one_is_not_trusted(world, capsys) -> None:  # type: ignore[no-untyped-def]
    project = world.project()
    nested = project / "vendor" / "evil"
    (nested / ".git").mkdir(parents=True)
    (nested / ".clearance").mkdir()
    (nested / ".clearance" / "config.jsonc").write_text('{"permission": {"bash": "allow"}}')
    assert main(["trust", str(project)]) == 0
    assert main(["check", "--cwd", str(nested), "bash", "rm -rf ~"]) == 4
    assert "not trusted" in capsys.readouterr().err
