"""The one reading of a sed script (``intent/shell/sed.py``): the read claim of ``effect`` and the
knowledge base's findings come from the same scan, so a script the claim calls a read is one
the knowledge base finds nothing in."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.intent.shell.hazards.finding import Finding
from clearance.intent.shell.hazards.text import sed_script
from clearance.intent.shell.sed import commands, reads_only
from conftest import run

_PIECES = st.sampled_from(
    [*"spyewWrRaicbt:T#lLqQPnNdDgGhHxz=Fv/\\ ;\n{}!,1$~+|[]()",
     "s/a/b/", "s/a/b/w out", "s/a/b/e", "/re/", "\\%re%", "1,+2", "y/ab/cd/", "w f", "r f\n",
     "s[a[b[", "s a b "]
)  # fmt: skip


@given(st.lists(_PIECES, max_size=10).map("".join))
def test_a_script_the_claim_reads_is_one_the_knowledge_base_finds_nothing_in(script: str) -> None:
    finding = Finding()
    sed_script(finding, script)
    if reads_only(script):
        assert not finding
    if not commands(script)[1]:
        assert finding.floor is not None


@pytest.mark.parametrize(
    ("script", "found"),
    [
        ("1,+2p", [("p", "", "")]),
        ("s[a[b[g", [("s", "g", "")]),
        ("/x/{s/a/b/w out\nd}", [("s", "w", "out"), ("d", "", "")]),
        ("\\%x%e id", [("e", "", "id")]),
        ("y/ab/cd/;q 5", [("y", "", ""), ("q", "", "")]),
        # GNU sed ends a label at a blank: `:x e` is a label, then `e` (it runs the line)
        (":x e", [(":", "", ""), ("e", "", "")]),
        ("bx ; :x\tw out", [("b", "", ""), (":", "", ""), ("w", "", "out")]),
        ("t end r f", [("t", "", ""), ("r", "", "f")]),
        (":a;N;$!ba;p", [(":", "", ""), ("N", "", ""), ("b", "", ""), ("p", "", "")]),
        ("/x/{p;q}", [("p", "", ""), ("q", "", "")]),
        ("p;# e x", [("p", "", ""), ("#", "", "")]),
    ],
)
def test_a_script_is_split_into_its_commands(
    script: str, found: list[tuple[str, str, str]]
) -> None:
    assert commands(script) == (found, True)


@pytest.mark.parametrize(
    ("line", "effect"),
    [
        # read: the operand is only read (GNU sed accepts `+N` addresses and any delimiter)
        ("sed -n '1,+2p' data.txt", "read"),
        ("sed -n 's[a[b[p' data.txt", "read"),
        ("sed -n '\\%x%p' data.txt", "read"),
        # the twins that do more than read: the operand's direction is not proven
        ("sed -n '1,+2w out' data.txt", "unproven"),
        ("sed 's[a[b[w out' data.txt", "unproven"),
        ("sed '\\%x%e id' data.txt", "unproven"),
        ("sed 's/a/b/' -i data.txt", "unproven"),
    ],
)
def test_the_read_claim_follows_the_one_reading(line: str, effect: str) -> None:
    tokens = [t for t in run(line).paths if t.raw == "data.txt"]
    assert [t.effect for t in tokens] == [effect]
