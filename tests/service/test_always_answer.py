"""The serving dialog's "always" answer: allow this call and write the pattern into the config."""

from __future__ import annotations

from typing import Any

from clearance.authority.ask import Requester
from clearance.authority.forwarding.escalation import forwarded_ask
from clearance.authority.forwarding.protocol import GateFact, Request
from clearance.authority.forwarding.reach import reach_verdict
from clearance.authority.forwarding.resolution import resolve
from clearance.authority.forwarding.server import Server
from clearance.authority.prompt import Answer
from clearance.decide.engine import Engine
from clearance.decide.grant import Grant
from clearance.policy.loader import load_policy
from clearance.service.always import writer


def serving(world: Any, always: bool) -> Server:
    project = world.project()
    return Server(lambda: Engine.load(cwd=str(project)), session="S", directory=str(project),
                  state=str(world.state), always=writer(None, str(world.state)) if always else None)  # fmt: skip


def request(world: Any) -> Request:
    return Request(id="req-" + "c" * 32, nonce="d" * 32, target="S", created=0.0, expires=9e9,
                   requester=Requester(None, "C1", str(world.home), "bash", "bash", "npm test"),
                   reason="asks", gates=(GateFact("bash", "bash", "npm test", ("npm test",)),),
                   grants=(Grant("bash", "npm test*"),))  # fmt: skip


def test_always_approves_and_writes_the_first_pattern_to_the_global_config(world) -> None:  # type: ignore[no-untyped-def]
    config = world.global_config('{"permission": {"bash": {"*": "ask"}}}')
    server = serving(world, always=True)
    req = request(world)
    ask = forwarded_ask(req, resolve(req, server.engine.policy.rules))
    verdict = reach_verdict(Answer("always"), ask, req, server)
    assert verdict.action == "allow" and not verdict.grants
    assert '"npm test*": "allow"' in config.read_text()
    policy = load_policy(cwd=str(world.home), use_cache=False)
    assert policy.rules.evaluate("bash", ("npm test --watch",)).action == "allow"
    assert policy.rules.evaluate("bash", ("npm publish",)).action == "ask"


def test_a_config_that_cannot_take_it_still_approves_this_call_and_is_left_alone(world) -> None:  # type: ignore[no-untyped-def]
    config = world.global_config('{"permission": {"bash": 7}}')
    server = serving(world, always=True)
    req = request(world)
    ask = forwarded_ask(req, resolve(req, server.engine.policy.rules))
    assert reach_verdict(Answer("always"), ask, req, server).action == "allow"
    assert config.read_text() == '{"permission": {"bash": 7}}'


def _pinned_server(world: Any, text: str) -> tuple[Server, Any, Any]:
    from clearance.policy.trust import PinnedFile

    project = world.project()
    config = project / "serving.jsonc"
    config.write_text(text)
    pin = PinnedFile(str(config))
    server = Server(lambda: Engine.load(cwd=str(project), config=str(config)), session="S",
                    directory=str(project), state=str(world.state),
                    always=writer(str(config), str(world.state), pin=pin))  # fmt: skip
    return server, config, pin


def test_always_into_a_pinned_config_pins_what_it_wrote(world) -> None:  # type: ignore[no-untyped-def]
    server, config, pin = _pinned_server(world, '{"permission": {"bash": {"*": "ask"}}}')
    req = request(world)
    ask = forwarded_ask(req, resolve(req, server.engine.policy.rules))
    assert reach_verdict(Answer("always"), ask, req, server).action == "allow"
    assert '"npm test*": "allow"' in config.read_text()
    pin.check()  # serve's own write: the file reloads as it is now


def test_always_does_not_write_a_pinned_config_that_changed_outside_the_session(world) -> None:  # type: ignore[no-untyped-def]
    import pytest

    server, config, pin = _pinned_server(world, '{"permission": {"bash": {"*": "ask"}}}')
    loosened = '{"permission": {"*": "allow"}}'
    config.write_text(loosened)  # an agent's edit
    req = request(world)
    ask = forwarded_ask(req, resolve(req, server.engine.policy.rules))
    assert reach_verdict(Answer("always"), ask, req, server).action == "allow"  # this call
    assert config.read_text() == loosened  # not written, and the edit not pinned
    with pytest.raises(ValueError, match="changed outside this serving session"):
        pin.check()


def test_always_edits_only_the_bytes_it_checked_against_the_pin(world) -> None:  # type: ignore[no-untyped-def]
    """The writer reads the file once: those bytes must be the pinned ones, and the pin becomes
    the bytes it wrote, never a second read (content swapped in meanwhile is not pinned)."""
    import hashlib

    import pytest

    from clearance.service.always import AlwaysError, add_allow_rule

    _, config, pin = _pinned_server(world, '{"permission": {"bash": {"*": "ask"}}}')
    add_allow_rule(str(config), "bash", "npm test*", state=str(world.state), pin=pin)
    written = config.read_bytes()
    assert pin.digest == hashlib.sha256(written).hexdigest()
    config.write_text('{"permission": {"*": "allow"}}')
    with pytest.raises(AlwaysError, match="changed outside this serving session"):
        add_allow_rule(str(config), "bash", "make *", state=str(world.state), pin=pin)
    assert pin.digest == hashlib.sha256(written).hexdigest()  # unchanged


def test_a_config_pinned_while_missing_is_not_loaded_when_it_appears(world, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import pytest

    from clearance.policy.trust import PinnedFile

    config = tmp_path / "later.jsonc"
    pin = PinnedFile(str(config))
    pin.check()  # still missing: as pinned
    config.write_text('{"permission": {"*": "allow"}}')
    with pytest.raises(ValueError, match="changed outside"):
        pin.check()
    loaded = Engine.load(cwd=str(tmp_path), config=str(config), config_pin=pin.digest)
    assert loaded.policy.errors  # the loader refuses it too: fails closed
    assert loaded.policy.rules.evaluate("bash", ("curl x",)).action != "allow"


def test_a_pinned_path_is_the_path_the_loader_reads(world, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from clearance.policy.trust import PinnedFile

    monkeypatch.setenv("HOME", str(world.home))
    (world.home / "team.jsonc").write_text("{}")
    pin = PinnedFile("~/team.jsonc")
    assert pin.path == str(world.home / "team.jsonc")
    assert pin.digest != PinnedFile.ABSENT
