"""Requests and responses: what a reader accepts, and what it refuses."""

from __future__ import annotations

import pytest

from clearance.authority.ask import Requester
from clearance.authority.forwarding.protocol import (
    GateFact,
    ProtocolError,
    Request,
    Response,
    is_id,
    new_id,
    new_nonce,
)
from clearance.decide.grant import Grant


def a_request() -> Request:
    return Request(
        id=new_id(), nonce=new_nonce(), target="P", created=1.0, expires=2.0,
        requester=Requester("explore", "C1", "/w", "bash", "bash", "make x"),
        reason="Needs approval", gates=(GateFact("bash", "bash", "make x", ("make x", "make x")),),
        grants=(Grant("bash", "make *"),), via=("MID",), ask_id="req-1",
    )  # fmt: skip


def test_a_request_survives_a_round_trip_through_json() -> None:
    request = a_request()
    assert Request.from_json(request.as_json()) == request


def test_ids_are_unguessable_and_file_name_safe() -> None:
    ids = {new_id() for _ in range(100)}
    assert len(ids) == 100 and all(is_id(i) for i in ids)
    assert not is_id("req-../../etc") and not is_id("req-" + "g" * 32) and not is_id(None)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"version": 2}, "version"),
        ({"kind": "response"}, "not a request"),
        ({"id": "../x"}, "request id"),
        ({"nonce": "short"}, "nonce"),
        ({"requester": {"agent": "x"}}, "session"),
        ({"gates": [{"gate": "bash", "surface": "bash", "values": []}]}, "match values"),
        ({"grants": ["bash"]}, "grant"),
        ({"expires": "later"}, "expires"),
    ],
)
def test_a_malformed_request_is_refused_saying_why(change: dict[str, object], why: str) -> None:
    data = {**a_request().as_json(), **change}
    with pytest.raises(ProtocolError, match=why):
        Request.from_json(data)


def test_a_response_must_agree_with_itself() -> None:
    response = Response(id=new_id(), nonce=new_nonce(), state="approved", reason="", responder="P",
                        responded=1.0, decided_by="rule", resolution="policy_allow")  # fmt: skip
    assert Response.from_json(response.as_json()) == response
    with pytest.raises(ProtocolError, match="disagrees"):
        Response.from_json({**response.as_json(), "approved": False})
    with pytest.raises(ProtocolError, match="unknown state"):
        Response.from_json({**response.as_json(), "state": "maybe"})
