"""The authorizer chain and the terminal authorizer's "nobody can answer" verdict."""

from __future__ import annotations

import json

import pytest

from clearance.authority.ask import Ask, Verdict
from clearance.authority.authorizer import Chain, register_authorizer, unregister_authorizer
from clearance.authority.terminal import TerminalAuthorizer, build_prompt
from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall


def ask_for(tool: str, data: dict, policy: dict) -> Ask:  # type: ignore[type-arg]
    engine = Engine.load(cwd="/proj", policy=json.dumps({"permission": policy}), env={"HOME": "/h"})
    decision = engine.check(ToolCall(tool, data, "/proj"))
    assert decision.action == "ask"
    return Ask(decision, "req-1")


class Scripted:
    """A real authorizer with a canned answer, recording what it was asked."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.seen: list[Ask] = []

    def authorize(self, ask: Ask) -> Verdict:
        self.seen.append(ask)
        return self.verdict


NOBODY = TerminalAuthorizer(tty_path="")


@pytest.fixture
def links():  # type: ignore[no-untyped-def]
    names: list[str] = []

    def add(name: str, authorizer: object) -> None:
        register_authorizer(name, authorizer)  # type: ignore[arg-type]
        names.append(name)

    yield add
    for name in names:
        unregister_authorizer(name)


def test_the_first_answer_that_is_not_defer_wins(links) -> None:  # type: ignore[no-untyped-def]
    first, second, third = (
        Scripted(Verdict.defer()),
        Scripted(Verdict("deny", "no")),
        Scripted(Verdict("allow")),
    )
    links("a", first)
    links("b", second)
    links("c", third)
    ask = ask_for("bash", {"command": "npm publish"}, {"*": "ask"})
    verdict = Chain(["a", "b", "c"], NOBODY).authorize(ask)
    assert (verdict.action, verdict.reason, verdict.decided_by) == ("deny", "no", "authorizer")
    assert len(first.seen) == 1 and third.seen == []


def test_a_plain_function_can_be_a_link(links) -> None:  # type: ignore[no-untyped-def]
    links(
        "judge", lambda ask: Verdict("allow") if "npm" in ask.decision.reason else Verdict.defer()
    )
    verdict = Chain(["judge"], NOBODY).authorize(
        ask_for("bash", {"command": "npm test"}, {"*": "ask"})
    )
    assert verdict.action == "allow" and verdict.resolution == "authorizer_allowed"


def test_a_link_cannot_allow_on_a_path_surface(links) -> None:  # type: ignore[no-untyped-def]
    links("yes", Scripted(Verdict("allow")))
    ask = ask_for("read", {"file_path": "/etc/hosts"}, {"*": "allow", "external_directory": "ask"})
    verdict = Chain(["yes"], NOBODY).authorize(ask)
    assert verdict.action == "deny" and verdict.resolution == "confirmation_unavailable"


def test_a_link_may_still_deny_on_a_path_surface(links) -> None:  # type: ignore[no-untyped-def]
    links("no", Scripted(Verdict("deny", "not there")))
    ask = ask_for("read", {"file_path": "/etc/hosts"}, {"*": "allow", "external_directory": "ask"})
    assert Chain(["no"], NOBODY).authorize(ask).action == "deny"


def test_an_unregistered_link_is_skipped_and_reported() -> None:
    reports: list[tuple[str, dict]] = []  # type: ignore[type-arg]
    chain = Chain(["ghost"], NOBODY, report=lambda e, f: reports.append((e, f)))
    verdict = chain.authorize(ask_for("bash", {"command": "make"}, {"*": "ask"}))
    assert verdict.action == "deny"
    assert reports == [
        ("authorizer_chain_unregistered_link", {"requestId": "req-1", "name": "ghost"})
    ]


def test_registering_a_name_twice_is_an_error(links) -> None:  # type: ignore[no-untyped-def]
    links("twice", Scripted(Verdict.defer()))
    with pytest.raises(ValueError):
        register_authorizer("twice", Scripted(Verdict.defer()))


def test_without_a_terminal_nobody_can_approve_and_the_message_says_how_to_allow() -> None:
    verdict = NOBODY.authorize(ask_for("bash", {"command": "git push origin"}, {"*": "ask"}))
    assert verdict.action == "deny"
    assert verdict.resolution == "confirmation_unavailable" and verdict.decided_by == "unavailable"
    assert verdict.reason is not None
    assert verdict.reason.startswith("No one could approve this")
    assert '"git push *": "allow"' in verdict.reason and "clearance serve" in verdict.reason


def test_a_fallback_answers_when_there_is_no_terminal() -> None:
    fallback = Scripted(Verdict("allow", decided_by="forwarded"))
    terminal = TerminalAuthorizer(tty_path="", fallback=fallback)
    assert terminal.authorize(ask_for("bash", {"command": "make"}, {"*": "ask"})).action == "allow"


def test_the_prompt_names_tool_value_rule_reasons_and_the_session_option() -> None:
    prompt = build_prompt(
        ask_for("bash", {"command": "git status --short"}, {"bash": {"*": "ask"}})
    )
    assert prompt.title == "Permission Required"
    assert (prompt.tool, prompt.value) == ("bash", "git status --short")
    assert prompt.rule is not None and 'bash "*"' in prompt.rule
    assert prompt.suggestions[0].label == 'Yes, allow bash "git status *" for this session'
    assert prompt.both_label is None


def test_a_directional_path_ask_offers_both_directions() -> None:
    prompt = build_prompt(
        ask_for("read", {"file_path": "/etc/hosts"}, {"*": "allow", "external_directory": "ask"})
    )
    assert prompt.both_label == 'Yes, allow reads and writes to "/etc/*" for this session'
