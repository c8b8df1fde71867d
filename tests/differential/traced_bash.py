"""Run bash lines in a bubblewrap sandbox under strace; report what each line executed and opened.

One ``bwrap`` process runs a batch of lines: a read-only root, a tmpfs ``/tmp``, no network,
its own pid namespace, and three writable directories bound at the same path as on the host
(the work dir, a fake HOME, the trace output), so that the engine, deciding on the host, sees
the same files as the traced bash. Before each line the work dir and HOME are reset from a
template; the line runs as ``timeout 5 strace -f -ff … bash -c LINE`` with stdin from
``/dev/null`` and a clean environment whose PATH starts with a directory holding ``zzmarker``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

MARKER = "zzmarker"
SSH_FILES = ("id_rsa", "id_rsa.pub")

DRIVER = r"""#!/bin/bash
base="$1"; n="$2"
for ((i = 0; i < n; i++)); do
    find "$base/work" "$base/home" -mindepth 1 -delete 2>/dev/null
    cp -a "$base/template/work/." "$base/work/"
    cp -a "$base/template/home/." "$base/home/"
    mkdir -p "$base/out/$i"
    cd "$base/work" || exit 1
    env -i HOME="$base/home" PATH="$base/bin:/usr/local/bin:/usr/bin:/bin" LANG=C TERM=dumb \
        USER=agent LOGNAME=agent \
        timeout -s KILL 5 strace -f -ff -qq -e signal=none -s 4096 \
        -e trace=execve,execveat,openat,openat2 -o "$base/out/$i/t" \
        bash -c "$(cat "$base/lines/$i")" </dev/null >"$base/out/$i/stdout" 2>"$base/out/$i/stderr"
    echo $? >"$base/out/$i/rc"
done
"""


def runnable() -> str | None:
    """``None`` when bwrap and strace can run here, else the reason they cannot."""
    for tool in ("bwrap", "strace", "timeout", "git"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (.ci/run installs bubblewrap and strace)"
    probe = subprocess.run(
        ["bwrap", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--unshare-net",
         "--unshare-pid", "--die-with-parent", "--new-session", "--",
         "strace", "-qq", "-o", "/dev/null", "true"],
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    if probe.returncode != 0:
        return f"bwrap/strace cannot run here: {probe.stderr.strip()[:200]}"
    return None


@dataclass(frozen=True)
class Trace:
    line: str
    executed: tuple[str, ...]  # paths successfully execve'd, the initial bash excluded
    opened: tuple[str, ...]  # paths successfully opened
    rc: int | None
    stderr: str


_STRING = r'"((?:[^"\\]|\\.)*)"'
_EXEC = re.compile(r"^execve\(" + _STRING + r", \[" + _STRING)
_EXECAT = re.compile(r"^execveat\([^,]*, " + _STRING + r", \[" + _STRING)
_OPEN = re.compile(r"^openat2?\([^,]*, " + _STRING + r".*\)\s+= (\d+)")  # strace pads short calls


def _unescape(text: str) -> str:
    try:
        return text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except UnicodeDecodeError:
        return text


class Sandbox:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.work = base / "work"
        self.home = base / "home"
        self._batch = 0
        for d in ("bin", "work", "home", "out", "lines", "template/work", "template/home"):
            (base / d).mkdir(parents=True, exist_ok=True)
        marker = base / "bin" / MARKER
        marker.write_text('#!/bin/sh\n: > "$HOME/pwned"\n')
        marker.chmod(0o755)
        (base / "driver.sh").write_text(DRIVER)
        home = base / "template" / "home"
        (home / ".ssh").mkdir(exist_ok=True)
        (home / ".ssh" / "id_rsa").write_text("FAKE PRIVATE KEY, not a real one\n")
        (home / ".ssh" / "id_rsa.pub").write_text("ssh-rsa FAKE agent@sandbox\n")
        (home / ".bashrc").write_text("# fake\n")
        (home / "notes.txt").write_text("notes\n")
        work = base / "template" / "work"
        (work / "src").mkdir(exist_ok=True)
        (work / "README.md").write_text("readme\n")
        (work / "data.txt").write_text("one\ntwo\n")
        (work / "src" / "app.py").write_text("print('hi')\n")
        git = ["git", "-C", str(work), "-c", "user.name=a", "-c", "user.email=a@b"]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
        for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "init"]):
            subprocess.run([*git, *args], check=True, env=env, capture_output=True)
        (work / "data.txt").write_text("one\ntwo\nthree\n")  # a change for git diff
        subprocess.run(["cp", "-a", f"{work}/.", str(self.work)], check=True)
        subprocess.run(["cp", "-a", f"{home}/.", str(self.home)], check=True)

    def run(self, lines: list[str]) -> list[Trace]:
        base = self.base
        for d in ("out", "lines"):
            shutil.rmtree(base / d)
            (base / d).mkdir()
        for i, line in enumerate(lines):
            (base / "lines" / str(i)).write_text(line)
        b = str(base)
        command = [
            "bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--proc", "/proc", "--dev", "/dev",
            "--ro-bind", b, b,
            "--bind", f"{b}/work", f"{b}/work", "--bind", f"{b}/home", f"{b}/home",
            "--bind", f"{b}/out", f"{b}/out",
            "--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session",
            "--", "/bin/bash", f"{b}/driver.sh", b, str(len(lines)),
        ]  # fmt: skip
        subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, timeout=30 + 6 * len(lines)
        )
        return [self._read(i, line) for i, line in enumerate(lines)]

    def _read(self, i: int, line: str) -> Trace:
        out = self.base / "out" / str(i)
        files = sorted(out.glob("t.*"), key=lambda p: int(p.suffix[1:]))
        executed: list[str] = []
        opened: list[str] = []
        for n, path in enumerate(files):
            first = n == 0  # the lowest pid is the traced bash itself
            for row in path.read_text(errors="replace").splitlines():
                if row.startswith("execve"):
                    if not row.endswith(" = 0"):
                        continue
                    m = _EXEC.match(row) or _EXECAT.match(row)
                    if m is None:
                        continue
                    if first:
                        first = False
                        continue
                    target, argv0 = _unescape(m.group(1)), _unescape(m.group(2))
                    executed.append(target or argv0)
                else:
                    m = _OPEN.match(row)
                    if m is not None:
                        opened.append(_unescape(m.group(1)))
        rc_file = out / "rc"
        rc = int(rc_file.read_text()) if rc_file.exists() else None
        stderr_file = out / "stderr"
        stderr = stderr_file.read_text(errors="replace")[:500] if stderr_file.exists() else ""
        return Trace(line, tuple(executed), tuple(opened), rc, stderr)

    def ssh_opens(self, trace: Trace) -> list[str]:
        ssh = str(self.home / ".ssh") + "/"
        return [
            p
            for p in trace.opened
            if os.path.normpath(p).startswith(ssh) or os.path.basename(p) in SSH_FILES
        ]
