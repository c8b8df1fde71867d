"""A file a line runs and writes: the elements of a pipeline run at once, so a write in any
element counts for the runs of every other, whichever stands first; a background job or a
process substitution runs on beside what follows, so a later write counts for a run inside it.
Statements of one element or one job, and statements joined by ``;``/``&&``, run one after the
other (intent/shell/concurrent.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.intent.sentinel import RUNS_WRITTEN
from clearance.intent.shell import analyze

RUNS = ["bash f.sh", "sh ./f.sh", "source f.sh", ". ./f.sh", "./f.sh", "zsh f.sh"]
WRITES = ["tee f.sh", "cat > f.sh", "cp a f.sh", "dd of=f.sh", "{ cat >> f.sh; }", "echo > ./f.sh"]
OTHERS = ["cat", "grep x", "sort", "tee log.txt", "wc -l", "cat > g.sh"]


def _floored(line: str, runner: str) -> bool:
    analysis = analyze(line, cwd="/w/proj", home="/w", exists=lambda _: False)
    [unit] = [u for u in analysis.units if u.text == runner]
    return unit.floor is not None and unit.floor[0] == RUNS_WRITTEN


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(RUNS),
    st.sampled_from(WRITES),
    st.lists(st.sampled_from(OTHERS), max_size=2),
    st.booleans(),
    st.sampled_from([" | ", " |& "]),
)
def test_a_write_in_any_other_element_floors_the_run(
    run: str, write: str, others: list[str], run_first: bool, pipe: str
) -> None:
    stages = [run, *others, write] if run_first else [write, *others, run]
    assert _floored(pipe.join(stages), run)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RUNS), st.sampled_from(OTHERS), st.sampled_from(["; ", " && "]))
def test_a_write_after_the_run_in_sequence_or_of_another_file_does_not(
    run: str, other: str, join: str
) -> None:
    assert not _floored(f"{run} | {other}", run)
    assert not _floored(f"{run}{join}echo x > f.sh", run)  # run first, then written
    assert not _floored(f"({run}{join}echo x > f.sh) | {other}", run)  # one element


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(RUNS),
    st.sampled_from(WRITES),
    st.sampled_from(["({run}) & {write}", "{run} & sleep 1; {write}", ": <({run}); {write}",
                     "cat <({run}) <({write})", "({run}; sleep 1) & ({write})"]),
)  # fmt: skip
def test_a_later_write_counts_for_a_run_in_a_detached_shell(
    run: str, write: str, shape: str
) -> None:
    assert _floored(shape.format(run=run, write=write), run)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(RUNS), st.sampled_from(["&", ";"]))
def test_a_write_inside_the_same_detached_shell_after_the_run_does_not(run: str, end: str) -> None:
    assert not _floored(f"({run}; echo x > f.sh) {end} echo done", run)
    assert not _floored(f"sleep 1 & {run}", run)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(RUNS), st.sampled_from([">>", ">", "&>>", ">|"]))
def test_a_command_s_own_write_redirect_counts_for_it(run: str, op: str) -> None:
    assert _floored(f"{run} {op} f.sh", run)
    assert not _floored(f"{run} {op} log.txt 2>&1", run)
