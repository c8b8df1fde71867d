"""Allow / ask / deny shares over real agent commands.

Run: .venv/bin/python bench/bench_corpus.py [--list] [--dotenv] [--corpus FILE]

The corpus is a JSON-lines file of commands taken from public coding-agent transcripts
(``bench/corpus/SOURCES.md`` names them and the record format). The commands themselves are
third-party data and are not part of this repository: the file is read from ``--corpus``, else
``$CLEARANCE_CORPUS``, else ``~/.cache/clearance-corpus/commands.jsonl``.
Two policies are measured: (a) the built-in policy; (b) a developer policy that allows every
program the corpus lines run (``prog`` and ``prog *`` for each program name found by a plain
tokenizer that also looks inside ``sh -c``-style scripts and behind wrappers, read from the
relocated lines so that a program named by its path is the one they run), keeps the built-in
secret denies, and asks for everything else: what is left to ask is what the analysis cannot
clear, the paths outside the project and the floors. Every deny is listed, and under (b) the
reason of every ask (``--list`` prints each line, otherwise they are grouped by reason). Last,
(b') is (b) keeping the built-in's ``*.env`` asks as well: a policy choice about files inside
the project, counted apart (ADR 0060).
Last, each path an outside-the-project ask of (b) is about, by where it lies from the line's
project (the git work tree its working directory is in: beneath the home, an ancestor, a
sibling, elsewhere); one beneath the project would be this benchmark's bug (a project inferred or
relocated wrongly), and is named so.

The corpus's projects are relocated under a scratch directory, each made a git work tree, so
paths inside a project are inside and paths elsewhere are outside, as they were for the agent.
With ``--dotenv`` each project also holds a ``.env`` at its top, as most projects do: the
searches that walk the project (``rg``, ``grep -r``) then meet it (ADR 0057).
Targets (issue 13): (a) allows >= 50 %, allowing nothing destructive or secret-leaking; (b) asks
<= 3 %.
"""

from __future__ import annotations

import collections
import json
import os
import re
import shlex
import sys
import tempfile

from clearance.decide.engine import Engine
from clearance.intent.boundary import project_root
from clearance.intent.call import ToolCall
from clearance.policy.defaults import BUILTIN_POLICY

try:  # what the agent hosts know (absent before the project boundary: run on an older tree)
    from clearance.hosts.facts import HOST_FACTS

    HOST: dict[str, object] = {"host": HOST_FACTS}
except ImportError:
    HOST = {}

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.expanduser("~/.cache/clearance-corpus/commands.jsonl")
_SHELLS = {"sh", "bash", "zsh", "dash"}


def corpus_path() -> str:
    """``--corpus FILE``, else ``$CLEARANCE_CORPUS``, else the cached default; exits if absent."""
    corpus = os.environ.get("CLEARANCE_CORPUS") or CORPUS
    if "--corpus" in sys.argv:
        corpus = sys.argv[sys.argv.index("--corpus") + 1]
    if not os.path.isfile(corpus):
        sys.exit(
            f"no corpus at {corpus}: gather one as bench/corpus/SOURCES.md describes and pass "
            "it with --corpus FILE (or CLEARANCE_CORPUS)"
        )
    return corpus


def corpus_records() -> list[dict[str, str]]:
    """The corpus's records; with ``--commands FILE``, a plain list of commands instead (one a
    line, ``\\n`` for a newline, as ``bench/shell_corpus.txt``), all run in one project."""
    if "--commands" in sys.argv:
        path = sys.argv[sys.argv.index("--commands") + 1]
        with open(path, encoding="utf-8") as handle:
            commands = [line.rstrip("\n").replace("\\n", "\n") for line in handle if line.strip()]
        project = "/Users/agent/work/project"
        return [{"command": c, "project": project, "cwd": project} for c in commands]
    with open(corpus_path(), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


_WRAPPERS = {"xargs", "timeout", "nice", "env", "nohup", "time", "command", "exec", "sudo"}
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


_OPERATORS = frozenset({";", "&&", "||", "|", "&", "(", ")", "|&", ";;", "{", "}"})
_REDIRECTS = frozenset({"<", ">", ">>", "<<", "<<<", "<>", ">&", "<&", "&>", "&>>", ">|"})


def _commands(line: str) -> list[list[str]]:
    """The simple commands of ``line``, roughly: words split at control operators."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError:
        tokens = line.split()
    out: list[list[str]] = [[]]
    skip = False
    for token in tokens:
        if token in _OPERATORS:
            out.append([])
        elif token in _REDIRECTS:
            skip = True
        elif skip:
            skip = False
        else:
            out[-1].append(token)
    return [words for words in out if words]


def _programs(line: str, out: set[str], depth: int = 0) -> None:
    """Every program ``line`` runs, roughly: a tokenizer, not the analyzer under test."""
    for words in _commands(line):
        while words and (_ASSIGN.match(words[0]) or words[0] in ("!", "then", "do", "else")):
            words = words[1:]
        if not words:
            continue
        name = os.path.basename(words[0])
        if not re.fullmatch(r"[\w.+\[-]+", name) or name in ("if", "for", "while", "done", "fi"):
            continue
        out.add(name)
        if words[0] != name and re.fullmatch(r"[\w./~+-]+", words[0]):
            out.add(words[0])
        elif words[0].startswith(("$HOME/", "${HOME}/")):
            out.add("~/" + words[0].split("/", 1)[1])  # `$HOME/.local/bin/uv`, as rules spell it
        if name in _SHELLS and depth < 3:
            for i, word in enumerate(words[1:-1], 1):
                if word.startswith("-") and "c" in word:
                    _programs(words[i + 1], out, depth + 1)
                    break
        elif name in _WRAPPERS and depth < 3:
            rest = [w for w in words[1:] if not w.startswith("-") and not w[:1].isdigit()]
            if rest:
                _programs(shlex.join(rest), out, depth + 1)


def developer_policy(lines: list[str], *, secret_asks: bool = False) -> str:
    """Allow every program ``lines`` run, ask for paths outside the project, keep the built-in's
    path denies (secret stores); with ``secret_asks``, its other path rules too (the `*.env`
    asks and the templates they leave allowed)."""
    names: set[str] = set()
    for line in lines:
        _programs(line, names)
    paths = json.loads(BUILTIN_POLICY)["permission"].get("path", {})
    if not secret_asks:
        paths = {k: v for k, v in paths.items() if isinstance(v, dict) and v["action"] == "deny"}
    bash: dict[str, str] = {"*": "ask"}
    for name in sorted(names):
        bash[name] = "allow"
        bash[f"{name} *"] = "allow"
    return json.dumps(
        {"permission": {"*": "allow", "bash": bash, "path": paths, "external_directory": "ask"}}
    )


def relocate(
    records: list[dict[str, str]], root: str, dotenv: bool = False
) -> list[tuple[str, str]]:
    """(command, cwd) per record, with /Users/… and each project moved under ``root``; the
    projects become git work trees (with ``dotenv``, holding a ``.env``), and the working
    directories (a project's subdirectory when the agent had moved there) exist."""
    for record in records:
        project = root + record["project"]
        os.makedirs(os.path.join(project, ".git"), exist_ok=True)
        os.makedirs(root + record["cwd"], exist_ok=True)
        if dotenv:
            with open(os.path.join(project, ".env"), "w", encoding="utf-8") as handle:
                handle.write("API_KEY=not-a-real-key\n")
    out = []
    for record in records:
        command = record["command"].replace("/Users/", root + "/Users/")
        project = record["project"]
        if not project.startswith("/Users/"):
            command = re.sub(re.escape(project) + r"(?=/|\b)", root + project, command)
        out.append((command, root + record["cwd"]))
    return out


def measure(policy: str, items: list[tuple[str, str]], home: str) -> list[tuple[str, str, str]]:
    engines: dict[str, Engine] = {}
    env = {"HOME": home}
    results = []
    for command, cwd in items:
        engine = engines.get(cwd)
        if engine is None:
            engine = engines[cwd] = Engine.load(
                cwd=cwd, policy=policy, env=env, use_cache=False, **HOST
            )
        decision = engine.check(ToolCall("bash", {"command": command}, cwd))
        why = sorted(
            {g.sentinel or f"{g.gate} {g.surface}" for g in decision.gates if g.action == "ask"}
        )
        results.append((decision.action, decision.reason, ", ".join(why)))
        if decision.action == "ask":
            for gate in decision.gates:
                if gate.gate == "external_directory" and gate.action == "ask":
                    OUTSIDE.append((gate.value, project_root(cwd, home), home))
    return results


# (path asked about, the project of the line's working directory, the home)
OUTSIDE: list[tuple[str, str, str]] = []


def where(path: str, project: str, home: str) -> str:
    """Where an outside-the-project path lies, seen from the line's project: a path beneath the
    project here would be a relocation bug of this benchmark (the project inferred wrongly)."""
    if path == project or path.startswith(project + "/"):
        return "beneath the project (a benchmark bug)"
    if project.startswith(path.rstrip("/") + "/"):
        return "an ancestor of the project (cd .., find ..)"
    if path == home or path.startswith(home + "/"):
        return "beneath the home (~/.claude, ~/Library, ~/.zshrc)"
    parent = project.rsplit("/", 1)[0]
    if path.startswith(parent + "/"):
        return "a sibling of the project"
    return "elsewhere (/tmp, another user's files)"


def report(title: str, items: list[tuple[str, str]], results: list[tuple[str, str, str]],
           *, asks: bool, full: bool, brief: bool = False) -> None:  # fmt: skip
    counts = collections.Counter(action for action, _, _ in results)
    total = len(results)
    shares = ", ".join(
        f"{a} {counts[a]} ({100 * counts[a] / total:.2f} %)" for a in ("allow", "ask", "deny")
    )
    print(f"{title}: {total} lines: {shares}")
    for (command, _), (action, message, _) in zip(items, results, strict=True):
        if action == "deny":
            print(f"  DENY {command[:120]!r}\n       {message[:200]}")
    if asks:
        reasons: collections.Counter[str] = collections.Counter()
        for (command, _), (action, message, why) in zip(items, results, strict=True):
            if action != "ask":
                continue
            if full:
                print(f"  ASK [{why}] {command[:140]!r}\n      {message[:240]}")
            reasons[why] += 1
        if not brief:
            print("  asks by what asked (gate and surface, or sentinel):")
            for reason, n in reasons.most_common():
                print(f"  {n:5}  {reason}")
        kinds: collections.Counter[str] = collections.Counter()
        for reason, n in reasons.items():
            kinds[_kind(reason)] += n
        print("  asks by kind:")
        for kind, n in kinds.most_common():
            print(f"  {n:5}  {kind} ({100 * n / total:.1f} % of the lines)")


def _kind(reason: str) -> str:
    """What kind of ask the gates and sentinels of ``reason`` (as :func:`measure` lists them)
    make: only paths outside the project, only the built-in's secret-file rules, or more."""
    parts = reason.split(", ")
    if all(p.startswith("external_directory ") for p in parts):
        return "only paths outside the project"
    if all(p.startswith("path ") for p in parts):
        return "only the built-in's path rules for secret files (`*.env`)"
    return "a floor, a wrapper or an unparsed line (named above), with or without those"


def main() -> None:
    full = "--list" in sys.argv
    with open(corpus_path(), encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle if line.strip()]
    with tempfile.TemporaryDirectory(prefix="clearance-corpus-") as scratch:
        root = os.path.realpath(scratch)
        items = relocate(records, root, "--dotenv" in sys.argv)
        home = root + "/Users/agent"
        os.makedirs(home, exist_ok=True)
        builtin = measure(BUILTIN_POLICY, items, home)
        report("(a) built-in policy", items, builtin, asks=False, full=full)
        # The programs as the relocated lines name them (`$ROOT/…/.venv/bin/python`).
        lines = [command for command, _ in items]
        del OUTSIDE[:]
        report("(b) developer policy", items, measure(developer_policy(lines), items, home),
               asks=True, full=full)  # fmt: skip
        places = collections.Counter(where(*one) for one in OUTSIDE)
        print("  outside-the-project values asked about, by where they lie:")
        for place, n in places.most_common():
            print(f"  {n:5}  {place}")
        secret = developer_policy(lines, secret_asks=True)
        report("(b') developer policy with the built-in's `*.env` asks", items,
               measure(secret, items, home), asks=True, full=False, brief=True)  # fmt: skip


if __name__ == "__main__":
    main()
