"""Where a tool is told to put what it makes, and the settings it writes, meet the protected paths
(ADR 0053): a virtual environment, a global install with a prefix, a build's target directory, a
workspace, and ``config set``.

``python3 -m venv .claude/agents`` fills the agents directory; ``npm i -g --prefix .claude/agents
./pkg.tgz`` puts a package there; ``npm config set script-shell ./x.sh`` writes ``~/.npmrc``,
which decides what every later ``npm run`` runs. No word of those lines is a protected file.
Each attack that can run here is run in real bash, in a scratch copy of a project with its own
home, to show that it changes a protected place and its benign twin does not; then both are
decided under a policy that allows every command."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from scratch_runs import changes, decide

from clearance.decide.engine import Engine
from clearance.intent.sentinel import (
    CODE_RUNNING,
    INDIRECTION,
    PROTECTED,
    RUNS_LATER,
    UNLISTED_NAMES,
)

POLICY = {"permission": {"*": "ask", "bash": {"*": "allow"}, "external_directory": "allow"}}
_QUIET_NPM = "--offline --ignore-scripts --no-audit --no-fund"

# (attack, its action, benign twin): each run for real; the twin is allowed.
RUNS = [
    ("python3 -m venv --without-pip .claude/agents", "deny",
     "python3 -m venv --without-pip data/venv"),
    ("python3 -m venv --without-pip --clear .claude", "deny",
     "python3 -m venv --without-pip --clear data/venv"),
    ("python3 -m venv --without-pip --cle .claude", "deny",
     "python3 -m venv --without-pip --cle data/venv"),
    (f"npm i -g --prefix .claude/agents {_QUIET_NPM} ./pkg-1.0.0.tgz", "deny",
     f"npm i -g --prefix data/g {_QUIET_NPM} ./pkg-1.0.0.tgz"),
    (f"npm install --global --prefix=.claude/commands {_QUIET_NPM} ./pkg-1.0.0.tgz", "deny",
     f"npm install --global --prefix=data/g {_QUIET_NPM} ./pkg-1.0.0.tgz"),
    ("npm config set script-shell ./evil.sh", "deny", "npm config get script-shell"),
    ("npm set node-options=--require=./evil.js", "deny", "npm config list"),
    ("python3 -m pip config set global.target .claude/agents", "ask",
     "python3 -m pip config list"),
    ("cargo new -q --vcs none .claude/agents/x", "deny", "cargo new -q --vcs none data/x"),
    # found by review: npm's aliases and abbreviations, nopt's `-w=DIR`, the cache and logs
    # written on any command
    (f"npm ins -g --prefix .claude/agents {_QUIET_NPM} ./pkg-1.0.0.tgz", "deny",
     f"npm ins -g --prefix data/g {_QUIET_NPM} ./pkg-1.0.0.tgz"),
    (f"npm isntall -g --prefix .claude/agents {_QUIET_NPM} ./pkg-1.0.0.tgz", "deny",
     f"npm isntall -g --prefix data/g {_QUIET_NPM} ./pkg-1.0.0.tgz"),
    ("npm create -y -w .claude/agents", "deny", "npm create -y -w data/w"),
    ("npm init -y -w=.claude/agents", "deny", "npm init -y -w=data/w"),
    ("npm conf set script-shell ./evil.sh", "deny", "npm conf get script-shell"),
    ("npm ls --logs-dir .claude/agents --loglevel silly", "deny",
     "npm ls --logs-dir data/logs --loglevel silly"),
    ("npm --cache .claude/agents --loglevel silly ls", "deny",
     "npm --cache data/cache --loglevel silly ls"),
    # second review: an option's value before the command, other spellings of the programs
    (f"npm --loglevel silent i -g --prefix .claude/agents {_QUIET_NPM} ./pkg-1.0.0.tgz", "deny",
     f"npm --loglevel silent i -g --prefix data/g {_QUIET_NPM} ./pkg-1.0.0.tgz"),
    ("npm --loglevel warn config set script-shell=./evil.sh", "deny",
     "npm --loglevel warn config get script-shell"),
    ("python3 -m pip --timeout 5 config set global.target .claude/agents", "ask",
     "python3 -m pip --timeout 5 config list"),
    ("python3 -m runpy venv --without-pip .claude/skills", "deny",
     "python3 -m runpy venv --without-pip data/venv"),
    ("python3 -m venv.__main__ --without-pip .claude/commands", "deny",
     "python3 -m venv.__main__ --without-pip data/venv"),
    ("python3 -m pip install --log .claude/settings.local.json --no-index nothing", "deny",
     "python3 -m pip install --log data/pip.log --no-index nothing"),
    ("TMPDIR=.claude/agents mktemp", "ask", "TMPDIR=data mktemp -u"),
    # third review: what bash expands, the command behind npm exec's `--`
    (f"npm {{i,}} -g --prefix .claude/agents {_QUIET_NPM} ./pkg-1.0.0.tgz", "deny",
     f"npm i -g --prefix data/g {_QUIET_NPM} ./pkg-1.0.0.tgz"),
    (f"npm i -g {_QUIET_NPM} ./pkg-1.0.0.tgz --prefix={{data/q,.claude/agents/n}}", "deny",
     f"npm i -g {_QUIET_NPM} ./pkg-1.0.0.tgz --prefix={{data/q,data/n}}"),
    ("python3 -m venv --without-pip .claude/{commands,skills}", "deny",
     "python3 -m venv --without-pip data/{a,b}"),
    ("python3 -m pip {config,} set global.target .claude/agents", "ask",
     "python3 -m pip config list"),
]  # fmt: skip
# Decided only (the program is not installed here, or needs the network): (line, action,
# the deciding sentinel).
DECIDED = [
    ("uv venv .claude/agents", "deny", PROTECTED),
    ("uv venv --clear .claude", "deny", PROTECTED),
    ("virtualenv .claude/agents", "deny", PROTECTED),
    ("virtualenv -p python3 .claude/skills", "deny", PROTECTED),
    ("python3 -m virtualenv .claude/agents", "deny", PROTECTED),
    ("python3.12 -m venv .claude/agents", "deny", PROTECTED),
    ("cargo install --root .claude/skills ripgrep", "deny", PROTECTED),
    ("cargo build --target-dir .claude/agents", "deny", PROTECTED),
    ("cargo build --target-dir=.claude/agents", "deny", PROTECTED),
    ("cargo init .claude/commands", "deny", PROTECTED),
    ("cd .claude/agents && cargo init", "deny", PROTECTED),
    ("deno install --root .claude/agents jsr:@std/http/file-server", "deny", PROTECTED),
    ("composer install -d .claude/agents", "deny", PROTECTED),
    ("composer create-project vendor/app .claude", "ask", UNLISTED_NAMES),
    ("npm init -y -w .claude/agents", "deny", PROTECTED),
    ("npm install left-pad -w .claude/agents", "deny", PROTECTED),
    ("npm i -g --prefix $DIR x", "ask", UNLISTED_NAMES),
    ("yarn config set yarnPath ./evil.js", "ask", RUNS_LATER),
    ("pip config set global.target .claude/agents", "ask", RUNS_LATER),
    ("pip3 config --user set install.prefix .claude", "ask", RUNS_LATER),
    ("go env -w GOFLAGS=-toolexec=./evil.sh", "ask", RUNS_LATER),
    ("go env -u GOFLAGS", "ask", RUNS_LATER),
    ("pip config --site set global.target x", "ask", UNLISTED_NAMES),
    ("npm config set --location=global script-shell ./x", "ask", UNLISTED_NAMES),
    ("npm config set -g script-shell ./x", "ask", UNLISTED_NAMES),
    # the variables that move where these tools write
    ("UV_TOOL_DIR=.claude/agents uv tool install ruff", "ask", CODE_RUNNING),
    ("UV_PROJECT_ENVIRONMENT=.claude/agents uv sync", "ask", CODE_RUNNING),
    ("CARGO_TARGET_DIR=.claude/agents cargo build", "ask", CODE_RUNNING),
    ("YARN_YARN_PATH=./evil.js yarn install", "ask", CODE_RUNNING),
    ("PIPX_HOME=.claude/agents pipx install black", "ask", CODE_RUNNING),
    ("DENO_INSTALL_ROOT=.claude/agents deno install x", "ask", CODE_RUNNING),
    ("VIRTUAL_ENV=.claude/agents uv pip install ./x.whl", "ask", CODE_RUNNING),
    ("COMPOSER_HOME=.claude composer global require x", "ask", CODE_RUNNING),
    # found by review: other spellings and tools of the family
    ("npm it -g --prefix .claude/agents", "deny", PROTECTED),
    ("python3 -m ensurepip --root .claude/agents", "deny", PROTECTED),
    ("npm innit -y -w .claude/agents", "deny", PROTECTED),
    ("npm ls --logs-d .claude/agents", "deny", PROTECTED),
    ("cargo +stable new .claude/agents", "deny", PROTECTED),
    ("cargo +nightly -Z unstable-options -C .claude new agents", "deny", PROTECTED),
    ("cargo vendor .claude", "ask", UNLISTED_NAMES),
    ("uv --directory .claude venv agents", "deny", PROTECTED),
    ("uv venv --directory .claude agents", "deny", PROTECTED),
    ("uv init .claude/agents", "deny", PROTECTED),
    ("deno i --root .claude/agents x.ts", "deny", PROTECTED),
    ("deno init .claude/agents", "deny", PROTECTED),
    ("go env --w GOFLAGS=-toolexec=./evil.sh", "ask", RUNS_LATER),
    ("go mod vendor -o .claude", "ask", UNLISTED_NAMES),
    ("pnpm add -g --global-dir .claude/agents x", "deny", PROTECTED),
    ("yarn global add x --global-folder .claude/agents", "deny", PROTECTED),
    ("corepack enable --install-directory .claude/hooks", "deny", PROTECTED),
    ("corepack pnpm@9 add -g --prefix .claude/agents x", "deny", PROTECTED),
    ("poetry new .claude --name agents", "deny", PROTECTED),
    ("conda create -p .claude python", "ask", UNLISTED_NAMES),
    ("bundle install --binstubs .claude", "ask", UNLISTED_NAMES),
    ("bundle install --path .claude/agents", "deny", PROTECTED),
    ("pip --cache-dir .claude/agents download x", "deny", PROTECTED),
    ("npm config set registry https://r.example --location=project", "ask", RUNS_LATER),
    (
        "node /usr/lib/node_modules/npm/bin/npm-cli.js i -g --prefix .claude/agents x",
        "deny",
        PROTECTED,
    ),
    ("/usr/lib/node_modules/npm/bin/npm-cli.js config set script-shell ./x", "deny", None),
    ("go -C . env -w GOFLAGS=-x", "ask", RUNS_LATER),
    ("uv --color never venv .claude/agents", "deny", PROTECTED),
    ("deno --log-level info init .claude/agents", "deny", PROTECTED),
    ("poetry -C .claude new agents", "deny", PROTECTED),
    ("yarn --network-timeout 1 global add x --prefix .claude/agents", "deny", PROTECTED),
    (
        "python3 -m pip.__main__ install --no-index --target .claude/agents ./x.whl",
        "ask",
        UNLISTED_NAMES,
    ),
    ("python3 -m ensurepip.__main__ --root .claude/agents", "deny", PROTECTED),
    ("cargo build --config 'build.target-dir=\".claude/hooks\"'", "deny", PROTECTED),
    ("cargo build --config .cargo/ci.toml", "ask", UNLISTED_NAMES),
    ("printf '[build]\\ntarget-dir = \".claude/agents\"' > .cargo/config.toml", "ask", RUNS_LATER),
    ("PIP_LOG=.claude/settings.local.json pip install x", "ask", CODE_RUNNING),
    ("pnpm setup", "ask", RUNS_LATER),
    ("yarn policies set-version 1.22.19", "ask", RUNS_LATER),
    ("yarn plugin import ./plugin.js", "ask", RUNS_LATER),
    ("gem install --build-root .claude x", "ask", UNLISTED_NAMES),
    ("gem unpack --target .claude/agents x", "deny", PROTECTED),
    ("mkdir -p .claude/agents && npm i -g --prefix .claude/agent[s] x", "ask", UNLISTED_NAMES),
    ("cargo install --root .claude/agent[s] --path c", "ask", UNLISTED_NAMES),
    ("uv {venv,} .claude/agents", "deny", PROTECTED),
    ("go {env,} -w GOFLAGS=-toolexec=./x", "ask", RUNS_LATER),
    ("npm exec rm -- -rf .claude", "deny", PROTECTED),
    # fourth review: npm's option reader joins the words around a later `--`; patterns that
    # match a file named like the command (the project holds files `in`, `install`, `venv`,
    # `config`, `env`); quoted parts in a brace list
    ("npm exec rm -x -- -rf ~", "ask", INDIRECTION),
    ("npm x rm ~ -- -r -f", "ask", INDIRECTION),
    ("npm i[n] -g --prefix .claude/agents x", "deny", PROTECTED),
    ("npm instal? -g --prefix .claude/agents x", "deny", PROTECTED),
    ('npm {"i",} -g --prefix .claude/agents x', "deny", PROTECTED),
    ('npm i{"n",} -g --prefix .claude/agents x', "deny", PROTECTED),
    ("python3 -m v[e]nv .claude/agents", "deny", PROTECTED),
    ('python3 -m "venv"{,} .claude/agents', "deny", PROTECTED),
    ("uv v[e]nv .claude/agents", "deny", PROTECTED),
    ("pip c[o]nfig set global.target /tmp/x", "ask", RUNS_LATER),
    ("go e[n]v -w GOFLAGS=-x", "ask", RUNS_LATER),
    # sixth review: after `--`, a word that begins with `-` is a path; a pattern handed to a
    # program spelled another way (`\sed`)
    ("echo hi | tee -- --x/../.claude/settings.json", "deny", PROTECTED),
    ("rm -f -- -x/../.claude/settings.json", "deny", PROTECTED),
    ("sed -i s/a/b/ -- --x/../.claude/settings.json", "deny", PROTECTED),
    ("truncate -s0 -- --x/../.claude/settings.local.json", "deny", PROTECTED),
    ("\\sed -n p -* x", "ask", CODE_RUNNING),
    # fifth review: a pattern that matches what an earlier command of the line makes
    (
        "mkdir -p -- --target=.claude/agents; pip install --no-index ./x.whl */*",
        "ask",
        CODE_RUNNING,
    ),
    ("mkdir -p -- --prefix=.claude/agents; npm i --offline ./p.tgz */*", "ask", CODE_RUNNING),
    ("mkdir -p -- --prefix=.claude/agents; npm i -g ./p.tgz -*/*", "ask", CODE_RUNNING),
    ("touch in; npm i[n] -g --prefix .claude/agents x", "ask", UNLISTED_NAMES),
    ("npx npm@latest i -g --prefix .claude/agents x", "deny", PROTECTED),
    ("npx pnpm@9 add -g --global-dir .claude/agents x", "deny", PROTECTED),
    ("npm exec npm@10 -- i -g --prefix .claude/agents x", "deny", PROTECTED),
    ("uv python install --install-dir .claude/agents 3.12", "deny", PROTECTED),
    ("uv build -o .claude/agents", "deny", PROTECTED),
    # a cache written beside a removed tree: both are met
    ("uv --cache-dir data/c venv --clear .claude", "deny", PROTECTED),
    ("uv --cache-dir .claude/agents venv --clear data/v", "deny", PROTECTED),
]
# Ordinary lines of the same programs: allowed.
QUIET = [
    "python3 -m venv .venv",
    "python3 -m venv venv && source venv/bin/activate",
    "python3 -m venv --clear .venv",
    "uv venv",
    "uv venv -p 3.12",
    "uv venv --python .uvenv",
    "uv sync",
    "virtualenv .venv",
    "cargo build",
    "cargo build --release --target-dir target",
    "cargo test -p core",
    "cargo install ripgrep",
    "cargo new data/x",
    "npm i -g typescript",
    "npm install -D vitest",
    "npm config get prefix",
    "npm config list",
    "pnpm config get store-dir",
    "pip config list",
    "pip config get global.index-url",
    "go env GOPATH",
    "go env",
    "composer install",
    "deno install",
    "npm ci",
    "npm run build",
    "npm test",
    "npm ls",
    "npm uninstall left-pad",
    "npm update",
    "npm create vite@latest data/app",
    "pnpm install --frozen-lockfile",
    "yarn install",
    "corepack enable",
    "cargo vendor",
    "go mod vendor",
    "poetry new data/app",
    "conda create -n dev python",
    "bundle install",
    "uv init data/app",
    "npm run lint -- --dir .",
    "npm start -- test --output out",
    "npm exec playwright -- test x.spec.ts",
    "node server.js",
    "node --version",
    "cargo build --config 'profile.dev.opt-level=1'",
    "python3 -m pytest -q",
    "python3 -m pip list",
    "gem list",
    "npm run build -- --env={a,b}",
    "npm pkg set 'scripts.x={\"a\": 1}'",
    "npm test -- src/*.ts",
    "npm run lint src/*.ts",
    "pip install dist/*.whl",
    "uv pip install dist/*.whl",
    "pnpm --filter './packages/*' build",
    "npx eslint -- --fix src",
    "npm exec playwright -- test x.spec.ts",
    "uv python install 3.12",
    "uv build",
    "npm i *.tgz",
    "npm i ./*.tgz",
    "pip install *.whl",
    "npm exec eslint -- --fix .",
    "npx eslint -- --fix .",
    "python3 -m pytest --spec -q",
    "python3 -m pytest -- -k x",
]


def _tree(root: Path) -> dict[str, str]:
    """Every file beneath ``root`` (links as their targets), by path: its content's digest."""
    out: dict[str, str] = {}
    for directory, _, files in os.walk(root):
        for name in files:
            path = Path(directory, name)
            text = os.readlink(path) if path.is_symlink() else path.read_bytes().hex()
            out[str(path.relative_to(root))] = hashlib.sha256(text.encode()).hexdigest()
    return out


_SETTINGS = (".npmrc", ".yarnrc", ".config/pip/pip.conf", ".pip/pip.conf", ".config/go/env")


def _protected(scratch: Path) -> dict[str, object]:
    """What is protected in a scratch copy: its ``.claude`` tree, and its home's settings files
    (not the caches and logs the tools keep there)."""
    home = scratch / "home"
    settings = {name: (home / name).read_text() for name in _SETTINGS if (home / name).exists()}
    return {"claude": _tree(scratch / ".claude"), "home": settings}


def _environment(scratch: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "NPM_CONFIG_", "npm_config_", "XDG_", "VIRTUAL_ENV"))
    }
    env["HOME"] = str(scratch / "home")
    env["CARGO_HOME"] = os.environ.get("CARGO_HOME", str(Path.home() / ".cargo"))
    env["RUSTUP_HOME"] = os.environ.get("RUSTUP_HOME", str(Path.home() / ".rustup"))
    return env  # fmt: skip


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("install-dirs")
    project = root / "proj"
    for directory in (".claude", "data", "home", "pkg"):
        (project / directory).mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / ".claude" / "settings.json").write_text('{"mine": true}\n')
    package = {"name": "pkg", "version": "1.0.0", "bin": {"pkg": "cli.js"}}
    (project / "pkg" / "package.json").write_text(json.dumps(package))
    (project / "pkg" / "cli.js").write_text("#!/usr/bin/env node\n")
    (project / "package.json").write_text('{"name": "root", "version": "1.0.0"}\n')
    for name in ("in", "install", "venv", "config", "env"):  # what a pattern may match
        (project / name).write_text("")
    if shutil.which("npm"):
        subprocess.run(["npm", "pack", "--silent", "--pack-destination", str(project)],
                       cwd=project / "pkg", env=_environment(project), capture_output=True,
                       timeout=60, check=True)  # fmt: skip
    return project


@pytest.fixture(scope="module")
def engine(project: Path) -> Engine:
    env = {"HOME": str(project / "home"), "CLEARANCE_HOME": str(project.parent / "state")}
    return Engine.load(cwd=str(project), policy=json.dumps(POLICY), env=env)


@pytest.mark.parametrize(("attack", "action", "twin"), RUNS, ids=[a for a, _, _ in RUNS])
def test_an_attack_is_stopped_and_its_twin_is_allowed(
    project: Path, engine: Engine, tmp_path: Path, attack: str, action: str, twin: str
) -> None:
    program = attack.split()[0]
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed here")
    assert changes(project, tmp_path, attack, watch=_protected, env=_environment), (
        f"{attack!r} changes nothing protected"
    )
    assert not changes(project, tmp_path, twin, watch=_protected, env=_environment), (
        f"{twin!r} changes something protected"
    )
    found, _, reason = decide(engine, project, attack)
    assert found == action, reason
    found, _, reason = decide(engine, project, twin)
    assert found == "allow", reason


@pytest.mark.parametrize(("line", "action", "sentinel"), DECIDED, ids=[d[0] for d in DECIDED])
def test_a_directory_or_settings_file_it_is_told_is_met(
    project: Path, engine: Engine, line: str, action: str, sentinel: str
) -> None:
    found, deciding, reason = decide(engine, project, line)
    assert (found, deciding) == (action, sentinel), reason


@pytest.mark.parametrize("line", QUIET)
def test_the_ordinary_lines_of_those_programs_follow_the_policy(
    project: Path, engine: Engine, line: str
) -> None:
    found, _, reason = decide(engine, project, line)
    assert found == "allow", reason


@pytest.mark.parametrize(
    ("program", "line"),
    [("npm", "run build"), ("npm", "test"), ("npm", "run lint -- --fix"), ("cargo", "test"),
     ("cargo", "build --release"), ("go", "build ./..."), ("go", "test ./..."), ("pip", "list"),
     ("uv", "run pytest"), ("python3", "-m pytest -q"), ("deno", "task dev")],
)  # fmt: skip
def test_an_everyday_line_does_not_load_the_deriver(program: str, line: str) -> None:
    # The hook imports `derived` only for a line one of whose words says it may write so.
    from clearance.intent.shell.names import DERIVED_BY_WORD
    from clearance.intent.shell.trees import _names_a

    assert not _names_a(DERIVED_BY_WORD[program], line.split())


def test_the_gate_words_are_frozen_sets() -> None:
    from clearance.intent.shell.names import DERIVED_BY_WORD

    assert all(type(words) is frozenset for words in DERIVED_BY_WORD.values())
