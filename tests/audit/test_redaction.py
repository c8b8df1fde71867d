from __future__ import annotations

from typing import Any

import pytest

from clearance._frozen import Frozen
from clearance.audit.redaction import ELLIPSIS, REDACTED, cap, redact, redact_fields

R = REDACTED

# (fields written, fields as they reach the log)
TABLE: list[tuple[dict[Any, object], dict[str, object]]] = [
    # sensitive keys, any casing and spelling
    ({"authorization": "Bearer x"}, {"authorization": R}),
    ({"Authorization": "Basic eDp5"}, {"Authorization": R}),
    ({"apiKey": "sk-1"}, {"apiKey": R}),
    ({"api_key": "sk-1"}, {"api_key": R}),
    ({"x-api-key": "sk-1"}, {"x-api-key": R}),
    ({"ANTHROPIC_API_KEY": "sk-ant"}, {"ANTHROPIC_API_KEY": R}),
    ({"OPENROUTER_KEY": "or-1"}, {"OPENROUTER_KEY": R}),
    ({"private_key": "-----BEGIN"}, {"private_key": R}),
    ({"client_secret": "s"}, {"client_secret": R}),
    ({"GH_TOKEN": "ghp_1"}, {"GH_TOKEN": R}),
    ({"refreshToken": "r"}, {"refreshToken": R}),
    ({"password": "hunter2"}, {"password": R}),
    ({"passwd": "hunter2"}, {"passwd": R}),
    ({"credentials": {"user": "u", "pass": "p"}}, {"credentials": R}),
    ({"Cookie": "sid=1"}, {"Cookie": R}),
    ({"key": "k"}, {"key": R}),
    ({"sortKeys": ["a"]}, {"sortKeys": R}),
    # not sensitive
    ({"monkey": "banana"}, {"monkey": "banana"}),
    ({"keyboard": "qwerty"}, {"keyboard": "qwerty"}),
    ({"path": "/home/u/.env", "tool": "read"}, {"path": "/home/u/.env", "tool": "read"}),
    # null stays null; non-string values are masked whole
    ({"token": None}, {"token": None}),
    ({"token": 12345}, {"token": R}),
    ({"secret": ""}, {"secret": R}),
    # nested anywhere, subtree not visited
    (
        {"input": {"headers": {"Authorization": "x", "Accept": "*/*"}}},
        {"input": {"headers": {"Authorization": R, "Accept": "*/*"}}},
    ),
    (
        {"env": [{"name": "A", "password": "p"}, {"name": "B"}]},
        {"env": [{"name": "A", "password": R}, {"name": "B"}]},
    ),
    ({"a": {"b": {"c": {"d": {"apiKey": "deep"}}}}}, {"a": {"b": {"c": {"d": {"apiKey": R}}}}}),
    ({"secrets": {"token": "t", "note": "n"}}, {"secrets": R}),
    ({"list": [["x", {"cookie": "c"}]]}, {"list": [["x", {"cookie": R}]]}),
    # commands: assignments and headers
    ({"command": "API_KEY=sk-123 curl https://api"}, {"command": f"API_KEY={R} curl https://api"}),
    ({"command": 'export GH_TOKEN="abc"'}, {"command": f"export GH_TOKEN={R}"}),
    ({"command": "env MY_SECRET=x cmd"}, {"command": f"env MY_SECRET={R} cmd"}),
    (
        {"command": 'curl -H "Authorization: Bearer x" u'},
        {"command": f'curl -H "Authorization:{R}" u'},
    ),
    (
        {"command": "curl --header 'X-Api-Key: sk' u"},
        {"command": f"curl --header 'X-Api-Key:{R}' u"},
    ),
    ({"command": "http u X-Api-Key:sk"}, {"command": f"http u X-Api-Key:{R}"}),
    ({"executed": "PASSWORD=p psql"}, {"executed": f"PASSWORD={R} psql"}),
    ({"executedUnit": "TOKEN=t make"}, {"executedUnit": f"TOKEN={R} make"}),
    (
        {"surface": "bash", "value": "SECRET=s ./run"},
        {"surface": "bash", "value": f"SECRET={R} ./run"},
    ),
    (
        {"tool": "bash", "value": "GH_TOKEN=g gh pr list"},
        {"tool": "bash", "value": f"GH_TOKEN={R} gh pr list"},
    ),
    (
        {"units": [{"command": "AWS_SECRET_ACCESS_KEY=a aws s3 ls"}]},
        {"units": [{"command": f"AWS_SECRET_ACCESS_KEY={R} aws s3 ls"}]},
    ),
    (
        {"command": ["curl", "-H", "Authorization: Bearer x"]},
        {"command": ["curl", "-H", f"Authorization:{R}"]},
    ),
    # commands: not masked
    ({"command": "tool --my-key=abc"}, {"command": "tool --my-key=abc"}),
    ({"command": "sort --key 2 file"}, {"command": "sort --key 2 file"}),
    ({"command": 'grep -r "sk-live-123" .'}, {"command": 'grep -r "sk-live-123" .'}),
    (
        {"command": "python3 -c \"key='x'; print(key)\""},
        {"command": "python3 -c \"key='x'; print(key)\""},
    ),
    # value is a command only on the bash surface
    ({"surface": "read", "value": "TOKEN=1"}, {"surface": "read", "value": "TOKEN=1"}),
    ({"description": "API_KEY=sk x"}, {"description": "API_KEY=sk x"}),
    # keys are strings, non-JSON values become JSON
    ({1: "one", "set": {3}}, {"1": "one", "set": [3]}),
    ({"bytes": b"caf\xc3\xa9 \xff"}, {"bytes": "café \\xff"}),
]


@pytest.mark.parametrize(("fields", "expected"), TABLE)
def test_fields_are_redacted_as_the_table_says(
    fields: dict[str, object], expected: dict[str, object]
) -> None:
    assert redact_fields(fields) == expected


def test_the_table_has_at_least_forty_cases() -> None:
    assert len(TABLE) >= 40


def test_redaction_returns_a_copy_and_leaves_the_input_alone() -> None:
    fields = {"headers": {"Authorization": "x"}, "command": "TOKEN=1 a"}
    redact_fields(fields)
    assert fields == {"headers": {"Authorization": "x"}, "command": "TOKEN=1 a"}


@pytest.mark.parametrize(
    ("text", "width", "expected"),
    [
        ("abc", 3, "abc"),
        ("abcd", 3, "abc" + ELLIPSIS),
        ("", 1, ""),
        ("long", None, "long"),
    ],
)
def test_capping_keeps_the_first_characters_and_adds_an_ellipsis(
    text: str, width: int | None, expected: str
) -> None:
    assert cap(text, width) == expected


def test_keys_are_capped_too() -> None:
    assert redact({"k" * 10: 1}, max_width=3) == {"kkk" + ELLIPSIS: 1}


def test_a_frozen_value_becomes_an_object_of_its_fields() -> None:
    class Grant(Frozen):
        __slots__ = ("pattern", "token")

        def __init__(self) -> None:
            object.__setattr__(self, "pattern", "git *")
            object.__setattr__(self, "token", "t")

    assert redact({"grant": Grant()}) == {"grant": {"pattern": "git *", "token": R}}
