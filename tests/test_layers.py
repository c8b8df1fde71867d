"""The layering of docs/architecture.md §1: imports flow down only, and no host is named below ``hosts``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "clearance"

# What each layer may import (besides itself and the private top-level helpers).
ALLOWED = {
    "policy": set(),
    "intent": {"policy"},
    "decide": {"policy", "intent"},
    "audit": {"policy"},
    "authority": {"policy", "intent", "decide"},
    "hosts": {"policy", "intent", "decide", "authority", "audit", "cli"},
    "service": {"policy", "intent", "decide", "authority", "audit", "hosts"},
    "cli": {"policy", "intent", "decide", "authority", "audit", "hosts", "service"},
}
HELPERS = {"_display", "_forwarded_events", "_fault", "_frozen", "_json"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_module_imports_only_from_its_own_layer_or_below(path: Path) -> None:
    layer = path.relative_to(PACKAGE).parts[0]
    for name in imports_of(path):
        parts = name.split(".")
        if parts[0] != "clearance" or len(parts) < 2:
            continue
        target = parts[1]
        if target in HELPERS or target == layer or target == "__version__":
            continue
        assert target in ALLOWED[layer], f"{path.relative_to(PACKAGE)} imports {name} (upward)"


@pytest.mark.parametrize("layer", ["policy", "intent", "decide", "authority", "audit"])
def test_no_host_is_named_below_the_hosts_layer(layer: str) -> None:
    for path in (PACKAGE / layer).rglob("*.py"):
        # The agent-definition directory ``.claude/agents`` is a file location docs/configuration.md, "Where configuration lives (scopes)" names;
        # anything else that names a host belongs in ``hosts``.
        text = (
            path.read_text(encoding="utf-8").lower().replace('".claude"', "").replace(".claude", "")
        )
        assert "claude" not in text, f"{path.relative_to(PACKAGE)} names a host"
