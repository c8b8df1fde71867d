"""The knowledge base of programs that run programs (``intent/shell/hazards/``), entry by
entry: each has an attack line (the top unit floors with ``<code-running-option>``, and a literal
inner command is a unit of its own) and a benign twin that does not floor. Never run these."""

from __future__ import annotations

import pytest

from clearance.intent.sentinel import CODE_RUNNING, REEVALUATED
from clearance.intent.shell import analyze
from clearance.intent.shell.hazards import PROGRAMS, SOURCES, VARIABLES

# (entry, benign twin, attack, literal inner command or None)
# fmt: off
ENTRIES: list[tuple[str, str, str, str | None]] = [
    ("git -c core.pager", "git -c user.name=x commit -m y", "git -c core.pager=less log", "less"),
    ("git -c core.sshCommand", "git -c color.ui=never fetch", "git -c core.sshCommand='ssh -v' fetch", "ssh -v"),
    ("git -c core.fsmonitor", "git status", "git -c core.fsmonitor='sh x' status", "sh x"),
    ("git -c core.editor", "git commit -m x", "git -c core.editor=vim commit", "vim"),
    ("git -c core.hooksPath", "git commit -m x", "git -c core.hooksPath=h commit -m x", None),
    ("git -c alias.*", "git st", "git -c alias.st='!rm x' st", "rm x"),
    ("git -c diff.external", "git diff", "git -c diff.external=./d diff", "./d"),
    ("git -c *.textconv", "git log -p", "git -c diff.x.textconv=./t log -p", "./t"),
    ("git -c filter.*", "git add .", "git -c filter.f.clean=./c add .", "./c"),
    ("git -c credential.helper", "git push", "git -c credential.helper='!./h' push", "./h"),
    ("git -c sequence.editor", "git rebase -i HEAD~2", "git -c sequence.editor=./e rebase -i HEAD~2", "./e"),
    ("git -c unknown key", "git -c user.email=a@b log", "git -c foo.bar=1 log", None),
    ("git -c blame.ignoreRevsFile", "git -c blame.date=short blame f", "git -c blame.ignoreRevsFile=.env blame f", None),
    ("git -c help.autocorrect", "git -c color.ui=never log", "git -c help.autocorrect=1 pussh", None),
    ("git --config-env", "git log", "git --config-env=core.pager=P log", None),
    ("git --exec-path", "git --exec-path", "git --exec-path=/tmp status", None),
    ("git difftool -x", "git difftool HEAD", "git difftool -x 'rm x' HEAD", "rm x"),
    ("git difftool --extcmd", "git difftool --tool=vimdiff", "git difftool --extcmd=./x", "./x"),
    ("git --ext-diff", "git diff --no-ext-diff", "git diff --ext-diff", None),
    ("git grep --op (an abbreviation)", "git grep --or -e x", "git grep --op='rm x' y", "rm x"),
    ("git rebase --exec", "git rebase main", "git rebase --exec 'make' main", "make"),
    ("git config code key", "git config user.name x", "git config core.pager less", None),
    ("rg --pre", "rg --pre-glob '*.gz' x", "rg --pre ./p x", "./p"),
    ("strings @file", "strings -a f", 'strings @"$f"', None),
    ("jq import", "jq -r .import f", "jq -n 'import \"../x\" as $c; $c'", None),
    ("jq include", "jq '{\"include\": 1}' f", "jq -n 'include \"x\"; f'", None),
    ("rg --hostname-bin", "rg --hidden x", "rg --hostname-bin=./h --hyperlink-format=default x", "./h"),
    ("sed e", "sed -n 1,5p f", "sed '1e id' f", "id"),
    ("sed s///e", "sed 's/x/y/g' f", "sed 's/x/y/e' f", None),
    ("sed -f", "sed -e 's/a/b/' f", "sed -f s.sed f", None),
    ("sed --line-length N", "sed -n --line-length=5 l f", "sed -n --line-length 5 '1e rm x' f", "rm x"),
    ("sed --e (an abbreviation)", "sed -n --quiet p f", "sed -n --e='1e rm x' f", "rm x"),
    ("awk system()", "awk '{print $1}' f", "awk 'BEGIN{system(\"rm x\")}'", "rm x"),
    ("awk | getline", "awk '/a|b/' f", "awk 'BEGIN{\"date\" | getline d}'", "date"),
    ("awk print |", "awk '$1 > 3' f", "awk '{print | \"sort\"}' f", "sort"),
    ("gawk @", "gawk '{print}' f", "gawk '@load \"x\"'", None),
    ("mawk system()", "mawk '{print}' f", "mawk 'BEGIN{system(\"id\")}'", "id"),
    ("nawk -f", "nawk -F: '{print $1}' f", "nawk -f p.awk f", None),
    ("tar --checkpoint-action", "tar -xzf a.tgz", "tar cf x y --checkpoint-action=exec='rm x'", "rm x"),
    ("tar -I", "tar -xJf a.txz", "tar -I ./z -cf x y", "./z"),
    ("tar --to-command", "tar -tf a.tar", "tar -xf a.tar --to-command='rm x'", "rm x"),
    ("tar --info-script", "tar -cf a.tar src", "tar -cf a.tar -M --info-script=./i src", "./i"),
    ("tar --rsh-command", "tar -cf a.tar src", "tar -cf h:a --rsh-command=./r src", "./r"),
    ("zip -TT", "zip -r o.zip src", "zip o.zip f -T -TT './u'", "./u"),
    ("rsync -e", "rsync -a a/ b/", "rsync -e 'ssh -p 2' a h:b", "ssh -p 2"),
    ("rsync --rsync-path", "rsync -av a b", "rsync --rsync-path='sudo rsync' a h:b", "sudo rsync"),
    ("split --filter", "split -l 5 f", "split --filter='gzip > $FILE.gz' f", None),
    ("man -P", "man ls", "man -P cat ls", "cat"),
    ("man -H", "man -k ls", "man -H ls", None),
    ("vim -c", "vim --version", "vim -c ':!id' f", None),
    ("vi +", "vi --help", "vi '+!id' f", None),
    ("nvim --cmd", "nvim --version", "nvim --cmd 'q' f", None),
    ("ssh ProxyCommand", "ssh -o ConnectTimeout=5 h", "ssh -o ProxyCommand='nc x 22' h", "nc x 22"),
    ("ssh LocalCommand", "ssh -p 22 h", "ssh -o LocalCommand=id -o PermitLocalCommand=yes h", "id"),
    ("ssh -F", "ssh h uptime", "ssh -F ./c h", None),
    ("make --eval", "make test", "make --eval 'x:;id' x", None),
    ("make -f", "make -j4", "make -f other.mk", None),
    ("find -fprint", "find . -fprint out", "find . -fprint \"$F\"", None),
    ("find -delete", "find . -type f", "find . -delete", None),
    ("env -S", "env FOO=1 true", "env -S 'rm x'", "rm x"),
    ("setarch", "uname -m", "setarch x86_64 make", "make"),
    ("linux64", "uname -r", "linux64 make", "make"),
    ("newgrp", "id -g", "newgrp staff", None),
    ("bash /dev/stdin", "bash script.sh", "bash /dev/stdin", None),
    ("bash /dev/fd/N", "bash -x script.sh", "bash /dev/fd/3", None),
    ("bash <(…)", "bash ./run.sh", "bash <(cat x)", None),
    ("curl -K", "curl -s https://x", "curl -K conf https://x", None),
    ("sort --co (an abbreviation)", "sort --check f", "sort --co='rm x' f", "rm x"),
    ("sed s///e behind [/]", "sed -n 's/[^/]*$//p' f", "sed -n 's/[/]/;/e;/a/p' f", None),
    ("awk system() behind [/]", "awk '/[/]/ {print}' f", "awk '/[/]=/ {system(\"rm x\")} /x/' f", "rm x"),
    ("tar --use (an abbreviation)", "tar --checkpoint=10 -cf a.tar src", "tar --use=./z -cf a src", "./z"),
    # package managers and backup and database clients, whose options run a command
    ("apt-get -o Pre-Invoke", "apt-get -o Dpkg::Options::=--force-confdef install -y x", "apt-get -o 'APT::Update::Pre-Invoke::=rm x' update", "rm x"),
    ("apt -o Dir::Bin::dpkg", "apt -o APT::Get::Assume-Yes=true install x", "apt -o Dir::Bin::dpkg=./d install x", None),
    ("apt-get -c", "apt-get install -y x", "apt-get -c ./apt.conf update", None),
    ("apt-cache -o", "apt-cache policy x", "apt-cache -o Dir::Bin::gzip=./g show x", None),
    ("dpkg --pre-invoke", "dpkg -l", "dpkg --pre-invoke='rm x' -i a.deb", "rm x"),
    ("dpkg --status-logger", "dpkg -S /bin/ls", "dpkg --status-logger=./l -i a.deb", "./l"),
    ("install --strip-program", "install -m 644 a b", "install -s --strip-program=./s a b", "./s"),
    ("restic --password-command", "restic snapshots", "restic --password-command='rm x' snapshots", "rm x"),
    ("restic -o sftp.command", "restic -o s3.connections=2 snapshots", "restic -o sftp.command='ssh x' snapshots", "ssh x"),
    ("rclone --password-command", "rclone ls r:", "rclone --password-command './p' ls r:", "./p"),
    ("rclone --sftp-ssh", "rclone --sftp-user u ls r:", "rclone --sftp-ssh 'ssh h' ls r:", "ssh h"),
    ("borg --rsh", "borg list r", "borg --rsh 'ssh -i k' list r", "ssh -i k"),
    ("psql \\!", "psql -c 'select * from programs'", "psql -c '\\! rm x'", None),
    ("psql COPY FROM PROGRAM", "psql -c 'copy t from stdin'", "psql -c \"COPY t FROM PROGRAM 'id'\"", None),
    ("psql -o |cmd", "psql -o out.txt -c 'select 1'", "psql -o '|rm x' -c 'select 1'", "rm x"),
    ("mysql system", "mysql -uroot -e 'select system_user()'", "mysql -uroot -e 'system rm x'", None),
    ("mysql --pager", "mysql -e 'show tables'", "mysql --pager='rm x' -e 'show tables'", "rm x"),
    ("mariadb \\!", "mariadb -e 'select 1'", "mariadb -e '\\! rm x'", None),
    ("psql TO PROGRAM'…' (no blank)", "psql -c 'select 1'", "psql -c \"COPY (select 1) TO PROGRAM'id'\"", None),
    ("psql FROM/**/PROGRAM", "psql -c 'select * from programs'", "psql -c \"COPY t FROM/**/PROGRAM 'id'\"", None),
    ("mysql system on a later line", "mysql -e 'select 1'", "mysql -e $'select 1\\nsystem id'", None),
    ("mysql --plugin-dir", "mysql -e 'show tables'", "mysql --plugin-dir=. --default-auth=x -e 'select 1'", None),
    ("restic --from-password-command", "restic copy --from-repo r2", "restic copy --from-password-command ./p", "./p"),
    ("restic -O SFTP.COMMAND (any case)", "restic snapshots", "restic -o SFTP.COMMAND='ssh x' snapshots", "ssh x"),
    ("rclone --webdav-bearer-token-command", "rclone ls r:", "rclone ls r: --webdav-bearer-token-command ./t", "./t"),
    ("borg with-lock", "borg list r", "borg with-lock r rm x", None),
    ("borg --content-from-command", "borg create r::a src", "borg create --content-from-command r::a -- ./c", None),
]
# fmt: on

VARIABLE_LINES: list[tuple[str, str, str | None]] = [
    ("LD_PRELOAD=/x ls", "ls", None),
    ("LD_LIBRARY_PATH=/x ls", "ls", None),
    ("LD_AUDIT=/x ls", "ls", None),
    ("BASH_ENV=/x make", "make", None),
    ("ENV=/x make", "make", None),
    ("PAGER='rm x' git -p log", "git -p log", "rm x"),
    ("MANPAGER=cat man ls", "man ls", "cat"),
    ("EDITOR=vim git commit", "git commit", "vim"),
    ("VISUAL=vim git commit", "git commit", "vim"),
    ("NODE_OPTIONS='--require ./x' node a.js", "node a.js", None),
    ("PYTHONSTARTUP=x python", "python", None),
    ("PYTHONPATH=x python a.py", "python a.py", None),
    ("PERL5OPT=-Mx perl a.pl", "perl a.pl", None),
    ("PERL5LIB=x perl a.pl", "perl a.pl", None),
    ("RUBYOPT=-rx ruby a.rb", "ruby a.rb", None),
    ("PROMPT_COMMAND=id bash -i", "bash -i", "id"),
    ("PS4='$(id)' bash -x s.sh", "bash -x s.sh", None),
    ("GIT_EXTERNAL_DIFF=./d git diff", "git diff", "./d"),
    ("GIT_SSH_COMMAND='ssh -v' git fetch", "git fetch", "ssh -v"),
    ("GIT_SSH=./s git fetch", "git fetch", "./s"),
    ("GIT_PAGER=cat git log", "git log", "cat"),
    ("GIT_EDITOR=vim git commit", "git commit", "vim"),
    ("GIT_CONFIG_GLOBAL=./c git log", "git log", None),
    ("GIT_CONFIG_PARAMETERS=x git log", "git log", None),
    (
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=id git log",
        "git log",
        None,
    ),
    ("LESSOPEN='|./p %s' less f", "less f", "./p %s"),
    ("APT_CONFIG=./c apt-get update", "apt-get update", None),
    ("RESTIC_PASSWORD_COMMAND='rm x' restic snapshots", "restic snapshots", "rm x"),
    ("RCLONE_PASSWORD_COMMAND=./p rclone ls r:", "rclone ls r:", "./p"),
    ("BORG_RSH='ssh -i k' borg list r", "borg list r", "ssh -i k"),
    ("BORG_PASSCOMMAND='cat p' borg list r", "borg list r", None),
    ("RCLONE_SFTP_SSH='ssh h' rclone ls r:", "rclone ls r:", "ssh h"),
    ("RESTIC_FROM_PASSWORD_COMMAND=./p restic copy", "restic copy", "./p"),
    ("PSQL_PAGER=./p psql -c 'select 1'", "psql -c 'select 1'", "./p"),
    ("RIPGREP_CONFIG_PATH=./c rg x", "rg x", None),
    ("GREP_OPTIONS=-r grep x .", "grep x .", None),
    ("OPENSSL_CONF=./c sha256sum f", "sha256sum f", None),
    ("GCONV_PATH=. git log", "git log", None),
    # git reads GIT_TEST_FSMONITOR as the fsmonitor hook, a shell command
    ("GIT_TEST_FSMONITOR='touch x' git status", "git status", None),
    ("GIT_NAMESPACE=x git log", "git log", None),
    # the toolchains whose version the built-in policy lets print
    ("JAVA_TOOL_OPTIONS=-agentlib:jdwp=transport=dt_socket java --version", "java --version", None),
    ("JDK_JAVA_OPTIONS=-Xlog:os:file=/tmp/x java --version", "java --version", None),
    ("_JAVA_OPTIONS=-javaagent:a.jar java --version", "java --version", None),
    ("GNUMAKEFLAGS='--eval=$(shell id)' make --version", "make --version", None),
    ("PYENV_HOOK_PATH=hooks python --version", "python --version", None),
    ("RUSTUP_TOOLCHAIN=./tc cargo --version", "cargo --version", None),
    ("NODE_V8_COVERAGE=/tmp/x npm --version", "npm --version", None),
    ("COREPACK_NPM_REGISTRY=http://x yarn --version", "yarn --version", None),
    ("Npm_Config_Script_Shell=./x npm test", "npm test", None),
    ("GOFLAGS=-toolexec=./x go build", "go build", None),
]

EARLIER: list[str] = [
    "export PAGER='sh -c id'; git -p log",
    "PAGER=x; export PAGER; git -p log",
    "declare -x LD_PRELOAD=/x; ls",
    "export LESSOPEN='|x %s' && less f",
]


def _units(line: str) -> list[tuple[str, tuple[str, str] | None, str]]:
    found = analyze(line, cwd="/work/proj", home="/home/me")
    return [(u.text, u.floor, u.context) for u in found.units]


@pytest.mark.parametrize(
    ("entry", "benign", "attack", "inner"), ENTRIES, ids=[e[0] for e in ENTRIES]
)
def test_an_entry_floors_its_attack_and_not_its_twin(
    entry: str, benign: str, attack: str, inner: str | None
) -> None:
    units = _units(attack)
    assert units[0][1] is not None and units[0][1][0] == CODE_RUNNING, (entry, units)
    if inner is not None:
        assert (inner, "opaque_payload") in [(t, c) for t, _, c in units], (entry, units)
    twin = _units(benign)
    assert twin[0][1] is None, (entry, twin)


@pytest.mark.parametrize(
    ("line", "twin", "inner"), VARIABLE_LINES, ids=[v[0][:40] for v in VARIABLE_LINES]
)
def test_a_code_running_variable_floors_the_unit_it_is_assigned_to(
    line: str, twin: str, inner: str | None
) -> None:
    units = _units(line)
    # PS4 is read by the re-evaluation rules (its own sentinel); the rest are code-running.
    assert units[0][1] is not None and units[0][1][0] in (CODE_RUNNING, REEVALUATED), units
    if inner is not None:
        assert (inner, "opaque_payload") in [(t, c) for t, _, c in units], units
    assert _units(twin)[0][1] is None
    assert _units("LANG=C " + twin)[0][1] is None


@pytest.mark.parametrize("line", EARLIER)
def test_a_variable_exported_earlier_in_the_line_floors_what_follows(line: str) -> None:
    units = [u for u in _units(line) if u[2] == ""]
    assert units[-1][1] is not None and units[-1][1][0] == CODE_RUNNING, units


def test_git_global_options_fold_into_the_canonical_form() -> None:
    for line in ("git -C repo push --force", "git --no-pager -c x.y=z push --force",
                 "git --git-dir=.git --work-tree . push --force", "git -P --bare push --force"):  # fmt: skip
        unit = analyze(line, cwd="/work/proj", home="/home/me").units[0]
        assert unit.canonical == "git push --force", line
        assert line in (unit.text, *unit.spellings)


def test_git_paths_and_writes_become_tokens() -> None:
    found = analyze("git -C /srv/repo diff --output=out.txt", cwd="/work/proj", home="/h")
    assert [(p.path, p.effect) for p in found.paths][:2] == [
        ("/work/proj/out.txt", "write"),
        ("/srv/repo", "unproven"),
    ]


def test_literal_writes_of_sed_awk_find_are_write_tokens() -> None:
    for line, path in (("sed 'w out' f", "/w/out"), ("awk '{print > \"out\"}' f", "/w/out"),
                       ("find . -fprint out", "/w/out")):  # fmt: skip
        found = analyze(line, cwd="/w", home="/h")
        assert (path, "write") in [(p.path, p.effect) for p in found.paths], line


def test_the_wrappers_stay_wrappers() -> None:
    for line in ("timeout 5 make", "nice make", "xargs make", "find . -exec make \\;"):
        assert analyze(line, cwd="/w", home="/h").units[0].wrapper == "indirection", line


def test_every_entry_and_variable_cites_its_source() -> None:
    assert all(VARIABLES.values())
    cited = {name for name in SOURCES}
    for name in PROGRAMS:
        family = {"gsed": "sed", "gawk": "awk", "mawk": "awk", "nawk": "awk"}.get(name, name)
        assert family in cited or PROGRAMS[name] is PROGRAMS.get(family) or name in (
            "busybox-awk", "gtar", "bsdtar", "vi", "nvim", "view", "vimdiff", "rvim", "ex",
            "scp", "sftp", "gmake", "linux32", "linux64", "i386", "x86_64", "sh", "dash",
            "zsh", "ksh", "rbash", "mksh", "ksh93", "yash", "posh",
        ), name  # fmt: skip


def test_the_names_the_assembly_checks_are_exactly_the_knowledge_base_programs() -> None:
    from clearance.intent.shell.names import KNOWLEDGE

    assert frozenset(PROGRAMS) == KNOWLEDGE


def test_a_line_naming_no_known_program_imports_neither_the_knowledge_base_nor_reeval() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from clearance.intent.shell import analyze\n"
        "analyze('ls -la src && cat README.md', cwd='/w', home='/h')\n"
        "print(sorted(m for m in sys.modules if m.endswith(('.hazards', '.reeval'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
