"""Shared fixtures: every test runs with its own HOME, config home and state root."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile clearance's sources to bytecode once, before any test starts a process.

    The suite runs thousands of real ``clearance`` processes. Where bytecode is never written
    (``PYTHONDONTWRITEBYTECODE``, as on CI), each one would otherwise compile every module it
    loads from source, three times the cost of a warm start: the suite ran slower, and dozens
    of hooks started at once loaded the machine far more than an installed clearance does
    (pip compiles what it installs)."""
    import compileall

    compileall.compile_dir(str(SRC / "clearance"), quiet=2)
    stale = _stale_compiled()
    if stale:
        pytest.exit(
            f"{len(stale)} compiled module(s) are older than their source, so the tests would run"
            f" the old code: {', '.join(stale[:3])}. Build them again with `.venv/bin/pip install"
            " -e .`, or remove them (`find src -name '*.so' -delete`) to test the plain Python"
            " (docs/decisions/0058-hot-modules-compiled.md).",
            returncode=2,
        )


def _stale_compiled() -> list[str]:
    """The modules compiled in place by an editable install whose ``.py`` changed since."""
    out = []
    for compiled in sorted(SRC.glob("clearance/**/*.so")):
        source = compiled.with_name(compiled.name.partition(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > compiled.stat().st_mtime:
            out.append(str(source.relative_to(SRC)))
    return out


@pytest.fixture(autouse=True)
def _no_deadline_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decisions made inside the test process run without the two-second deadline, and their
    patterns' expansions without the 50 ms one.

    The deadline is a bound on time, and a test asserts no time: on a loaded machine a decision
    a test expects could come out ``<analysis-deadline>`` instead. The deadline's own tests set
    it explicitly (``tests/decide/test_deadline.py``); the real ``clearance`` processes the
    suite starts keep it."""
    from clearance.decide import engine
    from clearance.intent import glob

    monkeypatch.setattr(engine, "SECONDS", 60.0)
    # So with the 50 ms a pattern's expansion may take: a test that sees `npm i *.tgz` allowed
    # saw it ask on a loaded machine, the bound reached (`<code-running-option>`).
    monkeypatch.setattr(glob, "_DEADLINE", 10.0)


class World:
    """An isolated user: home, config home, state root, and helpers to write files there."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.config_home = root / "config"
        self.state = root / "state"
        for directory in (self.home, self.config_home):
            directory.mkdir(parents=True, exist_ok=True)

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLEARANCE_")}
        env.update(
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(self.config_home),
            XDG_STATE_HOME=str(self.root / "xdg-state"),
            CLEARANCE_HOME=str(self.state),
        )
        return env

    def global_config(self, text: str) -> Path:
        path = self.config_home / "clearance" / "config.jsonc"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def project(self, name: str = "proj", config: str | None = None) -> Path:
        project = self.home / name
        (project / ".git").mkdir(parents=True, exist_ok=True)
        if config is not None:
            (project / ".clearance").mkdir(exist_ok=True)
            (project / ".clearance" / "config.jsonc").write_text(config)
        return project

    def run(self, *args: str, stdin: str | None = None, cwd: Path | None = None):  # type: ignore[no-untyped-def]
        """Run the real ``clearance`` command in a subprocess."""
        return subprocess.run(
            [sys.executable, "-m", "clearance", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env={**self.env, "PYTHONPATH": str(SRC)},
            cwd=str(cwd or self.home),
            timeout=60,
        )


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    w = World(tmp_path)
    for key in list(os.environ):
        if key.startswith("CLEARANCE_"):
            monkeypatch.delenv(key)
    for key, value in w.env.items():
        if os.environ.get(key) != value:
            monkeypatch.setenv(key, value)
    monkeypatch.chdir(w.home)
    return w
