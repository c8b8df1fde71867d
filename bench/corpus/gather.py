"""Gather the agent-command corpus from local snapshots of the public transcripts.

Run: .venv/bin/python bench/corpus/gather.py [--out FILE] GIT_DIR...

Each GIT_DIR is a local git directory (bare or not) holding a snapshot of one of the sources
``SOURCES.md`` names; which source it is follows from the files it holds. The snapshot commit
``SOURCES.md`` records is read when the directory has it, else ``HEAD``. The records are written
to ``--out`` (default ``~/.cache/clearance-corpus/commands.jsonl``; directory 0700, file 0600,
written atomically), one JSON object a line, in the format ``SOURCES.md`` describes. Sources are
read in the order given and a command already gathered in the same working directory is kept once
(the first source wins).
Nothing from the snapshots is kept in this repository: this script only reads them.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator

from cwd_replay import Replay

OUT = os.path.expanduser("~/.cache/clearance-corpus/commands.jsonl")

# One record before its project is known: (command, agent, path in the snapshot).
Found = tuple[str, str, str]

# Anything shaped like a credential assignment or a well-known API key.
_SECRET = re.compile(
    r"(?i)\b((?:api[_-]?key|token|secret|password|passwd)\s*[=:]\s*)(['\"]?)[^\s'\"]{8,}\2"
    r"|\b(?:sk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|AKIA[0-9A-Z]{16}"
    r"|xox[baprs]-[A-Za-z0-9-]{10,})"
)


def redact(command: str) -> str:
    return _SECRET.sub(lambda m: (m.group(1) or "") + "REDACTED", command)


class Snapshot:
    """Read-only access to one commit of a local git directory."""

    def __init__(self, git_dir: str, commit: str) -> None:
        self.git_dir = git_dir
        have = subprocess.run(
            ["git", "--git-dir", git_dir, "cat-file", "-e", f"{commit}^{{commit}}"],
            capture_output=True,
        )
        self.commit = commit if have.returncode == 0 else "HEAD"
        out = self._git("ls-tree", "-r", "--name-only", self.commit)
        self.paths = out.splitlines()

    def _git(self, *args: str) -> str:
        done = subprocess.run(
            ["git", "--git-dir", self.git_dir, *args], capture_output=True, check=True
        )
        return done.stdout.decode("utf-8", "replace")

    def read(self, path: str) -> str:
        return self._git("show", f"{self.commit}:{path}")


def _common_prefix(commands: list[str], pattern: str) -> str | None:
    """The absolute directory matching ``pattern`` that ``commands`` name most often."""
    seen = collections.Counter(m for c in commands for m in re.findall(pattern, c))
    return seen.most_common(1)[0][0] if seen else None


# Replay counts over the Claude Code sources: commands after which the directory was lost,
# commands refused (or the shell reset after) for a ``cd`` outside the start, sessions a ``pwd``
# showed elsewhere.
REPLAY: collections.Counter[str] = collections.Counter()


def _trusted(replay: Replay, session: list[tuple[Found, str, str]]) -> list[tuple[Found, str, str]]:
    """The records of a session, each in the project root when a ``pwd`` showed the session
    outside the directory it started in (its directories cannot be trusted then)."""
    if not replay.outside:
        REPLAY["unknown"] += replay.unknown
        REPLAY["blocked"] += replay.blocked
        return session
    REPLAY["outside"] += 1
    return [(found, project, project) for found, project, _ in session]


# --- yinkev/praDeep: Automaker feature runs (Codex and the Claude Agent SDK) -------------------

_TOOL = re.compile(r"^🔧 Tool: Bash\nInput: ", re.M)


def automaker(snap: Snapshot) -> Iterator[tuple[Found, str, str]]:
    """Each Bash tool input; the project is the root the commands name most (a run working in
    one of its ``.worktrees/`` is inside that root). A Codex command runs in the root (each is a
    fresh ``zsh -lc``); the Claude Agent SDK keeps one shell for a run (one file), started in the
    root: its commands' directories are replayed from their ``cd``s (``cwd_replay``, the
    version of January 2026: a ``cd`` out of the root runs, then the shell is reset; a ``cd`` to
    a directory the snapshot's tree does not hold failed)."""
    decoder = json.JSONDecoder()
    found: list[Found] = []
    for path in sorted(snap.paths):
        if not re.fullmatch(r"\.automaker/features/[^/]+/agent-output\.md", path):
            continue
        text = snap.read(path)
        for match in _TOOL.finditer(text):
            try:
                tool_input, _ = decoder.raw_decode(text, match.end())
            except ValueError:
                continue
            command = tool_input.get("command") if isinstance(tool_input, dict) else None
            if isinstance(command, str):
                agent = "codex" if command.startswith("/bin/zsh -lc ") else "claude-agent-sdk"
                found.append((command, agent, path))
    root = _common_prefix([c for c, _, _ in found], r"(/Users/[^/\s'\"]+/Projects/[^/\s'\"]+)")
    if root is None:
        raise SystemExit("praDeep: no project root named in any command")
    home = _common_prefix([c for c, _, _ in found], r"(/Users/[^/\s'\"]+)/")
    # The snapshot is the project's own tree, the one each worktree checks out.
    tree = {p.rsplit("/", n)[0] for p in snap.paths for n in range(1, p.count("/") + 1)}

    def exists(directory: str) -> bool:
        inner = re.sub(r"^\.worktrees/[^/]+/?", "", directory.removeprefix(root + "/"))
        return directory == root or not inner or inner in tree

    for _, run in itertools.groupby(found, key=lambda one: one[2]):
        replay = Replay(root, home, refuse=False, exists=exists)
        session = []
        for one in run:
            cwd = replay.run(one[0]) if one[1] == "claude-agent-sdk" else root
            session.append((one, root, cwd))
        yield from _trusted(replay, session)


# --- palimondo/BookMinder: Claude Code console transcripts --------------------------------------

_CONSOLE = re.compile(r"^⏺ Bash\((.*)\)…?$", re.M)
# Every Bash call the console shows, whole or cut short, a batch's (``⎿  Bash(…)``) included;
# what follows it up to the next call, message or banner is its output.
_SHOWN = re.compile(r"^(?:⏺ |  ⎿  )Bash\((.*)$", re.M)
_NEXT = re.compile(r"^(?:⏺ |> |│ ✻ Welcome to Claude Code|  ⎿  Bash\()", re.M)
_BANNER = re.compile(r"^│ ✻ Welcome to Claude Code", re.M)


def console(snap: Snapshot) -> Iterator[tuple[Found, str, str]]:
    """Each ``⏺ Bash(…)`` line shown whole; a line the console cut short with ``…`` is left out.
    The project is the ``cwd:`` the sessions' banners show most; a session starts at a banner
    (a day's file before its first banner is one too), in the ``cwd:`` it shows, and each
    command's directory is replayed from the ``cd``s of every Bash call of its session before it
    (``cwd_replay``)."""
    texts: list[tuple[str, str]] = []
    cwds: collections.Counter[str] = collections.Counter()
    for path in sorted(snap.paths):
        if not re.fullmatch(r"claude-dev-log-diary/day-\d+\.md", path):
            continue
        text = snap.read(path)
        cwds.update(re.findall(r"cwd: (/\S+)", text))
        texts.append((path, text))
    if not cwds:
        raise SystemExit("BookMinder: no session banner names a cwd")
    project = cwds.most_common(1)[0][0]
    home = _common_prefix([t for _, t in texts], r"(/Users/[^/\s'\"]+)/")
    for path, text in texts:
        starts = [0, *(m.start() for m in _BANNER.finditer(text)), len(text)]
        for begin, end in itertools.pairwise(starts):
            banner = re.match(r"[^⏺>]*?cwd: (/\S+)", text[begin : begin + 1000])
            replay = Replay(banner.group(1) if banner else project, home)
            session = []
            for match in _SHOWN.finditer(text, begin, end):
                after = _NEXT.search(text, match.end())
                output = text[match.end() : after.start() if after else len(text)]
                whole = _CONSOLE.fullmatch(match.group(0).replace("  ⎿  ", "⏺ ", 1))
                shown = whole.group(1) if whole else match.group(1)
                cut = "…" in shown
                cwd = replay.run(shown.split("…", 1)[0], cut=cut, output=output)
                if match.group(0).startswith("⏺") and whole and not cut:
                    session.append(((shown, "claude-code", path), project, cwd))
            yield from _trusted(replay, session)


# --- kiliman/claude-transcript: Claude Code sessions rendered as Markdown -----------------------

_RENDERED = re.compile(
    r"^💻 \*\*Bash(?:: [^\n]*)?\*\*\n```(?:shell|bash)?\n(.*?)\n```$", re.M | re.S
)
_RESULT = re.compile(r"\n```\n(.*?)\n```", re.S)


def rendered(snap: Snapshot) -> Iterator[tuple[Found, str, str]]:
    """Each Bash block; the project is the directory the header names, ``~`` being the home the
    commands name. A file is one session: each command's directory is replayed from the ``cd``s
    of the Bash blocks before it (``cwd_replay``), its output being the block that follows."""
    found: list[tuple[str, str, list[tuple[str, str]]]] = []
    for path in sorted(snap.paths):
        if not re.fullmatch(r"\.claude-transcripts/[^/]+\.md", path):
            continue
        text = snap.read(path)
        header = re.search(r"^## 🗂️ (\S+)$", text, re.M)
        if header is None:
            continue
        calls = []
        for match in _RENDERED.finditer(text):
            result = _RESULT.match(text, match.end())
            calls.append((match.group(1), result.group(1) if result else ""))
        found.append((path, header.group(1), calls))
    home = _common_prefix([c for _, _, calls in found for c, _ in calls], r"(/Users/[^/\s'\"]+)/")
    for path, directory, calls in found:
        if directory.startswith("~/"):
            if home is None:
                raise SystemExit("claude-transcript: no home named in any command")
            directory = home + directory[1:]
        replay = Replay(directory, home)
        session = []
        for command, output in calls:
            cwd = replay.run(command, output=output)
            session.append(((command, "claude-code", path), directory, cwd))
        yield from _trusted(replay, session)


# --- SWE-agent/SWE-agent: trajectories ----------------------------------------------------------


def trajectories(snap: Snapshot) -> Iterator[tuple[Found, str, str]]:
    """Each action of each step; a multi-line ``edit`` (its text on the lines after the command)
    is left out. The project is the step's working directory."""
    for path in sorted(snap.paths):
        if not path.endswith(".traj"):
            continue
        if not path.startswith(("trajectories/", "tests/test_data/trajectories/")):
            continue
        data = json.loads(snap.read(path))
        for step in data.get("trajectory", []):
            action = step.get("action")
            state = step.get("state")
            if isinstance(state, str):
                try:
                    state = json.loads(state)
                except ValueError:
                    state = None
            cwd = state.get("working_dir") if isinstance(state, dict) else None
            if not isinstance(action, str) or not isinstance(cwd, str):
                continue
            action = action.strip()
            first = action.split("\n", 1)[0]
            if "\n" in action and re.fullmatch(r"edit(?: \d+:\d+)?(?: \S+)?", first):
                continue
            yield (action, "swe-agent", path), cwd, cwd


# (name, a path only that snapshot holds, the commit SOURCES.md records, reader); a reader
# yields each record with its project and its working directory.
Reader = Callable[[Snapshot], Iterator[tuple[Found, str, str]]]
SOURCES: list[tuple[str, str, str, Reader]] = [
    ("yinkev/praDeep", ".automaker/features/", "a67f04fc", automaker),
    ("palimondo/BookMinder", "claude-dev-log-diary/", "451791e2", console),
    ("kiliman/claude-transcript", ".claude-transcripts/", "5c7f1d19", rendered),
    ("SWE-agent/SWE-agent", "tests/test_data/trajectories/", "3ea751c0", trajectories),
]


def identify(git_dir: str) -> tuple[str, Snapshot, Reader]:
    for name, marker, commit, reader in SOURCES:
        snap = Snapshot(git_dir, commit)
        if any(p.startswith(marker) for p in snap.paths):
            return name, snap, reader
    raise SystemExit(f"{git_dir}: not a snapshot of any source SOURCES.md names")


def write_private(out: str, text: str, prefix: str) -> None:
    """Write ``text`` to ``out`` atomically, mode 0600 in a directory of mode 0700."""
    folder = os.path.dirname(os.path.abspath(out))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise


def write(records: list[dict[str, str]], out: str) -> None:
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    write_private(out, text, ".commands-")


def arguments(argv: list[str], default: str, usage: str | None) -> tuple[str, list[str]]:
    """The ``--out FILE`` (else ``default``) and the git directories of a command line; with
    no directory, exit with ``usage``."""
    out = default
    if "--out" in argv:
        i = argv.index("--out")
        out = argv[i + 1]
        argv = argv[:i] + argv[i + 2 :]
    if not argv:
        sys.exit(usage)
    return out, argv


def main(argv: list[str]) -> None:
    out, argv = arguments(argv, OUT, __doc__)
    seen: set[tuple[str, str]] = set()
    records: list[dict[str, str]] = []
    redacted = 0
    for git_dir in argv:
        name, snap, reader = identify(git_dir)
        kept = moved = 0
        REPLAY.clear()
        for (command, agent, path), project, cwd in reader(snap):
            clean = redact(command)
            redacted += clean != command
            if (clean, cwd) in seen:
                continue
            seen.add((clean, cwd))
            kept += 1
            moved += cwd != project
            records.append(
                {"command": clean, "agent": agent, "source": f"{name}:{path}",
                 "cwd": cwd, "project": project}
            )  # fmt: skip
        replayed = (
            f" ({moved} in a subdirectory; {REPLAY['unknown']} cd not followed, "
            f"{REPLAY['blocked']} refused or reset for a cd outside, {REPLAY['outside']} sessions shown "
            "outside the project)"
        )
        print(
            f"{name} at {snap.commit}: {kept} records{replayed if REPLAY else ''}", file=sys.stderr
        )
    write(records, out)
    print(f"{len(records)} records ({redacted} redacted) written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
