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
