"""Hook latency: process start to answer, as Claude Code pays it on every tool call.

    .venv/bin/python bench/bench_hook.py [--n 200] [--no-agentperm]

Runs ``clearance hook claude-code`` the way Claude Code runs the command ``clearance install``
writes: the installed script behind ``sh -c '… || exit 2'``. It does so on a Bash (allow), a Bash
that asks, a Read and an MCP payload, interleaved with a bare start of the same interpreter
behind the same ``sh -c``, and prints median and p95 per command with ratios. In the same run it
times the console-script launcher pip would generate for ``clearance.cli:main`` (its template
imports ``re`` on every start), so the gain of the shipped script is measured, not assumed.

It also times ``agentperm check --agent claude`` (PyPI ``agentperm``, Python >= 3.12) on the
same payloads. agentperm lives in its own venv under ``$CLEARANCE_E2E_CACHE``
(``~/.cache/clearance-e2e/agentperm-venv``), created on first use from any Python >= 3.12 this
machine has; without one it is skipped with a message.

Targets (docs/decisions/0009-own-launcher.md): Read within 2.0x and Bash within 2.5x the bare
start, and at least 3x faster than agentperm. These are reported, never asserted.
"""

from __future__ import annotations

import glob
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("CLEARANCE_E2E_CACHE") or Path.home() / ".cache" / "clearance-e2e")
CLEARANCE = Path(sys.executable).parent / "clearance"


def payloads(cwd: Path) -> dict[str, str]:
    base = {"session_id": "bench", "transcript_path": "/dev/null", "cwd": str(cwd),
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_use_id": "toolu_bench"}  # fmt: skip
    calls = {
        "Bash": ("Bash", {"command": "git status --short", "description": "status"}),
        "Bash ask": ("Bash", {"command": "git push --force", "description": "push"}),
        "Read": ("Read", {"file_path": str(cwd / "notes.txt")}),
        "MCP": ("mcp__github__search_code", {"query": "clearance", "path": str(cwd)}),
    }
    return {k: json.dumps({**base, "tool_name": t, "tool_input": i}) for k, (t, i) in calls.items()}


def python312() -> str | None:
    candidates = [shutil.which(f"python3.{m}") for m in range(20, 11, -1)]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python")))
    candidates += sorted(glob.glob("/usr/bin/python3.1[2-9]"))
    uv = shutil.which("uv")
    if uv:
        found = subprocess.run([uv, "python", "find", ">=3.12"], capture_output=True, text=True)
        candidates.append(found.stdout.strip() or None)
    for path in candidates:
        if not path:
            continue
        probe = [path, "-c", "import sys; print(sys.version_info >= (3, 12))"]
        ok = subprocess.run(probe, capture_output=True, text=True)
        if ok.stdout.strip() == "True":
            return path
    return None


def agentperm() -> tuple[str | None, str]:
    venv = CACHE / "agentperm-venv"
    exe = venv / "bin" / "agentperm"
    if exe.exists():
        return str(exe), "cached"
    python = python312()
    if python is None:
        return None, "no Python >= 3.12 on this machine (agentperm needs one)"
    try:
        subprocess.run([python, "-m", "venv", str(venv)], check=True, capture_output=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "agentperm"], check=True,
                       capture_output=True, timeout=300)  # fmt: skip
    except (subprocess.SubprocessError, OSError) as exc:
        return None, f"could not install agentperm with {python}: {exc}"
    return str(exe), f"installed with {python}"


HOOK = ["hook", "claude-code"]

# The launcher pip writes for a ``[project.scripts]`` entry (distlib's template), for comparison.
GENERATED_LAUNCHER = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from clearance.cli import main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit(main())
"""


def as_host_runs(command: list[str]) -> list[str]:
    """A hook command as Claude Code runs it: through ``sh -c``, with the fail-closed suffix."""
    return ["sh", "-c", " ".join(shlex.quote(word) for word in command) + " || exit 2"]


def timed(cmd: list[str], stdin: str, env: dict[str, str], cwd: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, cwd=cwd)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return elapsed * 1000


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def main(argv: list[str]) -> int:
    n = int(argv[argv.index("--n") + 1]) if "--n" in argv else 200
    env_base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "src")], env=env_base,
                   check=True)  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        proj = home / "proj"
        (proj / ".git").mkdir(parents=True)
        (proj / "notes.txt").write_text("notes\n")
        env = {**env_base, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
               "XDG_STATE_HOME": str(home / ".local/state"),
               "CLEARANCE_HOME": str(Path(tmp) / "state")}  # fmt: skip
        for key in [k for k in env if k.startswith(("CLAUDE_CODE", "CLEARANCE_CONFIG"))]:
            del env[key]
        cases = payloads(proj)
        generated = Path(tmp) / "generated-launcher"
        generated.write_text(GENERATED_LAUNCHER.format(python=sys.executable))
        generated.chmod(0o755)
        commands: dict[str, tuple[list[str], str]] = {
            "python -c pass": (as_host_runs([sys.executable, "-c", "pass"]), ""),
        }
        for name, payload in cases.items():
            commands[f"clearance {name}"] = (as_host_runs([str(CLEARANCE), *HOOK]), payload)
        for name in ("Bash", "Read"):
            command = as_host_runs([str(generated), *HOOK])
            commands[f"generated {name}"] = (command, cases[name])
        perm, note = (None, "skipped (--no-agentperm)")
        if "--no-agentperm" not in argv:
            perm, note = agentperm()
        if perm:
            subprocess.run([perm, "init"], env=env, cwd=proj, capture_output=True, input="")
            for name, payload in cases.items():
                cmd = [perm, "check", "--agent", "claude", "--event", "PreToolUse"]
                commands[f"agentperm {name}"] = (cmd, payload)
        print(f"agentperm: {note}")
        for cmd, stdin in commands.values():  # warm caches (policy cache, page cache, pyc)
            for _ in range(5):
                timed(cmd, stdin, env, proj)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(n):
            for name, (cmd, stdin) in commands.items():
                samples[name].append(timed(cmd, stdin, env, proj))
    bare = statistics.median(samples["python -c pass"])
    print(f"\n{n} calls each, interleaved; {sys.version.split()[0]} on {os.cpu_count()} CPUs\n")
    print(
        f"{'command':<22}{'median ms':>10}{'p95 ms':>9}{'x python':>10}{'agentperm / clearance':>24}"
    )
    for name, values in samples.items():
        median = statistics.median(values)
        vs = ""
        if name.startswith("clearance ") and f"agentperm {name[10:]}" in samples:
            vs = f"{statistics.median(samples['agentperm ' + name[10:]]) / median:.2f}x"
        print(f"{name:<22}{median:>10.1f}{p95(values):>9.1f}{median / bare:>10.2f}{vs:>24}")
    bash = statistics.median(samples["clearance Bash"])
    read = statistics.median(samples["clearance Read"])
    print(f"\ntarget: Read hook within 2.0x the bare start: {read / bare:.2f}x "
          f"({'met' if read / bare <= 2.0 else 'NOT met'})")  # fmt: skip
    print(f"target: Bash hook within 2.5x the bare start: {bash / bare:.2f}x "
          f"({'met' if bash / bare <= 2.5 else 'NOT met'})")  # fmt: skip
    for name in ("Bash", "Read"):
        gain = statistics.median(samples[f"generated {name}"]) - statistics.median(
            samples[f"clearance {name}"]
        )
        print(f"the shipped script saves {gain:.1f} ms per {name} call over pip's launcher")
    if "agentperm Bash" in samples:
        ratio = statistics.median(samples["agentperm Bash"]) / bash
        print(f"target: at least 3x faster than agentperm: {ratio:.2f}x "
              f"({'met' if ratio >= 3 else 'NOT met'})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
