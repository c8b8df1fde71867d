"""Strings bash evaluates again as code (issue 11, point 2): each construct, verified against
bash 5.2, either has its code analysed (a deny on the inner command fires) or asks with
``<reevaluated-shell-string>``; the benign twins keep their decisions.

These lines are data: nothing here runs them.
"""

from __future__ import annotations

import json

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.intent.sentinel import REEVALUATED
from clearance.intent.shell import analyze

CWD = "/work/proj"
POLICY = {"permission": {"*": "ask", "bash": {"*": "allow", "rm *": "deny"}}}

# Lines whose re-read string runs `rm -rf x`: denied by the `rm *` deny (the code is analysed).
DENIED = [
    "[[ -v 'a[$(rm -rf x)]' ]]",
    "test -v 'a[$(rm -rf x)]'",
    "[ -v 'a[$(rm -rf x)]' ]",
    "[[ 'a[$(rm -rf x)]' -eq 1 ]]",
    "(( 'a[$(rm -rf x)]' ))",
    "echo $(( 'a[$(rm -rf x)]' ))",
    "echo ${a['$(rm -rf x)']}",
    "echo \"${#a['$(rm -rf x)']}\"",
    "a['$(rm -rf x)']=1",
    "a=(['$(rm -rf x)']=1)",
    "let 'a[$(rm -rf x)]=1'",
    'let "x=a[\\$(rm -rf x)]"',
    "unset 'a[$(rm -rf x)]'",
    "unset -v 'a[`rm -rf x`]'",
    "read 'a[$(rm -rf x)]' <<< y",
    "read -r -d '' 'a[$(rm -rf x)]' <<< y",
    "printf -v 'a[$(rm -rf x)]' y",
    'printf -v "a[\\$(rm -rf x)]" y',
    "wait -n -p 'a[$(rm -rf x)]'",
    "declare 'a[$(rm -rf x)]=1'",
    "declare -a a='($(rm -rf x))'",
    "declare -A a='([$(rm -rf x)]=1)'",
    "declare -i n='a[$(rm -rf x)]'",
    "declare -n r='a[$(rm -rf x)]'; echo $r",
    "typeset -a a='($(rm -rf x))'",
    "readonly -a a='($(rm -rf x))'",
    "export -a a='($(rm -rf x))'",
    "f() { local -a a='($(rm -rf x))'; }; f",
    "f() { local 'a[$(rm -rf x)]=1'; }; f",
    "declare -a a; declare a='($(rm -rf x))'",
    "builtin printf -v 'a[$(rm -rf x)]' y",
    "x='a[$(rm -rf x)]'; (( x ))",
    "PS4='$(rm -rf x)'; set -x; true",
    "export PS4='`rm -rf x`'; set -x; true",
    "alias ls='rm -rf x'\nls",
    "shopt -s expand_aliases; alias ll='rm -rf x'\nll",
    "mapfile -C 'rm -rf x' -c 1 lines < f",
    "readarray -C'rm -rf x' lines < f",
    "(( '$(rm -rf x)' ))",
    "read x <<< 'a[$(rm -rf x)]'; (( x ))",
    "printf -v x '%s' 'a[$(rm -rf x)]'; (( x ))",
    "v='($(rm -rf x))'; declare -a a=\"$v\"",
    "PS4='$(rm -rf x)' bash -x script.sh",
    "bash -c \"alias ls='rm -rf x'\nls\"",
    "command declare -a a='($(rm -rf x))'",
]

# Lines whose re-read string cannot be analysed into a unit, or whose code is harmless here:
# asked, with the sentinel.
ASKED = [
    "[[ -v 'a[$(id)]' ]]",
    "(( 'a[${x@P}]' ))",
    "test -v $'a[\\x24(id)]'",
    "PS4='+ $(date) '; set -x; true",
    'PS4="\\$(id)"; set -x; true',
    "printf -v PS4 '%s' y; set -x; true",
    "read PS4 <<< y; set -x; true",
    "declare -n r=PS4; r=y; set -x; true",
    "BASH_ALIASES[ls]='id'\nls",
    "BASH_CMDS[ls]=/tmp/evil; ls",
    "alias ll='ls -l'\nll",
    "x='a[`id`]'; echo $(( x ))",
    "declare -gn r='a[$(id)]'; : $r",
    'declare -a a="$v"',
    "declare -n r=$v; : $r",
    "declare -i n=$v",
    'shopt -s expand_aliases; alias zz="$v"\nzz',
    'declare -a a="($(printf x))"',
    "declare -n r=PS4; r='$(id)'; set -x; true",
    "hash -p ./evil ls; ls",
    "printf -v 'BASH_ALIASES[ls]' %s id\nls",
    "read 'BASH_CMDS[ls]' <<< /tmp/evil; ls",
    "BASH_ALIASES+=([ls]=id)\nls",
    "declare -A BASH_CMDS=([ls]=/tmp/evil); ls",
]

# Lines the grammar cannot read: asked as unparsed, never allowed.
# Arithmetic reads a variable's value as arithmetic again, so a value that holds a subscript
# with code runs it (`x=$(printf 'a[\x24(id)]'); (( x ))`): a value the line does not show, a
# substitution's output, or an inherited variable asks wherever bash reads it as arithmetic.
ASKED += [
    "test -v \"$(printf 'a[\\x24(id)]')\"",
    "[ -v \"$(printf 'a[\\x24(id)]')\" ]",
    "[[ -v $x ]]",
    'test -v "$x"',
    "test -v 'a[i]'",
    "echo $(( $(printf 'a[\\x24(id)]') ))",
    "x=$(printf 'a[\\x24(id)]'); echo $((x))",
    "x=$(printf 'a[\\x24(id)]'); (( x ))",
    "echo $(( $x + 1 ))",
    "echo \"${PWD:$(printf 'a[\\x24(id)]')}\"",
    "echo ${a[$i]}",
    "echo ${a[i]}",
    'let "x=$y"',
    "let i=i+1",
    "(( i += 1 ))",
    "echo $(( a[1] + 2 ))",
    "[[ $x -eq 1 ]]",
    "unset RANDOM; echo $((RANDOM))",
    # a variable the line made a number, then may have set to anything
    "for ((i=0; i<3; i++)); do read i; echo $((i)); done",
    "i=0; read i; echo $((i + 1))",
    'i=0; echo "${i:=x}"; echo $((i))',
    "for f in 1 2; do f=$(cat x); echo $((f + 1)); done",
    "for f in 1 a; do echo $((f + 1)); done",
    # or set where it may not take effect: later, in the background, a subshell, a prefix
    "echo $((i + 1)); i=0",
    "true && i=0; echo $((i + 1))",
    "i=0 & echo $((i + 1))",
    "(i=0); echo $((i))",
    "i=0 echo; echo $((i))",
    # an array literal's subscript, a heredoc body, a builtin's quoted target, a name spelled
    # with escapes, a dynamic variable the line may unset by another spelling
    "x=$(printf 'a[\\x24(id)]'); a=([x]=1)",
    "x=$(printf 'a[\\x24(id)]'); a+=(1 [x]=2)",
    "x=$(printf 'a[\\x24(id)]'); a=([\"$x\"]=1)",
    "printf -v x 'a[\\x24(id)]'; b=([x]=1)",
    "x=$(printf 'a[\\x24(id)]'); cat <<EOF\n$((x))\nEOF",
    "x=$(printf 'a[\\x24(id)]'); cat <<EOF\n${a[x]}\nEOF",
    "x=$(printf 'a[\\x24(id)]'); cat <<EOF\n${PWD:x}\nEOF",
    "x=$(printf 'a[\\x24(id)]'); printf -v 'a[x]' 1",
    "x=$(printf 'a[\\x24(id)]'); printf -v $'a[x]' 1",
    "N=5; printf -v $'\\x4e' 'a[\\x24(id)]'; echo $((N))",
    "for N in 1 2; do printf -v $'\\116' 'a[\\x24(id)]'; echo $((N)); done",
    "\"un\"set RANDOM; RANDOM=$(printf 'a[\\x24(id)]'); echo $((RANDOM))",
    # places no statement's own scan reaches: a redirect's target, a case word or pattern
    "x=$(printf 'a[\\x24(id)]'); echo hi 2>$((x))",
    "x=$(printf 'a[\\x24(id)]'); echo hi >>$((x))",
    "x=$(printf 'a[\\x24(id)]'); case $((x)) in *) echo ok;; esac",
    "x=$(printf 'a[\\x24(id)]'); case $x in ${a[x]}) ;; esac",
    "case 1 in $((x))) ;; esac",
    # a word bash splits or expands may be test's or printf's -v
    "test {-v,'a[$(id)]'}",
    "printf {-v,'a[$(id)]'} x",
    "test {-v,'a[$(id)]'}{,}",
    "test $(cat q.txt)",
    "[ $(cat q.txt) ]",
    "x=$(cat q.txt); test $x",
    'o=-v; test $o "$(cat p.txt)"',
    'test -$(echo v) "$(cat p.txt)"',
    'printf $(cat v.txt) OPTIND %s "$(cat p.txt)"',
    "\"un\"set $'RAND'OM; printf -v $'RAND'OM 'a[$(id)]'; echo $((RANDOM))",
    # a nested expansion before the name, test's parentheses, an assignment that appends
    'x=$(cat op.txt); y=$(cat notes.txt); test "(" "$x" "$y" ")"',
    "N+=5; echo $((N))",
]
UNPARSED = ["for (( i='a[$(rm -rf x)]'; i<0; )); do :; done"]

# Benign twins: the decision under the deny-list policy stays allow.
BENIGN = [
    "declare -a a=(1 2)",
    "declare -A m=([k]=v)",
    "printf -v x '%s' y",
    "printf '%s\\n' '$(not run)'",
    "read -r line",
    "read -r -p '$ ' line",
    "[[ -v HOME ]]",
    "test -v 'a[1]'",
    'export PATH="$PATH:/x"',
    'local x="$(pwd)"',
    "declare x='$(not run)'",
    "declare -i n=5",
    "unset x",
    "alias",
    "alias ll",
    "echo 'a[$(not run)]'",
    "awk '{print $(NF-1)}' f",
    "x='$(not run)'; echo \"$x\"",
    "PS4='+ '; set -x; true",
    "PS4='+ ${LINENO}: '; set -x; true",
    "declare -i n=$((1 + 2))",
    'f() { local -a arr=("$@"); }; f',
    'declare x="$y"',
    'PS4="+ "; set -x; true',
    "read -r x <<< 'a b'",
    'for ((i=0; i<3; i++)); do echo "$i"; done',
    "for f in 1 2; do echo $((f + 1)); done",
    "n=5; for ((i=0; i<n; i++)); do echo $((i * 2)); done",
    "i=0 && echo $((i + 1))",
    "i=0; i=$((i + 1)); echo $i",
    "for i in {1..5}; do echo $((i * 2)); done",
    "arr=(a b c); for ((i=0; i<${#arr[@]}; i++)); do echo $i; done",
    "arr=(a b c); echo $(( ${#arr[@]} - 1 ))",
    "a=([0]=x [1]=y)",
    'case "$1" in start) echo s;; esac',
    '[ -f "$x" ]',
    '[ -f "${dir}/x" ]',
    'test -d "${d}"',
    'printf "${fmt}" a',
    '[ "${a}" = "${b}" ]',
    '[ "$a" = "$b" -o -n "$c" ]',
    'test -d "$dir"',
    '[ ! -f "$f" ]',
    'test ! -d "$d"',
    "N=5; echo $((N))",
    'printf "%s\\n" "$x" "$y"',
    "echo -n $((RANDOM % 6 + 1))",
    "ls localdir; echo $((RANDOM % 2))",
    "start=$SECONDS; sleep 0; echo $((SECONDS - start))",
    "git status && echo $((2 * 3))",
    "cat <<EOF\n$((1 + 2)) ${#PATH} ${HOME}\nEOF",
    "echo $((2 * 3))",
    "echo $((RANDOM % 3))",
    "echo $(( $# + 1 ))",
    "[[ $? -eq 0 ]]",
    '[ "$n" -gt 0 ]',
    'test "$n" -eq 1',
    "echo ${#PATH}",
    "echo ${PWD:0:5}",
    'echo "${PWD:1}"',
    'echo "${x:-default}"',
    "let 'i = 1 + 2'",
    "git remote -v",
    "printf -v x '%s' '[y]'",
    "mapfile -t lines < f",
    "hash -r",
    "hash",
    "git commit -m \"$(cat <<'EOF'\nfix: a[$(x)] in docs\nEOF\n)\"",
]

_ENGINES: dict[str, Engine] = {}


def _deny_list() -> Engine:
    if "deny" not in _ENGINES:
        _ENGINES["deny"] = Engine.load(cwd=CWD, policy=json.dumps(POLICY), env={"HOME": "/home/me"})
    return _ENGINES["deny"]


def _decide(engine: Engine, line: str) -> tuple[str, str | None, str]:
    found = engine.check(ToolCall("bash", {"command": line}, CWD))
    gate = found.deciding
    return found.action, gate.sentinel if gate is not None else None, found.reason


@pytest.mark.parametrize("line", DENIED)
def test_the_code_of_a_reevaluated_string_is_analysed(line: str) -> None:
    action, _, reason = _decide(_deny_list(), line)
    assert action == "deny", reason


@pytest.mark.parametrize("line", ASKED + DENIED)
def test_a_reevaluated_string_floors_its_unit(line: str) -> None:
    floors = [u.floor for u in analyze(line, cwd=CWD, home="/home/me").units if u.floor]
    assert any(f[0] == REEVALUATED for f in floors), floors


@pytest.mark.parametrize("line", UNPARSED)
def test_a_line_the_grammar_cannot_read_asks(line: str) -> None:
    action, _, reason = _decide(_deny_list(), line)
    assert action == "ask", reason


@pytest.mark.parametrize("line", ASKED)
def test_a_reevaluated_string_asks(line: str) -> None:
    action, sentinel, reason = _decide(_deny_list(), line)
    assert action == "ask", reason
    assert sentinel == REEVALUATED, reason
    assert "as code" in reason, reason


@pytest.mark.parametrize("line", BENIGN)
def test_a_benign_twin_keeps_its_decision(line: str) -> None:
    action, _, reason = _decide(_deny_list(), line)
    assert action == "allow", reason
    units = analyze(line, cwd=CWD, home="/home/me").units
    assert not any(u.floor and u.floor[0] == REEVALUATED for u in units)


def test_the_reason_names_the_string() -> None:
    _, _, reason = _decide(_deny_list(), "[[ -v 'a[$(id)]' ]]")
    assert "re-evaluates 'a[$(id)]' as code" in reason, reason
    assert REEVALUATED in reason


@pytest.mark.parametrize("line", ASKED + DENIED)
def test_under_the_built_in_policy_nothing_reevaluated_is_allowed(line: str, world) -> None:  # type: ignore[no-untyped-def]
    engine = Engine.load(cwd=str(world.project()), env=world.env)
    found = engine.check(ToolCall("bash", {"command": line}, str(world.project())))
    assert found.action in ("ask", "deny"), found.reason


@pytest.mark.parametrize("line", BENIGN)
def test_under_the_built_in_policy_a_benign_twin_is_not_floored(line: str, world) -> None:  # type: ignore[no-untyped-def]
    engine = Engine.load(cwd=str(world.project()), env=world.env)
    found = engine.check(ToolCall("bash", {"command": line}, str(world.project())))
    gate = found.deciding
    assert gate is None or gate.sentinel != REEVALUATED, found.reason


def test_many_reevaluated_strings_stay_floored_and_bounded() -> None:
    import time

    line = "let " + " ".join(["'a[$(rm -rf x)]'"] * 500)
    started = time.perf_counter()
    action, _, reason = _decide(_deny_list(), line)
    assert time.perf_counter() - started < 2.0
    assert action == "deny", reason  # the first findings' code is parsed; the floor stands
    units = analyze(line, cwd=CWD, home="/home/me").units
    assert units[0].floor is not None and units[0].floor[0] == REEVALUATED
    assert len(units) <= 1 + 16


def test_a_deep_arithmetic_expression_is_scanned_without_recursion() -> None:
    from clearance.intent.shell import parser
    from clearance.intent.shell.reeval_tree import tree
    from clearance.intent.shell.source import Source

    line = "(( " + " + ".join(["'a[$(id)]'"] * 3000) + " ))"
    src = Source(line)
    parser.parse(b"true")  # loads the parser and binds the grammar
    with pytest.raises(parser.TooDeep):
        parser.parse(src.parsed)  # nested past parser.MAX_DEPTH: not read
    assert analyze(line, cwd=CWD, home="/home/me").units[0].unresolved
    # The scan needs no recursion, should a tree that deep reach it.
    found = tree(parser._parser[0].parse(src.parsed).root_node, src)
    assert len(found) == 3000


def test_the_code_is_parsed_as_units_in_their_own_context() -> None:
    units = analyze("[[ -v 'a[$(rm -rf x)]' ]]", cwd=CWD, home="/home/me").units
    assert [(u.text, u.context) for u in units] == [
        ("[[ -v 'a[$(rm -rf x)]' ]]", ""),
        ("rm -rf x", "command_substitution"),
    ]
    units = analyze("alias ls='rm -rf x'", cwd=CWD, home="/home/me").units
    assert [(u.text, u.context) for u in units] == [
        ("alias ls='rm -rf x'", ""),
        ("rm -rf x", "opaque_payload"),
    ]
    assert units[0].floor is not None
    assert units[0].floor[1].startswith("defines alias 'ls'")
