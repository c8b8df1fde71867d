from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from clearance._json import (
    _escape_python,
    dumps,
    encode,
    encode_json_types,
    encode_string,
    loads,
)

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


@given(JSON | st.floats())
def test_the_c_encoder_writes_what_encode_writes(value: object) -> None:
    # `json` is loaded here, so encode_json_types takes the C encoder where it can
    assert encode_json_types({"v": value, "t": (1, "é")}) == encode({"v": value, "t": (1, "é")})


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


# -- loads: the C reader where `json` is loaded, read the JSONC reader's way ---------------------

NUMBERS = st.sampled_from(["0", "-0", "1.0", "1e2", "1E+2", "-1.5e-3", "1e400", "-1e400",
                           "123456789012345678901234567890", "0.1", "1.5e-400"])  # fmt: skip


@given(JSON, st.sampled_from(["", " ", "\n", "\t", "\r\n  "]))
def test_loads_reads_what_the_jsonc_reader_reads(value: object, space: str) -> None:
    from clearance.policy.jsonc import parse

    text = json.dumps(value, ensure_ascii=False, indent=1 if space else None)
    text = space + text.replace("\n", "\n" + space) + space
    assert loads(text) == parse(text).value


@given(NUMBERS)
def test_loads_reads_numbers_as_the_jsonc_reader_does(number: str) -> None:
    from clearance.policy.jsonc import parse

    text = f'{{"n": {number}, "a": [{number}]}}'
    found, expected = loads(text), parse(text).value
    assert found == expected and type(found["n"]) is type(expected["n"])


def test_loads_refuses_what_the_jsonc_reader_refuses_and_reads_jsonc() -> None:
    import pytest

    assert "json" in __import__("sys").modules  # the C reader's path
    for bad in ('{"a": 1, "a": 2}', '{"a": NaN}', '{"a": -Infinity}', "[" * 201 + "]" * 201,
                '{"a": "\\x"}'):  # fmt: skip
        with pytest.raises(ValueError):
            loads(bad)
    assert loads("[" * 200 + "]" * 200) is not None  # the deepest the JSONC reader reads
    assert loads('{"a": [1, 2,], // c\n "b": 1}') == {"a": [1, 2], "b": 1}
    assert loads('\ufeff{"a": 1}') == {"a": 1}
    assert loads('{"a": 01}') == {"a": 1}  # the JSONC reader's leniency, kept
    with pytest.raises(ValueError, match="duplicate key 'a'"):  # the JSONC reader's message
        loads('{"a": 1, "a": 2}')
