"""No import cycle among the modules of ``policy``, ``decide``, ``audit`` and ``cli``.

An import anywhere in a module counts (at the top, inside a function, or for type checking
only): two modules that need each other are one module written in two files.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
LAYERS = ("policy", "decide", "audit", "cli")


def _graph() -> dict[str, set[str]]:
    modules = {}
    for path in (SRC / "clearance").rglob("*.py"):
        name = ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph[name])
    return seen


GRAPH = _graph()


@pytest.mark.parametrize(
    "module",
    sorted(m for m in GRAPH if m.partition(".")[2].partition(".")[0] in LAYERS),
    ids=lambda m: m,
)
def test_no_module_imports_one_that_imports_it_back(module: str) -> None:
    back = sorted(m for m in GRAPH[module] if module in _reaches(GRAPH, m) or m == module)
    assert not back, f"{module} and {back} import each other (directly or through others)"
