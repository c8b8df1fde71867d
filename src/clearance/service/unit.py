"""``clearance serve --install-service``: run the service at login, as a systemd user unit
(Linux) or a launchd agent (macOS).

The unit runs this very ``clearance`` (absolute path) as ``serve --listen`` with the options
given next to ``--install-service`` (default ``--listen 127.0.0.1:8765 --dir $HOME``), restarts
it when it fails, and is written atomically (0644, it holds no secret). It is not started: the
command to enable it is printed. The one-time login URL goes to the service's log
(``journalctl --user -u clearance-serve``, or the launchd log file, both readable only by you).
"""

from __future__ import annotations

import os
import shlex
import sys

from clearance.policy.state import atomic_write, home_dir

__all__ = ["UNIT_NAME", "install_service", "unit_path"]

UNIT_NAME = "clearance-serve"
_LABEL = "dev.clearance.serve"


def unit_path(env: dict[str, str] | None = None) -> str:
    env = dict(os.environ) if env is None else env
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
            f"{UNIT_NAME}\n  its login URL: journalctl --user -u {UNIT_NAME} | grep login\n"
        )
    return 0
