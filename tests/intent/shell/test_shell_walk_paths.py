"""The walk's shortcuts agree with its general path.

The simple-command builder takes plain words from the text, builds leaf words inline, and
:func:`build_word` answers plain, tilde and simple double-quoted words without visiting their
children. Each test walks the same command twice: as the analyzer does, and with every shortcut
off (no ASCII slicing, the generic child loop, and a ``build_word`` that always assembles the
word from its pieces). Every statement and word must come out the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.intent.shell import command, parser, word_build
from clearance.intent.shell.grammar import KIND
from clearance.intent.shell.source import Source
from clearance.intent.shell.statement import Scope
from clearance.intent.shell.walk import Walk
from clearance.intent.shell.word import DYN, HOME, PWD, Word


def _general_build_word(
    node: Any, src: Source, subs: list[Any], home_ok: bool, pwd_ok: bool
) -> Word:
    """``build_word`` without its shortcuts: always from the pieces."""
    start, end = node.start_byte, node.end_byte
    word = Word(start, end, src.slice(start, end))
    acc = word_build._Acc()
    word_build._piece(node, src, acc, subs, home_ok, pwd_ok, True)
    parts = acc.parts
    word.quoted, word.glob, word.dq_dyn = acc.quoted, acc.glob, acc.dq_dyn
    if not parts:
        word.value = ""
    elif all(type(p) is str for p in parts):
        word.value = "".join(str(p) for p in parts)
    else:
        word.lead_dyn = parts[0] == DYN
        if DYN not in parts:
            word.segs = tuple(parts)
    return word


def _words(words: list[Word]) -> list[tuple[object, ...]]:
    return [
        (w.start, w.end, w.raw, w.value, w.segs, w.quoted, w.glob, w.lead_dyn, w.dq_dyn, w.sep)
        for w in words
    ]


def _walk(text: str, home_ok: bool, shortcuts: bool) -> list[tuple[object, ...]]:
    src = Source(text)
    walk = Walk(src, home_ok, True)
    if not shortcuts:
        walk.commands.text = None
        walk.commands.plain = walk.commands.safe = False
    walk.run(parser.parse(src.parsed), "", Scope(None, "/w"))
    return [
        (
            s.kind,
            s.text,
            s.context,
            s.unresolved,
            s.writes,
            _words(s.words),
            _words(s.operands),
            [(r.op, r.broken, r.body, _words([r.target] if r.target else [])) for r in s.redirects],
        )
        for s in walk.statements
    ] + [("salvage", walk.salvage)]


def _agree(text: str, home_ok: bool) -> None:
    fast = _walk(text, home_ok, True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(command, "build_word", _general_build_word)
        patch.setattr(command, "_literal_words", lambda node, text, safe: None)
        general = _walk(text, home_ok, False)
    assert fast == general, text


TOKENS = [
    "git",
    "status",
    "-n",
    "--x=1",
    "a=b",
    "==",
    "8080",
    "-5",
    "0x1f",
    "1:2",
    "%",
    "@x",
    "do",
    "then",
    "time",
    "~",
    "~/src",
    "~x",
    "~/a*",
    "'a b'",
    "''",
    '""',
    '" "',
    '"\t"',
    '"a b"',
    '"x  "',
    '"a\nb"',
    '"-\n \t"',
    '"$HOME/x"',
    '"a\\"b"',
    '"é"',
    "é",
    "a\\ b",
    "*.py",
    "&&",
    "|",
    ";",
    "\n",
    "> f",
    "2>&1",
    "$(x)",
]


@settings(max_examples=400, deadline=None)
@given(tokens=st.lists(st.sampled_from(TOKENS), min_size=1, max_size=8), home_ok=st.booleans())
def test_shortcuts_agree_with_the_general_walk(tokens: list[str], home_ok: bool) -> None:
    _agree(" ".join(tokens), home_ok)


SAFE = "abcxyzAZ0129-_./:,@%+="


@settings(max_examples=300, deadline=None)
@given(tokens=st.lists(st.text(SAFE, min_size=1, max_size=6), min_size=1, max_size=6))
def test_safe_text_words_agree_with_the_tree(tokens: list[str]) -> None:
    _agree(" ".join(tokens), True)


@pytest.mark.parametrize(
    "text",
    [
        "git status",
        "echo a == b",
        "a=b git",
        "ls ~/src ~ ~x",
        'grep -n "import" src',
        'echo " " "\t" "x  "',
        "sed -n '1,60p' app.py",
        "nc -z localhost 8080",
        "make test > out.txt 2>&1",
        "cd backend && npm test | tee log",
    ],
)
@pytest.mark.parametrize("home_ok", [True, False])
def test_common_commands_agree(text: str, home_ok: bool) -> None:
    _agree(text, home_ok)


def test_tilde_words_keep_home_symbolic() -> None:
    src = Source("ls ~/src ~")
    walk = Walk(src, True, True)
    walk.run(parser.parse(src.parsed), "", Scope(None, "/w"))
    words = walk.statements[0].words
    assert [w.segs for w in words[1:]] == [(HOME, "/src"), (HOME,)]
    assert PWD not in (words[1].segs or ())


def test_every_node_kind_has_a_name() -> None:
    parser.parse(b"x")
    language = parser._parser[0].language
    assert language is not None
    for kind_id in range(language.node_kind_count):
        assert KIND[kind_id] == language.node_kind_for_id(kind_id)
    assert KIND[0xFFFF] == "ERROR"
