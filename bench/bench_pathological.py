"""Pathological bash lines: how long the whole bash decision takes for each, and the worst case.

Every decision must complete within the deadline (``clearance.intent.deadline.BASH_DEADLINE``)
and come out *ask* or *deny* where the analysis could not finish; the test
``tests/decide/test_pathological.py`` holds the decisions, this script prints the times.

    .venv/bin/python bench/bench_pathological.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))


# Lines that are only large, not beyond the analysis: they may be allowed (the built-in policy
# allows `echo *`, and what echo's words expand to is text it prints, never a path it opens);
# every other line must come out ask or deny.
UNDERSTOOD = frozenset(
    {"1 MB line", "1 MB of words", "10,000 commands", "nested braces", "{a,b} x30"}
    | {"{1..100000000}"}
)


def pathological_lines() -> list[tuple[str, str]]:
    """(name, line) pairs; none of them is ever run by a shell."""
    many = "; ".join(f"echo {i}" for i in range(10_000))
    nested = "echo " + "$(" * 500 + "x" + ")" * 500
    return [
        ("1 MB line", "echo " + "a" * 1_000_000),
        ("1 MB of words", "echo " + "ab " * 330_000),
        ("10,000 commands", many),
        ("500 nested $(", nested),
        ("500 nested backticks-ish $( ( (", "echo " + "$( (" * 200 + "x" + ") )" * 200),
        ("{a,b} x30", "echo " + "{a,b}" * 30),
        ("{a,b} x30 as path", "cat /tmp/" + "{a,b}" * 30),
        ("{1..100000000}", "echo {1..100000000}"),
        ("nested braces", "echo " + "{a," * 200 + "b" + "}" * 200),
        ("deep glob over /", "cat /*/*/*/*/*"),
        ("deep glob over /proc", "ls /proc/*/*/*/*"),
        ("globstar over /", "shopt -s globstar; cat /**/*"),
        ("globstar dotglob over /", "shopt -s globstar dotglob; ls /**/**/.*"),
        ("many globs", "cat " + " ".join(f"/usr/*/*{i}*" for i in range(200))),
        ("many brace paths", "cat " + " ".join("/{a,b,c,d}{e,f,g,h}/x" for _ in range(300))),
        ("eval nesting", "eval " + "'eval " * 50 + "x" + "'" * 50),
        ("bash -c nesting", "bash -c " + '"bash -c ' * 40 + "x" + '"' * 40),
        ("heredoc substitutions", "cat <<EOF\n" + "$(echo x)\n" * 2000 + "EOF"),
        ("parse errors", "echo (" * 5000),
        ("unbalanced quotes", "echo '" + 'a"' * 50_000),
    ]


def main() -> None:
    from clearance.decide.engine import Engine
    from clearance.intent.call import ToolCall

    home = tempfile.mkdtemp()
    proj = os.path.join(home, "proj")
    os.makedirs(proj)
    engine = Engine.load(cwd=proj, env={"HOME": home})  # the built-in policy
    engine.check(ToolCall("bash", {"command": "ls | cat"}, proj))  # load the parser
    worst = ("", 0.0, "")
    for name, line in pathological_lines():
        start = time.perf_counter()
        decision = engine.check(ToolCall("bash", {"command": line}, proj))
        elapsed = time.perf_counter() - start
        sentinel = decision.deciding.sentinel if decision.deciding else None
        print(f"{elapsed * 1000:9.1f} ms  {decision.action:5}  {sentinel or '':28} {name}")
        if elapsed > worst[1]:
            worst = (name, elapsed, decision.action)
    print(f"worst: {worst[0]} — {worst[1] * 1000:.1f} ms ({worst[2]})")


if __name__ == "__main__":
    main()
