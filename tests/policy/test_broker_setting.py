"""The forwarding.broker setting: what it accepts, and a clear sentence for anything else."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.policy.broker import (
    BrokerSettingError,
    parse_broker,
    parse_forwarding,
    parse_public_key,
    shown_url,
)

KEY = "ed25519:" + base64.b64encode(bytes(range(32))).decode()


def test_a_url_alone_or_an_object_is_accepted() -> None:
    assert parse_broker("rediss://r.example:6380/0")["url"] == "rediss://r.example:6380/0"
    conf = parse_broker({"url": "redis://127.0.0.1:6379", "session": "team", "publicKey": [KEY],
                         "prefix": "acme.clearance"})  # fmt: skip
    assert conf["session"] == "team" and conf["publicKeys"] == (bytes(range(32)),)
    assert conf["prefix"] == "acme.clearance"


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("http://r:6379", "redis://HOST:PORT"),
        ("redis://", "names no host"),
        ({"session": "x"}, 'needs "url"'),
        ({"url": "redis://r", "publickey": KEY}, 'unknown key "publickey"'),
        ({"url": "redis://r", "publicKey": "ssh-ed25519 AAAA"}, '"ed25519:"'),
        ({"url": "redis://r", "publicKey": "ed25519:AAAA"}, "not 32 bytes"),
        ({"url": "redis://r", "session": ""}, '"session" must be'),
        ({"url": "redis://r", "prefix": "a b"}, '"prefix" must be'),
        (42, "must be a redis:// URL or an object"),
    ],
)
def test_a_broken_setting_says_what_is_wrong(value: object, words: str) -> None:
    with pytest.raises(BrokerSettingError, match=words.replace("(", r"\(")):
        parse_broker(value)


def test_forwarding_takes_only_broker() -> None:
    with pytest.raises(BrokerSettingError, match='unknown key "brokers"'):
        parse_forwarding({"brokers": "redis://r"})
    with pytest.raises(BrokerSettingError, match=r'"forwarding\.broker"'):
        parse_forwarding({"broker": "http://r"})


def test_a_password_is_never_shown() -> None:
    assert shown_url("rediss://child:s3cret@r:6380/0") == "rediss://child:***@r:6380/0"
    assert shown_url("redis://r:6379") == "redis://r:6379"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(JSON)
def test_any_json_value_is_accepted_or_refused_with_a_sentence(value: object) -> None:
    try:
        parse_forwarding({"broker": value})
    except BrokerSettingError as exc:
        assert str(exc).startswith('"forwarding.broker": ')


@given(st.text(max_size=80))
def test_any_public_key_text_is_32_bytes_or_refused(text: str) -> None:
    try:
        assert len(parse_public_key(text)) == 32
    except BrokerSettingError:
        pass
