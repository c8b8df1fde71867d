"""Placements of a command in a line, by attack class; ``{C}`` stands for the command.

Shared by the differential test (real bash) and the pure property test. ``zzmarker`` is the
command: a harmless script in the sandbox's PATH (it writes ``$HOME/pwned`` in the tmpfs HOME).
"""

from __future__ import annotations

MARKER = "zzmarker"

# class -> placements. Each placement must, in real bash, run {C}.
PLACEMENTS: dict[str, list[str]] = {
    "plain": ["echo hi; {C}", "echo hi && {C}", "echo $({C})", "echo `{C}`", "cat <({C})"],
    "param-operand": [
        "echo ${x:-$({C})}",
        "echo ${x:-`{C}`}",
        "echo ${x:=$({C})}",
        'echo "${x:-$({C})}"',
        "x=1; echo ${x#$({C})}",
        "x=a; echo ${x/a/$({C})}",
        "y=1; echo ${y:+$({C})}",
    ],
    "param-indirect": ["x='$({C})'; echo ${x@P}", "y='$({C})'; x=y; echo ${!x@P}"],
    "continuation": ["echo $\\\n({C})", "echo ${x:-$\\\n({C})}"],
    "nested-backtick": ["echo `echo \\`{C}\\``", "echo ${x:-`echo \\`{C}\\``}"],
    "brace": ["{{C},hi}", "echo hi; {{C},x}"],
    "declare": [
        "declare -a a='($({C}))'",
        "declare -i n='a[$({C})]'",
        "typeset -a a='($({C}))'",
    ],
    "test-v": ["[[ -v 'a[$({C})]' ]]", "test -v 'a[$({C})]'", "echo $(( a[$({C})] ))"],
    "printf-v": ["printf -v 'a[$({C})]' %s x"],
    "alias": ["shopt -s expand_aliases\nalias ls={C}\nls"],
    "ps4": ["PS4='$({C})' ; set -x; echo hi", "PS4='`{C}`'\nset -x\ntrue"],
    "heredoc": ["cat <<EOF\n$({C})\nEOF", "cat <<EOF\n`{C}`\nEOF"],
    "git-config": [
        "git -c core.fsmonitor={C} status",
        "git -c alias.st='!{C}' st",
        "git -c diff.external={C} diff",
    ],
    "env-var": ["GIT_EXTERNAL_DIFF={C} git diff", "BASH_ENV=<(echo {C}) bash -c true"],
    "find-exec": ["find . -maxdepth 0 -exec {C} \\;"],
    "awk": ["echo | awk '{system(\"{C}\")}'"],
    "sed": ["echo x | sed 's/x/{C}/e'", "echo {C} | sed e"],
    "quoting": ["echo hi; '{C}'", 'echo hi; "{C}"', "echo hi; {C}''", "echo hi; \\{C}"],
    # `fc` replays the history even in a non-interactive bash.
    "history": ["history -s {C}; fc -s", "history -s '{C}'\nfc -s -1", "history -s {C}; fc -s {C}"],
    # history expansion turned on: a later line replays and rewrites an earlier one
    "history-expansion": ["set -H -o history\necho x {C}\n^echo x ^"],
    # a quoted heredoc delimiter holding a line break: the rest of the line runs
    "heredoc-delimiter": ["cat <<'A\n' ; {C}\nA", 'cat <<"A\nB" | {C}\nA\nB'],
    # compound statements and assignments run only the commands they hold
    "compound": [
        "for f in x; do {C}; done",
        "if true; then {C}; fi",
        "while true; do {C}; break; done",
        "x=$({C})",
        "PID=$({C}); echo $PID",
        "for f in $({C}); do echo $f; done",
        "for f in {C}; do $f; done",
        'for f in {C}; do "$f"; done',
    ],
    # a file the line writes, then runs as code
    "written": [
        "echo {C} > f; . ./f",
        "echo {C} > f; source f",
        "echo {C} | tee f >/dev/null; bash f",
        "printf '%s' {C} > f; sh ./f",
    ],
}


def place(template: str, command: str) -> str:
    return template.replace("{C}", command)


# Hand-written attack lines: every placement above, with the marker.
ATTACKS: list[tuple[str, str]] = [
    (cls, place(t, MARKER)) for cls, templates in PLACEMENTS.items() for t in templates
]
# A few more that reach the fake ~/.ssh key or run programs a benign word hides.
ATTACKS += [
    ("ssh-read", "cat ~/.ss''h/id_rsa"),
    ("ssh-read", "cat $HOME/.ssh/id_rsa"),
    ("ssh-read", "cat {~,/nonexistent}/.ssh/id_rsa"),
    ("ssh-read", "cd ~/.ssh && cat id_rsa"),
    ("ssh-read", "f=~/.ssh/id_rsa; cat $f"),
    ("ssh-read", "cat ~/.s?h/id_rsa"),
    ("ssh-read", "cat ~/.[s]sh/id_rsa"),
    ("ssh-read", "grep -r KEY ~/.ssh"),
    ("ssh-read", "head -1 ${HOME}/.ssh/id_rsa"),
    ("ssh-read", "cat </home/../$HOME/.ssh/id_rsa"),
    # links and copies made in the line (the work directory is a sibling of the home)
    ("ssh-read", "ln -s .. up; cat up/home/.ssh/id_rsa"),
    ("ssh-read", "ln -s ../home/.ssh k && cat k/id_rsa"),
    ("ssh-read", "ln -sf ../home h; cat h/.ssh/id_rsa"),
    ("ssh-read", "cp -rs ../home h; cat h/.ssh/id_rsa"),
    ("ssh-read", "mkdir d; ln -s ../../home d/h; cat d/h/.ssh/id_rsa"),
    ("ssh-read", "ln -s .. x; mv x up; cat up/home/.ssh/id_rsa"),
    ("ssh-read", "ln -s ../home h; cd h && cat .ssh/id_rsa"),
    # a relative glob reaching a link the line made
    ("ssh-read", "ln -s ../home/.ssh/id_rsa k; cat k*"),
    ("ssh-read", "ln -s ../home/.ssh/id_rsa k; grep . [k]"),
    # a link made by a pipeline element running at the same time as the read
    ("ssh-read", "(sleep 1; cat up/home/.ssh/id_rsa) | ln -s .. up"),
    # this shell's own directories through /proc
    ("ssh-read", "cat /proc/$$/cwd/../home/.ssh/id_rsa"),
    ("ssh-read", "xargs -a../home/.ssh/id_rsa echo"),
    # a loop variable's values, and what may give it others
    ("ssh-read", 'for f in ~/.ssh/id_rsa; do cat "$f"; done'),
    ("ssh-read", "for d in .ssh; do cat ~/$d/id_rsa; done"),
    ("ssh-read", "for d in ../home/.ssh; do cat $d/id_rsa; done"),
    ("ssh-read", 'for f in ../home/.ssh/*; do cat "$f"; done'),
    ("ssh-read", 'for f in x; do f=~/.ssh/id_rsa; cat "$f"; done'),
    ("ssh-read", 'g() { f=~/.ssh/id_rsa; }; for f in x; do g; cat "$f"; done'),
    ("ssh-read", 'for f in x; do read f <<< ~/.ssh/id_rsa; cat "$f"; done'),
    ("ssh-read", 'for f in x; do for f in ~/.ssh/id_rsa; do :; done; cat "$f"; done'),
    ("ssh-read", "for f in x; do cd ~/.ssh; cat id_rsa; done"),
    ("ssh-read", 'for f in ""; do : ${f:=~/.ssh/id_rsa}; cat "$f"; done'),
    ("ssh-read", 'for f in x; do echo ${a[f=1]} >/dev/null; cat ~/.ssh/id_rs"$f"; done'),
    ("ssh-read", "for f in ../home/.ssh/id_rsa; do cat $f; done"),
]

# Benign lines the engine should allow and that must pass the differential check.
BENIGN = [
    "echo hi",
    "ls",
    "ls -la src",
    "cat README.md",
    "cat data.txt | grep one",
    "git status",
    "wc -l data.txt",
    "head -1 README.md && echo done",
    "printf '%s\\n' a b",
    "echo $(ls)",
    "echo ${x:-default}",
    "true",
    "grep -c one data.txt; echo $?",
    "cat *.md",
    "ls src/*",
    "history",
    'for f in README.md data.txt; do cat "$f"; done',
    "for n in 1 2; do wc -l data.txt; done",
    "if true; then cat README.md; fi",
    "PID=$!; echo $PID",
    "n=1; echo $n",
]
