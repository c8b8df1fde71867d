"""The build: the modules every bash decision runs through are compiled with mypyc when a C
compiler and Python's headers are at hand (docs/decisions/0058-hot-modules-compiled.md).

The compiled modules are the same source, type-checked by ``mypy --strict``; the ``.py`` files
ship beside them, and Python imports the compiled one first. Without a compiler, or with
``CLEARANCE_PURE=1`` in the environment, clearance installs as plain Python and decides the
same way, about half as fast on a bash line.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig

from setuptools import setup

# Compiled: the shell analysis (intent/shell and its hazards), the path facts, the rule
# matching and the bash and path gates, which is where a bash decision spends its time. Not
# compiled: the values built without calling their class, the plain build's fast path (ADR 0001:
# analyzed.py, token.py, unit.py, intent/fact.py); analysis.py, the entry point that turns any
# failure of the reading into the fail-closed analysis; derived.py, which subclasses a built-in
# type, as a compiled class cannot; names.py, whose tables mypyc types more narrowly than they
# are built. Nor the engine, the other gates or the CLI, whose functions tests replace (a
# compiled caller would not see it). tests/test_compiled.py checks these lists against the tree.
SKIPPED = ("analysis", "analyzed", "derived", "names", "token", "unit")
COMPILED_ELSEWHERE = (
    "intent/path.py",
    "policy/rule.py",
    "policy/rule_index.py",
    "policy/wildcard.py",
    "policy/command_rule.py",
    "policy/program_grammar.py",
    "decide/fold.py",
    "decide/gates/bash.py",
    "decide/gates/operands.py",
    "decide/gates/path.py",
)


def compiled_modules(root: str = "src/clearance") -> list[str]:
    """The source files compiled, under ``root``, in a stable order."""
    out = []
    for folder in ("intent/shell", "intent/shell/hazards"):
        where = os.path.join(root, folder)
        for name in sorted(os.listdir(where)):
            if name.endswith(".py") and name[:-3] not in SKIPPED:
                out.append(os.path.join(where, name))
    return out + [os.path.join(root, path) for path in COMPILED_ELSEWHERE]


def _compiler_missing() -> str | None:
    """Why nothing can be compiled here, or ``None`` when it can."""
    if os.environ.get("CLEARANCE_PURE"):
        return "CLEARANCE_PURE is set"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on PATH"
    include = sysconfig.get_paths().get("include", "")
    if not os.path.exists(os.path.join(include, "Python.h")):
        return f"no Python.h in {include} (install the Python development headers)"
    return None


def _extensions() -> list[object]:
    reason = _compiler_missing()
    if reason is not None:
        print(f"clearance: installing as plain Python: {reason}", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    # One shared library, clearance__mypyc, holds the compiled code; each module is a stub.
    # Asserts are kept: they are checks, not debugging aids.
    return list(mypycify(compiled_modules(), opt_level="3", group_name="clearance"))


if __name__ == "__main__":
    setup(ext_modules=_extensions())
