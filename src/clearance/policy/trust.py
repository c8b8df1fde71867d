"""Trusted projects: a project's own config loads only after its owner said so.

A cloned repository could otherwise ship a ``.clearance/config.jsonc`` that loosens your policy.
Trust is recorded as one absolute, symlink-resolved directory per line in
``$state/trusted-projects`` (0600, atomic rewrite); a project is trusted when its root is a
trusted directory — exactly: a repository nested inside a trusted one (a vendored dependency, a
submodule, something the agent cloned) is a project of its own and needs its own trust.
"""

from __future__ import annotations

import os

from clearance.policy.state import atomic_write, ensure_private_dir

__all__ = ["is_trusted", "read_trusted", "trust", "trust_file", "untrust"]


def trust_file(state: str) -> str:
    return os.path.join(state, "trusted-projects")


def read_trusted(state: str) -> list[str]:
    try:
        with open(trust_file(state), encoding="utf-8") as handle:
            return [line.rstrip("\n") for line in handle if line.strip()]
    except (FileNotFoundError, NotADirectoryError):
        return []


def is_trusted(root: str, trusted: list[str]) -> bool:
    return os.path.realpath(root) in trusted


def _write(state: str, entries: list[str]) -> None:
    ensure_private_dir(state)
    body = "".join(entry + "\n" for entry in entries)
    atomic_write(trust_file(state), body.encode("utf-8"))


def trust(state: str, directory: str) -> str:
    """Record ``directory`` as trusted; returns the resolved directory."""
    real = os.path.realpath(directory)
    if not os.path.isdir(real):
        raise NotADirectoryError(f"{directory} is not a directory")
    entries = read_trusted(state)
    if real not in entries:
        entries.append(real)
        _write(state, entries)
    return real


def untrust(state: str, directory: str) -> bool:
    """Forget ``directory``; whether it was trusted."""
    real = os.path.realpath(directory)
    entries = read_trusted(state)
    if real not in entries:
        return False
    _write(state, [e for e in entries if e != real])
    return True
