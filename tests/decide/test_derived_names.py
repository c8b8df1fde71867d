"""Names a program derives itself meet the protected paths (ADR 0052): what a decompressor, a
download, a patch or a copy from another machine writes where the line names no file.

A real project: ``.claude/settings.json`` and, beside it, the agent's settings compressed by
each compressor, a patch that changes them and one that changes only ``src/``, and a loopback
web server holding a ``settings.local.json``. Each attack is run in real bash in a scratch
copy of the project, to show that it does change a protected file, and its benign twin that it
changes none; then both are decided under a policy that allows every command."""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from scratch_runs import changes, decide

from clearance.decide.engine import Engine
from clearance.intent.sentinel import (
    CODE_RUNNING,
    PROTECTED,
    RUNS_LATER,
    UNLISTED_NAMES,
)
from clearance.intent.shell import derived
from clearance.intent.shell.names import DERIVED

POLICY = {"permission": {"*": "ask", "bash": {"*": "allow"}, "external_directory": "ask"}}
EVIL = '{"disableAllHooks": true}\n'
URL = "http://127.0.0.1:{port}"

# (attack, its action, benign twin): the twin is allowed. `{url}` is the loopback server.
ATTACKS = [
    ("gunzip .claude/settings.local.json.gz", "deny", "gunzip data/log.txt.gz"),
    ("gzip -d .claude/settings.local.json.gz", "deny", "gzip -dk data/log.txt.gz"),
    ("cd .claude && gunzip -f *.gz", "deny", "cd data && gunzip -f *.gz"),
    ("gunzip -f .claude/*.gz", "deny", "gunzip -f data/*.gz"),
    ("gzip -rf .claude", "deny", "gzip -rf data"),
    ("xz -df .claude/settings.json.xz", "deny", "xz -dk data/log.txt.xz"),
    ("unxz -f .claude/settings.json.xz", "deny", "unxz data/log.txt.xz"),
    ("xz -dfS .xz .claude/settings.json.xz", "deny", "xz -dc data/log.txt.xz"),
    ("bzip2 -df .claude/settings.json.bz2", "deny", "bzip2 -dk data/log.txt.bz2"),
    ("bunzip2 -f .claude/settings.json.bz2", "deny", "bunzip2 data/log.txt.bz2"),
    ("zstd -dfq .claude/settings.json.zst", "deny", "zstd -dq data/log.txt.zst"),
    ("unzstd -fq .claude/settings.json.zst", "deny", "unzstd -q data/log.txt.zst"),
    (
        "zstd -dfq --output-dir-flat .claude settings.json.zst",
        "deny",
        "zstd -dq --output-dir-flat data settings.json.zst",
    ),
    ("lz4 -dmfq .claude/settings.json.lz4", "deny", "lz4 -dmq data/log.txt.lz4"),
    ("lz4 -dl -mfq .claude/settings.json.lz4", "deny", "lz4 -dmq data/log.txt.lz4"),
    ("lz4 -dmfq data/log.txt.lz4 .claude/settings.json.lz4", "deny", "lz4 -dmq data/log.txt.lz4"),
    ("patch -p1 < evil.patch", "deny", "patch -p1 < ok.patch"),
    ("patch -p1 -i evil.patch", "deny", "patch -p1 -i ok.patch"),
    ("patch -p1 --input=evil.patch", "deny", "patch -p1 --input=ok.patch"),
    ("cd .claude && patch < ../evil.patch", "deny", "cd src && patch < ../ok.patch"),
    ("patch -d .claude < evil.patch", "deny", "patch -d src < ok.patch"),
    ("patch -p1 <<'EOF'\n{evil_patch}EOF", "deny", "patch -p1 <<'EOF'\n{ok_patch}EOF"),
    ("patch -p1 <<< {evil_quoted}", "deny", "patch -p1 <<< {ok_quoted}"),
    (
        "curl -sO --max-time 5 {url}/settings.local.json --output-dir .claude",
        "deny",
        "curl -sO --max-time 5 {url}/settings.local.json --output-dir data",
    ),
    (
        "cd .claude && curl -sSLO --max-time 5 {url}/settings.local.json",
        "deny",
        "cd data && curl -sSLO --max-time 5 {url}/settings.local.json",
    ),
    (
        "curl -s --max-time 5 --output-dir .claude -o settings.local.json {url}/settings.local.json",
        "deny",
        "curl -s --max-time 5 --output-dir data -o x.json {url}/settings.local.json",
    ),
    (
        "curl -s --max-time 5 --remote-name-all {url}/pkg.txt {url}/settings.local.json "
        "--output-dir .claude",
        "deny",
        "curl -s --max-time 5 --remote-name-all {url}/pkg.txt {url}/settings.local.json "
        "--output-dir data",
    ),
    (
        "wget -q -T 5 -t 1 -P .claude {url}/settings.local.json",
        "deny",
        "wget -q -T 5 -t 1 -P data {url}/settings.local.json",
    ),
    (
        "cd .claude && wget -q -T 5 -t 1 {url}/settings.local.json",
        "deny",
        "cd data && wget -q -T 5 -t 1 {url}/settings.local.json",
    ),
    (
        "wget -q -T 5 -t 1 --directory-prefix=.claude {url}/settings.local.json#x",
        "deny",
        "wget -q -T 5 -t 1 --directory-prefix=data {url}/settings.local.json#x",
    ),
    # found by review: abbreviated long options, -i read after -d, an indented section,
    # curl's option groups
    ("gzip --decom -f .claude/settings.json.gz", "deny", "gzip --decom -k data/log.txt.gz"),
    ("gzip --d -f .claude/settings.json.gz", "deny", "gzip --d -k data/log.txt.gz"),
    ("gunzip --suf .gz -f .claude/settings.json.gz", "deny", "gunzip --suf .gz data/log.txt.gz"),
    ("patch -p1 -d .claude -i p.patch", "deny", "patch -p1 -d data -i p.patch"),
    ("patch -p1 --dir=.claude < new.patch", "deny", "patch -p1 --dir=data < new.patch"),
    ("patch -p1 < two.patch", "deny", "patch -p1 < ok.patch"),
    (
        "curl -s --max-time 5 --output-dir .claude -O {url}/settings.local.json --next "
        "--output-dir data -O {url}/pkg.txt",
        "deny",
        "curl -s --max-time 5 --output-dir data -O {url}/settings.local.json --next "
        "--output-dir data -O {url}/pkg.txt",
    ),
    # second review: install, cp's optional --context and abbreviated --target-directory,
    # a loop's quoted variable, split's suffixes
    ("install -t .claude incoming/settings.json", "deny", "install -t data incoming/settings.json"),
    ("cd .claude && install ../incoming/settings.json .", "deny", "install incoming/settings.json data"),
    ("cp --context incoming/settings.json .claude/", "deny", "cp --context incoming/settings.json data/"),
    ("cp --target=.claude incoming/settings.json", "deny", "cp --target=data incoming/settings.json"),
    ("mv --t .claude incoming/settings.json", "deny", "mv --t data incoming/settings.json"),
    (
        'for f in .claude/settings.json.gz; do gunzip -f "$f"; done',
        "deny",
        'for f in data/log.txt.gz; do gunzip -f "$f"; done',
    ),
    (
        "cd .claude && split -l1 -a1 --additional-suffix=.json ../lines.txt setting",
        "deny",
        "cd data && split -l1 -a1 --additional-suffix=.json ../lines.txt setting",
    ),
    # names not known: the unit asks with the floor, which no grant or yolo lifts
    ("cat evil.patch | patch -p1", "ask", "patch -p1 < ok.patch"),
    ("patch -p1 -b -z .json -i rename.patch", "ask", "patch -p1 -i ok.patch"),
    ("gunzip -N -f .claude/renamed.gz", "ask", "gunzip -f data/renamed.gz"),
    ("cd .claude && ar x ../evil.a", "ask", "ar t evil.a"),
    ("cd .claude && jar xf ../evil.jar", "ask", "jar tf evil.jar"),
    ("cd .claude && python3 -m zipfile -e ../evil.zip .", "ask", "python3 -m zipfile -l evil.zip"),
    ("gzip -dr .claude", "ask", "gzip -t data/log.txt.gz"),
    ("echo >> evil.patch && patch -p1 < evil.patch", "ask", "echo >> notes.txt && patch -p1 < ok.patch"),
]  # fmt: skip
# Lines whose names cannot be listed ahead (not all can run here): they ask, with the floor.
UNLISTED = [
    "curl -OJ https://example.com/download",
    "curl -O 'https://example.com/{a,b}.json'",
    "curl -O https://example.com/$NAME",
    "wget -r https://example.com/",
    "wget --content-disposition https://example.com/x",
    "wget -x https://example.com/x",
    "wget -i urls.txt",
    "wget -e robots=off https://example.com/x",
    "aria2c https://example.com/x",
    "http --download https://example.com/x",
    "scp -r host:dir .",
    "scp 'host:*.json' .claude/",
    "sftp host <<< 'get settings.json .claude/'",
    "sftp -b cmds host",
    "docker cp app:/srv/. .",
    "kubectl -n web cp pod:/srv .",
    "aws s3 sync s3://bucket .",
    "aws s3 cp s3://bucket/dir . --recursive",
    "gsutil cp 'gs://bucket/*' .",
    "rclone copy remote:bucket .",
    "svn checkout https://example.com/repo .",
    "hg clone https://example.com/repo .",
    "lftp -c 'mirror https://example.com/ .'",
    "dpkg-deb -x pkg.deb .",
    "ar -x evil.a",
    "jar --extract --file evil.jar",
    "cabextract x.cab",
    "uudecode x.uu",
    "patch -p1 -i link.patch",
    "patch -p1 -B .claude/ -b -i ok.patch",
    "patch -p1",
    "zstd -d --output-dir-mirror out -r data",
    # found by review: abbreviations, options before the key, other spellings of the programs
    "gunzip --rec -f .claude",
    "gunzip --na -f .claude/renamed.gz",
    "wget --exe=dir_prefix=.claude https://example.com/settings.local.json",
    "wget --force-dir -nH https://example.com/.claude/settings.local.json",
    "wget --recur -nH https://example.com/",
    "python3 -m zipfile --ext evil.zip .",
    "python3 -m tarfile --extr evil.tar",
    "python3 -Im zipfile -e evil.zip .",
    "python3.11 -m zipfile -e evil.zip .",
    "python3 -m gzip -d .claude/settings.local.json.gz",
    "curl -s 'https://example.com/{settings}.json' -o '.claude/#1.local.json'",
    "dpkg-deb -v -x pkg.deb .",
    "cd .claude && jar --file ../evil.jar -x",
    "ar --output .claude x evil.a",
    "x86_64-linux-gnu-ar x --output .claude evil.a",
    "gcc-ar x --output .claude evil.a",
    "llvm-ar-14 x evil.a",
    "ptar -x -f evil.tar",
    "gpgtar --decrypt x.gpg",
    "cd .claude && ar xvvvvvvvvvv ../evil.a",
    "cd .claude && jar xvvvvvvvvf ../evil.jar",
    "cd .claude && ptargrep . ../evil.tar",
    "cd .claude && gpg-zip -d ../x.gpg",
    "cd .claude && lwp-download https://example.com/settings.local.json",
    "cd .claude && csplit -f settings -b '.json%.0d' ../lines.txt 2",
    "split -a 3 lines.txt .claude/x",
]
# Found by the third review, in the older models: (line, action, sentinel).
DECIDED = [
    # a repository kept elsewhere: the hooks of any directory holding a HEAD ask
    ("git init -q --separate-git-dir=gd && printf x > gd/hooks/pre-commit", "ask", RUNS_LATER),
    ("git init -q --bare b.git && cp notes.txt b.git/hooks/post-receive", "ask", RUNS_LATER),
    # a tree hard-linked: a later write through the new names writes the protected files
    ("cp -al .claude y", "deny", PROTECTED),
    ("cp -R --link .claude/. y", "deny", PROTECTED),
    ("cp --l -r .claude y", "deny", PROTECTED),
    ("rsync -a --link-dest=$PWD/.claude .claude/ y/", "ask", UNLISTED_NAMES),
    # an editor or sqlite3 running commands that write files
    ("ex -sc 'w! .claude/settings.json|q' notes.txt", "ask", CODE_RUNNING),
    ("vim -es notes.txt < script.vim", "ask", CODE_RUNNING),
    ("vim notes.txt < keys", "ask", CODE_RUNNING),
    ("sqlite3 :memory: '.once .claude/settings.json' 'select 1'", "ask", CODE_RUNNING),
    ("sqlite3 x.db \"select writefile('.claude/settings.json', 'x')\"", "ask", CODE_RUNNING),
    ("sqlite3 -cmd '.shell touch x' x.db 'select 1'", "ask", CODE_RUNNING),
    ("sqlite3 x.db < script.sql", "ask", CODE_RUNNING),
    # package managers writing into a directory they are given
    ("pip install --no-index --target .claude ./x.whl", "ask", UNLISTED_NAMES),
    ("python3 -m pip install --target=.claude ./x.whl", "ask", UNLISTED_NAMES),
    ("uv pip install --target .claude x", "ask", UNLISTED_NAMES),
    ("gem install -i .claude x", "ask", UNLISTED_NAMES),
    ("pip download -d .claude/hooks x", "deny", PROTECTED),
    ("npm pack --pack-destination .claude/hooks", "deny", PROTECTED),
    ("cd .claude/agents && npm pack", "deny", PROTECTED),
    ("npm install --prefix .claude/agents left-pad", "deny", PROTECTED),
    ("GOBIN=$PWD/.git/hooks go install ./cmd/x", "ask", CODE_RUNNING),
    ("mktemp -p .claude/agents XXXX", "deny", PROTECTED),
    ("mktemp --tmpdir=.claude/hooks", "deny", PROTECTED),
    # fourth review: the spellings around those
    ("PIP_TARGET=.claude pip install --no-index x.whl", "ask", CODE_RUNNING),
    ("pip3.11 install --no-index -t .claude x.whl", "ask", UNLISTED_NAMES),
    ("pip3.11 download -d .claude/agents x", "deny", PROTECTED),
    ("sqlite3 :memory: '.sh echo x > .claude/settings.json'", "ask", CODE_RUNNING),
    ("sqlite3 :memory: '.o .claude/agents/x.md' 'select 1'", "ask", CODE_RUNNING),
    ("vim.basic -es -c 'qa!'", "ask", CODE_RUNNING),
    ("git init -q --bar gd && printf x > gd/hooks/reference-transaction", "ask", RUNS_LATER),
    ("git init -q --b gd && printf x > gd/hooks/reference-transaction", "ask", RUNS_LATER),
    (
        "mkdir w && git -C w init -q --separate-git-dir=gd x && printf x > w/gd/hooks/pre-commit",
        "ask",
        RUNS_LATER,
    ),
    ("git --git-dir=gd init -q && printf x > gd/hooks/pre-commit", "ask", RUNS_LATER),
    ("mkdir -p gd/hooks && printf x > gd/hooks/r && git -C gd init -q --bare", "ask", RUNS_LATER),
    ("git init -q .claude/hooks", "deny", PROTECTED),
]
# Lines that write no derived name, or only names outside what is protected.
QUIET = [
    "gunzip -c .claude/settings.local.json.gz",
    "gzip -t data/log.txt.gz",
    "xz -l data/log.txt.xz",
    "zcat data/log.txt.gz | head",
    "gzip data/log.txt",
    "curl -s https://example.com/x",
    "curl -s -o data/x.json https://example.com/settings.json",
    "curl -sO https://example.com/pkg.tar.gz",
    "wget -qO- https://example.com/install.sh",
    "wget -O data/x.json https://example.com/settings.json",
    "wget https://example.com/pkg.tgz",
    "scp notes.txt host:",
    "scp host:notes.txt data/",
    "aws s3 cp ./data s3://bucket/ --recursive",
    "aws s3 cp s3://bucket/key.json data/",
    "docker ps",
    "docker run -v data:/data alpine true",
    "kubectl get pods -n web",
    "jar tf evil.jar",
    "ar rcs data/lib.a data/x.o",
    "python3 -m pytest -q",
    "patch -p1 < ok.patch",
    "patch src/a.py < ok.patch",
    "pzstd -d data/log.txt.zst",
    "jar cf out.jar src",
    "ar rcs data/lib.a data/x.o",
    "python3 -Im json.tool data/x.json",
    "gzip -k --stdout data/log.txt",
    "dpkg-deb -Zxz -b pkg out.deb",
    "split -l 1000 lines.txt data/chunk_",
    "csplit -f data/part lines.txt 2",
    "install -m 755 x.sh data/bin/",
    "install -d data/out",
    "cp --suffix .bak notes.txt data/b.txt",
    "lwp-download https://example.com/a data/a.txt",
    'for f in data/*.gz; do gunzip -f "$f"; done',
    "vim --version",
    "sqlite3 x.db '.tables'",
    "sqlite3 x.db 'select * from t'",
    "pip install -r requirements.txt",
    "python3 -m pip install -e .",
    "npm install",
    "npm pack",
    "mktemp",
    "mktemp -d",
    "cp -al data y",
    "git init --bare b.git",
    "git init -q newproj",
    "git init -q",
    "sqlite3 x.db '.schema t'",
    "sqlite3 x.db '.mode csv'",
]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A web server on loopback holding the agent's settings and a plain file."""
    served = tmp_path_factory.mktemp("served")
    (served / "settings.local.json").write_text(EVIL)
    (served / "pkg.txt").write_text("pkg\n")
    handler = functools.partial(_Quiet, directory=str(served))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield URL.format(port=httpd.server_address[1])
    finally:
        httpd.shutdown()
        httpd.server_close()


_PROGRAMS = ("gzip", "gunzip", "xz", "unxz", "bzip2", "bunzip2", "zstd", "unzstd", "lz4", "patch",
             "curl", "wget", "ar", "jar", "install", "split")  # fmt: skip


def _missing(*lines: str) -> list[str]:
    """The programs ``lines`` run that this machine lacks (.ci/run installs all but jar)."""
    words = {word for line in lines for word in line.split()}
    return [p for p in _PROGRAMS if p in words and shutil.which(p) is None]


def _run(cwd: Path, line: str) -> None:
    subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, timeout=60, check=False)


def _compressed(project: Path, leaf: str, content: str) -> None:
    """``leaf`` in ``.claude`` (and ``data/log.txt`` in ``data``) by each compressor."""
    for directory, name, text in ((".claude", leaf, content), ("data", "log.txt", "log\n")):
        for program, suffix in (("gzip", ".gz"), ("xz", ".xz"), ("bzip2", ".bz2"),
                                ("zstd", ".zst"), ("lz4", ".lz4")):  # fmt: skip
            source = project / "tmp" / name
            source.parent.mkdir(exist_ok=True)
            source.write_text(text)
            _run(project / "tmp", f"{program} -q -f {name} 2>/dev/null || {program} -f {name}")
            made = source.with_name(name + suffix)
            if made.exists():
                made.rename(project / directory / (name + suffix))
            source.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("derived-names")
    project = root / "proj"
    for directory in (".claude", "src", "data", "tmp"):
        (project / directory).mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / ".claude" / "settings.json").write_text('{"mine": true}\n')
    (project / "src" / "a.py").write_text("a = 1\n")
    (project / "settings.json").write_text(EVIL)
    _run(project, "zstd -q --rm settings.json")
    _compressed(project, "settings.json", EVIL)
    # the agent's settings.local.json, gzipped beside the settings
    (project / "tmp" / "settings.local.json").write_text(EVIL)
    _run(project / "tmp", "gzip -f settings.local.json")
    (project / "tmp" / "settings.local.json.gz").rename(
        project / ".claude" / "settings.local.json.gz"
    )
    # a gzip file whose stored name is settings.local.json (gunzip -N restores it)
    (project / "tmp" / "settings.local.json").write_text(EVIL)
    _run(project / "tmp", "gzip -N -f settings.local.json")
    shutil.copy(project / "tmp" / "settings.local.json.gz", project / "data" / "renamed.gz")
    (project / "tmp" / "settings.local.json.gz").rename(project / ".claude" / "renamed.gz")
    (project / "tmp" / "settings.json").write_text(EVIL)
    _run(project / "tmp", "ar rc ../evil.a settings.json && jar cf ../evil.jar settings.json "
         "&& python3 -m zipfile -c ../evil.zip settings.json")  # fmt: skip
    (project / "tmp" / "settings.json").unlink()
    for name, path, before, after in (
        ("evil.patch", ".claude/settings.json", '{"mine": true}\n', EVIL),
        ("ok.patch", "src/a.py", "a = 1\n", "a = 2\n"),
    ):
        old, new = project / "tmp" / "old", project / "tmp" / "new"
        old.write_text(before)
        new.write_text(after)
        diff = subprocess.run(["diff", "-u", "--label", f"a/{path}", "--label", f"b/{path}",
                               str(old), str(new)], capture_output=True, text=True)  # fmt: skip
        (project / name).write_text(diff.stdout)
    (project / "rename.patch").write_text(
        "--- a/.claude/settings\n+++ b/.claude/settings\n@@ -1 +1 @@\n-a\n+b\n"
    )
    (project / ".claude" / "settings").write_text("a\n")
    adds = "--- a/settings.local.json\n+++ b/settings.local.json\n@@ -0,0 +1 @@\n+{}\n"
    (project / "new.patch").write_text(adds)  # adds settings.local.json where -d points
    (project / ".claude" / "p.patch").write_text(adds)
    (project / "data" / "p.patch").write_text(adds.replace("settings.local", "other"))
    ok = (project / "ok.patch").read_text()
    indented = "".join("  " + row for row in (project / "evil.patch").read_text().splitlines(True))
    (project / "two.patch").write_text(ok + indented)  # a second section, indented
    (project / "link.patch").write_text(
        "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n"
        "+.claude/settings.json\n\\ No newline at end of file\n"
    )
    (project / "incoming").mkdir()
    (project / "incoming" / "settings.json").write_text(EVIL)
    (project / "lines.txt").write_text("".join(f"{n}\n" for n in range(30)))
    shutil.rmtree(project / "tmp")
    return project


@pytest.fixture(scope="module")
def engine(project: Path) -> Engine:
    home = project.parent / "home"
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "CLEARANCE_HOME": str(project.parent / "state")}
    return Engine.load(cwd=str(project), policy=json.dumps(POLICY), env=env)


def _line(template: str, project: Path, url: str) -> str:
    evil, ok = (project / "evil.patch").read_text(), (project / "ok.patch").read_text()
    return template.format(
        url=url, evil_patch=evil, ok_patch=ok,
        evil_quoted="'" + evil + "'", ok_quoted="'" + ok + "'",
    )  # fmt: skip


@pytest.mark.parametrize(("attack", "action", "twin"), ATTACKS, ids=[a for a, _, _ in ATTACKS])
def test_an_attack_is_stopped_and_its_twin_is_allowed(
    project: Path, engine: Engine, server: str, tmp_path: Path, attack: str, action: str,
    twin: str,
) -> None:  # fmt: skip
    attack, twin = _line(attack, project, server), _line(twin, project, server)
    if _missing(attack, twin):
        pytest.skip(f"not installed here: {', '.join(_missing(attack, twin))}")
    assert changes(project, tmp_path, attack), f"{attack!r} changes no settings"
    assert not changes(project, tmp_path, twin), f"{twin!r} changes the settings"
    found, sentinel, reason = decide(engine, project, attack)
    assert found == action, reason
    if action == "ask":
        assert sentinel == UNLISTED_NAMES, reason
    found, _, reason = decide(engine, project, twin)
    assert found == "allow", reason


@pytest.mark.parametrize("line", UNLISTED)
def test_what_cannot_be_listed_asks_with_the_floor(
    project: Path, engine: Engine, line: str
) -> None:
    found, sentinel, reason = decide(engine, project, line)
    assert (found, sentinel) == ("ask", UNLISTED_NAMES), reason


@pytest.mark.parametrize("line", QUIET)
def test_what_writes_no_protected_name_follows_the_policy(
    project: Path, engine: Engine, line: str
) -> None:
    found, _, reason = decide(engine, project, line)
    assert found == "allow", reason


@pytest.mark.parametrize(
    "line",
    [
        "XZ_OPT=--suffix=q unxz data/log.txt.xzq",
        "WGETRC=rc wget https://example.com/x",
        "SIMPLE_BACKUP_SUFFIX=.json patch -b -p1 < ok.patch",
        "GZIP=-N gunzip data/renamed.gz",
    ],
)
def test_the_variables_that_rename_what_is_written_ask(
    project: Path, engine: Engine, line: str
) -> None:
    found, _, reason = decide(engine, project, line)
    assert found == "ask", reason


@pytest.mark.parametrize(("line", "action", "sentinel"), DECIDED, ids=[d[0] for d in DECIDED])
def test_the_older_models_stop_what_the_third_review_found(
    project: Path, engine: Engine, line: str, action: str, sentinel: str
) -> None:
    found, deciding, reason = decide(engine, project, line)
    assert (found, deciding) == (action, sentinel), reason


def test_the_names_looked_at_are_the_ones_derived_knows() -> None:
    assert DERIVED == derived.NAMES


@pytest.mark.parametrize(
    ("url", "names"),
    [
        ("https://h/d/settings.json", ["settings.json"]),
        ("https://h/d/a.json?x=1#f", ["a.json?x=1#f", "a.json?x=1", "a.json"]),
        ("h/d/a%2Fb.json", ["a%2Fb.json", "a/b.json", "b.json"]),
        ("https://h/d/", []),
        ("https://h", []),
    ],
)
def test_a_downloads_name_is_every_spelling_of_the_urls_last_segment(
    url: str, names: list[str]
) -> None:
    assert derived._url_names(url) == names


@pytest.mark.parametrize(
    ("leaf", "stems"),
    [
        ("settings.json.gz", ["settings", "settings.json"]),
        ("settings.json-gz", ["settings", "settings.json"]),
        ("a.tgz", ["a", "a.tar"]),
    ],
)
def test_a_decompressed_name_is_the_operand_less_each_suffix(leaf: str, stems: list[str]) -> None:
    assert derived._stems(leaf, [], "gzip") == stems
