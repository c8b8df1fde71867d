"""Option grammars of the wrappers: where a wrapper's own options end and its command begins.

Two ways to find the inner command (docs/shell-analysis.md, "What is seen through"):

* ``GETOPT`` grammars for ``sudo``, ``env``, ``xargs`` and ``doas``, exact per tool: options
  permute only until the first non-option, ``--`` ends them, a value letter ends a short cluster
  (the rest of the cluster is the value, else the next word), an optional letter takes only an
  attached value, long options may be abbreviated when unambiguous. An unlisted or refused option,
  or an ambiguous abbreviation, makes the peel fail: no inner command, so the floor stays.
* A table walk for the other wrappers: skip ``NAME=value`` and options (value-taking ones per
  ``VALUE_FLAGS``), then one leading operand for ``timeout`` (duration) and ``flock`` (lock file).

Both work on word *values* (``None`` for a computed word).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "GETOPT",
    "LEADING_OPERAND",
    "VALUE_FLAGS",
    "Grammar",
    "is_assignment",
    "spells",
    "table_inner",
]


def spells(word: str, option: str) -> bool:
    """Whether ``word`` (``--name``, its ``=value`` cut off) names the long ``option``: as
    spelled, or as a prefix of it, which getopt and argparse take (``--t`` for
    ``--target-directory``, ``--d`` for ``--decompress``). A prefix two options share makes the
    program refuse the line, so counting it for either costs nothing."""
    return word == option or (len(word) >= 3 and word[:2] == "--" and option.startswith(word))


def is_assignment(value: str) -> bool:
    """``NAME=value`` (a shell identifier before the first ``=``)."""
    name, eq, _ = value.partition("=")
    if not eq or not name:
        return False
    if name[0].isdigit():
        return False
    return all(ch == "_" or (ch.isascii() and ch.isalnum()) for ch in name)


class Grammar:
    """A getopt option grammar: short letters and long names by kind."""

    __slots__ = (
        "assignments",
        "dash_ends",
        "flags",
        "long",
        "optional",
        "refuse",
        "values",
    )

    def __init__(
        self,
        flags: str,
        values: str,
        optional: str = "",
        refuse: str = "",
        *,
        long_flags: str = "",
        long_values: str = "",
        long_optional: str = "",
        long_refuse: str = "",
        assignments: bool = False,
        dash_ends: bool = False,
    ) -> None:
        self.flags = flags
        self.values = values
        self.optional = optional
        self.refuse = refuse
        table: dict[str, str] = {}
        for kind, names in (
            ("flag", long_flags),
            ("value", long_values),
            ("optional", long_optional),
            ("refuse", long_refuse),
        ):
            for name in names.split():
                table[name] = kind
        self.long = table
        self.assignments = assignments
        self.dash_ends = dash_ends

    def _long_kind(self, name: str) -> str | None:
        kind = self.long.get(name)
        if kind is not None:
            return kind
        hits = [k for n, k in self.long.items() if n.startswith(name)]
        return hits[0] if len(hits) == 1 and name else None

    def inner(self, values: Sequence[str | None], start: int = 1) -> int | None:
        """Index of the first word of the inner command, or ``None`` when the peel fails."""
        i = start
        count = len(values)
        while i < count:
            word = values[i]
            if word is None:
                return i
            if word == "--":
                return i + 1 if i + 1 < count else None
            if word == "-" and self.dash_ends:
                return i + 1 if i + 1 < count else None
            if word.startswith("--"):
                name, eq, _ = word[2:].partition("=")
                kind = self._long_kind(name)
                if kind is None or kind == "refuse":
                    return None
                if kind == "value" and not eq:
                    i += 1
                i += 1
                continue
            if word.startswith("-") and len(word) > 1:
                j = 1
                while j < len(word):
                    letter = word[j]
                    if letter in self.refuse:
                        return None
                    if letter in self.values:
                        if j + 1 == len(word):
                            i += 1
                        break
                    if letter in self.optional:
                        break
                    if letter not in self.flags:
                        return None
                    j += 1
                i += 1
                continue
            if self.assignments and is_assignment(word):
                i += 1
                continue
            return i
        return None


GETOPT: dict[str, Grammar] = {
    "sudo": Grammar(
        "ABbEHKklNnPSVv",
        "CgpTUu",
        refuse="DehiRs",
        long_flags="askpass background bell help list no-update non-interactive preserve-env "
        "preserve-groups remove-timestamp reset-timestamp set-home stdin validate version",
        long_values="close-from command-timeout group other-user prompt user",
        long_refuse="chdir chroot edit host login shell",
        assignments=True,
    ),
    "env": Grammar(
        "0iv",
        "u",
        refuse="aCPS",
        long_flags="debug help ignore-environment list-signal-handling null version",
        long_values="unset",
        long_optional="block-signal default-signal ignore-signal",
        long_refuse="argv0 chdir env0-from split-string",
        assignments=True,
        dash_ends=True,
    ),
    "xargs": Grammar(
        "0oprtx",
        "adEILnPRSs",
        optional="eil",
        refuse="J",
        long_flags="exit help interactive no-run-if-empty null open-tty show-limits verbose "
        "version",
        long_values="arg-file delimiter max-args max-chars max-procs process-slot-var",
        long_optional="eof max-lines replace",
    ),
    # OpenBSD doas: -a is unlisted, so it refuses like -C and -s.
    "doas": Grammar("Ln", "u", refuse="Cs"),
}

VALUE_FLAGS: dict[str, frozenset[str]] = {
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "time": frozenset({"-o", "-f", "--output", "--format"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
    "watch": frozenset({"-n", "--interval"}),
    "flock": frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}),
    # GNU parallel's semaphore mode: `sem --id NAME -j N CMD`.
    "sem": frozenset({"--id", "-j", "--jobs", "--semaphoretimeout", "--st"}),
    # Beyond the reference's list: other commands that run a command given as arguments. A
    # value-taking option missing here only misplaces the inner command; the wrapper floor
    # still holds the unit at ask.
    "exec": frozenset({"-a"}),
    "chroot": frozenset({"--userspec", "--groups"}),
    "ionice": frozenset({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}),
    "chrt": frozenset(),
    "taskset": frozenset(),
    "nsenter": frozenset({"-t", "-S", "-G", "--target", "--setuid", "--setgid", "-w", "-r"}),
    "unshare": frozenset({"--propagation", "--setgroups", "-S", "-G", "--setuid", "--setgid"}),
    "strace": frozenset({"-e", "-o", "-p", "-s", "-u", "-E", "-a", "-P", "-b", "-X", "-I"}),
    "ltrace": frozenset({"-e", "-o", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-F", "-l"}),
    "pkexec": frozenset({"--user"}),
    "runuser": frozenset({"-u", "-g", "-G", "--user", "--group", "--supp-group"}),
    "caffeinate": frozenset({"-w", "-t"}),
    "numactl": frozenset(
        {
            "-C",
            "-N",
            "-m",
            "-p",
            "-i",
            "--physcpubind",
            "--cpunodebind",
            "--membind",
            "--preferred",
            "--interleave",
        }
    ),
    "prlimit": frozenset({"-p", "--pid"}),
    "systemd-run": frozenset(
        {
            "-p",
            "-u",
            "-E",
            "--unit",
            "--property",
            "--setenv",
            "--uid",
            "--gid",
            "--slice",
            "-M",
            "--machine",
        }
    ),
    "fakeroot": frozenset({"-l", "--lib", "--faked", "-s", "-i", "-b"}),
    "proot": frozenset({"-r", "-b", "-m", "-w", "-q", "-k", "-i", "-v", "-R", "-S", "-p"}),
    "torsocks": frozenset({"-u", "-p", "-a", "-P", "--user", "--pass", "--address", "--port"}),
    "proxychains": frozenset({"-f"}),
    "proxychains4": frozenset({"-f"}),
    "dbus-launch": frozenset({"--config-file", "--autolaunch"}),
    "xvfb-run": frozenset({"-e", "-f", "-n", "-s", "-w", "-p", "--error-file", "--auth-file",
                           "--server-num", "--server-args", "--wait", "--xauth-protocol"}),
    "ssh-agent": frozenset({"-a", "-E", "-O", "-P", "-t"}),
    "screen": frozenset({"-S", "-c", "-e", "-h", "-p", "-t", "-T", "-s", "-Logfile"}),
    "rlwrap": frozenset({"-a", "-b", "-C", "-D", "-e", "-f", "-F", "-g", "-H", "-l", "-m", "-M",
                         "-o", "-O", "-p", "-P", "-q", "-s", "-S", "-t", "-w", "-z"}),
    "sandbox-exec": frozenset({"-f", "-n", "-p", "-D"}),
    "systemd-inhibit": frozenset({"--what", "--who", "--why", "--mode"}),
    "run0": frozenset({"-u", "-g", "-D", "--user", "--group", "--nice", "--chdir", "--setenv",
                       "--property", "--unit", "--description", "--slice", "--background",
                       "--machine"}),
    "tini": frozenset({"-p", "-e"}),
    "dumb-init": frozenset({"-r", "--rewrite"}),
    "chpst": frozenset({"-u", "-U", "-b", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p",
                        "-f", "-c", "-r", "-t"}),
    "softlimit": frozenset({"-m", "-d", "-s", "-l", "-a", "-o", "-p", "-f", "-c", "-r", "-t"}),
}  # fmt: skip

# Wrappers whose first operand is theirs, not the command's (duration, lock file, new root,
# scheduling priority, CPU mask, user, environment directory).
LEADING_OPERAND = frozenset({"timeout", "flock", "chroot", "chrt", "taskset", "gosu", "su-exec"}
                            | {"setuidgid", "s6-setuidgid", "envdir"})  # fmt: skip


def _abbreviates(word: str, takes: frozenset[str]) -> bool:
    """``--sig`` for ``--signal``: a unique prefix of one value-taking long option."""
    if not word.startswith("--") or "=" in word or len(word) < 3:
        return False
    return len([name for name in takes if name.startswith(word)]) == 1


def table_inner(name: str, values: Sequence[str | None]) -> int | None:
    """Index of the inner command of a table-walk wrapper, or ``None``."""
    takes = VALUE_FLAGS.get(name, frozenset())
    i = 1
    count = len(values)
    while i < count:
        word = values[i]
        if word is None:
            break
        if word == "--":
            i += 1
            break
        if word.startswith("-") and len(word) > 1:
            i += 2 if word in takes or _abbreviates(word, takes) else 1
            continue
        if is_assignment(word):
            i += 1
            continue
        break
    if name in LEADING_OPERAND:
        i += 1
    return i if i < count else None
