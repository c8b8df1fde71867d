"""``clearance doctor``: is clearance really guarding Claude Code here, and if not, what to fix.

Five checks, each a :class:`Check` with what was found and, when it failed, the fix: the hook is
installed (for both events, in some settings file, its command executable); the configuration
validates; the project's own configuration is trusted (else it is silently skipped); the state
directory keeps its modes (0700 directories, 0600 files); and a sample payload round-trips
through the installed hook command as a real process, answering JSON.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import time

from clearance.hosts.claude_code.checks import Check, each_settings
from clearance.hosts.claude_code.doctor_blocking import check_fail_closed, check_http, http_hooks
from clearance.hosts.claude_code.doctor_rules import check_claude_rules, check_hidden, check_overlap
from clearance.hosts.claude_code.settings import (
    EVENTS,
    PORTABLE_PREFIX,
    hook_command,
    installed_commands,
)
from clearance.policy.state import state_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["Check", "run_checks"]


def _runnable(command: str) -> str | None:
    """Why ``command``'s program cannot run, or ``None``."""
    if command.startswith(PORTABLE_PREFIX):
        import shutil

        if shutil.which("clearance") is None:
            return ("the project's hook runs `clearance` from PATH, and it is not on PATH here, "
                    "so every call is blocked")  # fmt: skip
        return None
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return f"the hook command {command!r} does not parse"
    if not os.path.isabs(program):
        return f"the hook command runs {program!r} by name; PATH may differ under Claude Code"
    if not os.access(program, os.X_OK):
        return f"{program} is missing or not executable"
    return None


def check_installation(cwd: str, env: Mapping[str, str]) -> tuple[Check, list[str]]:
    found: list[str] = []
    commands: list[str] = []
    problems: list[str] = []
    for _, path, data in each_settings(cwd, env, problems):
        events = installed_commands(data)
        if not events:
            continue
        found.append(f"{path} ({', '.join(events)})")
        for event in EVENTS:
            if event not in events:
                problems.append(f"{path} has no {event} hook")
        for command in {c for cs in events.values() for c in cs}:
            if command.startswith("http "):
                continue  # the HTTP hook: checked by check_http
            commands.append(command)
            why = _runnable(command)
            if why:
                problems.append(why)
    if not found:
        return Check(
            "installation", False, "the clearance hook is in none of Claude Code's settings files",
            "run `clearance install claude-code` (or --project / --local)",
        ), commands  # fmt: skip
    if problems:
        fix = "run `clearance install claude-code` again for that scope"
        return Check("installation", False, "; ".join(problems), fix), commands
    return Check("installation", True, "hook installed in " + "; ".join(found)), commands


def check_sandbox(cwd: str, env: Mapping[str, str]) -> Check:
    """Whether Claude Code's own sandbox is on: with it, a command the analysis misreads still
    cannot touch the paths ``clearance sync claude-code`` projected into it."""
    enabled = None
    where = ""
    for _, path, data in each_settings(cwd, env):  # the later scope wins, as in Claude Code
        sandbox = data.get("sandbox")
        if isinstance(sandbox, dict) and isinstance(sandbox.get("enabled"), bool):
            enabled, where = sandbox["enabled"], path
    if enabled:
        return Check("sandbox", True, f"Claude Code's sandbox is on ({where})")
    return Check(
        "sandbox", True,
        "Claude Code's sandbox is off: clearance's projected denies then bind only its own "
        "tools, not what a shell command does",
        'for defence in depth, set "sandbox": {"enabled": true} in Claude Code\'s settings',
    )  # fmt: skip


def check_config(cwd: str, env: Mapping[str, str]) -> Check:
    from clearance.policy.loader import load_policy

    policy = load_policy(cwd=cwd, env=env, use_cache=False)
    if policy.errors:
        text = "\n".join(str(e) for e in policy.errors)
        return Check("config", False, "the configuration has errors, so clearance fails closed "
                     f"(every allow now asks):\n{text}", "fix the file at the line shown, then "
                     "run `clearance validate`")  # fmt: skip
    files = ", ".join(policy.files) or "the built-in policy"
    warnings = "".join(f"\n  warning: {w}" for w in policy.warnings)
    return Check("config", True, f"valid ({files}){warnings}")


def check_trust(cwd: str, env: Mapping[str, str]) -> Check:
    from clearance.policy.loader import load_policy

    policy = load_policy(cwd=cwd, env=env)
    project = policy.project
    if project is None:
        return Check("trust", True, f"{cwd} is in no project")
    own = [os.path.join(project, p) for p in (".clearance/config.jsonc", ".clearance/agents",
                                              ".claude/agents")]  # fmt: skip
    present = [p for p in own if os.path.exists(p)]
    if policy.trusted:
        changed = [
            w.partition(": skipped")[0]
            for w in policy.warnings
            if "since the project was trusted" in w
        ]
        if changed:
            return Check(
                "trust", False,
                f"project {project} is trusted, but {', '.join(changed)} changed since, so it "
                f"is skipped",
                f"review the change, then run `clearance trust {shlex.quote(project)}`",
            )  # fmt: skip
        return Check("trust", True, f"project {project} is trusted")
    if not present:
        return Check(
            "trust", True, f"project {project} is not trusted (it has no config of its own)"
        )
    return Check(
        "trust", False,
        f"project {project} is not trusted, so {', '.join(present)} is skipped",
        f"if you trust this repository's policy, run `clearance trust {shlex.quote(project)}`",
    )  # fmt: skip


def check_state(env: Mapping[str, str]) -> Check:
    root = state_root(env)
    if not os.path.isdir(root):
        return Check("state", True, f"{root} does not exist yet (created 0700 on first use)")
    loose: list[str] = []
    unsafe: dict[str, None] = {}  # forwarding inboxes writable by others: remove, never repair
    forwarding = os.path.join(root, "forwarding")
    seen = 0
    for directory, _dirs, files in os.walk(root):
        for name, want in [(directory, 0o700)] + [
            (os.path.join(directory, f), 0o600) for f in files
        ]:
            seen += 1
            try:
                st = os.lstat(name)
            except OSError:
                continue
            if st.st_mode & 0o077:
                loose.append(f"{name} ({oct(st.st_mode & 0o777)}, want {oct(want)})")
            if st.st_mode & 0o022 and (name + os.sep).startswith(forwarding + os.sep):
                rest = os.path.relpath(name, forwarding).split(os.sep)[0]
                top = forwarding if rest in (".", "serving") else os.path.join(forwarding, rest)
                unsafe[top] = None
        if seen > 5000:
            break
    if loose:
        shown = "\n  ".join(loose[:5]) + (
            f"\n  … and {len(loose) - 5} more" if len(loose) > 5 else ""
        )
        fix = f"run `chmod -R go-rwx {shlex.quote(root)}`"
        if unsafe:
            # Files may already have been planted in a forwarding directory others could write:
            # it is refused, never repaired (docs/forwarding.md).
            dirs = " ".join(shlex.quote(d) for d in unsafe)
            fix = (f"remove {dirs} (others could write there, so it is refused and never "
                   f"repaired: `rm -rf {dirs}`), then restart `clearance serve`")  # fmt: skip
            if len(loose) > sum(1 for x in loose if x.startswith(tuple(unsafe))):
                fix += f"; for the rest, run `chmod -R go-rwx {shlex.quote(root)}`"
        return Check("state", False, f"others can read clearance's state:\n  {shown}", fix)
    return Check("state", True, f"{root}: directories 0700, files 0600")


def check_round_trip(cwd: str, command: str, env: Mapping[str, str]) -> Check:
    from clearance._json import dumps, loads

    payload = dumps({
        "session_id": "clearance-doctor", "transcript_path": os.devnull, "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
        "tool_input": {"file_path": os.path.join(cwd, "clearance-doctor-probe.txt")},
        "tool_use_id": "toolu_doctor",
    })  # fmt: skip
    import tempfile

    # The probe decides in a state directory of its own: it is no decision of the user's, so it
    # stays out of the review log (and out of the caches and grants).
    probe_state = tempfile.mkdtemp(prefix="clearance-doctor-")
    child_env = {k: v for k, v in env.items() if not k.startswith("CLAUDE_CODE_")}
    child_env["CLEARANCE_HOME"] = probe_state
    start = time.monotonic()
    try:
        proc = subprocess.run(
            command, shell=True, input=payload, capture_output=True, text=True, cwd=cwd,
            env=child_env, timeout=30,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        why = f"{exc.strerror or 'could not start'}".lower() if isinstance(exc, OSError) else (
            "no answer within 30 s")  # fmt: skip
        return Check("round trip", False, f"the hook did not answer: {why}",
                     "run `clearance install claude-code` again")  # fmt: skip
    finally:
        import shutil

        shutil.rmtree(probe_state, ignore_errors=True)
    ms = (time.monotonic() - start) * 1000
    try:
        answer = loads(proc.stdout)["hookSpecificOutput"]["permissionDecision"]
    except (ValueError, KeyError, TypeError):
        answer = None
    if proc.returncode != 0 or answer not in ("allow", "deny", "ask"):
        got = (proc.stdout or proc.stderr).strip()[:300]
        return Check("round trip", False, f"`{command}` exited {proc.returncode} and answered "
                     f"{got!r}", "run `clearance install claude-code` again; if that does not "
                     "help, reinstall clearance")  # fmt: skip
    return Check("round trip", True, f"a sample Read answered {answer!r} in {ms:.0f} ms")


def run_checks(cwd: str, env: Mapping[str, str] | None = None) -> list[Check]:
    env = os.environ if env is None else env
    installation, commands = check_installation(cwd, env)
    checks = [installation, check_overlap(cwd, env), check_config(cwd, env),
              check_trust(cwd, env), check_state(env), check_writable(env),
              check_audit_log(cwd, env), check_hidden(cwd, env), check_claude_rules(cwd, env),
              check_sandbox(cwd, env), *check_http(cwd, env)]  # fmt: skip
    fail_closed = check_fail_closed(cwd, env)
    if fail_closed is not None:
        checks.append(fail_closed)
    if http_hooks(cwd, env) and not commands:
        return checks  # only the HTTP hook: its round trip is above
    command = commands[0] if commands and _runnable(commands[0]) is None else hook_command()
    checks.append(check_round_trip(cwd, command, env))
    return checks


def check_writable(env: Mapping[str, str]) -> Check:
    """The state directory takes new files: grants, trust records, caches and the log."""
    import tempfile

    root = state_root(env)
    if os.path.lexists(root) and not os.path.isdir(root):
        return Check(
            "state writable", False, f"{root} is not a directory, so nothing can be saved there",
            f"move {root} away, or point CLEARANCE_HOME at a directory you own",
        )  # fmt: skip
    probe_dir = root
    while not os.path.isdir(probe_dir):
        parent = os.path.dirname(probe_dir)
        if parent == probe_dir:
            break
        probe_dir = parent
    try:
        fd, name = tempfile.mkstemp(prefix=".doctor-", dir=probe_dir)
    except OSError as exc:
        why = (exc.strerror or "refused").lower()
        what = root if probe_dir == root else f"{probe_dir} (where {root} would be created)"
        return Check(
            "state writable", False,
            f"cannot create a file in {what}: {why}; session grants, trust and the review log "
            "cannot be saved",
            f"make {probe_dir} writable by you (`chmod u+rwx {shlex.quote(probe_dir)}`), or point "
            "CLEARANCE_HOME at a directory you own",
        )  # fmt: skip
    os.close(fd)
    os.unlink(name)
    return Check("state writable", True, f"{root} is writable")


def check_audit_log(cwd: str, env: Mapping[str, str]) -> Check:
    """The review log can be appended (without writing to it)."""
    from clearance.audit.log import default_log_path
    from clearance.policy.loader import load_policy

    policy = load_policy(cwd=cwd, env=env)
    if policy.setting("reviewLog", True) is False:
        return Check("audit log", True, 'off ("reviewLog": false in the config)')
    path = default_log_path(state_root(env))
    if not os.path.lexists(path):
        directory = os.path.dirname(path)
        while not os.path.isdir(directory):
            directory = os.path.dirname(directory)
        if os.access(directory, os.W_OK | os.X_OK):
            return Check("audit log", True, f"{path} will be created on the first decision")
        return Check(
            "audit log", False, f"{path} cannot be created: {directory} is not writable",
            f"make {directory} writable by you, or point CLEARANCE_HOME elsewhere",
        )  # fmt: skip
    if os.path.islink(path) or not os.path.isfile(path):
        return Check(
            "audit log", False, f"{path} is not a regular file, so nothing is logged",
            f"move {path} away; clearance creates a new log",
        )  # fmt: skip
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        why = (exc.strerror or "refused").lower()
        return Check(
            "audit log", False, f"{path} cannot be appended ({why}): decisions go unlogged",
            f"`chmod u+w {shlex.quote(path)}`, or move it away",
        )  # fmt: skip
    os.close(fd)
    return Check("audit log", True, f"{path} can be appended")
