"""A name a command is given that is no file yet, which the command makes: ``sort -o``, ``uniq
IN OUT``, ``tee``, ``tar -cf`` write it by its place, and any other command may (``git bundle
create F``). A bare name counts as a path only where it exists, so these writes of a protected
file (a host's settings, a file that runs code later) went unseen: the name is now judged by
the protected-path gate, and the writes by their place are paths like a redirect's target.

Real bash is the reference: each attack writes the file."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.intent.call import ToolCall

ALLOW_ALL: dict[str, object] = {"*": "allow", "bash": {"*": "allow"}, "external_directory": "ask"}

# (line, the file it writes, decision under the built-in policy, under ALLOW_ALL)
ATTACKS = [
    ("printf x | sort -o opencode.json", "opencode.json", "deny", "deny"),
    ("printf x | sort -oopencode.json", "opencode.json", "deny", "deny"),
    ("printf x | sort --output=opencode.json", "opencode.json", "deny", "deny"),
    ("printf x | sort --out opencode.json", "opencode.json", "deny", "deny"),
    ("printf x | uniq - opencode.json", "opencode.json", "deny", "deny"),
    ("printf x | uniq -f 1 - opencode.json", "opencode.json", "deny", "deny"),
    ("printf x | tee opencode.json", "opencode.json", "deny", "deny"),
    ("printf x | tee -a lefthook.yml", "lefthook.yml", "stop", "stop"),
    ("tar -cf opencode.json README", "opencode.json", "deny", "deny"),
    ("tar cf opencode.json README", "opencode.json", "deny", "deny"),
    ("tar --file=opencode.json -c README", "opencode.json", "deny", "deny"),
    ("tar -cfopencode.json README", "opencode.json", "deny", "deny"),
    ("tar -cvfopencode.json README", "opencode.json", "deny", "deny"),
    # a value glued behind a flag, to a program whose options are not known
    ("shuf -eoopencode.json x", "opencode.json", "deny", "deny"),
    ("iconv -coopencode.json README", "opencode.json", "deny", "deny"),
    ("cd .claude && shuf -eosettings.local.json x", ".claude/settings.local.json", "deny", "deny"),
    # a value after `=`, `:` or `,` in an option word (`-Wl,-Map=F`, java's `-Xlog:gc:F`)
    (
        # (never `-o /dev/null`: the linker replaces its output, and as root /dev/null with it)
        "gcc -x c /dev/null -shared -Wl,-Map=opencode.json -o out.so",
        "opencode.json",
        "deny",
        "deny",
    ),
    # a compressor's output: the operand's name with the suffix
    ("gzip -S .json opencode", "opencode.json", "deny", "deny"),
    ("gzip --suffix=.json opencode", "opencode.json", "deny", "deny"),
    # a glued value that names a file already there: through the link it is
    ("shuf -eolnk x", ".claude/settings.json", "deny", "deny"),
    # with -r, or a pattern for an operand, the names beside the files it finds
    ("gzip -r -S rc sub", "sub/.envrc", "stop", "stop"),
    ("gzip -S rc sub/.e*", "sub/.envrc", "stop", "stop"),
    (
        "cd .claude && printf x | uniq - settings.local.json",
        ".claude/settings.local.json",
        "deny",
        "deny",
    ),
    (
        "cd .claude && printf x | sort -o settings.local.json",
        ".claude/settings.local.json",
        "deny",
        "deny",
    ),
    (
        "cd .git/hooks && printf x | uniq - post-checkout",
        ".git/hooks/post-checkout",
        "stop",
        "stop",
    ),
    ("git bundle create opencode.json HEAD", "opencode.json", "stop", "deny"),
]
BENIGN = [
    ("printf x | sort -o out.txt", "ask", "allow"),
    ("printf x | uniq - out.txt", "ask", "allow"),
    ("printf x | tee log.txt", "ask", "allow"),
    ("tar -cf out.tar README", "ask", "allow"),
    ("tar -tf missing.tar", "ask", "allow"),
    ("sort README", "allow", "allow"),
    ("npm install lodash", "ask", "allow"),
    ("git checkout -b feature", "ask", "allow"),
    ("echo opencode.json", "allow", "allow"),
    ("gzip -d README.gz", "ask", "allow"),
    ("gzip -k README", "ask", "allow"),
    ("gzip -r sub", "ask", "allow"),
]


def _project(root: Path) -> Path:
    project = root / "proj"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text("{}\n")
    (project / "README").write_text("hello\n")
    (project / "opencode").write_text("hello\n")  # what `gzip -S .json` compresses
    (project / "lnk").symlink_to(".claude/settings.json")  # a link planted earlier
    (project / "sub").mkdir()
    (project / "sub" / ".env").write_text("A=1\n")  # what `gzip -r -S rc sub` compresses
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(project)], check=True, timeout=30)
        subprocess.run(["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@t",
                        "commit", "-q", "--allow-empty", "-m", "x"], check=True, timeout=30)  # fmt: skip
    else:
        (project / ".git" / "hooks").mkdir(parents=True)
    (project / ".git" / "hooks").mkdir(exist_ok=True)
    return project


def _decide(project: Path, home: Path, line: str, policy: dict[str, object] | None) -> str:
    inline = json.dumps({"permission": policy}) if policy is not None else None
    engine = Engine.load(cwd=str(project), policy=inline, env={"HOME": str(home)},
                         use_cache=False)  # fmt: skip
    return engine.check(ToolCall("bash", {"command": line}, str(project))).action


def _holds(expected: str, action: str) -> bool:
    return action != "allow" if expected == "stop" else action == expected


@pytest.mark.parametrize(("line", "made", "builtin", "allow_all"), ATTACKS,
                         ids=[a[0] for a in ATTACKS])  # fmt: skip
def test_a_protected_name_a_command_makes_is_judged(
    tmp_path: Path, line: str, made: str, builtin: str, allow_all: str
) -> None:
    project = _project(tmp_path)
    assert _holds(builtin, _decide(project, tmp_path, line, None))
    assert _holds(allow_all, _decide(project, tmp_path, line, ALLOW_ALL))


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
@pytest.mark.parametrize(("line", "made"), [(a[0], a[1]) for a in ATTACKS])
def test_each_attack_makes_the_file_in_real_bash(tmp_path: Path, line: str, made: str) -> None:
    project = _project(tmp_path)
    program = line.split()[0] if "&&" not in line else line.split("&& ")[1].split()[0]
    if shutil.which("git" if "git bundle" in line else program) is None:
        pytest.skip(f"{program} is not installed")
    subprocess.run([str(shutil.which("bash")), "-c", line], cwd=project, capture_output=True,
                   timeout=30)  # fmt: skip
    assert (project / made).exists()


@pytest.mark.parametrize(("line", "builtin", "allow_all"), BENIGN, ids=[b[0] for b in BENIGN])
def test_the_benign_twins_keep_their_decisions(
    tmp_path: Path, line: str, builtin: str, allow_all: str
) -> None:
    project = _project(tmp_path)
    assert _decide(project, tmp_path, line, None) == builtin
    assert _decide(project, tmp_path, line, ALLOW_ALL) == allow_all
