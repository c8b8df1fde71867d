"""Brace expansion, each alternative resolved on its own, through the real engine and the
built-in policy (a real home and project in ``tmp_path``), with benign twins."""

from __future__ import annotations

from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell.brace import expand

CASES = [
    ("cat {,~/.ssh/id_rsa}", "deny"),
    ("cat {~/.ssh/id_rsa,}", "deny"),
    ("cat x{,~/.ssh/id_rsa}", "allow"),  # `x~/.ssh/id_rsa`: no tilde inside a word
    ("cat ~/{.ssh,x}/id_rsa", "deny"),
    ("cat {a,{b,~/.ssh/id_rsa}}", "deny"),
    ("cat " + "{a,b}" * 30, "ask"),  # past the cap: ask, never a partial answer
    ("cat src/{a,b}.py", "allow"),
    ("echo {1..5}", "allow"),
    ("echo {a..c}", "allow"),
    ("cat '{a,~/.ssh/id_rsa}'", "allow"),  # quoted: literal
]


@pytest.mark.parametrize(("command", "decision"), CASES)
def test_brace_alternatives_are_decided_one_by_one(
    tmp_path: Path, command: str, decision: str
) -> None:
    home = tmp_path / "home"
    proj = home / "proj"
    (proj / "src").mkdir(parents=True)
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_rsa").write_text("")
    engine = Engine.load(cwd=str(proj), env={"HOME": str(home)})
    found = engine.check(ToolCall("bash", {"command": command}, str(proj)))
    assert found.action == decision, found.reason


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{,/abs}x", ["x", "/absx"]),
        ("src/{a,b}.py", ["src/a.py", "src/b.py"]),
        ("{1..3}", ["1", "2", "3"]),
        ("{3..1}", ["3", "2", "1"]),
        ("{01..03}", ["01", "02", "03"]),
        ("{a..c}", ["a", "b", "c"]),
        ("{a,{b,c}}d", ["ad", "bd", "cd"]),
        ("\\{a,b}", ["\\{a,b}"]),
        ("'{a,b}'", ["'{a,b}'"]),
        ("{a}", ["{a}"]),
        ("${x}", ["${x}"]),
        ("{rm,-rf,x}", ["rm", "-rf", "x"]),
    ],
)
def test_brace_words(text: str, words: list[str]) -> None:
    assert expand(text) == words


def test_a_cap_makes_the_expansion_unknown() -> None:
    assert expand("{a,b}" * 30) is None
    assert expand("{1..100000000}") is None


def test_a_glob_past_its_bound_asks(tmp_path: Path) -> None:
    home = tmp_path / "home"
    proj = home / "proj"
    proj.mkdir(parents=True)
    many = tmp_path / "many"
    many.mkdir()
    for i in range(300):
        (many / f"f{i}").write_text("")
    engine = Engine.load(cwd=str(proj), env={"HOME": str(home)})
    found = engine.check(ToolCall("bash", {"command": f"ls {proj}/../../many/*"}, str(proj)))
    assert found.action != "allow", found.reason


def test_pathological_lines_complete_with_ask_or_deny(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_pathological",
        Path(__file__).resolve().parents[2] / "bench" / "bench_pathological.py",
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    proj = tmp_path / "proj"
    proj.mkdir()
    engine = Engine.load(cwd=str(proj), env={"HOME": str(tmp_path)})
    for name, line in module.pathological_lines():
        found = engine.check(ToolCall("bash", {"command": line}, str(proj)))
        if name not in module.UNDERSTOOD:
            assert found.action in ("ask", "deny"), (name, found.reason)
