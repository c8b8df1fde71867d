"""``~name`` reaches the decision of the home directory it names: bash looks the login name up
in the password database, and so does the analysis (intent/shell/tilde.py); a name it cannot
look up is no known path, and asks. Through the real engine under the built-in policy."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.shell.tilde import login_home, user_path

pwd = pytest.importorskip("pwd")


def _engine(root: Path, home: str) -> tuple[Engine, str]:
    project = root / "proj"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    (project / "build").mkdir(exist_ok=True)
    env = {"HOME": home, "XDG_CONFIG_HOME": str(root / "cfg"), "CLEARANCE_HOME": str(root / "st")}
    return Engine.load(cwd=str(project), env=env, use_cache=False), str(project)


def _action(engine: tuple[Engine, str], line: str) -> str:
    found, cwd = engine
    return found.check(ToolCall("bash", {"command": line}, cwd)).action


@pytest.fixture(scope="module")
def root_home() -> str:
    try:
        return str(pwd.getpwnam("root").pw_dir)
    except KeyError:
        pytest.skip("no root in the password database")


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, str]:
    root = tmp_path_factory.mktemp("tilde").resolve()
    return _engine(root, str(root / "home"))


def test_root_s_home_is_removed_as_its_path_is(engine, root_home: str) -> None:  # type: ignore[no-untyped-def]
    for suffix in ("", "/"):
        line, path = f"rm -rf ~root{suffix}", f"rm -rf {root_home}{suffix}"
        assert _action(engine, line) == _action(engine, path), line
    if root_home == "/root":  # Linux: a top-level system directory
        assert _action(engine, "rm -rf ~root") == "deny"
        assert _action(engine, "rm -r ~root/") == "deny"
        assert _action(engine, "sudo rm -fr ~root") == "deny"


_SEGMENTS = ["x", ".ssh", "id_rsa", "..", ".", "build", ".bashrc"]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["rm -rf", "cat", "rm", "ls", "mv", "cp -r"]),
    st.lists(st.sampled_from(_SEGMENTS), min_size=1, max_size=3),
)
def test_a_path_beneath_tilde_root_is_judged_as_the_path(  # type: ignore[no-untyped-def]
    engine, root_home: str, command: str, segments: list[str]
) -> None:
    rest = "/".join(segments)
    tail = " /tmp/x" if command in ("mv", "cp -r") else ""
    assert _action(engine, f"{command} ~root/{rest}{tail}") == _action(
        engine, f"{command} {root_home.rstrip('/')}/{rest}{tail}"
    )


def test_the_user_s_own_name_is_the_home_directory(tmp_path: Path) -> None:
    try:
        entry = pwd.getpwuid(os.getuid())
    except KeyError:
        pytest.skip("this user is not in the password database")
    if entry.pw_dir[:1] != "/":
        pytest.skip("this user's home is no absolute path")
    engine = _engine(tmp_path.resolve(), entry.pw_dir)
    assert _action(engine, "rm -rf ~") == "deny"
    assert _action(engine, f"rm -rf ~{entry.pw_name}") == "deny"
    assert _action(engine, f"rm -fr ~{entry.pw_name}/") == "deny"
    # ... and what lies beneath it asks as it does today
    assert _action(engine, f"rm -rf ~{entry.pw_name}/x") == _action(engine, "rm -rf ~/x")


def test_a_name_not_known_here_asks_and_its_twins_ask_as_before(engine) -> None:  # type: ignore[no-untyped-def]
    assert login_home("clearance-no-such-user") is None
    for line in (
        "rm -rf ~clearance-no-such-user",
        "rm -rf ~clearance-no-such-user/x",
        "cat ~+/x",
        "rm -rf ~-",
        "rm -rf ~2",
        "rm -rf ~-1",
    ):
        assert _action(engine, line) == "ask", line
    for line in ("rm -rf ./build", "rm -rf build", "rm -rf ~/proj/build"):
        assert _action(engine, line) == "ask", line


def test_only_a_login_name_is_looked_up() -> None:
    for word in ("~+", "~-", "~2", "~+1", "~-1", "~clearance-no-such-user/x"):
        assert user_path(word) is None, word
    home = login_home("root")
    if home is not None:
        assert user_path("~root") == home
        assert user_path("~root/a/b") == home.rstrip("/") + "/a/b"


@pytest.mark.parametrize("spelling", ["{h}/", "{h}/.", "{d}//home", "{d}/./home"])
def test_a_home_spelled_unusually_still_meets_its_rules(tmp_path: Path, spelling: str) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("key\n")
    given_home = spelling.format(h=home, d=tmp_path)
    engine = _engine(tmp_path, given_home)
    for line in ("cat ~/.ssh/id_rsa", f"cat {home}/.ssh/id_rsa", "grep -r x ~/.ssh"):
        assert _action(engine, line) == "deny", (given_home, line)
