"""The bash deadline holds on the service's worker threads: a pathological line sent to the real
HTTP hook of a real ``clearance serve --listen`` asks with ``<analysis-deadline>``.

The HTTP hook decides on worker threads, where no ``SIGALRM`` timer can be set; without the
watchdog (``clearance.decide._watchdog``) this line would be analysed for as long as it takes and
then allowed by the ``"*": "allow"`` policy.
"""

from __future__ import annotations

import json
from pathlib import Path

from servicekit import Client, Running, hook_payload

# "*": "allow", and the HTTP hook answers an ask itself (Claude Code's dialog) rather than
# forwarding it to the console, so the answer carries the reason.
POLICY = '{"permission": {"*": "allow"}, "hosts": {"claudeCode": {"ask": "native"}}}'


# 10,000 patterns over /usr, each listing its directories: the path gate's expansions take far
# longer than the two-second deadline (1,000 of them take about 1.5 s here). A line that is
# only long is no longer slow: past 256 KiB it is not read at all (ADR 0058).
LINE = "cat " + " ".join(f"/usr/*/*{i}*" for i in range(10_000))


def _serving(world) -> tuple[Running, Path, dict[str, str]]:  # type: ignore[no-untyped-def]
    """A real ``serve --listen`` under :data:`POLICY`, its project, and the hook's headers."""
    world.global_config(POLICY)
    project = world.project()
    service = Running(world.env, project)
    token = (world.state / "service" / "hook-token").read_text().strip()
    return service, project, {"Authorization": f"Bearer {token}",
                              "Content-Type": "application/json"}  # fmt: skip


def test_a_pathological_line_on_the_http_hook_asks_at_the_deadline(world) -> None:  # type: ignore[no-untyped-def]
    service, project, headers = _serving(world)
    try:
        client = Client(service.port)
        # The benign twin first: a short line is allowed as usual.
        status, _, text = client.request(
            "POST", "/hooks/claude-code", hook_payload(project, "ls"), headers
        )
        assert status == 200
        assert json.loads(text)["hookSpecificOutput"]["permissionDecision"] == "allow"
        status, _, text = client.request(
            "POST", "/hooks/claude-code", hook_payload(project, LINE), headers
        )
        assert status == 200
        answer = json.loads(text)["hookSpecificOutput"]
        assert answer["permissionDecision"] == "ask"
        assert "<analysis-deadline>" in answer["permissionDecisionReason"]
    finally:
        service.stop()


def test_a_line_past_the_loops_budget_is_decided_once_on_a_thread_while_the_loop_serves(  # type: ignore[no-untyped-def]
    world,
) -> None:
    """The HTTP hook settles a call on its event loop under a short bash deadline (ADR 0049); a
    line past it is decided again, from the start, on a worker thread. The loop answers others
    meanwhile, and the review log has each call once: the loop's try writes nothing."""
    import threading

    from servicekit import review_log

    service, project, headers = _serving(world)
    try:
        finished: list[str] = []

        def slow() -> None:
            _, _, text = Client(service.port).request(
                "POST", "/hooks/claude-code", hook_payload(project, LINE), headers
            )
            finished.append(json.loads(text)["hookSpecificOutput"]["permissionDecision"])

        worker = threading.Thread(target=slow, daemon=True)
        worker.start()
        # While the line is analysed (two seconds, to the deadline), others are answered.
        quick: list[str] = []
        while worker.is_alive() and len(quick) < 3:
            status, _, text = Client(service.port).request(
                "POST", "/hooks/claude-code", hook_payload(project, "ls"), headers
            )
            assert status == 200
            quick.append(json.loads(text)["hookSpecificOutput"]["permissionDecision"])
        assert quick == ["allow"] * 3 and not finished
        worker.join(timeout=60)
        assert finished == ["ask"]
        events = [(e.get("requestId"), e.get("event")) for e in review_log(world.state)
                  if e.get("tool") == "bash"]  # fmt: skip
        assert len(events) == len(set(events))  # no call is in the log twice
        decided = [e for e in review_log(world.state) if e.get("decision") in ("allow", "ask")]
        assert [e["decision"] for e in decided].count("allow") == 3
    finally:
        service.stop()
