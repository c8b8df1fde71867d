"""The ticket a serving session opens for its remote human: the first answer wins."""

from __future__ import annotations

import threading

from clearance.authority.forwarding.protocol import Request
from clearance.authority.forwarding.remote import Ticket
from clearance.authority.prompt import Answer


def request() -> Request:
    from clearance.authority.ask import Requester

    return Request(id="req-" + "a" * 32, nonce="b" * 32, target="P", created=0.0, expires=1.0,
                   requester=Requester("explore", "C1", "/w", "bash", "bash", "ls"),
                   reason="r")  # fmt: skip


def test_the_first_answer_wins_and_every_later_one_is_refused() -> None:
    ticket = Ticket(request())
    assert ticket.claim(Answer("once"), "console-1 from 127.0.0.1:5")
    assert not ticket.claim(Answer("deny"), "terminal")
    assert ticket.answer == Answer("once") and ticket.by.startswith("console-1")
    assert ticket.decided.is_set()


def test_racing_answers_give_exactly_one_winner() -> None:
    ticket = Ticket(request())
    wins: list[str] = []
    start = threading.Barrier(8)

    def answer(name: str) -> None:
        start.wait()
        if ticket.claim(Answer("once"), name):
            wins.append(name)

    threads = [threading.Thread(target=answer, args=(f"a{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(wins) == 1 and ticket.by == wins[0]


def test_a_closed_ticket_takes_no_answer() -> None:
    ticket = Ticket(request())
    ticket.close("timed out")
    assert not ticket.claim(Answer("once"), "console")
    assert ticket.wait(0) is None
