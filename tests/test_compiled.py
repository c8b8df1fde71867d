"""The modules setup.py compiles with mypyc (ADR 0058): the list names real modules, and an
install compiles all of them or none, never a mix left from an older list."""

from __future__ import annotations

import importlib
import importlib.util
import sysconfig
from pathlib import Path
from types import ModuleType

TOP = Path(__file__).resolve().parent.parent
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _setup() -> ModuleType:
    return _load("clearance_setup", TOP / "setup.py")  # setup() runs only as a script


def _listed() -> list[str]:
    """The compiled modules' names, as imported."""
    out = []
    for path in _setup().compiled_modules(str(TOP / "src" / "clearance")):
        relative = Path(path).relative_to(TOP / "src").with_suffix("")
        out.append(".".join(relative.parts))
    return out


def test_the_list_names_modules_of_the_tree() -> None:
    setup = _setup()
    listed = _listed()
    assert "clearance.intent.shell.assembly" in listed
    assert "clearance.policy.rule_index" in listed
    shell = TOP / "src" / "clearance" / "intent" / "shell"
    for name in setup.SKIPPED:
        assert (shell / f"{name}.py").exists(), f"setup.py skips {name}.py, which is gone"
        assert f"clearance.intent.shell.{name}" not in listed


def test_all_or_none_of_the_listed_modules_are_compiled() -> None:
    listed = set(_listed())
    compiled = {
        ".".join(path.relative_to(TOP / "src").parts)[: -len(SUFFIX)]
        for path in (TOP / "src" / "clearance").glob(f"**/*{SUFFIX}")
    }
    assert compiled <= listed, f"compiled but no longer listed: {sorted(compiled - listed)}"
    loaded = {name for name in listed if _is_compiled(importlib.import_module(name))}
    assert loaded in (set(), listed), f"only some are compiled: {sorted(listed - loaded)}"


def _is_compiled(module: ModuleType) -> bool:
    return str(module.__file__).endswith(SUFFIX)


# Decides each line of a file of JSON lines under the built-in policy and a deny-list, in the
# directory and home given, and prints every decision: run once on the installed (compiled)
# modules and once on a plain copy of the sources.
_DECIDE = """
import json, sys
from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
lines_file, project, home, denylist = sys.argv[1:5]
import clearance.intent.shell.assembly as assembly
print(assembly.__file__.endswith(".py"))
env = {"HOME": home}
engines = [Engine.load(cwd=project, policy=p, env=env) for p in (None, denylist)]
for line in json.load(open(lines_file)):
    for engine in engines:
        d = engine.check(ToolCall("bash", {"command": line}, project))
        print(json.dumps([d.action, d.reason, [g.sentinel for g in d.gates]]))
"""


def test_the_plain_build_decides_as_the_compiled_one(tmp_path: Path) -> None:
    """Every line of the shell corpus and of the attack table gets the same decision from the
    compiled modules and from their plain source (an install without a compiler)."""
    import json
    import os
    import re
    import shutil
    import subprocess
    import sys

    import pytest

    if not _is_compiled(importlib.import_module("clearance.intent.shell.assembly")):
        pytest.skip("this install is plain Python: there is no other build to compare")
    attack_table = _load("attack_table_rows", TOP / "tests" / "decide" / "attack_table.py")

    lines = [
        line.rstrip("\n").replace("\\n", "\n")
        for line in (TOP / "bench" / "shell_corpus.txt").read_text().splitlines()
        if line.strip()
    ]
    for value in vars(attack_table).values():
        if isinstance(value, list) and value and isinstance(value[0], tuple):
            lines.extend(row[0] for row in value if isinstance(row[0], str))
    home = tmp_path / "home"
    project = home / "proj"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("not a real key\n")
    (project / "src").mkdir(parents=True)
    (project / "src" / "a.py").write_text("print(1)\n")
    (project / ".env").write_text("KEY=1\n")
    (project / "link").symlink_to(home / ".ssh" / "id_rsa")
    listed = tmp_path / "lines.json"
    listed.write_text(json.dumps(lines))
    plain = tmp_path / "plain"
    shutil.copytree(
        TOP / "src" / "clearance",
        plain / "clearance",
        ignore=shutil.ignore_patterns(f"*{SUFFIX}", "__pycache__"),
    )
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"))
    env.pop("PYTHONPATH", None)
    args = [sys.executable, "-c", _DECIDE, str(listed), str(project), str(home)]
    args.append(json.dumps(attack_table.DENYLIST))
    runs = []
    for path in (None, plain):
        run_env = dict(env, CLEARANCE_HOME=str(tmp_path / f"state-{path is None}"))
        if path is not None:
            run_env["PYTHONPATH"] = str(path)
        done = subprocess.run(args, env=run_env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        # (a reason may name clearance's own process: `/dev/fd/3` resolves through it)
        runs.append(re.sub(r"/proc/[0-9]+", "/proc/PID", done.stdout).splitlines())
    assert [run.pop(0) for run in runs] == ["False", "True"]  # which build each run used
    compiled, plain_run = runs
    assert len(compiled) == 2 * len(lines)
    differ = [
        (lines[i // 2], one[:300], other[:300])
        for i, (one, other) in enumerate(zip(compiled, plain_run, strict=True))
        if one != other
    ]
    assert not differ, differ[:5]
