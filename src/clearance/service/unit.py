"""``clearance serve --install-service``: run the service at login, as a systemd user unit
(Linux) or a launchd agent (macOS).

The unit runs this very ``clearance`` (absolute path) as ``serve --listen`` with the options
given next to ``--install-service`` (default ``--listen 127.0.0.1:8765 --dir $HOME``), restarts
it when it fails, and is written atomically (0644, it holds no secret). It is not started: the
command to enable it is printed. The one-time login URL is not written to the service's log
(which an agent may read): it is kept in clearance's state (``service.wiring.login_file``).

:func:`check_service` is ``doctor``'s view of it: installed or not, and for a systemd unit
whether it is enabled (read from the unit files, which needs no user manager) and running
(``systemctl --user is-active``, which does). Where ``systemctl`` is missing or cannot reach the
user manager (a container, CI, a session without ``systemd --user``) it says so and what it
could not tell, and does not count that as a problem.
"""

from __future__ import annotations

import os
import shlex
import sys

from clearance.policy.state import atomic_write, home_dir, state_root
from clearance.service.wiring import login_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from clearance.hosts.claude_code.doctor import Check

__all__ = ["UNIT_NAME", "check_service", "install_service", "unit_path"]

UNIT_NAME = "clearance-serve"
_LABEL = "dev.clearance.serve"


def unit_path(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    if sys.platform == "darwin":
        return os.path.join(home_dir(env), "Library", "LaunchAgents", f"{_LABEL}.plist")
    base = env.get("XDG_CONFIG_HOME") or os.path.join(home_dir(env), ".config")
    return os.path.join(base, "systemd", "user", f"{UNIT_NAME}.service")


def _program() -> list[str]:
    here = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "clearance")
    if os.access(here, os.X_OK):
        return [here]
    return [os.path.abspath(sys.executable), "-m", "clearance"]


def command(argv: list[str], env: dict[str, str]) -> list[str]:
    rest = [a for a in argv if a != "--install-service"]
    if "--listen" not in rest:
        rest += ["--listen", "127.0.0.1:8765"]
    if "--dir" not in rest:
        rest += ["--dir", home_dir(env)]
    return [*_program(), "serve", *rest]


def _systemd(words: list[str], env: dict[str, str]) -> str:
    keep = [f"Environment={shlex.quote(f'{k}={env[k]}')}" for k in ("CLEARANCE_HOME",
            "CLEARANCE_CONFIG", "XDG_CONFIG_HOME", "XDG_STATE_HOME") if env.get(k)]  # fmt: skip
    return "\n".join([
        "[Unit]",
        "Description=clearance serve: the HTTP hook and the web approval console",
        "",
        "[Service]",
        "ExecStart=" + " ".join(shlex.quote(w) for w in words),
        *keep,
        "Restart=on-failure",
        "RestartSec=2",
        "",
        "[Install]",
        "WantedBy=default.target",
        "",
    ])  # fmt: skip


def _launchd(words: list[str], env: dict[str, str]) -> str:
    from html import escape

    args = "".join(f"<string>{escape(w)}</string>" for w in words)
    log = os.path.join(home_dir(env), "Library", "Logs", "clearance-serve.log")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
        '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict>'
        f"<key>Label</key><string>{_LABEL}</string>"
        f"<key>ProgramArguments</key><array>{args}</array>"
        "<key>RunAtLoad</key><true/><key>KeepAlive</key><true/>"
        f"<key>StandardOutPath</key><string>{escape(log)}</string>"
        f"<key>StandardErrorPath</key><string>{escape(log)}</string>"
        "</dict></plist>\n"
    )


def install_service(argv: list[str], env: dict[str, str] | None = None) -> int:
    env = dict(os.environ) if env is None else env
    words = command(argv, env)
    path = unit_path(env)
    text = _launchd(words, env) if sys.platform == "darwin" else _systemd(words, env)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    atomic_write(path, text.encode(), mode=0o644)
    sys.stdout.write(f"{path}: written\n  runs: {' '.join(shlex.quote(w) for w in words)}\n")
    if sys.platform == "darwin":
        sys.stdout.write(f"  start it: launchctl load -w {shlex.quote(path)}\n")
    else:
        sys.stdout.write(
            f"  start it: systemctl --user daemon-reload && systemctl --user enable --now "
            f"{UNIT_NAME}\n  its login URL: cat {shlex.quote(login_file(state_root(env)))}\n"
        )
    return 0


def _systemctl(args: list[str], env: Mapping[str, str]) -> tuple[int, str, str]:
    """``systemctl --user ARGS``: (exit status, first line of stdout, first line of stderr)."""
    import shutil
    import subprocess

    program = shutil.which("systemctl", path=env.get("PATH", os.defpath))
    if program is None:
        return 127, "", "systemctl is not on PATH"
    try:
        done = subprocess.run([program, "--user", *args], capture_output=True, text=True,
                              env=dict(env), timeout=10, check=False)  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 126, "", f"systemctl could not run ({exc})"
    first = (done.stdout.strip().splitlines() or [""])[0]
    error = (done.stderr.strip().splitlines() or [""])[0]
    return done.returncode, first, error


def check_service(env: Mapping[str, str] | None = None) -> Check:
    """``doctor``'s line on the installed service."""
    from clearance.hosts.claude_code.doctor import Check

    env = os.environ if env is None else env
    path = unit_path(env)
    if not os.path.exists(path):
        return Check("service", True, "no service installed (`clearance serve "
                     "--install-service` runs the HTTP hook and the console at login; see "
                     "docs/console.md)")  # fmt: skip
    if sys.platform == "darwin":
        return Check("service", True, f"launchd agent installed ({path}); whether it is loaded "
                     "is not checked (`launchctl list " + _LABEL + "` tells)")  # fmt: skip
    unit = f"{UNIT_NAME}.service"
    code, enabled, error = _systemctl(["is-enabled", unit], env)
    if code in (126, 127):
        return Check("service", True, f"systemd user unit installed ({path}); whether it is "
                     f"enabled and running is unknown here: {error}")  # fmt: skip
    if enabled not in ("enabled", "enabled-runtime", "linked", "static", "alias", "indirect"):
        shown = enabled or error or f"systemctl exited with {code}"
        return Check("service", False, f"systemd user unit installed ({path}) but not enabled "
                     f"({shown}): it does not start at login",
                     f"systemctl --user daemon-reload && systemctl --user enable --now "
                     f"{UNIT_NAME}")  # fmt: skip
    code, active, error = _systemctl(["is-active", unit], env)
    if active in ("active", "reloading", "activating"):
        return Check("service", True, f"systemd user unit installed ({path}), {enabled} and "
                     f"{active}")  # fmt: skip
    if active in ("inactive", "failed", "deactivating"):
        return Check("service", False, f"systemd user unit installed ({path}) and {enabled}, "
                     f"but {active}: nothing answers the HTTP hook or the console",
                     f"systemctl --user restart {UNIT_NAME}; its log: journalctl --user -u "
                     f"{UNIT_NAME}")  # fmt: skip
    why = error or active or f"systemctl exited with {code}"
    return Check("service", True, f"systemd user unit installed ({path}) and {enabled}; whether "
                 "it is running is unknown here: `systemctl --user` cannot reach your user "
                 f"manager ({why})")  # fmt: skip
