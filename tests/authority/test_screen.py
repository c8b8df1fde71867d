from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from clearance.authority._screen import cells, fit, fit_middle, visible, wrap, wrap_words


@given(st.text(), st.integers(min_value=1, max_value=120))
def test_fitted_text_never_exceeds_its_width_and_is_always_printable(text: str, width: int) -> None:
    for fitted in (fit(text, width), fit_middle(text, width)):
        assert cells(fitted) <= width
        assert fitted == "" or fitted.isprintable()


@given(st.text(), st.integers(min_value=4, max_value=120), st.integers(min_value=1, max_value=9))
def test_wrapped_lines_fit_and_count_what_they_show(text: str, width: int, limit: int) -> None:
    lines, shown = wrap(text, width, limit)
    assert 1 <= len(lines) <= limit
    assert all(cells(line) <= width and (line == "" or line.isprintable()) for line in lines)
    assert 0 <= shown <= len(text)
    assert shown == len(text) or len(lines) == limit  # stops early only when the lines are full
    if "\n" not in text and text.isascii() and text.isprintable():
        assert "".join(lines) == text[:shown]


def test_terminal_controls_are_shown_not_obeyed() -> None:
    assert visible("a\x1b[2Jb\x07\u202ec\x9b") == "a\\x1b[2Jb\\x07\\u202ec\\x9b"


def test_a_middle_cut_keeps_both_ends() -> None:
    label = 'Yes, allow bash "' + "x" * 200 + '" for this session'
    cut = fit_middle(label, 60)
    assert cut.startswith('Yes, allow bash "xx') and cut.endswith('" for this session')
    assert "…" in cut and cells(cut) <= 60


@given(st.text(), st.integers(min_value=4, max_value=120), st.integers(min_value=1, max_value=9))
def test_word_wrapped_lines_fit_and_count_what_they_show(text: str, width: int, limit: int) -> None:
    lines, shown = wrap_words(text, width, limit)
    assert 1 <= len(lines) <= limit
    assert all(cells(line) <= width and (line == "" or line.isprintable()) for line in lines)
    assert 0 <= shown <= len(text)
    assert shown == len(text) or len(lines) == limit


def test_prose_breaks_between_words_and_cuts_only_a_word_too_long_for_a_line() -> None:
    text = "Needs approval: access to the file outside the working directory"
    lines, shown = wrap_words(text, 20)
    assert lines == ["Needs approval:", "access to the file", "outside the working", "directory"]
    assert shown == len(text)
    assert wrap_words("ab " + "x" * 12, 5)[0] == ["ab", "xxxxx", "xxxxx", "xx"]


def test_the_dialog_prose_wraps_at_words_with_the_home_directory_shortened(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from clearance.authority.dialog import _wrapped

    monkeypatch.setenv("HOME", "/home/alice")
    lines = _wrapped("Why:  ", "Needs approval: read of /home/alice/src/app/.env, outside", 40, 3)
    assert lines == ["Why:  Needs approval: read of", "      ~/src/app/.env, outside"]
