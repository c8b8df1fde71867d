"""Absolute forms of path tokens: string shortcuts must agree with os.path."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.intent.shell.cd import normalise_cwd
from clearance.intent.shell.options import is_assignment
from clearance.intent.shell.token import absolute, own_cwd, passes_process, path_shaped

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


# -- the opening process's own working directory ---------------------------------------------

_OWN = ["/proc/self/cwd", "/proc/thread-self/cwd", "//proc/./self//cwd", "/proc/self/./cwd"]


@given(
    st.sampled_from(_OWN),
    st.lists(st.sampled_from(SEGMENTS), max_size=5),
    st.booleans(),
    st.sampled_from(CWDS),
)
@settings(max_examples=1000, deadline=None)
def test_a_path_through_the_own_cwd_names_what_a_relative_path_names(
    own: str, segments: list[str], trailing: bool, cwd: str
) -> None:
    rest = "/".join(segments)
    path = own + ("/" + rest if rest else "") + ("/" if trailing else "")
    relative = own_cwd(path)
    assert relative is not None and relative[:1] != "/"
    base = normalise_cwd(cwd)
    assert absolute(relative, base) == _reference("./" + rest, base)
    assert relative.endswith("/") == path.endswith("/")


def test_only_the_own_cwd_is_read_as_the_working_directory() -> None:
    for other in (
        "/proc/1/cwd/x",
        "/proc/self/root/etc",
        "/proc/self/cwdx",
        "/proc/selfx/cwd",
        "/proc/self/fd/../cwd/x",
        "proc/self/cwd",
        "/x/proc/self/cwd",
        "/proc/self",
    ):
        assert own_cwd(other) is None, other


def test_a_link_text_through_a_process_link_is_seen_at_any_step() -> None:
    for path in ("/proc/self/cwd/..", "/proc/x/../self/cwd/y", "/a/../proc/1/root", "/dev/fd/3"):
        assert passes_process(path), path
    for path in ("/proc/self", "/proc/cpuinfo", "/home/u/proc/self/cwd", "/dev/fd/1", "/x/fd"):
        assert not passes_process(path), path
