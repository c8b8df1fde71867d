"""The bash deadline holds on the service's worker threads: a pathological line sent to the real
HTTP hook of a real ``clearance serve --listen`` asks with ``<analysis-deadline>``.

The HTTP hook decides on worker threads, where no ``SIGALRM`` timer can be set; without the
watchdog (``clearance.decide._watchdog``) this line would be analysed for as long as it takes and
then allowed by the ``"*": "allow"`` policy.
"""

from __future__ import annotations

import json

from servicekit import Client, Running, hook_payload

# "*": "allow", and the HTTP hook answers an ask itself (Claude Code's dialog) rather than
# forwarding it to the console, so the answer carries the reason.
POLICY = '{"permission": {"*": "allow"}, "hosts": {"claudeCode": {"ask": "native"}}}'


def test_a_pathological_line_on_the_http_hook_asks_at_the_deadline(world) -> None:  # type: ignore[no-untyped-def]
    world.global_config(POLICY)
    project = world.project()
    service = Running(world.env, project)
    try:
        token = (world.state / "service" / "hook-token").read_text().strip()
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        client = Client(service.port)
        # The benign twin first: a short line is allowed as usual.
        status, _, text = client.request(
            "POST", "/hooks/claude-code", hook_payload(project, "ls"), headers
        )
        assert status == 200
        assert json.loads(text)["hookSpecificOutput"]["permissionDecision"] == "allow"
        # 100,000 redirections: far more analysis than the two-second deadline allows.
        line = "; ".join(f"echo {i} > /tmp/x{i}" for i in range(100_000))
        status, _, text = client.request(
            "POST", "/hooks/claude-code", hook_payload(project, line), headers
        )
        assert status == 200
        answer = json.loads(text)["hookSpecificOutput"]
        assert answer["permissionDecision"] == "ask"
        assert "<analysis-deadline>" in answer["permissionDecisionReason"]
    finally:
        service.stop()
