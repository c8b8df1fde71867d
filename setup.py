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

# Compiled: the shell analysis and the rule matching, which is where a bash decision spends its
# time. Not compiled: modules that build their objects without calling the class (the fast
# paths of word.py, token.py, unit.py, folding.py, analysis.py) or that subclass a built-in
# type (derived.py), which compiled classes cannot do, and names.py, whose tables mypyc
# mis-types at import. tests/test_compiled.py checks this list against the tree.
SKIPPED = ("analysis", "derived", "folding", "names", "token", "unit", "word")
COMPILED_ELSEWHERE = ("policy/rule.py", "policy/rule_index.py", "policy/wildcard.py")


def compiled_modules(root: str = "src/clearance") -> list[str]:
    """The source files compiled, relative to the project's top, in a stable order."""
    shell = os.path.join(root, "intent", "shell")
    names = sorted(
        name for name in os.listdir(shell) if name.endswith(".py") and name[:-3] not in SKIPPED
    )
    return [os.path.join(shell, name) for name in names] + [
        os.path.join(root, path) for path in COMPILED_ELSEWHERE
    ]


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
