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

from clearance.hosts.claude_code.settings import (
    EVENTS,
    PORTABLE_PREFIX,
    SCOPES,
    SettingsError,
    hook_command,
    installed_commands,
    read_settings,
    settings_path,
)
from clearance.policy.state import state_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["Check", "run_checks"]


class Check:
    __slots__ = ("fix", "name", "ok", "summary")

    def __init__(self, name: str, ok: bool, summary: str, fix: str | None = None) -> None:
        self.name = name
        self.ok = ok
        self.summary = summary
        self.fix = fix


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
    for scope in SCOPES:
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError as exc:
            problems.append(str(exc))
            continue
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
    for scope in SCOPES:  # user, project, local: the later scope wins, as in Claude Code
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError:
            continue
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


def installed_claude(env: Mapping[str, str]) -> tuple[int, int, int] | None:
    """The version of the ``claude`` on ``PATH``; ``None`` when there is none or it fails."""
    import shutil

    from clearance.hosts.claude_code.claude_version import claude_version

    binary = shutil.which("claude", path=env.get("PATH"))
    return claude_version(binary) if binary else None


def check_fail_closed(cwd: str, env: Mapping[str, str]) -> Check | None:
    """The installed Claude Code's version, and whether clearance's command hooks carry
    ``"onFailure": "block"`` (a crashed, timed-out or unstartable hook then blocks); ``None``
    when no command hook of clearance's is installed."""
    from clearance.hosts.claude_code.settings import EVENTS, ONFAILURE_SINCE, is_our_command

    version = installed_claude(env)
    since = ".".join(map(str, ONFAILURE_SINCE))
    shown = "Claude Code " + (".".join(map(str, version)) if version else "not found on PATH")
    entries = []
    for scope in SCOPES:
        try:
            data, _ = read_settings(settings_path(scope, cwd, env))
        except SettingsError:
            continue
        found = data.get("hooks")
        hooks: dict[str, Any] = found if isinstance(found, dict) else {}
        for event in EVENTS:
            for group in hooks.get(event) or []:
                for hook in (group.get("hooks") or []) if isinstance(group, dict) else []:
                    if isinstance(hook, dict) and is_our_command(hook.get("command")):
                        entries.append(hook)
    if not entries:
        return None
    if all(h.get("onFailure") == "block" for h in entries):
        return Check("fail-closed", True, f"{shown}; a failing hook blocks (onFailure: block)")
    if version is None or version < ONFAILURE_SINCE:
        return Check("fail-closed", True, f"{shown}; onFailure needs {since} or later, so a "
                     "failing hook blocks only through the command's `|| exit 2`")  # fmt: skip
    return Check("fail-closed", False, f"{shown} supports onFailure, but the installed hooks do "
                 "not set it", "run `clearance install claude-code` again")  # fmt: skip


def http_hooks(cwd: str, env: Mapping[str, str]) -> list[tuple[str, dict[str, Any], str | None]]:
    """(settings path, our HTTP hook, the token in that file's ``env``) for every scope."""
    from clearance.hosts.claude_code.settings import TOKEN_VAR, _is_our_http_hook

    found = []
    for scope in SCOPES:
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError:
            continue
        hooks = data.get("hooks")
        settings_env = data.get("env")
        token = settings_env.get(TOKEN_VAR) if isinstance(settings_env, dict) else None
        for groups in hooks.values() if isinstance(hooks, dict) else ():
            for group in groups if isinstance(groups, list) else ():
                for hook in group.get("hooks") or [] if isinstance(group, dict) else ():
                    if isinstance(hook, dict) and _is_our_http_hook(hook):
                        found.append((path, hook, token if isinstance(token, str) else None))
                        break
    return found


def check_http(cwd: str, env: Mapping[str, str]) -> list[Check]:
    """With the HTTP hook installed: onFailure, the token, and a round trip to the service."""
    from clearance.hosts.claude_code.http_token import hook_token, token_path
    from clearance.hosts.claude_code.settings import TOKEN_VAR

    installed = http_hooks(cwd, env)
    if not installed:
        return []
    path, hook, token = installed[0]
    checks = []
    if hook.get("onFailure") != "block":
        checks.append(Check("http hook", False, f'{path}: the HTTP hook lacks "onFailure": '
                            '"block", so a failed POST lets the call run',
                            "run `clearance install claude-code --http` again"))  # fmt: skip
    try:
        expected = hook_token(state_root(env), create=False)
    except OSError as exc:
        return [*checks, Check("http token", False, str(exc), "remove it and reinstall")]
    given = token or env.get(TOKEN_VAR)
    if expected is None or given != expected:
        what = "missing" if expected is None else "not the one in " + token_path(state_root(env))
        checks.append(Check("http token", False, f"the HTTP hook's token is {what}",
                            "run `clearance install claude-code --http` again"))  # fmt: skip
        return checks
    checks.append(Check("http token", True, f"{TOKEN_VAR} matches the service's token"))
    checks.append(_claude_version(env))
    checks.append(_http_round_trip(cwd, str(hook["url"]), expected))
    return checks


def _claude_version(env: Mapping[str, str]) -> Check:
    import shutil

    from clearance.hosts.claude_code.claude_version import claude_version
    from clearance.hosts.claude_code.settings import ONFAILURE_SINCE

    since = ".".join(map(str, ONFAILURE_SINCE))
    binary = shutil.which("claude", path=env.get("PATH"))
    version = claude_version(binary) if binary else None
    if version is None:
        return Check("claude version", True, f"no `claude` on PATH to check (it must be {since} "
                     "or later for the HTTP hook to fail closed)")  # fmt: skip
    shown = ".".join(map(str, version))
    if version < ONFAILURE_SINCE:
        return Check("claude version", False, f"Claude Code {shown} ignores onFailure (before "
                     f"{since}): a failed POST lets the call run", "update Claude Code, or "
                     "`clearance install claude-code` for the command hook")  # fmt: skip
    return Check("claude version", True, f"Claude Code {shown} honours onFailure")


def _http_round_trip(cwd: str, url: str, token: str) -> Check:
    import urllib.error
    import urllib.request

    from clearance._json import dumps, loads

    payload = dumps({
        "session_id": "clearance-doctor", "transcript_path": os.devnull, "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
        "tool_input": {"file_path": os.path.join(cwd, "clearance-doctor-probe.txt")},
        "tool_use_id": "toolu_doctor",
    }).encode()  # fmt: skip
    request = urllib.request.Request(url, payload, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})  # fmt: skip
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            answer = loads(response.read().decode())["hookSpecificOutput"]["permissionDecision"]
    except (OSError, ValueError, KeyError, TypeError, urllib.error.URLError) as exc:
        return Check("http service", False, f"{url} did not answer ({exc}); every call is "
                     "blocked until it does", "start `clearance serve --listen HOST:PORT` "
                     "(see docs/console.md)")  # fmt: skip
    ms = (time.monotonic() - start) * 1000
    return Check("http service", True, f"{url} answered {answer!r} in {ms:.0f} ms")


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


def _installed_scopes(cwd: str, env: Mapping[str, str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for scope in SCOPES:
        path = settings_path(scope, cwd, env)
        if any(os.path.realpath(path) == os.path.realpath(p) for _, p in out):
            continue  # in the home directory, the project's settings are the user's
        try:
            data, _ = read_settings(path)
        except SettingsError:
            continue
        if installed_commands(data):
            out.append((scope, path))
    return out


def check_overlap(cwd: str, env: Mapping[str, str]) -> Check:
    installs = _installed_scopes(cwd, env)
    if len(installs) <= 1:
        return Check("overlap", True, "the hook is installed once" if installs else "no install")
    where = ", ".join(f"{path} ({scope})" for scope, path in installs)
    return Check(
        "overlap", False,
        f"the hook is installed {len(installs)} times ({where}): Claude Code runs each, so every "
        "call is decided (and an ask shown) once per install",
        "keep one: `clearance uninstall claude-code --SCOPE` for the others",
    )  # fmt: skip


def check_hidden(cwd: str, env: Mapping[str, str]) -> Check:
    """The tools hidden from the model still match the policy (after a policy edit, `sync`)."""
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.hiding import hidden_tools, owned_entries, projected_denies

    stale = []
    for scope, path in _installed_scopes(cwd, env):
        owned = owned_entries(path, env)
        if not owned:
            continue  # installed with --no-hide, or nothing to hide
        directory = home_dir_of(env) if scope == "user" else cwd
        engine = Engine.load(cwd=directory, env=env)
        entries, _, _ = projected_denies(engine.policy, engine.protected())
        want = set(hidden_tools(engine.policy) + entries)
        if want != set(owned):
            missing, extra = sorted(want - set(owned)), sorted(set(owned) - want)
            parts = [f"to hide: {', '.join(missing)}"] if missing else []
            parts += [f"no longer denied: {', '.join(extra)}"] if extra else []
            stale.append((scope, f"{path} ({'; '.join(parts)})"))
    if not stale:
        return Check("hidden tools", True, "the tools hidden from the model match the policy")
    scopes = " ".join(f"--{s}" for s, _ in stale[:1])
    return Check(
        "hidden tools", False,
        "the policy changed since the tools were hidden: " + "; ".join(t for _, t in stale),
        f"run `clearance sync claude-code {scopes}`",
    )  # fmt: skip


def home_dir_of(env: Mapping[str, str]) -> str:
    from clearance.policy.state import home_dir

    return home_dir(env)


def _sample(surface: str, pattern: str) -> str | None:
    """A value a Claude Code entry's pattern surely matches, to ask clearance about."""
    value = pattern
    for tail in (" *", "/**", "/*", "**", "*"):
        if value.endswith(tail):
            value = value[: -len(tail)]
            break
    if not value or any(c in value for c in "*?"):
        return None
    return value


_MAX_COMPARED = 200  # entries decided per doctor run; a huge allow list stays quick


def check_claude_rules(cwd: str, env: Mapping[str, str]) -> Check:
    """Claude Code permission entries that clearance decides differently (informational: once
    the hook runs, clearance decides)."""
    from clearance.decide.engine import Engine
    from clearance.hosts.claude_code.hiding import owned_entries
    from clearance.hosts.claude_code.permissions import permission_entries, translate
    from clearance.intent.call import ToolCall

    fields = {"bash": "command", "webfetch": "url", "websearch": "query", "task": "subagent_type"}
    engine = Engine.load(cwd=cwd, env=env)
    differ: list[str] = []
    total = 0
    for scope in SCOPES:
        path = settings_path(scope, cwd, env)
        try:
            data, _ = read_settings(path)
        except SettingsError:
            continue
        ours = set(owned_entries(path, env))
        for action, entry in permission_entries(data):
            if entry in ours:
                continue
            result = translate(entry, action, cwd if scope != "user" else None)
            if not result.rules:
                continue
            surface, pattern = result.rules[0]
            value = _sample(surface, pattern)
            if value is None or total >= _MAX_COMPARED:
                continue
            total += 1
            tool = surface if surface not in ("path_read", "path_write") else (
                "read" if surface == "path_read" else "write"
            )  # fmt: skip
            data_in: object = value if tool == "mcp" else {fields.get(tool, "path"): value}
            decided = engine.check(ToolCall(tool, data_in, cwd)).action
            if decided != action:
                differ.append(f"{entry}: Claude Code says {action}, clearance {decided}")
    if not differ:
        note = f"{total} checked, all decided alike" if total else "none to compare"
        return Check("claude code rules", True, f"Claude Code's own permission lists: {note}")
    shown = "\n  ".join(differ[:8]) + (
        f"\n  … and {len(differ) - 8} more" if len(differ) > 8 else ""
    )
    return Check(
        "claude code rules", True,
        f"clearance decides {len(differ)} of Claude Code's own permission entries differently "
        f"(clearance's answer is the one that counts):\n  {shown}",
        "to carry them over, `clearance init --from-claude-code --stdout` shows them as rules",
    )  # fmt: skip
