"""Where a delimited sed or awk regex ends (``intent/shell/delimited.py``), checked against GNU
sed itself: a regex the reading places must be the one sed compiles."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.intent.shell.delimited import UNCLOSED, UNPLACED, regex_end

# (regex text after `s/`, where the bracket-aware reading ends it, or UNPLACED)
CASES: list[tuple[str, int]] = [
    ("[/]/X/g", 4),
    ("[^/]/X/g", 5),
    ("[a/]/X/g", 5),
    ("[0-9]/X/g", 6),
    ("[[:alpha:]]/X/g", 12),
    ("a[b]c/X/g", 6),
    ("[]/]/X/g", UNPLACED),
    ("[[:alpha:]/]/X/g", UNPLACED),
    ("[\\/]/X/g", UNPLACED),
    ("[\\t]/X/g", UNPLACED),
]


@pytest.mark.parametrize(("regex", "end"), CASES)
def test_the_reading_places_a_bracket_expression_as_its_cases_say(regex: str, end: int) -> None:
    assert regex_end(regex, 0, "/", True) == end


def _gnu_sed() -> str | None:
    sed = shutil.which("sed")
    if sed is None:
        return None
    version = subprocess.run([sed, "--version"], capture_output=True, text=True, check=False)
    return sed if "GNU sed" in version.stdout else None


@pytest.mark.skipif(_gnu_sed() is None, reason="GNU sed is not installed")
@pytest.mark.parametrize(("regex", "end"), [c for c in CASES if c[1] > 0])
def test_gnu_sed_ends_a_placed_regex_where_the_reading_does(regex: str, end: int) -> None:
    sed = _gnu_sed()
    assert sed is not None
    # The reading's regex, then an `e`-free replacement: sed must accept exactly that split.
    script = "s/" + regex[:end] + "Z/"
    done = subprocess.run(
        [sed, script], input="a/b]c\n", capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


@given(st.text(alphabet="[]^/\\:.=ab\n", max_size=20), st.sampled_from("/|,["))
def test_the_end_is_inside_the_text_or_a_reason(text: str, delimiter: str) -> None:
    for brackets in (True, False):
        end = regex_end(text, 0, delimiter, brackets)
        assert end in (UNCLOSED, UNPLACED) or 0 < end <= len(text)
        if end > 0:
            assert text[end - 1] == delimiter
    if delimiter not in text:
        assert regex_end(text, 0, delimiter, True) in (UNCLOSED, UNPLACED)
