"""The path table: commands and the path tokens they project (docs/shell-analysis.md, "Paths").

Each row is ``(command, tokens)``, a token being ``(raw, path, effect)``; the analysis runs in
``/work/proj`` with home ``/home/me`` and the fake filesystem of ``conftest.EXISTING``.
"""

from __future__ import annotations

# fmt: off
PATH_CASES: list[tuple[str, list[tuple[str, str | None, str]]]] = [
    ('cat /etc/passwd', [('/etc/passwd', '/etc/passwd', 'read')]),
    ('cat README.md', [('README.md', '/work/proj/README.md', 'read')]),
    ('cat missing.txt', []),
    ('cat ./missing.txt', [('./missing.txt', '/work/proj/missing.txt', 'read')]),
    ('cat ../sibling/file', [('../sibling/file', '/work/sibling/file', 'read')]),
    ('cat a/b/c', [('a/b/c', '/work/proj/a/b/c', 'read')]),
    ('cat .env', [('.env', '/work/proj/.env', 'read')]),
    ('cat ~/notes.md', [('~/notes.md', '/home/me/notes.md', 'read')]),
    ('cat $HOME/x ${HOME}/y', [('$HOME/x', '/home/me/x', 'read'), ('${HOME}/y', '/home/me/y', 'read')]),
    ('cat "$PWD/z"', [('$PWD/z', '/work/proj/z', 'read')]),
    ('cat $CONFIG/x', [('$CONFIG/x', None, 'unproven')]),  # computed: an unknown path
    ('ls src', [('src', '/work/proj/src', 'read')]),
    ('ls -la ~/.config', [('~/.config', '/home/me/.config', 'read')]),
    ('ls .', [('.', '/work/proj', 'read')]),
    ('echo hi > out.txt', [('out.txt', '/work/proj/out.txt', 'write')]),
    ('echo hi >> /var/log/app.log', [('/var/log/app.log', '/var/log/app.log', 'write')]),
    ('make &> build.log', [('build.log', '/work/proj/build.log', 'write')]),
    ('ls >| listing.txt', [('listing.txt', '/work/proj/listing.txt', 'write')]),
    ('cmd &>> all.log', [('all.log', '/work/proj/all.log', 'write')]),
    ('sort < in.txt > out.txt', [('in.txt', '/work/proj/in.txt', 'read'), ('out.txt', '/work/proj/out.txt', 'write')]),
    ('cat notes.md > /backup/notes.md', [('/backup/notes.md', '/backup/notes.md', 'write')]),
    ('cat a.txt > a.txt', [('a.txt', '/work/proj/a.txt', 'write')]),
    ('cat data.txt > data.txt', [('data.txt', '/work/proj/data.txt', 'unproven')]),
    ('cat <<< /etc/hostname', [('/etc/hostname', '/etc/hostname', 'read')]),
    ('cmd 2>&1 >&2', []),
    ('echo x >& file.txt', [('file.txt', '/work/proj/file.txt', 'write')]),
    ('cmd 2>/dev/null', [('/dev/null', '/dev/null', 'write')]),
    ('echo > "$OUT"', [('$OUT', None, 'write')]),
    ('echo > $HOME/out.txt', [('$HOME/out.txt', '/home/me/out.txt', 'write')]),
    # a tree removed is also a write beneath it (ADR 0045)
    ('rm -rf /tmp/tmp.*', [('/tmp/tmp.*', '/tmp/tmp.*', 'write'), ('/tmp/tmp.*', '/tmp/tmp.*', 'unproven')]),
    ('cat /etc/[p]asswd', [('/etc/[p]asswd', '/etc/[p]asswd', 'read')]),
    ('rm .env', [('.env', '/work/proj/.env', 'unproven')]),
    ('rm -rf build/', [('build/', '/work/proj/build', 'write'), ('build/', '/work/proj/build', 'unproven')]),
    ('cp src/a.py /tmp/a.py', [('src/a.py', '/work/proj/src/a.py', 'unproven'), ('/tmp/a.py', '/tmp/a.py', 'unproven')]),
    ('grep -r foo/bar src', [('src', '/work/proj/src', 'read')]),
    ('grep -e pattern -f /tmp/patterns README.md', [('/tmp/patterns', '/tmp/patterns', 'read'), ('README.md', '/work/proj/README.md', 'read')]),
    ('grep --file=/tmp/p data.txt', [('/tmp/p', '/tmp/p', 'read'), ('data.txt', '/work/proj/data.txt', 'read')]),
    ("rg -g '*.py' TODO src", [('src', '/work/proj/src', 'read')]),
    ("sed -n 's/a/b/p' data.txt", [('data.txt', '/work/proj/data.txt', 'read')]),
    ("sed -i 's/a/b/' data.txt", [('data.txt', '/work/proj/data.txt', 'unproven')]),
    ("sed 's/x/y/w /tmp/out' data.txt", [('/tmp/out', '/tmp/out', 'write'), ('data.txt', '/work/proj/data.txt', 'unproven')]),
    ("awk '{print $1}' /etc/passwd", [('/etc/passwd', '/etc/passwd', 'read')]),
    # a text filter's separators, keys, sets and formats are no paths; its files still are
    ('cut -d/ -f1 data.txt', [('data.txt', '/work/proj/data.txt', 'read')]),
    ('cut -d / -f 1 /etc/passwd', [('/etc/passwd', '/etc/passwd', 'read')]),
    ('sort -t / -S 1M data.txt', [('data.txt', '/work/proj/data.txt', 'read')]),
    ('sort -t/ -k2 -o /tmp/out data.txt', [('/tmp/out', '/tmp/out', 'unproven'), ('data.txt', '/work/proj/data.txt', 'unproven')]),
    ('tr / _ < data.txt', [('data.txt', '/work/proj/data.txt', 'read')]),
    ('tr a b /etc/passwd', [('/etc/passwd', '/etc/passwd', 'unproven')]),  # a third operand
    ('seq -s/ 3', []),
    ('date +%Y/%m/%d', []),
    ('date -r /etc/passwd +%s', [('/etc/passwd', '/etc/passwd', 'unproven')]),
    ('column -s/ -t data.txt', [('data.txt', '/work/proj/data.txt', 'read')]),
    ('paste -d/ data.txt /etc/passwd', [('data.txt', '/work/proj/data.txt', 'unproven'), ('/etc/passwd', '/etc/passwd', 'unproven')]),
    ('join -t/ -1 2 data.txt /etc/passwd', [('data.txt', '/work/proj/data.txt', 'unproven'), ('/etc/passwd', '/etc/passwd', 'unproven')]),
    # jq's filter is no path; --rawfile NAME FILE reads its second word
    ('jq .name /etc/x.json', [('/etc/x.json', '/etc/x.json', 'read')]),
    ('grep --reg=x /etc/y', [('/etc/y', '/etc/y', 'read')]),  # --regexp abbreviated
    ('jq --rawfile k /etc/key -n .', [('/etc/key', '/etc/key', 'read')]),
    ('jq --arg k /etc/key .x /etc/y.json', [('/etc/y.json', '/etc/y.json', 'read')]),
    ('awk \'{print > "/tmp/x"}\' data.txt', [('/tmp/x', '/tmp/x', 'write'), ('data.txt', '/work/proj/data.txt', 'unproven')]),
    ('awk -f /tmp/prog.awk data.txt', [('/tmp/prog.awk', '/tmp/prog.awk', 'unproven'), ('data.txt', '/work/proj/data.txt', 'unproven')]),
    ('python3 -c \'open("/etc/passwd")\' /tmp/arg', [('/tmp/arg', '/tmp/arg', 'unproven')]),
    ('node -e \'fs.rmSync("/tmp/x")\' build.js', []),
    ('python3 script.py /etc/hosts', [('/etc/hosts', '/etc/hosts', 'unproven')]),
    # -C/--directory: the operands after it are in that directory (the archive is over-read)
    # the archive is opened where tar starts (a bare name it makes: a path by its place)
    ('tar --directory=/etc -czf out.tgz .', [('/etc/out.tgz', '/etc/out.tgz', 'unproven'), ('/etc/.', '/etc', 'unproven'), ('out.tgz', '/work/proj/out.tgz', 'unproven'), ('.', '/work/proj', 'unproven')]),
    ('git push origin feature/x', [('feature/x', '/work/proj/feature/x', 'unproven')]),
    ('git commit -m "update /etc/hosts handling"', []),
    # an install writes its manifest, its lock file and node_modules where it runs (ADR 0052)
    ('npm install @scope/pkg', [(f'/work/proj/{n}', f'/work/proj/{n}', 'write') for n in
                                ('package.json', 'package-lock.json',
                                 'node_modules/.package-lock.json')]),
    ('curl https://example.com/a/b', []),
    ('export PATH=/opt/bin:$PATH', []),
    ('FOO=/etc/x cmd', []),
    ("find . -name '*.py' -delete", [('.', '/work/proj', 'unproven')]),
    ("find /var/log -name '*.gz'", [('/var/log', '/var/log', 'read')]),
    ('fd -x rm src', [('src', '/work/proj/src', 'unproven')]),
    ('sort -o ./out.txt ./data.txt', [('./out.txt', '/work/proj/out.txt', 'unproven'), ('./data.txt', '/work/proj/data.txt', 'unproven')]),
    # a value glued to a short option of a program whose options are not known: both readings
    ('shuf -zo/tmp/x data.txt', [('o/tmp/x', '/work/proj/o/tmp/x', 'unproven'),
                                 ('/tmp/x', '/tmp/x', 'unproven'),
                                 ('data.txt', '/work/proj/data.txt', 'unproven')]),
    # sort's are known: `-u` takes none, `-o` the rest of the word
    ('sort -uo/tmp/x data.txt', [('/tmp/x', '/tmp/x', 'unproven'),
                                 ('data.txt', '/work/proj/data.txt', 'unproven')]),
    ('cat $opt /etc/x', [('$opt', None, 'unproven'), ('/etc/x', '/etc/x', 'unproven')]),
    ('cat -- -weird', [('./-weird', '/work/proj/-weird', 'read')]),  # after --: a path
    ('head -n 5 /etc/hosts', [('/etc/hosts', '/etc/hosts', 'read')]),
    ('sudo cat /etc/shadow', [('/etc/shadow', '/etc/shadow', 'read')]),
    ('sudo -u root rm /etc/x', [('/etc/x', '/etc/x', 'unproven')]),
    ('flock /tmp/lock true', [('/tmp/lock', '/tmp/lock', 'unproven')]),
    ('xargs -a /tmp/list rm', [('(the operands xargs reads from its input)', None, 'unproven'), ('/tmp/list', '/tmp/list', 'unproven')]),
    ('find . -exec grep foo /etc/x {} \\;', [('.', '/work/proj', 'read'), ('/etc/x', '/etc/x', 'read')]),
    # a shell's literal script is read as typed commands: its paths are projected
    ("bash -c 'cat /etc/shadow'", [('/etc/shadow', '/etc/shadow', 'read')]),
    ('eval cat /etc/shadow', []),
    # a loop's unquoted use of a pattern's values, in a line whose commands may make files
    ('for f in /etc/*.conf src; do file $f; done', [('/etc/*.conf', '/etc/*.conf', 'unproven'), ('src', '/work/proj/src', 'unproven'), ('$f', None, 'unproven')]),
    ('case /etc/x in /etc/*) echo;; esac', [('/etc/x', '/etc/x', 'unproven')]),
    ('[ -f /etc/passwd ] && echo yes', [('/etc/passwd', '/etc/passwd', 'read')]),
    ('[[ -d /opt/x ]] || mkdir /opt/y', [('/opt/x', '/opt/x', 'read'), ('/opt/y', '/opt/y', 'unproven')]),
    ('cd /tmp && rm agent-builds/x', [('/tmp', '/tmp', 'read'), ('agent-builds/x', '/tmp/agent-builds/x', 'unproven')]),
    ('cd /tmp; cd build; cat log ./log', [('/tmp', '/tmp', 'read'), ('build', '/tmp/build', 'read'), ('./log', '/tmp/build/log', 'read')]),
    ('cd "$D"; cat ./rel /abs', [('./rel', None, 'read'), ('/abs', '/abs', 'read')]),
    ('cd -; cat ./rel', [('./rel', None, 'read')]),
    ('cd; cat ./rel', [('./rel', None, 'read')]),
    ('(cd /tmp); cat data.txt', [('/tmp', '/tmp', 'read'), ('data.txt', '/work/proj/data.txt', 'read')]),
    ('{ cd /tmp; }; cat ./rel', [('/tmp', '/tmp', 'read'), ('./rel', '/tmp/rel', 'read')]),
    ('cd /tmp | cat ./rel', [('/tmp', '/tmp', 'read'), ('./rel', '/work/proj/rel', 'read')]),
    ('echo $(cd /tmp; cat ./rel) ./x', [('/tmp', '/tmp', 'read'), ('./rel', '/tmp/rel', 'read')]),
    # a `cd` that may not take effect (it may not run, or may fail) leaves either directory:
    # the base is unknown after it, but certain for the rest of its `&&` chain; a loop whose
    # body changes directory runs its body from an unknown base (ADR 0046)
    ('false && cd a/b/c; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('if false; then cd a/b/c; fi; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('[ -d nope ] && cd a/b/c; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('cd a/b/c || true; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('case x in y) cd a/b/c;; esac; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('cd a/b/c 2>/dev/null; cat ../../home/me/.ssh/id_rsa', [('/dev/null', '/dev/null', 'write'), ('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('true || cd a/b/c; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('false && pushd a/b/c; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'unproven'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('if true; then if false; then cd a/b/c; fi; fi; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('f() { cd a/b/c; }; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('true | true | false && cd a/b/c; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('{ false && cd a/b/c; }; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('cd a/b/c && true; cat ../../home/me/.ssh/id_rsa', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../home/me/.ssh/id_rsa', None, 'read')]),
    ('for i in 1 2; do cat ./id_rsa; cd ~/.ssh; done', [('./id_rsa', None, 'read'), ('~/.ssh', '/home/me/.ssh', 'read')]),
    ('while true; do cat ./id_rsa; cd ~/.ssh; done', [('./id_rsa', None, 'read'), ('~/.ssh', '/home/me/.ssh', 'read')]),
    ('until false; do cat ./id_rsa; cd ~/.ssh; done', [('./id_rsa', None, 'read'), ('~/.ssh', '/home/me/.ssh', 'read')]),
    # `builtin cd`, `command cd` and `time cd` move the base as `cd` does
    ('builtin cd /tmp/build; cat ./log', [('/tmp/build', '/tmp/build', 'read'), ('./log', '/tmp/build/log', 'read')]),
    ('command cd /tmp/build; cat ./log', [('/tmp/build', '/tmp/build', 'read'), ('./log', '/tmp/build/log', 'read')]),
    ('time cd /tmp/build; cat ./log', [('/tmp/build', '/tmp/build', 'read'), ('./log', '/tmp/build/log', 'read')]),
    # their benign twins keep a precise base
    ('cd build && make', []),
    ('(cd sub && ls)', []),
    ('cd /tmp && rm x', [('/tmp', '/tmp', 'read')]),
    ('cd a/b/c && cat ../../x.txt', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../x.txt', '/work/proj/a/x.txt', 'read')]),
    ('false && cd a/b/c && cat ../../x.txt', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../x.txt', '/work/proj/a/x.txt', 'read')]),
    ('for i in 1 2; do cat ./a.py; done', [('./a.py', '/work/proj/a.py', 'read')]),
    ('if true; then cd a/b/c && cat ../../x.txt; fi', [('a/b/c', '/work/proj/a/b/c', 'read'), ('../../x.txt', '/work/proj/a/x.txt', 'read')]),
    ('HOME=/etc; cat ~/shadow', [('~/shadow', None, 'unproven')]),
    ('cat ~/x; HOME=/tmp', [('~/x', None, 'unproven')]),
    ('PWD=/etc cat $PWD/x', [('$PWD/x', None, 'unproven')]),
    ('cat ~other/x', [('~other/x', None, 'read')]),
    ('cat //etc///passwd', [('//etc///passwd', '/etc/passwd', 'read')]),
    # `..` after a name: also the spelling as written, which the gate resolves as the kernel
    # does (the link first, then `..`)
    ('cat /tmp/../etc/passwd', [('/tmp/../etc/passwd', '/etc/passwd', 'read'),
                                ('/tmp/../etc/passwd', '/tmp/../etc/passwd', 'read')]),
    ('cat "a file/with space"', []),
    ('cat "/abs/with space"', [('/abs/with space', '/abs/with space', 'read')]),
    ('echo "multi\nline/prose"', []),
    ('git commit -m "$(cat <<\'EOF\'\nsee /etc/hosts\nEOF\n)"', []),
    ('cat <<EOF\n/etc/passwd\nEOF', []),
    ('cat <<EOF > /tmp/out\n$(cat /etc/x)\nEOF', [('/tmp/out', '/tmp/out', 'write'), ('/etc/x', '/etc/x', 'read')]),
    ('cat $(cat /etc/list)', [('$(cat /etc/list)', None, 'unproven'), ('/etc/list', '/etc/list', 'read')]),
    ('diff <(cat /etc/a) /etc/b', [('/etc/b', '/etc/b', 'unproven'), ('/etc/a', '/etc/a', 'read')]),
]
# fmt: on
