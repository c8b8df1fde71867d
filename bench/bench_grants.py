"""Ask-path overheads per call: a session-grant hit, and a review-log append.

Run: .venv/bin/python bench/bench_grants.py
Side by side, in the same run: a plain policy check (the baseline), the same check answered by a
session grant read from disk (as a fresh hook process does), and one review-log append.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _timing import median, per_call, percentile, us

from clearance.audit.log import ReviewLog
from clearance.decide.engine import Engine
from clearance.decide.grant import DiskGrants, Grant
from clearance.intent.call import ToolCall


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"HOME": tmp, "CLEARANCE_HOME": os.path.join(tmp, "state")}
        policy = json.dumps({"permission": {"bash": {"*": "ask", "git status*": "allow"}}})
        DiskGrants(env["CLEARANCE_HOME"], "S").add(
            [Grant("bash", f"tool{i} *") for i in range(20)] + [Grant("bash", "npm test*")]
        )
        plain = ToolCall("bash", {"command": "git status"}, tmp, session="S")
        granted = ToolCall("bash", {"command": "npm test"}, tmp, session="S")

        def check_plain() -> None:
            Engine.load(cwd=tmp, policy=policy, env=env).check(plain)

        def check_granted() -> None:
            # A fresh engine each time: the grants file is read as a new hook process would.
            decision = Engine.load(cwd=tmp, policy=policy, env=env).check(granted)
            assert decision.action == "allow"

        log = ReviewLog(os.path.join(tmp, "state", "logs", "review.jsonl"))
        fields = {
            "requestId": "req-0123456789abcdef",
            "tool": "bash",
            "agent": None,
            "session": "S",
            "surface": "bash",
            "value": "API_KEY=sk-123 curl -H 'Authorization: Bearer x' https://example.com",
            "rule": {"surface": "bash", "pattern": "*", "origin": "global"},
            "decision": "allow",
            "resolution": "session_approved",
            "decidedBy": "session_approval",
        }

        def append() -> None:
            log.write("permission_request.session_approved", fields)

        rows = []
        for name, fn in (
            ("policy allow (baseline)", check_plain),
            ("session-grant hit (from disk)", check_granted),
            ("review-log append", append),
        ):
            samples = per_call(fn, repeat=400, inner=5)
            rows.append((name, median(samples), percentile(samples, 95)))
    base = rows[0][1]
    print("Per-call cost (in process; policy load included in the two checks)")
    print(f"{'what':>30} | {'median':>11} | {'p95':>11} | vs baseline")
    for name, med, p95 in rows:
        print(f"{name:>30} | {us(med)} | {us(p95)} | {med / base:5.2f}x")


if __name__ == "__main__":
    main()
