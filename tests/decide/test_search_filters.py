"""Grep's ``glob`` and Glob's ``pattern`` are paths: the path gates see them, spelled and expanded."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

P_ENV = {"*": "allow", "path": {"*.env": "deny"}}
P_SRC = {"*": "allow", "path": {"*/secret/*": "deny"}}


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    (tmp_path / "proj" / "src").mkdir(parents=True)
    (tmp_path / "proj" / "src" / "app.py").write_text("x")
    (tmp_path / "proj" / ".env").write_text("SECRET=1")
    (tmp_path / "proj" / "sub").mkdir()
    (tmp_path / "proj" / "sub" / ".env").write_text("SECRET=2")
    (tmp_path / "proj" / "secret").mkdir()
    (tmp_path / "proj" / "secret" / "notes.txt").write_text("s")
    (tmp_path / "home").mkdir()
    return tmp_path


def _decide(root: Path, policy: Mapping[str, object], tool: str, data: dict[str, str]) -> str:
    cwd = str(root / "proj")
    engine = Engine.load(
        cwd=cwd, policy=json.dumps({"permission": policy}), env={"HOME": str(root / "home")}
    )
    engine.grep_skips_hidden = True  # Claude Code's Grep, which runs ripgrep without --hidden
    return engine.check(ToolCall(tool, data, cwd)).action


@pytest.mark.parametrize(
    ("tool", "data", "expected"),
    [
        ("Grep", {"pattern": "SECRET", "glob": ".env"}, "deny"),
        ("Grep", {"pattern": "SECRET", "glob": "**/.env"}, "deny"),
        ("Grep", {"pattern": "SECRET", "glob": "*.env"}, "deny"),
        ("Grep", {"pattern": "SECRET", "glob": ".e*"}, "deny"),  # expands to .env
        ("Grep", {"pattern": "SECRET", "glob": "{.env,x}"}, "deny"),
        ("Grep", {"pattern": "SECRET", "glob": "**/*"}, "deny"),  # reaches .env
        ("Grep", {"pattern": "SECRET", "path": "{root}/proj/sub", "glob": ".e?v"}, "deny"),
        ("Grep", {"pattern": "x", "glob": "*.py"}, "allow"),
        ("Grep", {"pattern": "x", "path": "{root}/proj/src", "glob": "*.py"}, "allow"),
        ("Grep", {"pattern": "x"}, "allow"),
        ("Glob", {"pattern": "**/.env"}, "deny"),
        ("Glob", {"pattern": ".e*"}, "deny"),
        ("Glob", {"pattern": "*", "path": "{root}/proj/sub"}, "deny"),
        ("Glob", {"pattern": "src/*.py"}, "allow"),
        ("Glob", {"pattern": "*.py", "path": "{root}/proj/src"}, "allow"),
    ],
)
def test_a_search_filter_that_reaches_a_denied_file_is_denied(
    proj: Path, tool: str, data: dict[str, str], expected: str
) -> None:
    data = {k: v.replace("{root}", str(proj)) for k, v in data.items()}
    assert _decide(proj, P_ENV, tool, data) == expected


def test_path_joined_with_glob_meets_directory_rules(proj: Path) -> None:
    data = {"pattern": "s", "path": str(proj / "proj" / "secret"), "glob": "*.txt"}
    assert _decide(proj, P_SRC, "Grep", data) == "deny"
    data = {"pattern": "s", "path": str(proj / "proj"), "glob": "secret/*"}
    assert _decide(proj, P_SRC, "Grep", data) == "deny"
    assert _decide(proj, P_SRC, "Glob", {"pattern": "secret/*.txt"}) == "deny"
    assert _decide(proj, P_SRC, "Glob", {"pattern": "src/*"}) == "allow"


def test_a_filter_that_matches_nothing_is_still_checked_as_spelled(proj: Path) -> None:
    (proj / "proj" / ".env").unlink()
    (proj / "proj" / "sub" / ".env").unlink()
    assert _decide(proj, P_ENV, "Grep", {"pattern": "x", "glob": "prod.env"}) == "deny"
    assert _decide(proj, P_ENV, "Grep", {"pattern": "x", "glob": ".e*"}) == "allow"


def test_odd_filter_values_are_not_errors(proj: Path) -> None:
    for value in ("", "[", "{", "/", "~", "a\x00b"):
        assert _decide(proj, P_ENV, "Grep", {"pattern": "x", "glob": value}) in ("allow", "ask")
    assert _decide(proj, P_ENV, "Grep", {"pattern": "x", "glob": "**"}) == "deny"  # reaches .env
    assert _decide(proj, P_ENV, "Grep", {"pattern": "x", "glob": 3}) == "allow"  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("glob", "expected"),
    [
        # ripgrep's --glob whitelists what it matches, hidden files included: `**/` may be
        # no directory at all, `*` matches a leading dot (found by an adversarial review)
        ("**/.env*", "deny"),
        ("**/.*", "deny"),
        ("**/*", "deny"),
        ("*env", "deny"),
        ("{**/.env,x}", "deny"),
        ("**/*.py", "allow"),
        ("*.{py,ts}", "allow"),
        ("src/**", "allow"),
        ("src/**/*.py", "allow"),
        (".github/**", "allow"),
        (".venv/**", "deny"),
    ],
)
def test_a_grep_glob_reads_the_hidden_files_it_names(proj: Path, glob: str, expected: str) -> None:
    (proj / "proj" / "sub" / ".env").unlink()  # only the top .env, which no expansion lists
    (proj / "proj" / ".venv" / "lib").mkdir(parents=True)  # a hidden tree only a glob names
    (proj / "proj" / ".venv" / "lib" / "m.py").write_text("x")
    (proj / "proj" / ".venv" / "prod.env").write_text("SECRET=3")
    assert _decide(proj, P_ENV, "Grep", {"pattern": "SECRET", "glob": glob}) == expected
