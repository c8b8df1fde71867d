"""Absolute forms of path tokens: string shortcuts must agree with os.path."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.intent.shell.assembly import normalise_cwd
from clearance.intent.shell.options import is_assignment
from clearance.intent.shell.token import absolute, path_shaped

SEGMENTS = ["a", "b", ".", "..", "", ".x", "x.", "...", "~", "a b", "-"]
CWDS = ["/", "//", "/w", "//w", "///w", "/w/", "/w/x", "/w/./x", "/w/../x", "/w/.hidden"]


def _reference(value: str, base: str | None) -> str | None:
    if not value.startswith("/"):
        if base is None:
            return None
        value = os.path.join(base, value)
    path = os.path.normpath(value)
    return "/" + path.lstrip("/") if path.startswith("//") else path


@given(
    st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=6),
    st.booleans(),
    st.one_of(st.none(), st.sampled_from(CWDS)),
)
@settings(max_examples=2000, deadline=None)
def test_absolute_is_the_joined_normal_path(
    segments: list[str], rooted: bool, cwd: str | None
) -> None:
    value = ("/" if rooted else "") + "/".join(segments)
    base = normalise_cwd(cwd)
    assert absolute(value, base) == _reference(value, base)


def test_a_working_directory_is_normalised_as_linux_reads_it() -> None:
    assert [normalise_cwd(c) for c in ("/", "//", "//w", "/w/", "/w/./x", "w", None)] == [
        "/",
        "/",
        "/w",
        "/w",
        "/w/x",
        None,
        None,
    ]


def _shaped_reference(value: str) -> bool:
    """The documented shapes, tested one by one (no early exit)."""
    if not value or value[0] == "-" or "\n" in value or "\x00" in value:
        return False
    if value[0] in "/~":
        return True
    if "://" in value or is_assignment(value) or (value[0] == "@" and "/" in value):
        return False
    if any(ch in value for ch in " \t\r\n\v\f"):
        return False
    if len(value) > 2 and value[1] == ":" and value[2] in "/\\" and value[0].isalpha():
        return True
    return "/" in value or (value[0] == "." and value != ".")


@given(st.text(alphabet="ab./~:-@= \t\n\\C\x00", max_size=8))
@settings(max_examples=3000, deadline=None)
def test_path_shape_follows_the_documented_shapes(value: str) -> None:
    assert path_shaped(value) is _shaped_reference(value)
