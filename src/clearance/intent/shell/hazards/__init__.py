"""Programs that run programs: the knowledge base of code-running options and variables.

Some options and environment variables make an otherwise harmless program run a command, read
a file or write one (``git -c core.pager=CMD log``, ``rg --pre CMD``, ``sed 's/x/y/e'``,
``tar --to-command=CMD``, ``LD_PRELOAD=x ls``). This module is the one home of that knowledge:
:data:`PROGRAMS` maps a command basename to its checker, :data:`VARIABLES` lists the variables,
and every entry cites its source (the program's manual page, or GTFOBins, the public catalogue
of such tricks, https://gtfobins.github.io/).

:func:`inspect` reads one unit's words and returns a :class:`Finding`:

* ``floor`` — the unit asks (:data:`~clearance.intent.sentinel.CODE_RUNNING`), with a
  sentence naming the option and what it does;
* ``payloads`` — literal inner command lines, each parsed into units of its own so a deny
  written for them fires (``git -c core.pager='rm -rf /' log`` is denied by ``rm *``);
* ``writes`` / ``reads`` / ``paths`` — literal files the option writes, reads or names, which
  become path tokens (``sed 'w out' f`` writes ``out``; ``git -C DIR`` names ``DIR``);
* ``folded`` — for git, the unit with its global options removed (``git -C r push`` →
  ``git push``), matched by the gate as the unit's canonical form.

The lookup is one dict hit on the basename; only a program in the table pays for more.

The knowledge is split by program family: :mod:`.git`, :mod:`.text` (rg, sed, awk),
:mod:`.programs` (archivers, editors, pagers, runners, shells) and :mod:`.variables`; each
family module holds its checkers and its part of :data:`PROGRAMS`. :mod:`.finding` holds
:class:`Finding` and the option readers the checkers share. This module joins the tables.
"""

from __future__ import annotations

from clearance.intent.shell.hazards import git, programs, text
from clearance.intent.shell.hazards.finding import Finding
from clearance.intent.shell.hazards.variables import (
    COMMAND_VARIABLES,
    VARIABLES,
    hazardous_variable,
    variable_payload,
)
from clearance.intent.shell.layer import basename

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from clearance.intent.shell.hazards.finding import Checker
    from clearance.intent.shell.word import Word

__all__ = [
    "COMMAND_VARIABLES",
    "PROGRAMS",
    "SOURCES",
    "VARIABLES",
    "Finding",
    "hazardous_variable",
    "inspect",
    "variable_payload",
]

PROGRAMS: dict[str, Checker] = {**git.PROGRAMS, **text.PROGRAMS, **programs.PROGRAMS}

SOURCES: dict[str, str] = {
    "git": "git(1) OPTIONS, git-config(1), git-difftool(1); gtfobins: git",
    "rg": "rg(1) --pre, --hostname-bin, RIPGREP_CONFIG_PATH; gtfobins: rg",
    "jq": "jq(1) MODULES (import, include)",
    "strings": "binutils(1) @file (response files: the file's words are more arguments)",
    "sed": "sed(1) COMMANDS (e, s///e, w, r); gtfobins: sed",
    "awk": "awk(1) Input/Output, gawk(1); gtfobins: awk, gawk, mawk, nawk",
    "tar": "tar(1) --checkpoint-action, --use-compress-program, --to-command; gtfobins: tar",
    "zip": "zip(1) -TT; gtfobins: zip",
    "rsync": "rsync(1) -e, --rsync-path; gtfobins: rsync",
    "split": "split(1) --filter; gtfobins: split",
    "man": "man(1) -P, -H; gtfobins: man",
    "vim": "vim(1) -c, --cmd, -S; gtfobins: vim",
    "ssh": "ssh(1), ssh_config(5) ProxyCommand, LocalCommand; gtfobins: ssh",
    "make": "make(1) --eval, -f; gtfobins: make",
    "find": "find(1) ACTIONS (-delete, -fprint, -fls); gtfobins: find",
    "env": "env(1) -S; gtfobins: env",
    "setarch": "setarch(8); gtfobins: setarch",
    "newgrp": "newgrp(1)",
    "bash": "bash(1) INVOCATION",
    "curl": "curl(1) -o, -d @file, -T, -K, file://; gtfobins: curl",
    "dd": "dd(1) if=, of=; gtfobins: dd",
    "sort": "sort(1) --compress-program",
    "date": "date(1) -f/--file (a line that is not a date is printed in the error)",
    "ed": "ed(1) !command; gtfobins: ed",
    "sqlite3": "sqlite3(1) dot-commands (.once, .shell), writefile(), ATTACH; gtfobins: sqlite3",
    "less": "less(1) +cmd, --cmd, !command; gtfobins: less",
    "more": "more(1) +cmd; gtfobins: more",
    "setpriv": "setpriv(1); gtfobins: setpriv",
    "dbus-run-session": "dbus-run-session(1)",
    "faketime": "faketime(1)",
    "run-parts": "run-parts(8); gtfobins: run-parts",
    "gzip": "gzip(1) -S/--suffix, -r; xz(1), bzip2(1), zstd(1) likewise",
    "apt": "apt(8) -o, -c; apt.conf(5) (DPkg::Pre-Invoke, APT::Update::Pre-Invoke, Dir::Bin)",
    "apt-get": "apt-get(8) -o, -c; apt.conf(5); gtfobins: apt-get",
    "apt-cache": "apt-cache(8) -o, -c; apt.conf(5)",
    "dpkg": "dpkg(1) --pre-invoke, --post-invoke, --status-logger; gtfobins: dpkg",
    "install": "install(1) --strip-program",
    "restic": "restic(1) --password-command, -o sftp.command, -o rclone.program",
    "rclone": "rclone(1) --password-command, --sftp-ssh",
    "borg": "borg(1) --rsh, --remote-path",
    "psql": "psql(1) \\!, \\o |, \\g |, \\copy … program, \\setenv; gtfobins: psql",
    "mysql": "mysql(1) system, \\!, --pager; gtfobins: mysql",
    "mariadb": "mariadb(1) system, \\!, --pager",
}


def inspect(words: Sequence[Word]) -> Finding | None:
    """What the knowledge base knows about the unit of ``words`` (``None``: nothing)."""
    first = words[0].value if words else None
    if first is None:
        return None
    check = PROGRAMS.get(basename(first) if "/" in first else first)
    if check is None:
        return None
    finding = Finding()
    check(finding, words, [w.value for w in words])
    return finding if finding else None
