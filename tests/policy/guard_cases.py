"""clearance's own table of destructive command lines and their benign twins, by class.

It states what the destructive-command guard ``examples/policies/guard.jsonc`` is designed to
answer, and tests/policy/test_guard.py holds the guard to it line by line. Each class lists a
few base lines and spells them systematically with the small combinators below: every order
and spelling of an option set (clustered, apart, long, abbreviated), options before and after
the operands, git's global options, and the wrappers a line may come in (``sudo``, ``env``,
``command``, a path to the program). Every destructive line has benign twins that look alike
(``git reset --soft``, ``git clean -n``, ``rm -r build``, ``git push --force-with-lease``).

``expected`` is one of:

* ``deny`` / ``ask`` — destructive: the guard stops it, denied or asked about as its rule says;
* ``allow`` — benign: the guard lets it run unattended;
* ``not-deny`` — benign, but the shell analyzer asks about the line whatever the policy says
  (``sudo``, ``env`` and ``command`` are wrappers it does not see through, ``git -c`` may set a
  key git runs later; docs/shell-analysis.md): never denied, allowed where the analyzer can be
  sure.

A row's ``note`` says why the guard answers as it does where that is a design choice, and where
the guard cannot decide because the answer depends on a value only known when the line runs.
"""

from __future__ import annotations

from itertools import permutations, product
from typing import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

DENY, ASK, ALLOW, NOT_DENY = "deny", "ask", "allow", "not-deny"
STOPPED = (DENY, ASK)


class Case(NamedTuple):
    group: str  # the class of command
    line: str  # the bash line
    expected: str  # deny | ask | allow | not-deny
    note: str = ""


# -- combinators -------------------------------------------------------------------------------


def _short(option: str) -> bool:
    return len(option) == 2 and option[0] == "-" and option[1] != "-"


def spellings(*options: Sequence[str]) -> list[str]:
    """Every way to write all of ``options`` (each a list of its spellings): each spelling, in
    every order, the short ones apart and, when all are short, clustered (``-rf``, ``-fr``)."""
    out: list[str] = []
    for chosen in product(*options):
        for order in permutations(chosen):
            out.append(" ".join(order))
            if len(order) > 1 and all(_short(o) for o in order):
                out.append("-" + "".join(o[1] for o in order))
    return _unique(out)


def positions(command: str, options: str, operands: str) -> list[str]:
    """``options`` before the operands, after them, and (for several) split around them."""
    out = [f"{command} {options} {operands}", f"{command} {operands} {options}"]
    words = options.split()
    if len(words) > 1:
        out.append(f"{command} {words[0]} {operands} {' '.join(words[1:])}")
    return _unique(out)


# How a git command line may begin: (prefix, whether the shell analyzer asks about the line
# whatever the policy says).
GIT_PREFIXES: tuple[tuple[str, bool], ...] = (
    ("git", False),
    ("git -C repo", False),
    ("git --no-pager", False),
    ("git --git-dir=.git --work-tree=.", False),
    ("git -C repo --no-pager -P", False),
    ("/usr/bin/git", False),
    ("git -c color.ui=never", True),
    ("env git", True),
    ("env LC_ALL=C git", True),
    ("command git", True),
    ("sudo git", True),
    ("sudo -u root git", True),
)

# How an rm (or another file command) may be spelled: (prefix, floored).
FILE_PREFIXES: tuple[tuple[str, bool], ...] = (
    ("", False),
    ("/bin/", False),
    ("/usr/bin/", False),
    ("\\", False),
    ("sudo ", True),
    ("command ", True),
    ("env ", True),
)


def git_forms(group: str, rest: str, expected: str, note: str = "") -> list[Case]:
    """``git REST`` behind every prefix: a destructive line stays stopped as it is, a benign
    one is allowed, or not denied behind a wrapper the analyzer asks about."""
    out = []
    for prefix, floored in GIT_PREFIXES:
        want = NOT_DENY if floored and expected == ALLOW else expected
        out.append(Case(group, f"{prefix} {rest}", want, note))
    return out


def file_forms(group: str, line: str, expected: str, note: str = "") -> list[Case]:
    """``line`` (a command of its own) with every program prefix in FILE_PREFIXES."""
    out = []
    for prefix, floored in FILE_PREFIXES:
        want = NOT_DENY if floored and expected == ALLOW else expected
        out.append(Case(group, prefix + line, want, note))
    return out


def each(group: str, lines: Iterable[str], expected: str, note: str = "") -> list[Case]:
    return [Case(group, line, expected, note) for line in lines]


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _git_many(group: str, rests: Iterable[str], expected: str, note: str = "") -> list[Case]:
    return [c for rest in rests for c in git_forms(group, rest, expected, note)]


# -- git: discarding uncommitted work ----------------------------------------------------------

_KEEP = (
    "git reset --keep refuses to run when a file it would change has local changes: it moves "
    "the branch like --soft and discards no uncommitted work"
)


def _git_reset() -> list[Case]:
    g = "git reset"
    bad = [
        *(f"reset {s}" for s in ("--hard", "--har", "--merge", "--merg")),
        *positions("reset", "--hard", "HEAD~1"),
        *positions("reset", "-q --hard", "origin/main"),
        "reset --hard -- .",
        "reset --merge ORIG_HEAD",
    ]
    good = [
        "reset",
        "reset --soft HEAD~1",
        "reset --mixed HEAD~1",
        "reset -q HEAD~1",
        "reset HEAD file.txt",
        "reset -- file.txt",
        "reset -p",
        "reset --soft --quiet HEAD",
    ]
    return [
        *_git_many(g, bad, DENY),
        *_git_many(g, good, ALLOW),
        *git_forms(g, "reset --keep HEAD~1", ALLOW, _KEEP),
        Case(g, "git commit -m 'git reset --hard'", ALLOW, "the words are a message"),
        Case(g, "git log --grep='reset --hard'", ALLOW, "the words are a search"),
    ]


def _git_checkout() -> list[Case]:
    g = "git checkout"
    bad = [
        "checkout -- .",
        "checkout -- src/app.py",
        "checkout HEAD -- src/app.py",
        "checkout main src/app.py",
        "checkout main -- .",
        "checkout .",
        "checkout ./src",
        "checkout ..",
        "checkout ../lib",
        "checkout :/",
        "checkout --pathspec-from-file=paths.txt",
        *(f"checkout {s} main" for s in ("-f", "--force", "--forc", "-qf", "-fq")),
        "checkout main -f",
        "checkout -f",
    ]
    good = [
        "checkout main",
        "checkout -",
        "checkout -b feature",
        "checkout -b feature origin/main",
        "checkout -B feature origin/feature",
        "checkout --track origin/feature",
        "checkout --detach v1.2.3",
        "checkout v1.2.3",
        "checkout feature/login",
        "checkout -q main",
        "checkout --orphan gh-pages",
    ]
    return [*_git_many(g, bad, DENY), *_git_many(g, good, ALLOW)]


def _git_switch() -> list[Case]:
    g = "git switch"
    forces = ("-f", "--force", "--discard-changes", "--discard")
    bad = [
        *(f"switch {s} main" for s in forces),
        "switch main --discard-changes",
        "switch -qf main",
        "switch -f -c feature",
    ]
    good = [
        "switch main",
        "switch -",
        "switch -c feature",
        "switch --create feature origin/main",
        "switch --detach v1.2.3",
        "switch -q main",
        "switch -m main",
    ]
    return [*_git_many(g, bad, DENY), *_git_many(g, good, ALLOW)]


def _git_restore() -> list[Case]:
    g = "git restore"
    bad = [
        "restore src/app.py",
        "restore .",
        "restore -W src/app.py",
        "restore --worktree src/app.py",
        "restore --staged --worktree src/app.py",
        "restore -SW src/app.py",
        "restore -WS .",
        "restore -s HEAD~1 src/app.py",
        "restore --source=HEAD~1 src/app.py",
        "restore --source HEAD -- .",
        "restore -p src/app.py",
    ]
    good = [
        "restore --staged src/app.py",
        "restore -S src/app.py",
        "restore --staged .",
        "restore -S -- src/app.py",
        "restore --help",
    ]
    return [*_git_many(g, bad, DENY), *_git_many(g, good, ALLOW)]


def _git_clean() -> list[Case]:
    g = "git clean"
    force = ("-f", "--force", "--forc")
    bad = [
        *(f"clean {s}" for s in spellings(force)),
        *(f"clean {s}" for s in spellings(("-f", "--force"), ("-d",))),
        *(f"clean {s}" for s in spellings(("-f",), ("-d",), ("-x", "-X"))),
        *positions("clean", "-fd", "build/"),
        *positions("clean", "-f -d", "."),
        "clean -ffdx",
        "clean -f -e .env",
    ]
    good = [
        "clean -n",
        "clean --dry-run",
        "clean -nd",
        "clean -n -d -x",
        "clean -dn build/",
        "clean -fn",
        "clean -n -f -d",
        "clean --force --dry-run",
    ]
    return [
        *_git_many(g, bad, DENY),
        *_git_many(g, good, ALLOW),
        Case(
            g,
            "git -c clean.requireForce=false clean -d",
            ASK,
            "git -c may set a key that changes what git does (here: clean without -f); the "
            "analyzer asks about every git -c",
        ),
    ]


def _git_stash() -> list[Case]:
    g = "git stash"
    bad = ["stash drop", "stash drop stash@{1}", "stash drop -q", "stash clear"]
    good = [
        "stash",
        "stash push -m wip",
        "stash list",
        "stash show -p",
        "stash pop",
        "stash apply stash@{1}",
    ]
    return [*_git_many(g, bad, DENY), *_git_many(g, good, ALLOW)]


def _git_branch() -> list[Case]:
    g = "git branch"
    bad = [
        "branch -D feature",
        "branch feature -D",
        *(f"branch {s} feature" for s in spellings(("-d", "--delete"), ("-f", "--force"))),
        "branch -D -r origin/feature",
        "branch -f feature",
        "branch --force feature",
        "branch -f feature origin/main",
    ]
    over = ["branch -M main", "branch -M old new", "branch -C old new"]
    good = [
        "branch -d feature",
        "branch --delete feature",
        "branch -m old new",
        "branch -a",
        "branch --list 'feat*'",
        "branch feature",
        "branch -v",
    ]
    return [
        *_git_many(g, bad, DENY),
        *_git_many(g, over, ASK, "-M and -C rename or copy over an existing branch"),
        *_git_many(g, good, ALLOW),
    ]


def _git_push() -> list[Case]:
    g = "git push"
    force = [
        *(f"push {s} origin main" for s in ("-f", "--force", "-fu", "-uf", "-qf", "-f -u")),
        *positions("push", "--force", "origin main"),
        *positions("push", "-f", "origin main"),
        "push --force",
        "push -f",
        "push --all --force origin",
        "push --force --force-if-includes origin main",
        "push origin +main",
        "push origin +HEAD:main",
        "push origin main +feature",
    ]
    remove = [
        "push --mirror",
        "push --mirror backup",
        "push origin --delete feature",
        "push --delete origin feature",
        "push -d origin feature",
        "push origin :feature",
        "push origin master",
        "push master",
        "push origin HEAD:master",
    ]
    good = [
        "push",
        "push origin main",
        "push -u origin feature",
        "push --force-with-lease",
        "push --force-with-lease origin main",
        "push --force-with-lease=main origin main",
        "push --force-with-lease --force-if-includes origin main",
        "push --force-if-includes origin main",
        "push --tags",
        "push origin :",
        "push origin HEAD:refs/for/main",
        "push origin feature-master",
        "push origin master-fix",
    ]
    return [
        *_git_many(g, force, DENY),
        *_git_many(
            g,
            [
                f"push {s} origin main"
                for s in spellings(("-f", "--force"), ("--force-with-lease",))
            ],
            DENY,
            "given with --force, git ignores the lease and pushes by force (git 2.39, tried)",
        ),
        *_git_many(g, remove, ASK),
        *_git_many(g, good, ALLOW),
    ]


def _git_rm() -> list[Case]:
    g = "git rm"
    bad = [
        *(f"rm {s} ." for s in spellings(("-r",), ("-f", "--force"))),
        "rm -f src/app.py",
        "rm src/app.py --force",
        "submodule deinit -f --all",
        "submodule deinit --force vendor/lib",
    ]
    good = [
        "rm src/app.py",
        "rm -r build",
        "rm -r --cached .",
        "rm -rf --cached .",
        "rm --cached -f src/app.py",
        "rm -n -rf .",
        "rm --dry-run -f src/app.py",
        "submodule deinit --all",
        "submodule update --init",
    ]
    return [*_git_many(g, bad, DENY), *_git_many(g, good, ALLOW)]


_REBASE = (
    "a rebase rewrites local commits only: the old ones stay in the reflog, and git refuses "
    "to start with uncommitted changes"
)


def _git_history() -> list[Case]:
    g = "git history"
    return [
        *_git_many(g, ["reflog expire --expire=now --all", "reflog expire --all"], ASK),
        *_git_many(g, ["reflog delete HEAD@{1}", "prune", "prune --expire=now"], ASK),
        *_git_many(g, ["reflog drop --all", "reflog write HEAD a b m"], ASK),
        *_git_many(g, ["gc --prune=now", "gc --prune=now --aggressive", "gc --prune"], ASK),
        *_git_many(
            g,
            ["filter-branch --tree-filter 'rm -f secret' HEAD", "filter-branch -f HEAD"],
            ASK,
        ),
        *_git_many(g, ["update-ref -d refs/heads/feature", "update-ref -d HEAD"], DENY),
        # moving a ref to any commit, as git branch -f does, or making one: which of the two
        # depends on the repository, not the line
        *_git_many(g, ["update-ref refs/heads/main HEAD~2", "update-ref refs/heads/f HEAD"], ASK),
        *_git_many(g, ["worktree remove --force ../wt", "worktree remove -f ../wt"], DENY),
        *_git_many(
            g,
            [
                "reflog",
                "reflog show main",
                "gc",
                "gc --auto",
                "worktree remove ../wt",
                "prune -n",
                "prune --dry-run --expire=now",
                "worktree list",
                "log --oneline -5",
                "status",
                "diff HEAD",
                "show HEAD~1",
            ],
            ALLOW,
        ),
        *_git_many(
            g,
            ["rebase main", "rebase -i HEAD~3", "rebase --continue", "rebase --abort"],
            ALLOW,
            _REBASE,
        ),
        Case(g, "GIT reset --hard", ASK, "a case-insensitive file system runs git for GIT"),
    ]


# -- removing files ----------------------------------------------------------------------------

_R = ("-r", "-R", "--recursive", "--recur")
_F = ("-f", "--force")
_TMPDIR = (
    "the value of $TMPDIR is known only when the line runs; a computed operand is no path in "
    "/tmp, so the guard cannot tell it from any other directory and denies"
)
_RELATIVE = (
    "the guard allows recursive forced removal only in the temporary directories; a project "
    "adds its own throw-away directories as allow rules"
)


def _rm() -> list[Case]:
    g = "rm"
    flags = spellings(_R, _F)
    out = [Case(g, line, DENY) for s in flags for line in positions("rm", s, "build")]
    for target in ("src", ".", "*", "~", "/", "/home/user", "/etc", "..", '"$HOME"', "~/"):
        out.append(Case(g, f"rm -rf {target}", DENY))
    out += each(
        g,
        [
            "rm -rfv build",
            "rm -vrf build",
            "rm -r -v -f build",
            "rm --no-preserve-root -rf /",
            "rm -rf --no-preserve-root /",
            "rm -rf --one-file-system /",
            "rm -rf -- build",
            "rm -rf -- -build",
            "rm -rf /tmp/x /",
            "rm -rf /tmp/../etc",
            "rm -rf /tmp/x/..",
            "rm -rf build dist",
            "rm --r --f build",  # getopt takes any unique prefix, one letter too
            "rm -r --f build",
        ],
        DENY,
    )
    for prefix, _floored in FILE_PREFIXES:
        out.append(Case(g, f"{prefix}rm -rf build", DENY))
        out.append(Case(g, f"{prefix}rm -r build", NOT_DENY if _floored else ALLOW))
    out += each(
        g,
        [
            "bash -c 'rm -rf build'",
            "sh -c 'rm -r -f build'",
            "echo $(rm -rf build)",
            "true && rm -fr build",
            "(cd sub && rm -Rf build)",
            "ls; rm --recursive --force build",
        ],
        DENY,
    )
    out += each(g, ["rm -rf node_modules", "rm -rf ./dist"], DENY, _RELATIVE)
    out.append(
        Case(
            g,
            "rm -rf /tmp/a /var/tmp/b",
            DENY,
            "an allow rule must cover every operand by itself, and /tmp and /var/tmp are two "
            "rules: operands split across them are denied together (remove them one at a time)",
        )
    )
    out += each(
        g,
        ["rm -rf $TMPDIR/build", 'rm -rf "${TMPDIR:-/tmp}/build"', "rm -rf $TMPDIR"],
        DENY,
        _TMPDIR,
    )
    out += each(
        g,
        [
            *(f"rm {r} build" for r in _R),
            *(f"rm {f} build.o" for f in _F),
            "rm build.o",
            "rm -i -r build",
            "rm -d empty",
            "rm -v x.o y.o",
            "rm -- -rf",
            "rm -r -- -f",
            "rm -rf /tmp/build",
            "rm -rf /tmp/a /tmp/b",
            "rm --r build",
            "rm --recursive --force /tmp/build",
            "rm -fr /var/tmp/cache",
            "rm -rf /tmp/foo..bar",
            "echo rm -rf /",
            "git commit -m 'rm -rf build'",
            "grep -r 'rm -rf' docs",
        ],
        ALLOW,
    )
    return out


def _find() -> list[Case]:
    g = "find"
    out = [
        *file_forms(g, "find . -name '*.o' -delete", DENY),
        *each(
            g,
            [
                "find . -delete",
                "find / -name '*.log' -delete",
                "find . -type f -mtime +7 -delete",
                "find . -delete -print",
            ],
            DENY,
        ),
        *each(
            g,
            [
                "find . -exec rm -rf {} +",
                "find . -name x -exec rm -r -f {} \\;",
                "find . -exec /bin/rm -fr {} +",
            ],
            DENY,
        ),
        Case(g, "find . -execdir rm {} \\;", ASK, "find -exec runs a command"),
        *file_forms(g, "find . -name '*.o' -print", ALLOW),
        *each(
            g,
            [
                "find . -name x",
                "find . -type f -mtime +7",
                "find . -name '*.o' -print0",
                "find . -maxdepth 1 -ls",
            ],
            ALLOW,
        ),
        Case(g, "find . -exec grep -l x {} +", NOT_DENY, "find -exec runs a command"),
        Case(
            g,
            "find . -name -delete",
            NOT_DENY,
            "-delete is the value of -name here (the guard's rule reads it so); the shell "
            "analyzer reads -delete as find's action wherever it stands, and asks",
        ),
    ]
    return out


def _devices() -> list[Case]:
    g = "disks"
    return [
        *file_forms(g, "dd if=/dev/zero of=/dev/sda bs=1M", DENY),
        *each(
            g,
            [
                "dd of=/dev/sda if=image.iso",
                "dd if=image.iso of=/dev/nvme0n1 status=progress",
                "dd if=/dev/urandom of=/dev/sdb1",
                "dd if=x of=/dev/null of=/dev/sda",
                "dd if=x of=/dev/sda of=/dev/null",
                "dd if=x 'of=/dev/null of=/dev/sda'",
                "dd if=x of=/dev/null/../sda",
            ],
            DENY,
        ),
        *file_forms(g, "mkfs.ext4 /dev/sdb1", DENY),
        *each(
            g,
            [
                "mkfs -t ext4 /dev/sdb1",
                "mkfs.vfat /dev/sdc",
                "/sbin/mkfs.xfs -f /dev/sdb",
                "mke2fs /dev/sdb1",
            ],
            DENY,
        ),
        Case(g, "dd if=x of=$DEV", ASK, "a computed path: the analyzer asks where it leads"),
        *file_forms(g, "dd if=/dev/zero of=disk.img bs=1M count=10", ALLOW),
        *file_forms(g, "dd if=/dev/zero of=/dev/null bs=1M count=100", ALLOW),
        Case(g, "dd of=/dev/null if=image.iso", ALLOW),
        *each(g, ["dd if=disk.img of=copy.img", "mkfifo pipe", "mkdir fs", "lsblk"], ALLOW),
    ]


def _modes() -> list[Case]:
    g = "chmod/chown"
    out: list[Case] = []
    for program, arg in (("chmod", "777"), ("chown", "nobody"), ("chmod", "u+w")):
        for r in ("-R", "--recursive", "--recurs"):
            out += [Case(g, line, ASK) for line in positions(program, r, f"{arg} /")]
    out += each(g, ["chmod -R 777 .", "sudo chmod -R 777 /", "chown -R user:user ~"], ASK)
    out += each(
        g,
        ["chmod -R u+w build"],
        NOT_DENY,
        "the guard asks about every recursive chmod and chown: it cannot tell a build "
        "directory from a system one",
    )
    out += each(
        g, ["chmod 644 README.md", "chmod +x run.sh", "chown user file.txt", "chmod -v 600 key"],
        ALLOW,
    )  # fmt: skip
    return out


_DESTINATION = (
    "rsync --delete deletes what the source lacks at the destination, which the guard cannot "
    "tell from the project: it asks, and denies only where the place is surely not the project"
)
_DELETES = ("--delete", "--del", "--delete-before", "--delete-during", "--delete-delay",
            "--delete-after", "--delete-excluded")  # fmt: skip


def _moves() -> list[Case]:
    g = "moving and syncing"
    out = [
        *file_forms(g, "mv /etc x", DENY),
        *file_forms(g, "mv /usr/bin /tmp", DENY),
        *each(
            g,
            [
                "mv /usr/bin/ /tmp",
                "mv -f /etc/ /tmp/etc",
                "mv -t /tmp /usr/lib",
                "mv /bin/ls /tmp",
                "mv x /usr/bin/ls",
                "cd /usr && mv bin /tmp",
                "mv ~ /tmp/h",
                "mv /home x",
                "mv / x",
            ],
            DENY,
        ),
        *file_forms(g, "mv a b", ALLOW),
        *each(g, ["mv -v build dist", "mv -t /tmp a b", "mv /tmp/a /tmp/b", "mv ~/x ~/y"], ALLOW),
    ]
    for option in _DELETES:
        out += each(
            g,
            [
                f"rsync -a {option} src/ /etc/",
                f"rsync -a {option} src/ /usr/local/",
                f"rsync {option} -a src/ ~",
                f"rsync -a src/ / {option}",
                f"rsync -av {option} -e ssh src/ ..",
            ],
            DENY,
        )
        out += each(g, [f"rsync -a {option} src/ dest/", f"rsync -a {option} src/ ../x"], ASK,
                    _DESTINATION)  # fmt: skip
    out += each(
        g,
        [
            "rsync -a --remove-source-files /etc/ backup/",
            "rsync -a --remove-source-files /usr/lib/x backup/",
            "rsync -a --remove-source-files ~/ backup/",
        ],
        DENY,
    )
    out += each(
        g,
        [
            "rsync -a --remove-source-files src/ dest/",
            "rsync -a --delete-missing-args src/ dest/",
        ],
        ASK,
        _DESTINATION,
    )
    out += file_forms(g, "rsync -av src/ dest/", ALLOW)
    out += each(
        g,
        [
            "rsync -a --exclude .git src/ dest/",
            "rsync -a --exclude=--delete src/ dest/",
            "rsync -a --max-delete=0 src/ /tmp/dest/",
            "rsync -a /etc/hosts backup/",
            # a dry run (-n) only lists what rsync would delete or move
            "rsync --delete --dry-run src/ dest/",
            "rsync -avn --delete src/ ../x",
            "rsync -an --remove-source-files src/ dest/",
        ],
        ALLOW,
    )
    out.append(
        Case(
            g,
            "rsync -a --filter '- --delete' src/ dest/",
            NOT_DENY,
            "--delete is the value of --filter here (the guard's rule reads it so); the shell "
            "analyzer's scan for rsync -e reads a word that starts with - for options, and asks",
        )
    )
    return out


def _contents() -> list[Case]:
    g = "file contents"
    return [
        *file_forms(g, "shred -u secret.txt", DENY),
        *each(g, ["shred secret.txt", "shred -n 3 -z disk.img"], DENY),
        *file_forms(g, "truncate -s 0 app.log", DENY),
        *each(
            g,
            ["truncate -s0 app.log", "truncate --size=0 app.log", "truncate -cs 0 app.log"],
            DENY,
        ),
        *each(
            g,
            ["truncate -s -1K app.log", "truncate -s '<1M' app.log", "truncate -r empty app.log"],
            ASK,
        ),
        *file_forms(g, "truncate -s 10M disk.img", ALLOW),
        *each(
            g,
            ["truncate -s +1M disk.img", "grep shred notes.txt", "cat app.log", "shred --help"],
            ALLOW,
        ),
        *each(
            g,
            ["> app.log", ": > app.log", "echo '' > app.log"],
            ALLOW,
            "a redirect is a write like any other: the guard does not tell emptying a file "
            "from writing it (the path rules do, for paths they name)",
        ),
    ]


def _braces() -> list[Case]:
    g = "brace expansion"
    return [
        *each(
            g,
            [
                "rm -rf /tmp/{x,../etc}",
                "rm -rf /tmp/{..,x}",
                "git push origin {+main,x}",
                "git push {-f,origin}",
                "truncate -s {0,1} app.log",
            ],
            DENY,
            "bash expands the braces before the command runs: the rule meets the words it passes",
        ),
        *each(
            g, ["rm -rf /tmp/{a,b}", "git push origin {main,dev}", "truncate -s {10M,} a"], ALLOW
        ),
        *each(
            g,
            ["rm -rf /tmp/.*/etc", "rm -rf /tmp/.?/etc", "rm -rf /tmp/.[.]/etc"],
            DENY,
            "a pattern segment starting with . matches .. in bash before 5.2 (macOS ships 3.2)",
        ),
        *each(g, ["rm -rf /tmp/.cache*", "rm -rf /tmp/build/.??*", "rm -rf /tmp/*.o"], ALLOW),
    ]


_INTERPRETERS = ("python", "python3", "python3.12", "python3.9", "pypy3")


def _inline_code() -> list[Case]:
    """Code an interpreter is handed inline or on standard input: clearance cannot read it, so
    the guard asks. A script file or a module runs the project's code, which the guard allows."""
    g = "inline-code"
    cases: list[Case] = []
    for name in _INTERPRETERS:
        cases += each(
            g,
            [
                f"{name} -c 'import shutil; shutil.rmtree(\"src\")'",
                f"{name} -Ic 'import os'",
                f"{name} - <<'PY'\nimport shutil\nshutil.rmtree('src')\nPY",
                f"{name} - <<'PY' 2>&1 | tail -3\nimport os\nPY",
                f"{name} -u - < script.py",
                f"{name} <<'PY'\nimport os\nPY",
                f"echo 'import os' | {name}",
                f"cat x.py | {name} -",
            ],
            ASK,
        )
        cases += each(g, [f"{name} script.py", f"{name} -m pytest -q", f"{name} --version"], ALLOW)
    cases += each(
        g,
        ["node - <<'JS'\nx\nJS", "echo x | node", "ruby - <<'RB'\nx\nRB", "perl - < x.pl",
         "echo x | perl"],
        ASK,
    )  # fmt: skip
    cases += each(g, ["node app.js", "ruby x.rb", "perl x.pl"], ALLOW)
    return cases


# How a command may be handed to a launcher that runs it (ADR 0041): the command is a unit of
# its own, so the guard's rules for it speak through the launcher.
LAUNCHER_PREFIXES: tuple[str, ...] = (
    "uv run", "uv run --frozen", "uvx", "npx", "npx -y", "npm exec --", "pnpm exec", "pnpm dlx",
    "yarn exec", "poetry run", "pipenv run", "bundle exec", "conda run -n dev", "mise exec --",
    "direnv exec .", "nix develop -c", "perf stat", "timeout 60 uv run",
)  # fmt: skip


def _launchers() -> list[Case]:
    """Destructive commands run by a package runner or tool launcher are stopped as typed; the
    usual commands run that way are allowed."""
    stopped = ("rm -rf /", "git reset --hard", "git push -f origin main")
    twins = ("pytest -q", "git status", "git push --force-with-lease origin main")
    return [
        Case("launchers", f"{prefix} {command}", expected)
        for prefix in LAUNCHER_PREFIXES
        for commands, expected in ((stopped, DENY), (twins, ALLOW))
        for command in commands
    ]


def _named_within() -> list[Case]:
    """A program clearance does not know may run the command its words name (a task runner, a
    deploy script): where the guard denies or asks about that command, the line asks (ADR
    0062). The same words given to a program clearance knows, or naming a command the guard
    lets run, are allowed."""
    note = "an unknown program may run the command its words name: asked, not denied"
    programs = ("tool", "./deploy.sh", "python3 scripts/run.py", "=2", "A-B=2", "Tool", "x.exe")
    stopped = (
        "rm -rf /",
        "git reset --hard",
        "find . -delete",
        "/bin/rm -r -f ~/work",
        "git -C repo push -f origin main",
        'rm -rf "$HOME"',
        "mkfs.ext4 /dev/sda1",
    )
    twins = ("rm -rf /tmp/a", "git status", "find . -print", "git push --force-with-lease",
             "git reset --soft HEAD~1")  # fmt: skip
    cases = [
        Case("named within", f"{program} {command}", expected, note if expected == ASK else "")
        for program in programs
        for commands, expected in ((stopped, ASK), (twins, ALLOW))
        for command in commands
    ]
    shown = ("echo -n", "printf '%s\\n'", "grep -n -e", "git commit -m x --", "mkdir -p", "type")
    cases += [
        Case("named within", f"{program} rm -rf /", ALLOW, "a program that runs none of its words")
        for program in shown
    ]
    return cases


def all_cases() -> list[Case]:
    cases = [
        *_git_reset(),
        *_git_checkout(),
        *_git_switch(),
        *_git_restore(),
        *_git_clean(),
        *_git_stash(),
        *_git_branch(),
        *_git_push(),
        *_git_rm(),
        *_git_history(),
        *_rm(),
        *_find(),
        *_devices(),
        *_modes(),
        *_moves(),
        *_contents(),
        *_braces(),
        *_inline_code(),
        *_launchers(),
        *_named_within(),
    ]
    seen: dict[str, Case] = {}
    for case in cases:
        assert seen.get(case.line, case) == case, f"{case.line!r} is listed twice, differently"
        seen[case.line] = case
    return list(seen.values())


CASES: list[Case] = all_cases()
