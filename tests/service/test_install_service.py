"""``clearance serve --install-service`` writes a systemd user unit that runs this clearance."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys

import pytest


def test_the_unit_runs_serve_listen_on_loopback_and_restarts_on_failure(world) -> None:  # type: ignore[no-untyped-def]
    if sys.platform == "darwin":
        pytest.skip("the launchd agent is written on macOS")
    result = world.run("serve", "--install-service", "--listen", "127.0.0.1:9911")
    assert result.returncode == 0, result.stderr
    unit = world.config_home / "systemd" / "user" / "clearance-serve.service"
    text = unit.read_text()
    [exec_start] = [line for line in text.splitlines() if line.startswith("ExecStart=")]
    words = shlex.split(exec_start.removeprefix("ExecStart="))
    assert words[words.index("serve") :] == [
        "serve", "--listen", "127.0.0.1:9911", "--dir", str(world.home),
    ]  # fmt: skip
    assert f"Environment=CLEARANCE_HOME={world.state}" in text
    assert "Restart=on-failure" in text and "WantedBy=default.target" in text
    assert "systemctl --user enable --now clearance-serve" in result.stdout
    verify = shutil.which("systemd-analyze")
    if verify:  # systemd's own parser (as a system unit: no user manager runs here)
        checked = subprocess.run([verify, "verify", str(unit)], capture_output=True, text=True,
                                 timeout=60)  # fmt: skip
        assert checked.returncode == 0, checked.stderr
