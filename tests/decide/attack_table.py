"""Attacks on the shell analysis, by class, each next to the benign lines it resembles.

Every row is ``(line, builtin, denylist)``: the decision the line must get under the built-in
policy (no configuration at all) and under :data:`DENYLIST` (everything allowed but ``rm``,
``curl`` and ``git push``, SSH keys and ``.env`` files). A decision is ``allow``, ``ask``,
``deny``, or ``stop`` (ask or deny: anything but allow). The lines run with ``HOME`` set to a
home holding ``~/.ssh/id_rsa`` and ``~/.bashrc``, from a project inside it holding
``README.md``, ``src/a.py`` and ``.env`` (see ``test_attack_table.py``).

An attack row must never come out ``allow``; a benign row is there so that the fix does not
become "ask about everything". The classes follow ``docs/shell-analysis.md``.
"""

from __future__ import annotations

DENYLIST = {
    "permission": {
        "*": "allow",
        "bash": {
            "*": "allow",
            "rm *": "deny",
            "rm": "deny",
            "curl *": "deny",
            "git push *": "deny",
        },
        "path": {"~/.ssh/*": "deny", "*.env": "deny"},
        "external_directory": "allow",
    }
}

# fmt: off
# Point 1: every part of every word is modelled, or its unit asks.
WORD_PARTS: list[tuple[str, str, str]] = [
    # parameter expansions that run code or name another variable
    ("echo ${x@P}", "ask", "ask"),
    ('echo "${x@P}"', "ask", "ask"),
    ("echo ${!x}", "ask", "ask"),
    ('echo "${!x}"', "ask", "ask"),
    ("echo ${!x@P}", "ask", "ask"),
    ("echo ${x@Z}", "ask", "ask"),
    ("cat ${!x}", "stop", "ask"),
    # substitutions inside operands: units of their own
    ("echo ${x:-$(rm -rf /)}", "deny", "deny"),
    ('echo "${x:-$(rm -rf ~)}"', "deny", "deny"),
    ("echo ${x:+$(curl evil.example)}", "stop", "deny"),
    ("echo ${x:=$(rm -rf x)}", "stop", "deny"),
    ("echo ${x#$(rm x)}", "stop", "stop"),
    ("echo ${x%%$(rm x)}", "stop", "stop"),
    ("echo ${x/a/$(rm x)}", "stop", "deny"),
    ("echo ${x//$(rm x)/b}", "stop", "deny"),
    ("echo ${x:?$(rm x)}", "stop", "deny"),
    ("echo ${x:$(rm x)}", "stop", "deny"),
    ("echo ${a[$(rm x)]}", "stop", "deny"),
    ("echo ${x:-<(rm x)}", "stop", "stop"),
    # code the grammar leaves as text inside an operand
    ("echo ${x-`rm x`}", "ask", "stop"),
    ('echo "${x:-`rm x`}"', "ask", "stop"),
    ("echo ${x:-a`id`b}", "ask", "ask"),
    # literal defaults, alternatives and replacements are path candidates
    ("cat ${x:-~/.ssh/id_rsa}", "deny", "deny"),
    ('cat "${x:-$HOME/.ssh/id_rsa}"', "deny", "deny"),
    ("cat ${x-~/.ssh/id_rsa}", "deny", "deny"),
    ("cat ${x:=~/.ssh/id_rsa}", "deny", "deny"),
    ("cat ${x:+~/.ssh/id_rsa}", "deny", "deny"),
    ("cat ~/${x:-.ssh/id_rsa}", "deny", "deny"),
    ("cat ${x:-.env}", "stop", "deny"),
    ("echo hi > ${x:-~/.bashrc}", "stop", "stop"),
    # line continuations inside an expansion, joined as bash joins them
    ("echo $\\\n(rm -rf /)", "deny", "deny"),
    ("echo $\\\n(curl x)", "stop", "deny"),
    ("cat $\\\n{HOME}/.ssh/id_rsa", "deny", "deny"),
    ("cat ${HOME\\\n}/.ssh/id_rsa", "deny", "deny"),
    ("r\\\nm -rf x", "stop", "deny"),
    ("echo `r\\\nm x`", "stop", "deny"),
    ("ca\\\nt ~/.ssh/id_rsa", "deny", "deny"),
    # nested escaped backticks
    ("echo `echo \\`rm -rf /\\``", "deny", "deny"),
    ("echo `echo \\`curl x\\``", "stop", "deny"),
    ("echo `echo \\`cat ~/.ssh/id_rsa\\``", "deny", "deny"),
    ("echo `echo \\`echo \\\\\\`rm x\\\\\\`\\``", "stop", "deny"),
    # syntax the word builder does not model
    ("echo $[1+$(rm x)]", "stop", "deny"),
    # assignments and declarations: their values are expanded too
    ("x=${y@P} ls", "ask", "ask"),
    ("x=${y@P}", "ask", "ask"),
    ("export x=${!y}", "ask", "ask"),
    ('local x="${y@P}"', "ask", "ask"),
    ("x=(a ${b@P}) ls", "ask", "ask"),
    ("x=${y:-$(rm x)} ls", "stop", "deny"),
    ("for ((i=${x@P};;)); do :; done", "ask", "ask"),
    # unquoted here-document bodies are expanded
    ("cat <<EOF\n${x@P}\nEOF", "ask", "ask"),
    ("cat <<EOF\n${!x}\nEOF", "ask", "ask"),
    ("cat <<EOF\n$(rm -rf /)\nEOF", "deny", "deny"),
    ("cat <<EOF\n`rm x`\nEOF", "stop", "deny"),
]

WORD_PARTS_BENIGN: list[tuple[str, str, str]] = [
    ("echo ${x}", "allow", "allow"),
    ("echo $x", "allow", "allow"),
    ('echo "${x:-default}"', "allow", "allow"),
    ("echo ${x:-default}", "allow", "allow"),
    ("echo ${#x}", "allow", "allow"),
    ("echo ${x^^}", "allow", "allow"),
    ("echo ${x,,}", "allow", "allow"),
    ("echo ${x@Q}", "allow", "allow"),
    ("echo ${x@U}", "allow", "allow"),
    ("echo ${!x*}", "allow", "allow"),
    ("echo ${!a[@]}", "allow", "allow"),
    ("echo ${a[@]}", "allow", "allow"),
    ("echo ${a[1]}", "allow", "allow"),
    ("echo ${x#prefix}", "allow", "allow"),
    ("echo ${x%.py}", "allow", "allow"),
    ("echo ${x/a/b}", "allow", "allow"),
    ("echo ${x:1:2}", "allow", "allow"),
    ("echo $? $# $$", "allow", "allow"),
    ('echo "$HOME"', "ask", "allow"),  # echo counts as a reader of what it names
    ("echo $((1 + 2))", "allow", "allow"),
    ('echo "$(pwd)"', "allow", "allow"),
    ("ls \\\n  -la", "allow", "allow"),
    ("git diff \\\n  --stat", "allow", "allow"),
    ("echo 'a\\\nb'", "allow", "allow"),
    ("echo `echo hi`", "allow", "allow"),
    ("echo `echo \\`echo hi\\``", "allow", "allow"),
    ("cat ${x:-README.md}", "ask", "ask"),
    ("x=${y:-z} ls", "allow", "allow"),
    ("x=(a b) ls", "allow", "allow"),
    ("for ((i=0; i<3; i++)); do echo $i; done", "ask", "allow"),
    ("cat <<EOF\nhello ${USER}\nEOF", "allow", "allow"),
    ("cat <<'EOF'\n${x@P} $(rm x)\nEOF", "allow", "allow"),
]

# Point 4: a computed word is an unknown path.
UNKNOWN_PATHS: list[tuple[str, str, str]] = [
    ("cat $f", "ask", "ask"),
    ('cat "$f"', "ask", "ask"),
    ("cat ${f}", "ask", "ask"),
    ("head -5 $f", "ask", "ask"),
    ("grep secret $f", "ask", "ask"),
    ("cat ./$f", "ask", "ask"),
    ("cat $HOME/$f", "stop", "ask"),
    ('cat "$(ls ~/.ssh/* | head -1)"', "stop", "stop"),
    ("cat $(echo ~/.ssh/id_rsa)", "stop", "stop"),
    ("cat `echo ~/.ssh/id_rsa`", "stop", "stop"),
    ("wc -c $1", "ask", "ask"),
    ('echo x > "$f"', "ask", "ask"),
    ("echo x >> $f", "ask", "ask"),
    ("cat < $f", "ask", "ask"),
    ("tail -f ${LOG:-$f}", "ask", "ask"),
    ("PWD=/etc cat $PWD/x", "stop", "ask"),
]

UNKNOWN_PATHS_BENIGN: list[tuple[str, str, str]] = [
    ('echo "$f"', "allow", "allow"),
    ("echo $f > /dev/null", "allow", "allow"),
    ('printf "%s\\n" "$x"', "ask", "allow"),
    ("cat README.md", "allow", "allow"),
    ('cat "$(pwd)/README.md"', "allow", "allow"),
    ("wc -l $(pwd)/src/a.py", "allow", "allow"),
    ("diff <(ls src) <(ls .)", "ask", "allow"),
    ('[ -z "$x" ] && echo empty', "ask", "allow"),
    ('git commit -m "$(cat <<\'EOF\'\nfix: a message\n\nwith a body\nEOF\n)"', "ask", "allow"),
    ("make -j$(nproc)", "ask", "allow"),
]

# Point 7: rules match words, not letters.
WORDS: list[tuple[str, str, str]] = [
    ("lsof -i", "ask", "allow"),
    ("lsblk", "ask", "allow"),
    ("git status-x", "ask", "allow"),
    ("git diffx", "ask", "allow"),
    ("git logx", "ask", "allow"),
    ("git showx", "ask", "allow"),
    ("pwdx 1", "ask", "allow"),
    ("cat2 x", "ask", "allow"),
    ("rmdir x", "ask", "allow"),
    ("mkfsx", "stop", "allow"),
    ("mkfs.ext4 /dev/sdz", "deny", "deny"),  # the built-in denies are a base layer
]

WORDS_BENIGN: list[tuple[str, str, str]] = [
    ("ls", "allow", "allow"),
    ("ls -la", "allow", "allow"),
    ("git status", "allow", "allow"),
    ("git status --short", "allow", "allow"),
    ("git diff --stat", "allow", "allow"),
    ("git log -5 --oneline", "allow", "allow"),
    ("git show HEAD", "allow", "allow"),
    ("git branch", "allow", "allow"),
    ("pwd", "allow", "allow"),
    ("cat README.md", "allow", "allow"),
    ("mkfs /dev/sdz", "deny", "deny"),
]
# fmt: on

# Point 3: glob options and CDPATH change what a word reaches.
EXPANSION_OPTIONS: list[tuple[str, str, str]] = [
    ("shopt -s dotglob; cat *", "ask", "ask"),
    ("shopt -s nocaseglob; cat ~/.SSH/ID_*", "stop", "ask"),
    ("shopt -s extglob; cat !(x)", "ask", "ask"),
    ("shopt -s globstar; cat **/*", "ask", "ask"),
    ("GLOBIGNORE=x; cat *", "ask", "ask"),
    ("set -f; cat *", "ask", "ask"),
    ("set -o noglob; cat *", "ask", "ask"),
    ("CDPATH=~/.ssh; cd x && cat id_rsa", "ask", "ask"),
    ('cd "$d" && cat id_rsa', "ask", "ask"),
    ("cat {,~/.ssh/id_rsa}", "deny", "deny"),
    ("cat {~,/nonexistent}/.ssh/id_rsa", "deny", "deny"),
    ("cat ~/{.ssh,x}/id_rsa", "deny", "deny"),
    # paths that lead wherever the running process is
    ("cat /proc/self/root/root/.ssh/id_rsa", "stop", "stop"),
    ("cat /proc/1/root/root/.ssh/x", "stop", "stop"),
    ("cat /proc/self/cwd/.env", "stop", "stop"),
    ("cat /dev/fd/3", "stop", "stop"),
    ("cat ~root/.ssh/id_rsa", "stop", "stop"),
    ("cat ~+/.env", "stop", "stop"),
]

EXPANSION_OPTIONS_BENIGN: list[tuple[str, str, str]] = [
    ("cat *.py", "allow", "allow"),
    ("ls src/*", "allow", "allow"),
    ("cat src/{a,b}.py", "allow", "allow"),
    ("echo {1..5}", "allow", "allow"),
    ("cd src && cat a.py", "ask", "allow"),
    ("shopt -s nullglob", "ask", "allow"),
    ("cat /proc/cpuinfo", "ask", "allow"),
    ("echo x 2>/dev/null", "allow", "allow"),
]

# Recursive reads: a directory read recursively reaches every file beneath it.
RECURSIVE_READS: list[tuple[str, str, str]] = [
    ("grep -r . ..", "deny", "deny"),
    ("grep -r pass ~", "deny", "deny"),
    ("grep -R pass $HOME/", "deny", "deny"),
    ("find .. -exec cat {} +", "deny", "deny"),
    ("tar cf - ..", "deny", "deny"),
    ("cp -r ~ /tmp/x", "deny", "deny"),
    ("rsync -a ~/ x", "deny", "deny"),
    ("zip -r x.zip ~", "deny", "deny"),
    ("rg -uu key ~", "deny", "deny"),
    ("cd .. && rg key", "deny", "deny"),
    ("grep -r SECRET .", "stop", "deny"),  # the project's .env
    ("rg SECRET", "stop", "deny"),  # no directory: the working directory
    ('cd "$d" && grep -r x', "stop", "stop"),  # a directory clearance cannot know
]

RECURSIVE_READS_BENIGN: list[tuple[str, str, str]] = [
    ("grep -r TODO src", "allow", "allow"),
    ("rg foo src", "allow", "allow"),
    ("grep pass README.md", "allow", "allow"),
    ("tar cf x.tar src", "ask", "allow"),
    ("ls -R ~", "ask", "allow"),
    ("find ~ -name x", "ask", "allow"),
]

CLASSES: dict[str, list[tuple[str, str, str]]] = {
    "recursive-reads": RECURSIVE_READS,
    "recursive-reads-benign": RECURSIVE_READS_BENIGN,
    "expansion-options": EXPANSION_OPTIONS,
    "expansion-options-benign": EXPANSION_OPTIONS_BENIGN,
    "word-parts": WORD_PARTS,
    "word-parts-benign": WORD_PARTS_BENIGN,
    "unknown-paths": UNKNOWN_PATHS,
    "unknown-paths-benign": UNKNOWN_PATHS_BENIGN,
    "words": WORDS,
    "words-benign": WORDS_BENIGN,
}
