"""Lines a shell reads otherwise than the analysis did: dash (``sh`` on Debian) has no ``$'…'``
and takes ``&>`` for ``&`` and ``>``; zsh skips comments and reads ``$'…'`` and an expanding
heredoc's body as text where the check of what it reads as bash saw quotes; ``=cmd`` after
``(`` or a backtick; a heredoc delimiter longer than the respelling read it; and the shells'
own options (``bash +c``, ``zsh -O``, ``zsh -b``, ``zsh +``, ``bash -``).

Each attack runs ``touch pwned`` where the analysis saw none: under a policy that allows
everything but ``touch``, it must not be allowed, and the real shell named in the row is the
reference (it makes the file). Each benign twin is allowed."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

POLICY = {"*": "allow", "bash": {"*": "allow", "touch": "deny", "touch *": "deny"}}


def _zsh(script: str) -> str:
    return "zsh -lc " + shlex.quote(script)


# (shell that runs the line, attack)
ATTACKS = [
    # dash: `$'\'` is a `$` and the string `'\'`, so the touch is a command of its own
    ("dash", "sh -c \"echo \\$'\\\\' ; touch pwned ; echo '\\\\'\""),
    ("dash", "dash -c \"echo \\$'\\\\' ; touch pwned ; echo '\\\\'\""),
    # dash: `echo hi &` in the background, then `>/dev/null touch pwned`
    ("dash", "sh -c 'echo hi &>/dev/null touch pwned'"),
    ("dash", "sh -c 'echo hi &>>log touch pwned'"),
    # zsh: an apostrophe in a comment, in `$'…'`, or in an expanding heredoc's body hid the
    # lines after it from the check; `=touch` runs /usr/bin/touch in zsh
    ("zsh", _zsh("# the config's path\n=touch pwned\n# that's all\n")),
    ("zsh", _zsh("echo $'it\\'s'\n=touch pwned\n# '\n")),
    ("zsh", _zsh("cat <<X\nit's\nX\n=touch pwned\necho \\'\n")),
    ("zsh", _zsh("cat <<X\n# $(=touch pwned)\nX\n")),
    # zsh: `=cmd` right after `(` or a backtick
    ("zsh", _zsh("(=touch pwned)")),
    ("zsh", _zsh("echo `=touch pwned`")),
    # the respelling read the delimiter `X` of `<<X@Y`, moving the touch into the body
    ("bash", "cat <<X@Y; touch pwned\nX\nX@Y"),
    ("bash", "cat <<X/Y; touch pwned\nX\nX/Y"),
    ("bash", "cat <<'X'Y; touch pwned\nX\nXY"),
    # `+c` gives a command as `-c` does, to bash, dash and zsh alike
    ("bash", "bash +c 'touch pwned'"),
    ("bash", "sh +xc 'touch pwned'"),
    ("bash", "zsh +c 'touch pwned'"),
    # bash takes its long options after one dash too, while they lead
    ("bash", "bash -login -c 'touch pwned'"),
    ("bash", "bash -init-file /dev/null -c 'touch pwned'"),
    ("bash", "printf 'touch pwned' > a.sh; bash -init-file x a.sh"),
    # zsh ends its options after a word ending in `-`: the script is the file `-o`
    ("zsh", "printf 'touch pwned' > ./-o; zsh +- -o p q"),
    # standard input by an option's name, not its letter
    ("zsh", "printf 'touch pwned' | zsh -o SHIN_STDIN q"),
    ("zsh", "printf 'touch pwned' | zsh -oshinstdin q"),
    ("zsh", "printf 'touch pwned' | zsh --shin-stdin q"),
    ("dash", "printf 'touch pwned' | dash -o stdin q"),
    # /proc/self/exe is the shell that runs the line
    ("bash", "/proc/self/exe -c 'touch pwned'"),
    # `[[` is a command word to dash: `||` inside it is an operator
    ("dash", "dash -c '[[ x || touch pwned ]]'"),
    # zsh points a name at another program, or reads what the line exported
    ("zsh", _zsh("hash ls=/usr/bin/touch; ls pwned")),
    ("zsh", _zsh("functions[ls]='/usr/bin/touch pwned'; ls")),
    ("zsh", "printf 'touch pwned' > a.sh; export READNULLCMD=sh; zsh -c '< a.sh'"),
    ("zsh", "mkdir -p d; echo 'touch pwned' > d/.zshenv; export ZDOTDIR=d; zsh -c ls"),
    # `-help` prints and exits only as bash's leading long option: to zsh, and to bash after
    # another option, it is the letters h, e, l, p, and the shell reads standard input
    ("zsh", "printf 'touch pwned' | zsh -help"),
    ("bash", "printf 'touch pwned' | bash -e -help"),
    # zsh's `-b` is a letter like the others under SH_OPTION_LETTERS; `+-NAME` is a long option
    ("zsh", "zsh -o shoptionletters -b -c 'touch pwned'"),
    ("zsh", "zsh +-bareglobqual -c 'touch pwned'"),
    # a command word bash expands as a pattern, or names the file open on standard input
    ("bash", "/usr/bin/touc[h] pwned"),
    ("bash", "/pro[c]/self/exe -c 'touch pwned'"),
    ("bash", "printf '#!/bin/sh\\ntouch pwned\\n' > w; chmod +x w; /dev/stdin < w"),
    # zsh writes each name the braces of a redirection's target make (bash refuses it)
    ("zsh", "zsh -c 'echo hi > pwne{d,}'"),
]
BENIGN = [
    "sh -c 'echo hi; ls'",
    "sh -c 'ls >/dev/null 2>&1'",
    "sh -c 'echo $((1 + 2))'",
    "dash -c 'echo \"it'\"'\"'s\"'",
    _zsh("# the project's files\nls -la\n"),
    _zsh("echo $'a\\tb'; ls"),
    _zsh("cat <<X\nit's $HOME\nX\nls"),
    _zsh("(cd src && ls)"),
    _zsh("echo `date`"),
    "cat <<X; ls\nbody\nX",
    "cat <<'EOF' | wc -l\nx\nEOF",
    "bash -c 'ls'",
    "bash --login -c 'ls'",
    "export FOO=1; zsh -lc 'ls'",
    "dash -c '[ -f x ] && ls'",
    "bash --version",
    "zsh -lc 'for f in {a,b}; do echo $f; done'",
    "[ -f x ] && ls",
]


def _engine(project: Path, home: Path) -> Engine:
    return Engine.load(cwd=str(project), policy=json.dumps({"permission": POLICY}),
                       env={"HOME": str(home)}, use_cache=False)  # fmt: skip


def _project(root: Path) -> Path:
    project = root / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    return project


@pytest.mark.parametrize(("shell", "attack"), ATTACKS, ids=[a for _, a in ATTACKS])
def test_a_command_the_shell_reads_apart_is_not_allowed(
    tmp_path: Path, shell: str, attack: str
) -> None:
    project = _project(tmp_path)
    decision = _engine(project, tmp_path).check(ToolCall("bash", {"command": attack},
                                                          str(project)))  # fmt: skip
    assert decision.action != "allow", decision.reason


@pytest.mark.parametrize(("shell", "attack"), ATTACKS, ids=[a for _, a in ATTACKS])
def test_each_attack_runs_the_hidden_command_in_the_real_shell(
    tmp_path: Path, shell: str, attack: str
) -> None:
    needed = [s for s in ("bash", shell) if shutil.which(s) is None]
    if needed or ("zsh" in attack and shutil.which("zsh") is None):
        pytest.skip(f"{needed or 'zsh'} is not installed")
    sh = shutil.which("sh")
    runs_sh = "sh -c" in attack.replace("zsh -c", "").replace("bash -c", "")
    if runs_sh and shell == "dash" and "dash" not in os.path.realpath(sh or ""):
        pytest.skip("sh is not dash here")
    project = _project(tmp_path)
    subprocess.run([str(shutil.which("bash")), "-c", attack], cwd=project, capture_output=True,
                   timeout=30, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})  # fmt: skip
    assert (project / "pwned").exists()


@pytest.mark.parametrize("line", BENIGN)
def test_the_benign_twins_are_allowed(tmp_path: Path, line: str) -> None:
    project = _project(tmp_path)
    decision = _engine(project, tmp_path).check(ToolCall("bash", {"command": line},
                                                          str(project)))  # fmt: skip
    assert decision.action == "allow", decision.reason
