"""JSONC: comments, trailing commas, key order, duplicate keys, and where errors are."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.policy.errors import position_of
from clearance.policy.jsonc import JsoncError, parse


def test_comments_and_trailing_commas_are_accepted() -> None:
    text = '// head\n{\n  "a": [1, 2,], /* inline */\n  "b": {"c": null,},\n}\n'
    assert parse(text).value == {"a": [1, 2], "b": {"c": None}}


def test_key_order_is_kept() -> None:
    assert list(parse('{"z": 1, "a": 2, "m": 3}').value) == ["z", "a", "m"]


def test_positions_of_values_and_keys_are_recorded() -> None:
    doc = parse('{\n  "permission": {\n    "bash": "allow"\n  }\n}')
    assert position_of(doc.source, doc.offset(("permission", "bash")))[:2] == (3, 13)
    assert position_of(doc.source, doc.offset(("permission", "bash"), key=True))[:2] == (3, 5)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ('{"a": 1,, }', 1, 9, "double-quoted key"),
        ('{"a" 1}', 1, 6, "expected ':'"),
        ("{'a': 1}", 1, 2, "double-quoted key"),
        ('{"a": 1}\n{"b": 2}', 2, 1, "after the end"),
        ('{"a": tru}', 1, 7, "expected a value"),
        ('{"a": 1, "a": 2}', 1, 10, "duplicate key"),
        ('{\n  "a": "x\n"}', 2, 8, "invalid string"),
        ("/* open", 1, 1, "unterminated"),
        ("", 1, 1, "empty"),
        ('{"a": [1, 2}', 1, 12, "expected ','"),
        ('{"a": {', 1, 8, "unterminated object"),
    ],
)
def test_malformed_text_is_an_error_at_the_fault(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(JsoncError) as caught:
        parse(text)
    assert words in caught.value.message
    assert position_of(text, caught.value.offset)[:2] == (line, column)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_any_json_document_parses_to_the_same_value(value: object) -> None:
    doc = {"v": value}
    assert parse(json.dumps(doc)).value == doc
    assert parse(json.dumps(doc, indent=2)).value == doc


@given(st.text(max_size=60))
def test_arbitrary_text_either_parses_or_raises_a_jsonc_error(text: str) -> None:
    try:
        parse(text)
    except JsoncError as exc:
        assert 0 <= exc.offset <= len(text)


@given(
    st.lists(st.sampled_from(['{"a": 1}', "\n", "  ", '"x"', "//c\n"]), max_size=30),
    st.integers(-3, 200),
)
def test_a_documents_line_and_column_are_those_a_scan_of_the_text_finds(
    parts: list[str], offset: int
) -> None:
    text = "{" + "".join(p for p in parts if p.strip() in ("", "//c")) + "}"
    document = parse(text)
    assert document.line_column(offset) == position_of(text, offset)[:2]
    assert document.line_column(offset) == position_of(text, offset)[:2]  # the index, kept
