"""The built-in policy is worth keeping (issue 13, point 5): read-only inspection inside the
project is allowed; mutation, network and running project code ask; destruction and secrets are
denied. Each row runs through the real engine in a project with real files."""

from __future__ import annotations

import json

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall
from clearance.policy.defaults import BUILTIN_POLICY, builtin_policy
from clearance.policy.jsonc import parse

ROWS = [
    # read-only inspection inside the project
    ("ls -la src", "allow"),
    ("cat README.md | head -5", "allow"),
    ("rg -n TODO src", "allow"),
    ("find . -name '*.py' | xargs grep -l foo", "allow"),
    ("sed -n '1,20p' src/a.py", "allow"),
    ("git status && git diff && git log --oneline -5", "allow"),
    ("/bin/zsh -lc 'rg -n \"x\" src | head'", "allow"),
    ("wc -l src/a.py 2>/dev/null", "allow"),
    ("git branch", "allow"),
    # git's own options before a reading subcommand: the command rules read past them
    ("git --no-pager diff src/a.py && git -P log --oneline -3", "allow"),
    ("git -c color.ui=never log && /usr/bin/git status", "allow"),
    ("git --no-pager push", "ask"),
    ("git --no-pager reflog expire --all", "ask"),
    ("git -c core.pager=cat log", "ask"),  # a key that runs a command
    ("git --config-env=core.pager=PAGER_CMD log", "ask"),
    ("git --no-pager diff --output=src/b.py", "ask"),
    ("git --no-pager status-x", "ask"),
    # sed and uniq by their meaning: any options; what writes or runs still asks
    # templates of a secrets file are no secret; the file itself asks
    ("cat .env.example .env.sample .env.template .env.dist", "allow"),
    ("cat .env.local", "ask"),
    ("sed 's/a/b/' src/a.py && sed -E -n '1,5p' src/a.py", "allow"),
    ("sort src/a.py | uniq -ci", "allow"),
    ("sed -i 's/a/b/' src/a.py", "ask"),
    ("sed 's/x/y/e' src/a.py", "ask"),
    ("sed -n '1w src/b.py' src/a.py", "ask"),
    ("uniq src/a.py src/b.py", "ask"),  # its second operand is written
    ("date +%F && date -u +%s && date -d yesterday +%F", "allow"),
    ("uname -r && id -u && nproc", "allow"),
    ('[ -z "$CI" ] && echo local', "allow"),
    ("[ -f src/a.py ] && head -5 src/a.py", "allow"),  # a test only looks, as `test -f`
    ("[ -d src ] || echo missing", "allow"),
    ("[ -f /etc/passwd ] && echo yes", "ask"),  # still outside the project
    ("[[ 1 -eq x ]]", "ask"),  # `[[` evaluates arithmetic: no rule allows it
    ("git remote -v && git remote get-url origin && git tag", "allow"),
    # mutation, network, running project code: ask
    ("npm test", "ask"),
    ("python3 src/a.py", "ask"),
    ("timeout 60 make", "ask"),
    ("git commit -m x", "ask"),
    ("git push", "ask"),
    ("date +%F -s 2020-01-01", "ask"),  # sets the clock, in any spelling
    ("date -us 2020-01-01", "ask"),
    ("date --se=2020-01-01", "ask"),
    ("git tag v1", "ask"),
    ("git remote add up https://example.com/x.git", "ask"),
    ("git branch -D main", "ask"),
    ("curl https://example.com", "ask"),
    ("rm src/a.py", "ask"),
    ("sed -i s/a/b/ src/a.py", "ask"),
    ("sed -n 'w out.txt' src/a.py", "ask"),
    ("find . -delete", "ask"),
    ("find . -exec rm {} +", "ask"),
    ("git diff --output=patch.txt", "ask"),
    ("sort -o out.txt src/a.py", "ask"),
    ("echo x > src/a.py", "ask"),
    ("cat README.md > copy.md", "ask"),
    ("rg --pre ./x TODO", "ask"),
    ("ls ..", "ask"),
    ("sudo cat README.md", "ask"),
    ("cat .env", "ask"),
    # destruction and secrets: deny
    ("rm -rf /", "deny"),
    ("rm -rf ~", "deny"),
    # ... in any spelling of the options, with benign twins that ask
    ("rm -r -f /usr", "deny"),
    ("rm -fr /etc/", "deny"),
    ("rm --recursive --force /home", "deny"),
    ("rm -R /var", "deny"),
    ("/bin/rm -rf -- /boot", "deny"),
    ("rm -rf /usr/local/src/x", "ask"),
    ("rm -f /etc/x.conf", "ask"),
    ("rm -fr build", "ask"),
    # ... in any spelling of the operand: a glob that matches it, the home directory's words
    ("rm -rf /u?r", "deny"),
    ("rm -r /tmp/../etc", "deny"),
    ("cd / && rm -r usr", "deny"),
    ("rm -R //usr/", "deny"),
    ("rm -r /[e]tc/", "deny"),
    ("rm -fr ~", "deny"),
    ("rm -r ~/", "deny"),
    ("rm -rf $HOME", "deny"),
    ('rm -rf -- "${HOME}"', "deny"),
    ("sudo rm -r ~", "deny"),
    ("rm -rf ~/proj/build", "ask"),
    ("rm -r $HOME/.cache", "ask"),
    ("rm -f ~/x", "ask"),
    ("rm -rf /u?r/local/src/x", "ask"),
    # moving a system directory or the home directory, or syncing into one with --delete
    ("mv /etc x", "deny"),
    ("mv -f /usr/ /tmp/usr", "deny"),
    ("cd / && mv var x", "deny"),
    ("mv ~ /tmp/h", "deny"),
    ('mv "$HOME" /tmp/h', "deny"),
    ("rsync -a --delete src/ /etc/", "deny"),
    ("rsync -a --del src/ /usr", "deny"),
    ("rsync -av --delete-after src/ ~/", "deny"),
    ("rsync -a --delete-excluded -e ssh src/ /", "deny"),
    ("mv a b", "ask"),
    ("mv /etc/x.conf /tmp", "ask"),
    ("rsync -a src/ /etc/", "ask"),
    ("rsync -a --delete src/ dest/", "ask"),
    ("rsync -a --delete /etc/ dest/", "ask"),
    ("rsync -a --remove-source-files src/ dest/", "ask"),
    ("cat ~/.ssh/id_rsa", "deny"),
    ("cat ~/.netrc", "deny"),
    ("cat ~/.aws/credentials", "deny"),
    ("grep token ~/.config/gh/hosts.yml", "deny"),
    ("bash -lc 'cat ~/.docker/config.json'", "deny"),
    # a secret's deny holds for writes too: `path_write` "*" asks, and must not loosen it
    ("cat <> ~/.ssh/id_rsa", "deny"),
    ("echo x > ~/.aws/credentials", "deny"),
    ("cp src/a.py ~/.ssh/id_ed25519", "deny"),
    ("tee -a ~/.netrc < src/a.py", "deny"),
    # a project directory is never a system directory
    ("rm -rf build", "ask"),
    ("rm -rf .next", "ask"),
    ("rm -rf apps/web/.next", "ask"),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, str]:
    root = tmp_path_factory.mktemp("builtin").resolve()
    home = root / "home"
    project = home / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("print(1)\n")
    (project / "README.md").write_text("# readme\n")
    (project / ".env").write_text("SECRET=1\n")
    (project / "build").mkdir()
    env = {"HOME": str(home), "XDG_CONFIG_HOME": str(root / "cfg"),
           "CLEARANCE_HOME": str(root / "state")}  # fmt: skip
    return Engine.load(cwd=str(project), env=env, use_cache=False), str(project)


@pytest.mark.parametrize(("line", "expected"), ROWS)
def test_the_built_in_policy(engine: tuple[Engine, str], line: str, expected: str) -> None:
    found, cwd = engine
    decision = found.check(ToolCall("bash", {"command": line}, cwd))
    assert decision.action == expected, decision.reason


def test_the_built_in_policy_text_is_what_a_cli_prints() -> None:
    assert builtin_policy() == BUILTIN_POLICY
    assert parse(builtin_policy()).value == json.loads(BUILTIN_POLICY)
