"""Globs in redirect targets, against real bash (bubblewrap, strace).

bash expands a redirect word's glob only when it yields exactly one match; with none (nullglob
off) the literal word is the file name, and with more than one it is an "ambiguous redirect"
that opens nothing. Every file bash opens through such a redirect in the work directory or the
home must be one the gate judges: a token's path, or a match of its pattern.
"""

from __future__ import annotations

import os

import pytest
from differential_harness import Harness

from clearance.intent.glob import GLOB_CHARS, expand_pattern_bounded
from clearance.intent.shell import analyze

LINES = {
    # one match: bash writes the match
    "echo x > src/ap[p].py": "src/app.py",
    "echo x > R*.md": "README.md",
    "echo x >> ../home/.bash[r]c": "../home/.bashrc",
    "cat < dat[a].txt": "data.txt",
    # no match: the literal word names a new, oddly named file (harmless)
    "echo x > nomatch*": "nomatch*",
    "echo x > src/ap[q].py": "src/ap[q].py",
    # more than one match: an ambiguous redirect, nothing is opened
    "echo x > *": None,
}


def _judged(line: str, cwd: str, home: str) -> set[str]:
    out: set[str] = set()
    for token in analyze(line, cwd=cwd, home=home).paths:
        if token.path is None:
            continue
        out.add(token.path)
        if not GLOB_CHARS.isdisjoint(token.path):
            out.update(os.path.normpath(m) for m in expand_pattern_bounded(token.path)[0])
    return out


@pytest.mark.parametrize("line", list(LINES))
def test_what_bash_opens_through_a_globbed_redirect_is_judged(harness: Harness, line: str) -> None:
    sandbox = harness.sandbox
    work, home = str(sandbox.work), str(sandbox.home)
    (trace,) = sandbox.run([line])
    paths = {os.path.normpath(os.path.join(work, p)) for p in trace.opened}
    # Directories bash reads to match the pattern are not what the redirect opens.
    opened = {p for p in paths if p.startswith((work + "/", home + "/")) and not os.path.isdir(p)}
    expected = LINES[line]
    if expected is None:
        assert not opened, trace.stderr
        assert "ambiguous redirect" in trace.stderr
        return
    assert os.path.normpath(os.path.join(work, expected)) in opened, (opened, trace.stderr)
    assert opened <= _judged(line, work, home), opened
