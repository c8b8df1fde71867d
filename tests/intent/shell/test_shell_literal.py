"""Plain command lines are read without the parser — and exactly as the parser reads them."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from clearance.intent.shell import analyze, parser
from clearance.intent.shell import session as session_module
from clearance.intent.shell.literal import literal_line
from clearance.intent.shell.source import Source
from clearance.intent.shell.statement import Scope, Statement
from clearance.intent.shell.walk import Walk
from clearance.intent.shell.word import Word

WORD_FIELDS = (
    "start",
    "end",
    "raw",
    "value",
    "segs",
    "quoted",
    "glob",
    "lead_dyn",
    "dq_dyn",
    "sep",
)
# Words that stress the grammar: reserved words, declarations, numbers, operators made of
# word characters, and every punctuation character the plain reader admits.
VOCABULARY = [
    "git", "status", "-la", "--x=1", "a=b", "=", "==", "-", "--", "1", "12", "0x1", "1e5", "+x",
    ",", ":", "a:b", "case", "esac", "in", "do", "done", "fi", "time", "declare", "export",
    "local", "unset", "let", "eval", "echo", "test", "function", "select", "coproc", "then",
    "elif", "else", "while", "until", "for", "if", "a.b", "..", ".", "/x", "x/", "a,b", "+",
    "--a", "-1", "-e", "typeset", "readonly", "unsetenv", "alias", "command", "builtin", "exec",
    "trap", "source", "-9", "1-2", "9.9.9", ":x", "sudo", "rm", "-rf", "/bin/rm", "x=", "a==b",
    # quoted strings: literal, with separators, operators and specials inside
    "'x y'", '"a b"', "''", '""', "'a|b;c&d'", '"#x"', "-m'msg'", '--f="a=b"', "'it\"s'",
    '"it\'s"', "a'b'c", '"*.py"', "'$HOME'", '"x>y"', "'(x)'", '"!x"', "'~'", '"~/x"', "'rm'",
    "'done'", '"if"', "'='", '"=x"', "='x'", "'a\tb'", '"$HOME"', "'unclosed", '"a\\"b"', '" "', '"a  "', '"  a"', "' '",
]  # fmt: skip
ALPHABET = "abcxyz019-_./:,+=%@"
BLANKS = [" ", "  ", "\t", " \t"]


def _word_sig(word: Word) -> tuple[object, ...]:
    return tuple(getattr(word, name) for name in WORD_FIELDS)


def _chains(statements: list[Statement]) -> list[list[tuple[int, int | None]]]:
    """Each statement's shell as a chain of scope numbers, each with the number of the pipeline
    it is an element of (scopes and pipelines numbered in order of first appearance, so sharing
    and nesting are compared, not identities)."""
    scopes: list[Scope] = []
    pipes: list[object] = []
    out = []
    for stmt in statements:
        chain: list[tuple[int, int | None]] = []
        scope: Scope | None = stmt.scope
        while scope is not None:
            if not any(scope is known for known in scopes):
                scopes.append(scope)
            pipe = scope.pipeline
            if pipe is not None and not any(pipe is known for known in pipes):
                pipes.append(pipe)
            number = next(i for i, known in enumerate(scopes) if known is scope)
            piped = None if pipe is None else next(i for i, p in enumerate(pipes) if p is pipe)
            chain.append((number, piped))
            scope = scope.parent
        out.append(chain)
    return out


def _sigs(statements: list[Statement]) -> list[tuple[object, ...]]:
    """Each statement's fields, and its shell (:func:`_chains`)."""
    out: list[tuple[object, ...]] = []
    for stmt, chain in zip(statements, _chains(statements), strict=True):
        fields = (stmt.kind, stmt.text, stmt.context, stmt.unresolved, stmt.writes)
        more = (stmt.salvaged, stmt.time_subshell, stmt.redirects, stmt.operands)
        out.append((*fields, *more, [_word_sig(w) for w in stmt.words], chain))
    return out


def _walked(text: str) -> tuple[Walk, bool]:
    src = Source(text)
    root = parser.parse(src.parsed)
    walk = Walk(src, True, True)
    walk.run(root, "", Scope(None, "/w"))
    return walk, root.has_error


words = st.one_of(st.sampled_from(VOCABULARY), st.text(alphabet=ALPHABET, min_size=1, max_size=5))
commands = st.builds(
    lambda parts, blanks: "".join(b + w for b, w in zip(blanks, parts, strict=False)),
    st.lists(words, min_size=1, max_size=5),
    st.lists(st.sampled_from([*BLANKS, ""]), min_size=5, max_size=5),
)
OPERATORS = ["&&", "||", ";", "|", " && ", " | ", "; ", "&", "|&", ";;", "|||", " & "]
lines = st.builds(
    lambda first, rest, tail: first + "".join(op + cmd for op, cmd in rest) + tail,
    commands,
    st.lists(st.tuples(st.sampled_from(OPERATORS), commands), max_size=4),
    st.sampled_from(["", " ", "\t", ";", " &&"]),
)


@given(lines)
@settings(max_examples=1500, deadline=None)
def test_an_accepted_line_is_the_statement_the_parser_reads(text: str) -> None:
    statements = literal_line(text, "", Scope(None, "/w"))
    if statements is None:
        return
    walk, has_error = _walked(text)
    assert not has_error and not walk.salvage
    assert _sigs(walk.statements) == _sigs(statements)


@given(lines)
@example(" git - 0")  # a bare `-` before a last word that is a digit: no redirect follows
@example(" git - &&  git")  # a bare `-` before `&&`: a list, not a redirect
@settings(max_examples=300, deadline=None)
def test_analysis_is_the_same_with_and_without_the_plain_reader(text: str) -> None:
    fast = analyze(text, cwd="/w", home="/h")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "PLAIN_READER", False)
        full = analyze(text, cwd="/w", home="/h")
    assert fast == full


PLAIN = [
    "git status", "npm test -- --coverage", "ls -la src", "  make  -j8\t", "rm -rf build/",
    "npm i @types/node", "git clone git@github.com:a/b.git", "fg %1",
]  # fmt: skip


@pytest.mark.parametrize("text", PLAIN)
def test_common_commands_are_plain(text: str) -> None:
    statements = literal_line(text, "", Scope(None, "/w"))
    assert statements is not None and len(statements) == 1
    assert statements[0].text == text.strip()
    assert [w.value for w in statements[0].words] == text.split()


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (
            "git commit -m 'fix: the parser; again'",
            ["git", "commit", "-m", "fix: the parser; again"],
        ),
        ('grep -rn "TODO|FIXME" src', ["grep", "-rn", "TODO|FIXME", "src"]),
        ('echo "it\'s" \'say "hi"\' a\'b\'"c"', ["echo", "it's", 'say "hi"', "abc"]),
        ("sed -n '1,60p' f.py && echo ''", ["sed", "-n", "1,60p", "f.py", "echo", ""]),
    ],
)
def test_quoted_strings_without_expansions_are_plain(text: str, values: list[str]) -> None:
    statements = literal_line(text, "", Scope(None, "/w"))
    assert statements is not None
    assert [w.value for s in statements for w in s.words] == values
    assert all(w.quoted == ("'" in w.raw or '"' in w.raw) for s in statements for w in s.words)


@pytest.mark.parametrize(
    ("text", "shells"),
    [
        ("git add -A && git commit -m wip", [[0], [0]]),
        ("git log | head -5", [[0, 1], [2, 1]]),
        ("make || make clean; make", [[0], [0], [0]]),
        # bash reads `a | b | c && d` as `(a | b | c) && d`: d runs in the outer shell.
        ("ls | sort | uniq && cd /tmp", [[0, 1], [2, 1], [3, 1], [1]]),
    ],
)
def test_chains_and_pipelines_of_plain_commands(text: str, shells: list[list[int]]) -> None:
    statements = literal_line(text, "", Scope(None, "/w"))
    assert statements is not None
    assert [[scope for scope, _ in chain] for chain in _chains(statements)] == shells


@pytest.mark.parametrize(
    ("text", "pipes"),
    [
        ("git log | head -5", [0, 0]),
        ("a | b; c | d", [0, 0, 1, 1]),
        ("a | b && c", [0, 0, None]),
        ("a && b | c || d", [None, 0, 0, None]),
    ],
)
def test_the_elements_of_one_pipeline_share_it(text: str, pipes: list[int | None]) -> None:
    statements = literal_line(text, "", Scope(None, "/w"))
    assert statements is not None
    assert [chain[0][1] for chain in _chains(statements)] == pipes


@pytest.mark.parametrize(
    "text",
    [
        "git status; rm -rf ~", "echo $HOME", "ls ~", "cat *.py", "FOO=1 make", "echo 'x'>f",
        "a & b", "a |& b", "a;; b", "a && && b", "a &&", "| a", "echo x > f", "'rm' x",
        'echo "$HOME"', 'echo "a\\"b"', "echo 'unclosed", 'echo "`id`"', "echo 'a\tb'", "time make", "if x", "export A=1", "echo # c",
        "echo \\x", "git\nstatus", "-x y", "@a b", "%1 x", "a+: b", "", "   ",
    ],
)  # fmt: skip
def test_anything_else_takes_the_full_parse(text: str) -> None:
    assert literal_line(text, "", Scope(None, "/w")) is None
