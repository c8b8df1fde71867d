"""The requester's machine: provenance a request carries, strictly read, shown with the ask."""

from __future__ import annotations

import time

import pytest

from clearance.authority.ask import Requester
from clearance.authority.forwarding.protocol import ProtocolError, Request, new_id, new_nonce


def request(machine: object) -> dict[str, object]:
    now = time.time()
    data = Request(id=new_id(), nonce=new_nonce(), target="S", created=now, expires=now + 60,
                   requester=Requester("explore", "C1", "/w", "bash", "bash", "ls"),
                   reason="asked").as_json()  # fmt: skip
    data["requester"]["machine"] = machine
    return data


def test_a_machine_travels_with_the_request_and_ends_the_requested_by_line() -> None:
    parsed = Request.from_json(request("ci-runner-7.example.org"))
    assert parsed.requester.machine == "ci-runner-7.example.org"
    assert parsed.requester.describe().endswith(" · on ci-runner-7.example.org")
    assert Request.from_json(request(None)).requester.machine is None  # an older requester


@pytest.mark.parametrize(
    "machine", ["", "box\x1b[2J", "two words", "a" * 254, "caf\u00e9", "box\n", 7, ["box"]]
)
def test_a_machine_that_is_not_a_host_name_is_refused(machine: object) -> None:
    with pytest.raises(ProtocolError):
        Request.from_json(request(machine))
