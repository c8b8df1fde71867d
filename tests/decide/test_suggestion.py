from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clearance.decide.bash_pattern import bash_pattern
from clearance.decide.grant import Grant
from clearance.decide.suggestion import (
    Suggestion,
    approval_pattern,
    both_directions_label,
    mcp_pattern,
    suggest,
)
from clearance.policy.wildcard import is_command_pattern


def wildcard_matches(pattern: str, value: str) -> bool:
    """Reference matcher for docs/configuration.md, "Wildcards": ``*`` any run (incl. ``/`` and newlines), ``?`` one
    character, everything else literal, anchored, and a trailing `` *`` also matches the bare
    prefix. A command rule (``rm [-r -f] build``) is met as a session grant meets it."""
    if is_command_pattern(pattern):
        return Grant("bash", pattern).covers("bash", (value,))
    optional_tail = pattern.endswith(" *")
    body = pattern[:-2] if optional_tail else pattern
    regex = ".*".join(re.escape(part).replace(r"\?", ".") for part in body.split("*"))
    if optional_tail:
        regex += "( .*)?"
    return re.fullmatch(regex, value, re.DOTALL) is not None


def decided_text(command: str) -> str:
    """The command as the suggestion sees it: leading comment lines dropped, trimmed."""
    text = command.strip()
    while text.startswith("#"):
        text = text.partition("\n")[2].strip()
    return text


BASH_CASES = [
    # arity 1
    ("ls -la /tmp", "ls *"),
    ("ls", "ls"),
    ("cat README.md", "cat *"),
    ("grep -rn foo src", "grep *"),
    ("rg TODO", "rg *"),
    ("make test", "make *"),
    ("make", "make"),
    ("rm -rf build", "rm [-r -f] build"),  # the options in any spelling, this operand only
    ("rm --force --recursive a b", "rm [-f -r] a b"),
    ("chmod -R 755 dir", "chmod [-R] 755 dir"),
    ("rm -rf", "rm *"),  # no operand: nothing narrower to say
    ('rm -rf "a b"', "rm *"),  # quoted: the wildcard of old
    ("curl -s https://example.com", "curl *"),
    ("echo hello world", "echo *"),
    ("find . -name '*.py'", "find *"),
    ("sed -i s/a/b/ file", "sed *"),
    ("tar xzf a.tgz", "tar *"),
    # arity 2
    ("git status --short", "git status *"),
    ("git status", "git status *"),
    ("git log", "git log *"),
    ("git push origin main", "git push *"),
    ("git -C repo push -f origin", "git -C repo push *"),  # git's own options, then its command
    ("aws --profile prod ec2 describe-instances", "aws --profile prod ec2 describe-instances *"),
    ("gh -R o/r pr list --state open", "gh -R o/r pr list *"),
    ("restic -r /srv/repo forget --prune", "restic -r /srv/repo forget *"),
    ("git -c a=b -- status", "git -c a=b -- status *"),
    ("kubectl -n prod delete pod x", "kubectl -n prod delete *"),
    ("git", "git"),
    ("npm install lodash", "npm install *"),
    ("npm test", "npm test *"),
    ("pip install requests", "pip install *"),
    ("cargo build --release", "cargo build *"),
    ("docker ps -a", "docker ps *"),
    ("kubectl get pods -A", "kubectl get *"),
    ("bun add react", "bun add *"),
    ("bun add", "bun add *"),
    ("bun install", "bun install *"),
    ("terraform plan -out x", "terraform plan *"),
    ("apt-get install -y tmux", "apt-get install *"),
    ("gh api repos/x/y", "gh api *"),
    # arity 3
    ("npm run build", "npm run build *"),
    ("npm run build -- --watch", "npm run build *"),
    ("pnpm dlx create-vite app", "pnpm dlx create-vite *"),
    ("docker compose up --build", "docker compose up *"),
    ("docker compose up", "docker compose up *"),
    ("aws s3 ls", "aws s3 ls *"),
    ("aws s3 cp a s3://b", "aws s3 cp *"),
    ("gcloud compute instances list", "gcloud compute instances *"),
    ("gh pr view 12", "gh pr view *"),
    ("uv run pytest -q", "uv run pytest *"),
    ("go run ./cmd/x", "go run ./cmd/x *"),
    ("npm run", "npm run *"),
    # keys are compared lowercase; unknown commands have arity 1
    ("GIT Status -s", "GIT Status *"),
    ("mytool --x", "mytool *"),
    ("mytool --verbose run", "mytool *"),
    ("./script.sh a b", "./script.sh *"),
    ("python -m pytest", "python *"),
    # comments, whitespace, quotes
    ("# list files\nls -la", "ls *"),
    ("  # one\n  # two\n  git status -s  ", "git status *"),
    ('git commit -m "fix the thing"', "git commit *"),
    ("git\tstatus -s", "git\tstatus *"),
    ("git status\t-s", "git status*"),
    ("echo 'a b' c", "echo *"),
    ("", ""),
    ("# only a comment", ""),
    # assignments and generalizable wrappers
    ("FOO=1 git status --short", "FOO=1 git status *"),
    ("nohup git status --short", "nohup git status *"),
    ("sudo -u root nohup mytool argument", "sudo -u root nohup mytool *"),
    ("sudo apt-get install -y x", "sudo apt-get install *"),
    ("sudo --user=root ls /root", "sudo --user=root ls *"),
    ("sudo -E env FOO=1 make build", "sudo -E env FOO=1 make *"),
    ("/usr/bin/sudo ls /root", "/usr/bin/sudo ls *"),
    ("timeout 5 npm test -- --ci", "timeout 5 npm test *"),
    ("timeout -s KILL -- 5 rm x y", "timeout -s KILL -- 5 rm *"),
    ("nice -n 10 make -j4", "nice -n 10 make *"),
    ("time cargo build", "time cargo build *"),
    ("stdbuf -oL tail -f log", "stdbuf -oL tail *"),
    ("flock /tmp/l aws s3 ls", "flock /tmp/l aws s3 ls *"),
    ("xargs rm -f", "xargs rm *"),
    ("env -i PATH=/bin git log -p", "env -i PATH=/bin git log *"),
    ("doas -u op ls -l", "doas -u op ls *"),
    # ambiguous or opaque wrappers: the whole command, no wildcard
    ("sudo $CMD status", "sudo $CMD status"),
    ("sudo -u $USER git status", "sudo -u $USER git status"),
    ("nohup `which git` status", "nohup `which git` status"),
    ("sudo -s ls", "sudo -s ls"),
    ("sudo --shell ls", "sudo --shell ls"),
    ("sudo -Z ls", "sudo -Z ls"),
    ("sudo -l", "sudo -l"),
    ("watch -n 1 ls", "watch -n 1 ls"),
    ("parallel rm ::: a b", "parallel rm ::: a b"),
    ("rush rm {}", "rush rm {}"),
    ("sem --id x rm y", "sem --id x rm y"),
    ("rust-parallel rm", "rust-parallel rm"),
    ("find . -name x -exec rm {} ;", "find . -name x -exec rm {} ;"),
    ("fd -e py -x wc -l", "fd -e py -x wc -l"),
    ("xargs -I{} rm {}", "xargs -I{} rm {}"),
    ("xargs -i rm {}", "xargs -i rm {}"),
    ("xargs --replace rm {}", "xargs --replace rm {}"),
    ('sh -c "rm -rf /"', 'sh -c "rm -rf /"'),
    ("bash -c 'git status'", "bash -c 'git status'"),
    ("bash -ec 'a; b'", "bash -ec 'a; b'"),
    ("/bin/bash --norc -c 'x y'", "/bin/bash --norc -c 'x y'"),
    ("eval git status", "eval git status"),
    ("sudo bash -c 'ls /'", "sudo bash -c 'ls /'"),
    ("nohup nohup nohup nohup nohup ls -l", "nohup nohup nohup nohup nohup ls -l"),
    # not wrappers: bare find/fd, a shell running a script
    ("fd pattern src", "fd *"),
    ("bash script.sh", "bash *"),
    # not one simple command as bash reads it: the whole command
    ("for f in a b; do rm $f; done", "for f in a b; do rm $f; done"),
    ("[ -f AGENTS.md ]", "[ -f AGENTS.md ]"),
    ('export PATH="$HOME/bin:$PATH"', 'export PATH="$HOME/bin:$PATH"'),
    ("git status && rm -rf x", "git status && rm -rf x"),
    # the words bash reads: a comment ends them, a quoted or substituted space does not
    ("git log -3 # recent", "git log *"),
    ("grep -n 'a b' $(ls src) x", "grep *"),
]


@pytest.mark.parametrize(("command", "expected"), BASH_CASES)
def test_the_bash_pattern_follows_the_arity_table_and_sees_through_wrappers(
    command: str, expected: str
) -> None:
    assert bash_pattern(command) == expected


def test_the_bash_table_is_large_enough() -> None:
    assert len(BASH_CASES) >= 60


@pytest.mark.parametrize(("command", "expected"), BASH_CASES)
def test_every_tabled_bash_pattern_matches_its_own_command(command: str, expected: str) -> None:
    assert wildcard_matches(expected, decided_text(command))


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("github:search_code", "github:*"),
        ("github_search_code", "github_*"),
        ("my-server:do_thing", "my-server:*"),
        ("search", "*"),
        ("_private", "*"),
        (":tool", "*"),
        ("", "*"),
        ("mcp__github__search_code", "mcp__github__search_code"),
    ],
)
def test_the_mcp_pattern_names_the_server(target: str, expected: str) -> None:
    assert mcp_pattern(target) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/other/project/src/foo.ts", "/other/project/src/*"),
        ("/other/project/src/", "/other/project/src/*"),
        ("/foo", "/*"),
        ("/", "/*"),
        ("foo.txt", "./*"),
        ("src/foo.txt", "src/*"),
        ("./foo", "./*"),
        ("~/notes/x.md", "~/notes/*"),
    ],
)
def test_the_approval_pattern_is_the_containing_directory(path: str, expected: str) -> None:
    assert approval_pattern(path) == expected


@pytest.mark.parametrize(
    ("surface", "value", "tool", "expected"),
    [
        ("bash", "git status -s", None, [("git status *", 'allow bash "git status *"')]),
        ("mcp", "github:search", None, [("github:*", 'allow mcp tool "github:*"')]),
        ("skill", "pdf-tools", None, [("pdf-tools", 'allow skill "pdf-tools"')]),
        ("path", "/etc/hosts", None, [("/etc/*", 'allow path "/etc/*"')]),
        ("path_write", "/x/y", "write", [("/x/*", 'allow path "/x/*"')]),
        (
            "external_directory_read",
            "/other/a.txt",
            "read",
            [("/other/*", 'allow access to external directory "/other/*"')],
        ),
        ("read", "/work/a.py", None, [("/work/*", 'allow read "/work/*"')]),
        ("edit", "notes.md", None, [("./*", 'allow edit "./*"')]),
        ("ls", "", None, [("*", 'allow tool "ls"')]),
        ("webfetch", "https://example.com", None, [("*", 'allow tool "webfetch"')]),
        ("task", "explore", "task", [("*", 'allow tool "task"')]),
    ],
)
def test_each_surface_gets_its_pattern_and_label(
    surface: str, value: str, tool: str | None, expected: list[tuple[str, str]]
) -> None:
    got = suggest(surface, value, tool=tool)
    assert [(s.pattern, s.label) for s in got] == [
        (pattern, f"Yes, {what} for this session") for pattern, what in expected
    ]
    assert all(s.surface == surface for s in got)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/work/pkg", ("/work/pkg", "/work/pkg/*")),
        ("/work/pkg/", ("/work/pkg", "/work/pkg/*")),
        ("/", ("/", "/*")),
        ("pkg", ("pkg", "pkg/*")),
    ],
)
def test_a_directory_is_offered_itself_and_its_contents(
    path: str, expected: tuple[str, str]
) -> None:
    got = suggest("external_directory", path, is_dir=True)
    assert tuple(s.pattern for s in got) == expected


def test_an_empty_command_suggests_nothing() -> None:
    assert suggest("bash", "  # just a comment\n") == ()


def test_the_both_directions_label_quotes_one_pattern_or_counts_several() -> None:
    one = [("path_read", "/x/*"), ("path_write", "/x/*")]
    assert both_directions_label(one) == 'Yes, allow reads and writes to "/x/*" for this session'
    two = [Suggestion("path_read", "/x/*", ""), Suggestion("path_write", "/y/*", "")]
    assert both_directions_label(two) == "Yes, allow reads and writes to 2 paths for this session"


def test_a_suggestion_is_an_immutable_value() -> None:
    one = Suggestion("bash", "ls *", "label")
    assert one == Suggestion("bash", "ls *", "label")
    assert hash(one) == hash(Suggestion("bash", "ls *", "label"))
    with pytest.raises(AttributeError):
        one.pattern = "*"


# -- properties --------------------------------------------------------------------------------

WORDS = st.sampled_from(
    [
        "git", "status", "npm", "run", "build", "docker", "compose", "up", "aws", "s3", "bun",
        "add", "sudo", "-u", "root", "env", "FOO=1", "nohup", "timeout", "5", "-s", "KILL", "--",
        "xargs", "-I{}", "find", "-exec", "bash", "-c", "eval", "watch", "$X", "`x`", "$(a b)",
        "'a b'", '"c d"', "*", "?", "~", "/", "\\", "#", "mytool", "--flag=1", "-", "(", ")",
        "time", "nice", "-n", "flock", "stdbuf", "-oL", "doas", "fd", "-x",
    ]
)  # fmt: skip
SEPARATORS = st.sampled_from([" ", " ", " ", "  ", "\t", "\n", " \\\n "])


@st.composite
def commands(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.one_of(WORDS, st.text(min_size=1, max_size=6)), max_size=8))
    text = ""
    for word in words:
        text += (draw(SEPARATORS) if text else "") + word
    if draw(st.booleans()):
        text = draw(st.sampled_from(["# c\n", "  #c\n\n", ""])) + text
    return text


@given(commands())
def test_the_suggested_bash_pattern_always_matches_its_command(command: str) -> None:
    pattern = bash_pattern(command)
    assert wildcard_matches(pattern, decided_text(command)) or not decided_text(command)


@given(st.text())
def test_bash_suggestion_never_raises_and_matches_arbitrary_text(command: str) -> None:
    pattern = bash_pattern(command)
    assert wildcard_matches(pattern, decided_text(command))


@given(st.text(), st.sampled_from(["bash", "mcp", "skill", "path", "read", "task", "*"]))
def test_suggest_never_raises(value: str, surface: str) -> None:
    for one in suggest(surface, value):
        assert one.label.startswith("Yes, allow ")
        assert one.label.endswith(" for this session")


@given(st.text(alphabet="/ab.", min_size=1))
def test_the_approval_pattern_matches_the_path_it_was_suggested_for(path: str) -> None:
    assert wildcard_matches(approval_pattern(path), path if "/" in path else "./" + path)
