"""Extract the cases of two destructive-command guards' public test suites for bench_guard.

Run: .venv/bin/python bench/corpus/guard_cases.py [--out FILE] SAFETY_NET_GIT_DIR DCG_GIT_DIR

Each GIT_DIR is a local git directory (bare or not) holding a snapshot of claude-code-safety-net
or destructive_command_guard (``SOURCES.md`` names both); which one it is follows from the files
it holds, and the snapshot commit ``SOURCES.md`` records is read when the directory has it, else
``HEAD``. Every command a suite's tests assert blocked or allowed is read from its test sources
(the string literals of its assertion calls, the rows of its tables and the lines of its
fixture files, never by running them) and written to ``--out`` (default
``/root/.cache/clearance-guard-suites/guard_suites.py``; directory 0700, file 0600, written
atomically) as ``CASES = [(suite, file, command, verdict), ...]``. A command is kept once per
suite, under the first file that asserts it; its verdict is ``destructive`` when the suite
blocks it in any of its settings (with the settings in brackets when not in the default one,
e.g. ``destructive (strict)`` or ``destructive (pack database.postgresql)``), else ``safe``.
The counts per suite and file, and the assertions that could not be read statically (a command
computed at run time, an outcome not asserted in a form read here), are printed to stderr.
Nothing from the snapshots is kept in this repository: this script only reads them.
"""

from __future__ import annotations

import collections
import os
import sys
from collections.abc import Callable, Iterator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gather import Snapshot, arguments, write_private
from suite_dcg import dcg
from suite_safety_net import safety_net
from suite_tokens import Found, Skipped

OUT = "/root/.cache/clearance-guard-suites/guard_suites.py"
SAFETY_NET = "claude-code-safety-net"
DCG = "destructive_command_guard"


# (name, a path only that snapshot holds, the commit SOURCES.md records, reader)
Reader = Callable[[Snapshot, Skipped], Iterator[Found]]
SOURCES: list[tuple[str, str, str, Reader]] = [
    (SAFETY_NET, "tests/core/rules-git.test.ts", "1819ca2d", safety_net),
    (DCG, "tests/corpus/canonical.toml", "1a524151", dcg),
]


def identify(git_dir: str) -> tuple[str, Snapshot, Reader]:
    for name, marker, commit, reader in SOURCES:
        snap = Snapshot(git_dir, commit)
        if marker in snap.paths:
            return name, snap, reader
    raise SystemExit(f"{git_dir}: not a snapshot of either suite SOURCES.md names")


def cases(found: list[Found], suite: str) -> list[tuple[str, str, str, str]]:
    """One case per command: under its first file, destructive when any assertion blocks it
    (its settings named unless one is the default), else safe."""
    order: dict[str, str] = {}
    blocked: dict[str, set[str]] = collections.defaultdict(set)
    for path, command, is_blocked, setting in found:
        order.setdefault(command, path)
        if is_blocked:
            blocked[command].add(setting)
    out = []
    for command, path in order.items():
        settings = blocked.get(command)
        if settings is None:
            verdict = "safe"
        elif "" in settings:
            verdict = "destructive"
        else:
            verdict = f"destructive ({'; '.join(sorted(settings))})"
        out.append((suite, path, command, verdict))
    return out


def render(all_cases: list[tuple[str, str, str, str]], origins: list[str]) -> str:
    lines = [
        '"""Cases of public guard test suites for bench/bench_guard.py (third-party data, never',
        "committed). Written by bench/corpus/guard_cases.py from:",
        *(f"  {origin}" for origin in origins),
        '"""',
        "",
        "CASES = [",
        *(f"    {case!r}," for case in all_cases),
        "]",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    out, argv = arguments(argv, OUT, __doc__)
    all_cases: list[tuple[str, str, str, str]] = []
    origins: list[str] = []
    for git_dir in argv:
        name, snap, reader = identify(git_dir)
        skipped = Skipped()
        found = list(reader(snap, skipped))
        mine = cases(found, name)
        all_cases += mine
        origins.append(f"{name} at {snap.commit}")
        bad = sum("destructive" in c[3] for c in mine)
        print(
            f"{name} at {snap.commit}: {len(found)} assertions, {len(mine)} cases "
            f"({bad} destructive, {len(mine) - bad} safe)",
            file=sys.stderr,
        )
        per_file = collections.Counter(c[1] for c in mine)
        for path, count in sorted(per_file.items()):
            print(f"  {count:5} {path}", file=sys.stderr)
        for why, count in sorted(skipped.items()):
            print(f"  not read: {count:4} {why}", file=sys.stderr)
    write_private(out, render(all_cases, origins), ".guard_suites-")
    print(f"{len(all_cases)} cases written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
