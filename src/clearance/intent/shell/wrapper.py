"""Wrappers: commands that run another command (docs/shell-analysis.md, "What is seen through").

* ``opaque``: ``eval``, and the shells (:data:`~clearance.intent.shell.runners.SHELLS`) with
  ``-c`` or reading their script from standard input; also ``su -c``, ``runuser -c``,
  ``script -c``, ``sg GROUP CMD``, ``trap CMD …``, ``source`` of a pipe or standard input,
  ``at``, ``expect -c``, ``nix-shell --run`` (:mod:`runners`). The payload is a program of its own.
* ``indirection``: ``sudo env xargs time nohup timeout nice parallel sem rust-parallel rush
  doas setsid stdbuf watch flock``, ``find`` with ``-exec|-execdir|-ok|-okdir``, ``fd`` with
  ``-x|--exec|-X|--exec-batch`` (also glued: ``-xCMD``, ``--exec=CMD``) — and, beyond the
  reference (ADR 0006), ``exec command builtin coproc chroot nsenter unshare ionice chrt taskset
  strace ltrace pkexec runuser busybox toybox caffeinate firejail numactl prlimit systemd-run
  valgrind catchsegv unbuffer fakeroot proot torsocks proxychains proxychains4 dbus-launch
  xvfb-run ssh-agent screen rlwrap sandbox-exec eatmydata nocache chronic ifne systemd-inhibit
  run0 tini dumb-init catatonit gosu su-exec setuidgid s6-setuidgid envdir chpst softlimit
  entr``, ``gdb --args`` and ``tmux new-session``/``new-window``/…; the launchers (``uv run``,
  ``npx``, ``poetry run``, ``bundle exec`` …, :mod:`launchers`, ADR 0041).

Classification is by basename, so ``/usr/bin/sudo`` counts. :func:`layer` locates the inner
command of one wrapper; :func:`peel` follows up to four layers to the command finally executed
and decides the floor exemption (``core-reader``, ``execution-modifier`` or ``launcher``).
"""

from __future__ import annotations

from clearance.intent.shell.effect import reader_claim
from clearance.intent.shell.launchers import LAUNCHERS, launcher
from clearance.intent.shell.layer import Layer, basename, join
from clearance.intent.shell.options import GETOPT, table_inner
from clearance.intent.shell.runners import FIND_EXEC, RUNNERS, SHELLS, fd_layer, runner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from clearance.intent.shell.word import Word

    Exemption = Literal["core-reader", "execution-modifier", "shell-script", "launcher"]

__all__ = ["INDIRECTION", "SHELLS", "Layer", "basename", "join", "layer", "peel"]

INDIRECTION = frozenset(
    {
        "sudo",
        "env",
        "xargs",
        "time",
        "nohup",
        "timeout",
        "nice",
        "parallel",
        "sem",  # GNU parallel --semaphore
        "rust-parallel",
        "rush",
        "doas",
        "setsid",
        "stdbuf",
        "watch",
        "flock",
        # Beyond the reference's list (ADR 0006): builtins and tools that run their arguments.
        "exec",
        "command",
        "builtin",
        "coproc",
        "chroot",
        "nsenter",
        "unshare",
        "ionice",
        "chrt",
        "taskset",
        "strace",
        "ltrace",
        "pkexec",
        "runuser",
        "busybox",
        "toybox",
        "caffeinate",
        "firejail",
        "numactl",
        "prlimit",
        "systemd-run",
        "valgrind",
        "catchsegv",
        "unbuffer",
        "fakeroot",
        "proot",
        "torsocks",
        "proxychains",
        "proxychains4",
        "dbus-launch",
        "xvfb-run",
        "ssh-agent",
        "screen",
        # More programs that run the command after their own arguments.
        "rlwrap",
        "sandbox-exec",
        "eatmydata",
        "nocache",
        "chronic",
        "ifne",
        "systemd-inhibit",
        "run0",
        "tini",
        "dumb-init",
        "catatonit",
        "gosu",
        "su-exec",
        "setuidgid",
        "s6-setuidgid",
        "envdir",
        "chpst",
        "softlimit",
        "entr",
    }
)
# Wrappers that hand their arguments to a shell as one command line.
OPAQUE_LINE = frozenset({"watch", "parallel", "sem", "rush", "rust-parallel", "tmux", "watchexec"})
MODIFIERS = frozenset({"time", "timeout", "nice", "stdbuf", "setsid", "builtin", "coproc"})
# Never core-reader exempt: they hand a command line to a shell, or write a file themselves
# (nohup.out, the lock file), or leave the command running in a session of its own.
NEVER_CORE = OPAQUE_LINE | LAUNCHERS | {"nohup", "flock", "strace", "ltrace", "valgrind",
                                        "systemd-run", "firejail", "screen", "gdb"}  # fmt: skip
# Without a command these print or change settings and run nothing (`eval $(ssh-agent -s)`).
_COMMAND_OPTIONAL = frozenset({"ssh-agent", "dbus-launch"})
# `screen -X CMD` / `-Q CMD` sends a command to a running session: no inner command to see.
_SCREEN_SEND = frozenset({"-X", "-Q"})
_NOT_LITERAL_NAMES = (
    SHELLS
    | INDIRECTION
    | RUNNERS
    | {"eval", "exec", "command", "builtin", "source", ".", "find", "fd"}
    | {"if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until"}
    | {"do", "done", "in", "function", "{", "}", "!", "[[", "]]", "coproc"}
)
# Options admitted for an execution modifier: (flags, value-taking options).
_ADMITTED: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "time": (frozenset({"-p", "-l", "-h"}), frozenset({"-f", "--format"})),
    "timeout": (
        frozenset({"-f", "--foreground", "-p", "--preserve-status", "-v", "--verbose"}),
        frozenset({"-s", "-k", "--signal", "--kill-after"}),
    ),
    "nice": (frozenset(), frozenset({"-n", "--adjustment"})),
    "stdbuf": (frozenset(), frozenset({"-i", "-o", "-e", "--input", "--output", "--error"})),
    "setsid": (frozenset(), frozenset()),
    "builtin": (frozenset(), frozenset()),
    "coproc": (frozenset(), frozenset()),
}


def layer(words: Sequence[Word]) -> Layer | None:
    """The wrapper layer of ``words``, or ``None`` when the command is not a wrapper."""
    head = words[0].value if words else None
    if head is None:
        return None
    name = basename(head)
    count = len(words)
    values = [w.value for w in words]
    if name in LAUNCHERS:
        found = launcher(name, values)
        if found is None or found.start is None or "--" not in values[found.start + 1 :]:
            return found
        at = found.start
        if values[at + 1] == "--" and at + 2 < count:
            # `npm exec rm -- -rf ~`: the launcher takes the `--` after the command as the end
            # of its own options and runs `rm -rf ~` (npm's `exec`; the others' read so)
            found.head, found.start = words[at], at + 2
        elif name == "npm":
            # `npm exec rm -x -- -rf ~`, `npm x rm ~ -- -rf`: npm's option reader takes the
            # options before `--` wherever they are and joins the rest: what runs is not one
            # run of the words
            found.start = None
        return found
    if name in RUNNERS or name in SHELLS:
        found = runner(name, words, values)
        if found is not None or name != "runuser":
            return found
    if name in ("exec", "command") and not _runs_a_command(name, values):
        return None  # `exec 3>&1`, `command -v git`: nothing is run
    if name == "coproc":
        # `coproc NAME { …; }`: the grammar does not know coproc; NAME precedes a compound.
        first = 2 if count > 2 and values[2] in ("{", "(") else 1
        return Layer("indirection", name, first if first < count else None, count)
    if name == "screen" and any(v in _SCREEN_SEND for v in values[1:]):
        return Layer("indirection", name, None, count)
    if name in INDIRECTION:
        grammar = GETOPT.get(name)
        start: int | None
        if grammar is not None:
            start = grammar.inner(values)
        else:
            # A computed word spelled as an option (`-n$N`) is still an option to skip.
            flagged = [
                w.raw if v is None and w.raw[:1] == "-" else v
                for w, v in zip(words, values, strict=True)
            ]
            start = table_inner(name, flagged)
        if start is None and name in _COMMAND_OPTIONAL:
            return None
        return Layer("indirection", name, start, count)
    if name == "find":
        for i, value in enumerate(values):
            if i and value in FIND_EXEC:
                return _exec(name, values, i)
    if name == "fd":
        return fd_layer(words, values)
    return None


def _runs_a_command(name: str, values: Sequence[str | None]) -> bool:
    """Whether ``exec``/``command`` is given a command to run (not only options)."""
    for value in values[1:]:
        if value is None:
            return True
        if name == "command" and value in ("-v", "-V"):
            return False
        if not value.startswith("-") or value == "-":
            return True
    return False


def _exec(name: str, values: Sequence[str | None], flag: int) -> Layer:
    start = flag + 1
    end = len(values)
    for j in range(start, end):
        value = values[j]
        if value == ";" or (name == "find" and value == "+" and values[j - 1] == "{}"):
            end = j
            break
    return Layer("indirection", name, start if start < end else None, end)


class Peel:
    """The result of peeling a unit's wrappers: executed text, layers, exemption."""

    __slots__ = ("executed", "exemption", "layers")

    def __init__(self) -> None:
        self.layers: list[Layer] = []
        self.executed: str | None = None
        self.exemption: Exemption | None = None


def peel(words: Sequence[Word], writes: bool, first: Layer | None = None) -> Peel:
    """Peel up to four wrapper layers; ``writes``: the enclosing statement writes a file;
    ``first``: the layer of ``words`` when the caller already has it."""
    out = Peel()
    current = words
    reached = True
    opaque = False
    modifier_ok = True
    for step in range(4):
        found = first if step == 0 and first is not None else layer(current)
        if found is None or (step and found.name in LAUNCHERS):
            break  # a launcher is a unit of its own, which decides the command it runs
        out.layers.append(found)
        if found.kind == "opaque":
            opaque = True
            if found.payload is not None:
                out.executed = found.payload
            reached = False
            break
        if found.start is None:
            reached = False
            break
        own = found.own = current[: found.start]
        if found.name not in MODIFIERS or not _admitted(found.name, own):
            modifier_ok = False
        current = found.inner(current)
        if not current:
            reached = False
            break
        out.executed = join(current)
    else:
        reached = layer(current) is None
    if out.executed is not None and out.executed.startswith("-"):
        out.executed = None
    first = out.layers[0] if out.layers else None
    if first is not None and first.name in LAUNCHERS:
        start = first.start
        command = first.head if first.head is not None or start is None else words[start]
        if first.kind == "indirection" and command is not None and command.raw[:1] != "-":
            out.exemption = "launcher"  # its own rules decide it; its command is a unit
        return out
    if not out.layers or out.layers[0].kind != "indirection" or not reached or opaque:
        return out
    if any(_abbreviated(lay) for lay in out.layers):
        return out  # `timeout --sig KILL 5 …`: an abbreviation is never exempt
    if (
        not writes
        and not any(lay.name in NEVER_CORE for lay in out.layers)
        and not _writes_file(out.layers)
        and reader_claim(current) == "read"
    ):
        out.exemption = "core-reader"
    elif modifier_ok and _literal_name(current[0]):
        out.exemption = "execution-modifier"
    return out


def _abbreviated(lay: Layer) -> bool:
    """A modifier layer spelled a long option by abbreviation."""
    admitted = _ADMITTED.get(lay.name)
    if admitted is None:
        return False
    known = admitted[0] | admitted[1]
    for word in lay.own:
        value = word.value
        if value and value.startswith("--") and value.partition("=")[0] not in known:
            return True
    return False


def _writes_file(layers: Sequence[Layer]) -> bool:
    """``time -o FILE`` / ``time -a``: the wrapper itself writes a file."""
    for lay in layers:
        if lay.name == "time":
            for word in lay.own:
                value = word.value or ""
                if value in ("-o", "-a") or value.startswith(("--output", "--append", "-o")):
                    return True
    return False


def _literal_name(word: Word) -> bool:
    value = word.value
    if value is None or word.glob or not value:
        return False
    return basename(value) not in _NOT_LITERAL_NAMES


def _admitted(name: str, own: Sequence[Word]) -> bool:
    if any(w.value is None or w.glob for w in own):
        return False
    flags, takes = _ADMITTED[name]
    values = [w.value for w in own]
    i = 1
    count = len(values)
    while i < count:
        value = values[i]
        assert value is not None
        if value == "--":
            i += 1
            break
        if not value.startswith("-") or len(value) == 1:
            break
        if value in flags:
            i += 1
        elif value in takes:
            if i + 1 >= count:
                return False
            i += 2
        elif value.startswith("--"):
            stem, eq, _ = value.partition("=")
            if not eq or stem not in takes:
                return False
            i += 1
        elif value[:2] in takes:
            i += 1
        else:
            return False
    return count - i == (1 if name == "timeout" else 0)
