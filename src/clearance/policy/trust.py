"""Trusted projects: a project's own config loads only after its owner said so, as it was then.

A cloned repository could otherwise ship a ``.clearance/config.jsonc`` that loosens your policy,
and an agent that can write files could change a trusted one. Trust is therefore pinned to
content, as direnv pins ``.envrc``: ``clearance trust DIR`` records the project's absolute,
symlink-resolved root together with the SHA-256 of each policy file it holds — the project
config, and every agent definition under ``.clearance/agents/`` or ``.claude/agents/`` that
carries a ``permission`` block. A file whose content no longer matches its recorded hash (or
that was not there when the project was trusted) is not loaded, with a warning, until the human
reviews it and trusts the project again.

A project is trusted when its root is a trusted directory — exactly: a repository nested inside
a trusted one (a vendored dependency, a submodule, something the agent cloned) is a project of
its own and needs its own trust; until it has it, the trusted project's configuration applies
there (``discovery.policy_project``).

The store is ``$state/trusted-projects`` (0600, atomic rewrite, inside clearance's protected
state directory): one line per project, ``ROOT<TAB>FILE=SHA256<TAB>…`` with ``FILE`` relative
to the root. A line without hashes (written by an older clearance) trusts no file.
"""

from __future__ import annotations

import os

from clearance.policy.state import atomic_write, ensure_private_dir

__all__ = [
    "CONFIG_FILE",
    "PinnedFile",
    "content_digest",
    "file_digest",
    "is_trusted",
    "policy_files",
    "read_trusted",
    "trust",
    "trust_file",
    "untrust",
]

CONFIG_FILE = os.path.join(".clearance", "config.jsonc")
AGENT_DIRS = (os.path.join(".clearance", "agents"), os.path.join(".claude", "agents"))

Record = dict[str, str]  # file relative to the root -> SHA-256 of its content


def trust_file(state: str) -> str:
    return os.path.join(state, "trusted-projects")


def read_trusted(state: str) -> dict[str, Record]:
    """Every trusted root and the files it was trusted with."""
    out: dict[str, Record] = {}
    try:
        with open(trust_file(state), encoding="utf-8") as handle:
            for line in handle:
                fields = line.rstrip("\n").split("\t")
                if not fields[0]:
                    continue
                record: Record = {}
                for field in fields[1:]:
                    name, eq, digest = field.rpartition("=")
                    if eq and name:
                        record[name] = digest
                out[fields[0]] = record
    except (FileNotFoundError, NotADirectoryError):
        pass
    return out


def is_trusted(root: str, trusted: dict[str, Record]) -> bool:
    return os.path.realpath(root) in trusted


def content_digest(data: bytes) -> str:
    """The SHA-256 of ``data``, as trust records and pins keep it (hex)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def file_digest(path: str) -> str | None:
    """The SHA-256 of ``path``'s content (``None``: unreadable)."""
    try:
        with open(path, "rb") as handle:
            return content_digest(handle.read())
    except OSError:
        return None


def policy_files(root: str) -> list[str]:
    """The policy files of the project at ``root``, relative to it: the project config and the
    agent definitions that carry a ``permission`` block."""
    found = [CONFIG_FILE] if os.path.isfile(os.path.join(root, CONFIG_FILE)) else []
    for directory in AGENT_DIRS:
        try:
            names = sorted(os.listdir(os.path.join(root, directory)))
        except OSError:
            continue
        for name in names:
            if not name.endswith(".md"):
                continue
            relative = os.path.join(directory, name)
            try:
                with open(os.path.join(root, relative), "rb") as handle:
                    if b"permission" in handle.read():
                        found.append(relative)
            except OSError:
                continue
    return found


class PinnedFile:
    """A configuration file held to the content it had when the human chose it, as a trusted
    project's files are: ``clearance serve --config F`` reloads ``F`` only while its content is
    the one pinned when serve started, or the one serve itself wrote there (the dialog's
    "always"). An agent that can write ``F`` (it may lie in a project, where the agent's own
    hook does not know it is the serving session's policy) cannot loosen the serving policy by
    editing it (``docs/decisions/0050-a-serving-sessions-config-file-is-pinned.md``). A file
    missing at start is pinned as missing: one that appears later is not loaded."""

    __slots__ = ("digest", "path")

    ABSENT = "absent"  # the digest of a file that is not there (no SHA-256 spells it)

    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(os.path.expanduser(path))  # as the loader reads it
        self.digest = file_digest(self.path) or self.ABSENT

    def check(self) -> None:
        """Raise ``ValueError`` when the file's content is no longer the pinned one."""
        if (file_digest(self.path) or self.ABSENT) != self.digest:
            raise ValueError(
                f"{self.path} changed outside this serving session, so the session keeps the "
                "policy it had (an agent may have written the file). Review the file, then "
                "restart `clearance serve` to load it as it is now"
            )

    def holds(self, data: bytes | None) -> bool:
        """Whether ``data`` (``None``: no file) is the pinned content."""
        return (self.ABSENT if data is None else content_digest(data)) == self.digest

    def keep(self, data: bytes) -> None:
        """Pin ``data``: what serve itself has just written to the file."""
        self.digest = content_digest(data)


def _write(state: str, entries: dict[str, Record]) -> None:
    ensure_private_dir(state)
    lines = []
    for root, record in entries.items():
        fields = [root, *(f"{name}={digest}" for name, digest in sorted(record.items()))]
        lines.append("\t".join(fields) + "\n")
    atomic_write(trust_file(state), "".join(lines).encode("utf-8"))


def trust(state: str, directory: str) -> str:
    """Record ``directory`` as trusted with its policy files as they are now; returns the
    resolved directory."""
    real = os.path.realpath(directory)
    if not os.path.isdir(real):
        raise NotADirectoryError(f"{directory} is not a directory")
    if "\t" in real or "\n" in real:
        raise ValueError(f"{directory}: a tab or a line break in the path cannot be trusted")
    record: Record = {}
    for relative in policy_files(real):
        digest = file_digest(os.path.join(real, relative))
        if digest is not None and "\t" not in relative and "\n" not in relative:
            record[relative] = digest
    entries = read_trusted(state)
    entries[real] = record
    _write(state, entries)
    return real


def untrust(state: str, directory: str) -> bool:
    """Forget ``directory``; whether it was trusted."""
    real = os.path.realpath(directory)
    entries = read_trusted(state)
    if real not in entries:
        return False
    del entries[real]
    _write(state, entries)
    return True
