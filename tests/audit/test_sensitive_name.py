from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.audit.sensitive_name import (
    CAMEL_KEY_PATTERN,
    SENSITIVE_NAME_PATTERN,
    is_sensitive_name,
)

WORDS = re.compile(SENSITIVE_NAME_PATTERN, re.IGNORECASE)
CAMEL = re.compile(CAMEL_KEY_PATTERN)


def regex_says(name: str) -> bool:
    return WORDS.search(name) is not None or CAMEL.search(name) is not None


@pytest.mark.parametrize(
    "name",
    [
        "authorization",
        "Authorization",
        "ANTHROPIC_API_KEY",
        "x-api-key",
        "apiKey",
        "api_keys",
        "private_key",
        "privateKeys",
        "client_secret",
        "GH_TOKEN",
        "accessToken",
        "password",
        "PASSWD",
        "credentials",
        "Cookie",
        "key",
        "keys",
        "OPENROUTER_KEY",
        "key-id",
        "sortKeys",
        "cacheKey",
        "s3Key_id",
        "Key",
        "valueKeyX",
        "myKeys-x",
    ],
)
def test_a_sensitive_name_is_recognised(name: str) -> None:
    assert is_sensitive_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "monkey",
        "keyboard",
        "Keyboard",
        "turkey_sandwich",
        "KEYNOTE",
        "hotkeyX",
        "keyed",
        "donkeys",
        "path",
        "command",
        "value",
        "requestId",
        "session",
        "MyKeyboard",
        "Keystone",
    ],
)
def test_an_ordinary_name_is_not_sensitive(name: str) -> None:
    assert not is_sensitive_name(name)


@given(st.text(alphabet="keyKEYsS_-aApiItTokenNPrv0Z9.", max_size=16))
def test_the_hand_scanner_agrees_with_the_reference_regular_expressions(name: str) -> None:
    assert is_sensitive_name(name) == regex_says(name)


@given(st.text(max_size=24))
def test_any_name_at_all_gets_the_regular_expressions_answer(name: str) -> None:
    assert is_sensitive_name(name) == regex_says(name)
