from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from clearance._json import _escape_python, dumps, encode, encode_string, loads

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON)
def test_encoding_matches_compact_ascii_json_dumps(value: object) -> None:
    assert encode(value) == json.dumps(value, separators=(",", ":"))


@given(st.text())
def test_the_pure_python_string_escape_matches_the_c_accelerator(text: str) -> None:
    assert _escape_python(text) == json.dumps(text)
    assert encode_string(text) == json.dumps(text)


def test_tuples_are_arrays_and_other_objects_are_their_strings() -> None:
    assert encode(
        {"t": (1, 2), "o": object.__new__(type("Thing", (), {"__str__": lambda s: "T"}))}
    ) == ('{"t":[1,2],"o":"T"}')


@given(JSON)
def test_pretty_output_parses_back_to_the_same_value(value: object) -> None:
    assert json.loads(dumps(value, indent=2)) == value
    assert loads(dumps(value, indent=2)) == value


def test_pretty_output_is_indented_like_the_standard_library() -> None:
    value = {"a": [1, {"b": None}], "c": {}, "d": []}
    assert dumps(value, indent=2) == json.dumps(value, indent=2)
