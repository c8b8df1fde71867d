"""The destructive-command guard (examples/policies/guard.jsonc) on the public test suites of two
other guards: how many of their destructive commands it stops, how many of their safe ones it
allows.

Run: .venv/bin/python bench/bench_guard.py [--suites FILE] [--list] [--time]

The suites' cases are not part of clearance. The bench reads them from a local Python file
(``--suites FILE``, else ``$CLEARANCE_GUARD_SUITES``, else
``/root/.cache/clearance-guard-suites/guard_suites.py``) that defines
``CASES = [(suite, file, command, verdict), …]``, where ``verdict`` contains ``destructive``
when the suite blocks the command in any of its settings, and is ``safe…`` otherwise. Without
such a file it says where to get the cases and exits with status 2. ``bench/corpus/
guard_cases.py`` writes that file from local git copies of the two suites' repositories,
reading the commands their tests assert blocked or allowed (bench/corpus/SOURCES.md says which
snapshots, what is read and what is left out):

    .venv/bin/python bench/corpus/guard_cases.py SAFETY_NET_GIT_DIR DCG_GIT_DIR

"Stops" is deny or ask: either way the command does not run unattended. Each command is decided
in a temporary directory holding a git repository, the working directory of an agent in a
project. ``--list`` prints every case the guard answers otherwise than the suite.
clearance's own table of destructive lines and benign twins is asserted by
tests/policy/test_guard.py.

With ``--time`` it also prints the median decision time over bench/shell_corpus.txt under the
guard, next to an allow-everything policy in the same run (the cost of its command rules).
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import tempfile

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUARD = os.path.join(ROOT, "examples", "policies", "guard.jsonc")
DEFAULT_SUITES = "/root/.cache/clearance-guard-suites/guard_suites.py"
WHERE = (
    "The cases are not part of clearance. Clone claude-code-safety-net "
    "(https://github.com/kenryu42/claude-code-safety-net) and destructive_command_guard "
    "(https://github.com/Dicklesworthstone/destructive_command_guard) and write them with "
    "bench/corpus/guard_cases.py SAFETY_NET_GIT_DIR DCG_GIT_DIR (see bench/corpus/SOURCES.md), "
    "or pass a Python file defining CASES = [(suite, file, command, verdict), ...] with "
    "--suites FILE or $CLEARANCE_GUARD_SUITES."
)

Case = tuple[str, str, str, str]

# Lines the suites count as destructive (blocked in some setting of theirs) that destroy nothing
# as bash and git run them, which the guard lets run: tests/policy/test_guard.py runs each in a
# scratch repository with a changed, a staged and an untracked file, and a remote, and checks
# that nothing is lost (ADR 0062).
HARMLESS = {
    "command -V git reset --hard": "command -V describes the command, running nothing",
    "git clean -nf": "-n is a dry run: git clean lists what it would remove",
    "\ncat <<\\EOF\nrm -rf /\nEOF\n": "cat prints the here-document",
    "git reset\n--hard": "a newline ends the command: git reset unstages, --hard is not found",
    "git reset \u2010\u2010hard": "Unicode dashes are no option: git finds no such revision",
    "git RESET --HARD": "git has no command RESET",
    "git push --force-with-lease-if-includes origin main": "git has no such option",
}


def load_suites(path: str) -> list[Case] | str:
    """The cases of the file at ``path``, or a sentence saying why there are none."""
    if not os.path.isfile(path):
        return f"bench_guard: no file of the public suites' cases at {path}. {WHERE}"
    try:
        found = runpy.run_path(path).get("CASES")
    except Exception as error:  # any fault of the file is reported, not raised
        return f"bench_guard: {path} does not run as Python ({type(error).__name__}: {error})."
    if not isinstance(found, list | tuple) or not all(
        isinstance(c, tuple) and len(c) == 4 and all(isinstance(x, str) for x in c) for c in found
    ):
        return (
            f"bench_guard: {path} defines no CASES list of (suite, file, command, verdict) "
            f"string tuples. {WHERE}"
        )
    return list(found)


def decide_all(cases: list[Case]) -> list[tuple[str, str, str, str, str]]:
    """``(suite, file, command, verdict, action)`` for every case."""
    with open(GUARD, encoding="utf-8") as handle:
        text = handle.read()
    out = []
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as project:
        os.mkdir(os.path.join(project, ".git"))
        env = {"HOME": home, "CLEARANCE_HOME": os.path.join(home, "state")}
        engine = Engine.load(cwd=project, policy=text, env=env)
        for suite, file, command, verdict in cases:
            decision = engine.check(ToolCall("bash", {"command": command}, project))
            out.append((suite, file, command, verdict, decision.action))
    return out


def timing() -> None:
    import time

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from _timing import median, us

    with open(GUARD, encoding="utf-8") as handle:
        guard = handle.read()
    with open(os.path.join(ROOT, "bench", "shell_corpus.txt"), encoding="utf-8") as handle:
        corpus = [line.rstrip("\n").replace("\\n", "\n") for line in handle if line.strip()]
    plain = '{"permission": {"*": "allow", "bash": {"*": "allow"}}}'
    cwd = os.getcwd()
    env = {"HOME": os.path.expanduser("~")}
    engines = {name: Engine.load(cwd=cwd, policy=text, env=env)
               for name, text in (("guard", guard), ("allow everything", plain))}  # fmt: skip
    calls = [ToolCall("bash", {"command": c}, cwd) for c in corpus]
    times: dict[str, list[float]] = {name: [] for name in engines}
    for engine in engines.values():
        for call in calls[:20]:
            engine.check(call)
    for _ in range(3):
        for call in calls:
            for name, engine in engines.items():
                started = time.perf_counter()
                engine.check(call)
                times[name].append(time.perf_counter() - started)
    for name, found in times.items():
        print(f"{name:>18}: median decision {us(median(found))} over {len(corpus)} commands x 3")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--suites",
        default=os.environ.get("CLEARANCE_GUARD_SUITES") or DEFAULT_SUITES,
        help="a Python file defining CASES (default: $CLEARANCE_GUARD_SUITES, else %(default)s)",
    )
    parser.add_argument("--list", action="store_true", help="print every case answered otherwise")
    parser.add_argument("--time", action="store_true", help="also time the guard's decisions")
    args = parser.parse_args()
    if args.time:
        timing()
    cases = load_suites(args.suites)
    if isinstance(cases, str):
        print(cases, file=sys.stderr)
        return 0 if args.time else 2
    results = decide_all(cases)
    for suite in sorted({r[0] for r in results}):
        mine = [r for r in results if r[0] == suite]
        bad = [r for r in mine if "destructive" in r[3]]  # blocked in any of the suite's settings
        good = [r for r in mine if "destructive" not in r[3]]
        denied = sum(r[4] == "deny" for r in bad)
        asked = sum(r[4] == "ask" for r in bad)
        allowed = sum(r[4] == "allow" for r in good)
        harmless = sum(r[4] == "allow" and r[2] in HARMLESS for r in bad)
        print(
            f"{suite}: stops {denied + asked} of {len(bad)} destructive ({denied} denied, "
            f"{asked} asked), allows {allowed} of {len(good)} safe"
            + (f"; {harmless} of the destructive it allows destroy nothing" if harmless else "")
        )
    if args.list:
        for suite, _file, command, verdict, action in results:
            if ("destructive" in verdict and action == "allow") or (
                "destructive" not in verdict and action != "allow"
            ):
                why = HARMLESS.get(command) if action == "allow" else None
                note = f"  (destroys nothing: {why})" if why else ""
                print(f"  {suite[:12]:12} {verdict:22} {action:5} {command!r}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
