"""The files ``sort``, ``uniq``, ``tee`` and ``tar`` write by their place (``role.made_operands``),
checked against the real programs: each generated command runs in an empty directory beside an
input file, and the files it made there are the ones ``made_operands`` names: one it misses is a
write unseen, and one it names more is a write the gate judges for nothing (allowed only where
the program refused the command)."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clearance.intent.shell.role import made_operands
from conftest import parse_words

_NAMES = st.sampled_from(["o1", "o2", "o3"])


def _flat(pieces: list[list[str]]) -> list[str]:
    return list(itertools.chain.from_iterable(pieces))


def _sort() -> st.SearchStrategy[list[str]]:
    piece = st.one_of(
        st.sampled_from([["-n"], ["-r"], ["-u"], ["-nr"], ["-k", "1"], ["-t", ","], ["-k1"]]),
        _NAMES.map(lambda n: ["-o", n]),
        _NAMES.map(lambda n: ["-o" + n]),
        _NAMES.map(lambda n: ["-nro", n]),
        _NAMES.map(lambda n: ["--output=" + n]),
        _NAMES.map(lambda n: ["--out", n]),
        st.just(["in"]),
    )
    return st.lists(piece, max_size=4).map(lambda ps: ["sort", *_flat(ps), "in"])


def _uniq() -> st.SearchStrategy[list[str]]:
    options = st.lists(
        st.sampled_from([["-c"], ["-f", "1"], ["-s1"], ["-w", "2"], ["--skip-chars=1"], ["-i"]]),
        max_size=3,
    )
    return st.tuples(options, _NAMES).map(lambda t: ["uniq", *_flat(t[0]), "in", t[1]])


def _tee() -> st.SearchStrategy[list[str]]:
    piece = st.one_of(st.sampled_from([["-a"], ["-i"], ["-p"]]), _NAMES.map(lambda n: [n]))
    return st.lists(piece, max_size=4).map(lambda ps: ["tee", *_flat(ps)])


def _tar() -> st.SearchStrategy[list[str]]:
    return st.tuples(
        st.sampled_from(["create", "list"]), _NAMES, st.sampled_from(["dash", "old", "long"])
    ).map(_tar_line)


def _tar_line(spec: tuple[str, str, str]) -> list[str]:
    mode, name, form = spec
    letter = "c" if mode == "create" else "t"
    if form == "old":
        return ["tar", letter + "f", name, "in"]
    if form == "long":
        return ["tar", f"--file={name}", "--create" if mode == "create" else "--list", "in"]
    return ["tar", f"-{letter}f", name, "in"]


def _gzip() -> st.SearchStrategy[list[str]]:
    options = st.lists(
        st.sampled_from([["-k"], ["-9"], ["-S", ".x"], ["-kS", ".y"], ["--suffix=.z"], ["-f"]]),
        max_size=3,
    )
    return options.map(lambda o: ["gzip", *_flat(o), "in"])


@pytest.mark.skipif(
    any(shutil.which(p) is None for p in ("sort", "uniq", "tee", "tar", "gzip")),
    reason="coreutils or tar is missing",
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_sort(), _uniq(), _tee(), _tar(), _gzip()))
def test_the_files_named_are_the_files_the_program_makes(argv: list[str]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        with open(os.path.join(scratch, "in"), "w", encoding="utf-8") as handle:
            handle.write("b,1\na,2\na,2\n")
        ran = subprocess.run(argv, cwd=scratch, input=b"x\n", capture_output=True, timeout=30)
        made = {n for n in os.listdir(scratch) if n != "in"}
        if argv[0] == "gzip" and ran.returncode != 0:
            made = set()  # `-S` given twice with `-f` and the like: nothing it refused counts
    named = made_operands(parse_words(" ".join(argv)))
    values = {item if isinstance(item, str) else item.value for item in named}
    if argv[0] == "tar" and ("--list" in argv or argv[1].lstrip("-") == "tf"):
        assert values == set() and made == set()
        return
    assert made <= values, (argv, made, values)  # no write unseen
    # and no name more, but where the program refused (`sort -o a -o b`: two outputs)
    assert values <= made or ran.returncode != 0, (argv, made, values)
