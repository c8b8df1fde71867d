"""Shared helpers for the bash analyzer tests: a fixed cwd and home, a fake filesystem."""

from __future__ import annotations

from typing import Any

from clearance.intent.shell import Analysis, analyze, parser
from clearance.intent.shell.source import Source
from clearance.intent.shell.statement import Scope
from clearance.intent.shell.walk import Walk
from clearance.intent.shell.word import Word

CWD = "/work/proj"
HOME = "/home/me"
# The entries that "exist" for bare-token candidacy (docs/shell-analysis.md, "Paths").
EXISTING = frozenset(
    {
        "/work/proj/README.md",
        "/work/proj/src",
        "/work/proj/data.txt",
        "/work/proj/Makefile",
        "/work/proj",
        "/work/proj/notes",
        "/tmp/build",
    }
)


# The directories a `cd` enters (probed as `DIR/.`: a searchable directory).
DIRECTORIES = frozenset({"/work/proj", "/work/proj/src", "/tmp", "/tmp/build"})


def exists(path: str) -> bool:
    if path.endswith("/."):
        return path[:-2] in DIRECTORIES
    return path in EXISTING


def run(command: str, *, cwd: str | None = CWD, home: str = HOME) -> Analysis:
    return analyze(command, cwd=cwd, home=home, exists=exists)


def parse_words(line: str) -> list[Word]:
    """The words of the one simple command ``line``, as the analysis walks them."""
    src = Source(line)
    walk = Walk(src, True, True)
    walk.run(parser.parse(src.parsed), "", Scope(None))
    return list(walk.statements[0].words)


def unit_fields(analysis: Analysis) -> list[tuple[Any, ...]]:
    return [
        (u.text, u.context, u.wrapper, u.executed, u.exemption, u.unresolved)
        for u in analysis.units
    ]


def expected_fields(spec: str | tuple[str, dict[str, Any]]) -> tuple[Any, ...]:
    text, fields = (spec, {}) if isinstance(spec, str) else spec
    return (
        text,
        fields.get("context", ""),
        fields.get("wrapper"),
        fields.get("executed"),
        fields.get("exemption"),
        fields.get("unresolved", False),
    )
