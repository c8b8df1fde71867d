"""Finding the files a decision depends on: global config, project config, agent definitions.

The project is the nearest directory from the working directory up that holds ``.clearance``,
``.git`` or ``.claude`` (the home directory itself is never a project). Every path probed is
returned with its stat signature, present or not, so the compiled-policy cache knows exactly
what to re-check.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

__all__ = ["Probe", "agent_files", "find_project", "policy_project", "signature"]

_MARKERS = (".clearance", ".git", ".claude")

# (path, size, mtime_ns, ctime_ns, inode); (path, -1, -1, -1, -1) when missing. The change
# time and inode catch a file replaced by one of the same size and modification time
# (``cp -p``, ``rsync -a``, ``touch -d``).
Probe = tuple[str, int, int, int, int]


def signature(path: str) -> Probe:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1, -1, -1)
    return (path, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def find_project(cwd: str, home: str) -> str | None:
    """The project root for ``cwd``, or ``None`` outside any project."""
    current = os.path.abspath(cwd)
    home = os.path.abspath(home) if home else ""
    while True:
        if current != home:
            for marker in _MARKERS:
                if os.path.exists(os.path.join(current, marker)):
                    return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def policy_project(cwd: str, home: str, state: str) -> tuple[str | None, str | None]:
    """The project whose configuration applies at ``cwd``, and the nearer root passed over for
    it (else ``None``). That is :func:`find_project`'s root, unless the root is untrusted and
    lies inside a trusted project, whose configuration then applies: a directory the agent
    makes a project of its own (``mkdir sub/.git``, a clone) must not shed the rules of the
    trusted project around it. The trust store is read only for such a nested root (ADR 0038)."""
    project = find_project(cwd, home)
    if project is None:
        return None, None
    outer = find_project(os.path.dirname(project), home)
    if outer is None or outer == project:
        return project, None  # not nested: the common case, no trust read
    from clearance.policy.trust import read_trusted

    trusted = read_trusted(state)
    if os.path.realpath(project) in trusted:
        return project, None
    while outer is not None:
        if os.path.realpath(outer) in trusted:
            return outer, project
        parent = os.path.dirname(outer)
        if parent == outer:
            break
        outer = find_project(parent, home)
    return project, None


def safe_agent_name(agent: str) -> bool:
    """Whether ``agent`` can name a file: no separators, no ``..``, not hidden. An agent name
    comes from the host's payload; it must never steer which file is read (a ``../`` name
    could load an untrusted project's agent file as a trusted one)."""
    return bool(agent) and not (
        "/" in agent or "\\" in agent or "\0" in agent or agent.startswith(".")
    )


def agent_files(directory: str, agent: str, probes: list[Probe]) -> list[str]:
    """Definition files for ``agent`` in ``directory``: ``<agent>.md``, else one whose front
    matter says ``name: <agent>``. Every probe made is appended to ``probes``."""
    if not safe_agent_name(agent):
        return []
    exact = os.path.join(directory, agent + ".md")
    probe = signature(exact)
    probes.append(probe)
    if probe[1] >= 0:
        return [exact]
    probes.append(signature(directory))
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    found = []
    for name in names:
        if not name.endswith(".md"):
            continue
        path = os.path.join(directory, name)
        probes.append(signature(path))
        if _declares_name(path, agent):
            found.append(path)
    return found


def _declares_name(path: str, agent: str) -> bool:
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(4096)
    except (OSError, UnicodeDecodeError):
        return False
    if not head.startswith("---"):
        return False
    for line in head.splitlines()[1:]:
        if line.strip() == "---":
            break
        if line.startswith("name:"):
            return line[5:].strip().strip("\"'") == agent
    return False
