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


def _setup() -> ModuleType:
    spec = importlib.util.spec_from_file_location("clearance_setup", TOP / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines the lists; setup() runs only as a script
    return module


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
