"""``clearance doctor`` reports the installed service: not installed, installed but not enabled,
enabled (with the real ``systemctl``, which reads unit files without a user manager), and says
clearly what it cannot tell where ``systemctl --user`` has no user manager or is missing."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest


def service_line(output: str) -> str:
    [line] = [x for x in output.splitlines() if "  service:" in x]
    return line


@pytest.mark.skipif(sys.platform == "darwin", reason="a launchd agent on macOS")
def test_doctor_reports_the_service_unit_and_degrades_without_a_user_manager(world) -> None:  # type: ignore[no-untyped-def]
    project = world.project()
    out = world.run("doctor", "--cwd", str(project), cwd=project).stdout
    line = service_line(out)
    assert line.startswith("ok") and "no service installed" in line, out
    assert world.run("serve", "--install-service").returncode == 0
    systemctl = shutil.which("systemctl")
    if systemctl is None:
        out = world.run("doctor", "--cwd", str(project), cwd=project).stdout
        assert "unknown here: systemctl is not on PATH" in service_line(out), out
        return
    out = world.run("doctor", "--cwd", str(project), cwd=project).stdout
    line = service_line(out)
    assert line.startswith("FAIL") and "not enabled" in line, out
    assert "systemctl --user daemon-reload && systemctl --user enable --now" in out
    # Enabling is a symlink systemctl makes itself, with or without a user manager.
    enabled = subprocess.run([systemctl, "--user", "enable", "clearance-serve.service"],
                             env=world.env, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert enabled.returncode == 0, enabled.stderr
    out = world.run("doctor", "--cwd", str(project), cwd=project).stdout
    line = service_line(out)
    assert "and enabled" in line, out
    probe = subprocess.run([systemctl, "--user", "is-active", "clearance-serve.service"],
                           env=world.env, capture_output=True, text=True, timeout=60)  # fmt: skip
    if "bus" in probe.stderr.lower() or not probe.stdout.strip():
        # A container or CI: no user manager. Said plainly, and not counted as a problem.
        assert line.startswith("ok") and "cannot reach your user manager" in line, out
    else:  # a user manager runs: the unit (in a temporary config home) is not running
        assert line.startswith("FAIL") and "journalctl --user -u clearance-serve" in out, out


def test_doctor_says_what_it_cannot_tell_without_systemctl(world, tmp_path) -> None:  # type: ignore[no-untyped-def]
    if sys.platform == "darwin":
        pytest.skip("a launchd agent on macOS")
    assert world.run("serve", "--install-service").returncode == 0
    bare = tmp_path / "bin"  # a PATH with no systemctl on it
    bare.mkdir()
    from clearance.service.unit import check_service

    check = check_service({**world.env, "PATH": str(bare)})
    assert check.ok and "whether it is enabled and running is unknown" in check.summary
    assert "systemctl is not on PATH" in check.summary
