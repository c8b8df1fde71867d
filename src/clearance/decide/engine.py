"""The engine: load a policy once, decide many calls.

``Engine.check`` never raises: an exception anywhere on the decision path denies the call with a
``gate_error`` result (fail closed), so a bug can cost a prompt but never a silent allow.
"""

from __future__ import annotations

import os

from clearance.decide.deadline import SECONDS, Expired, within
from clearance.decide.decision import Decision, GateResult, UnitFact
from clearance.decide.fold import fold
from clearance.decide.gates.beneath_write import tree_write_gate, writes_beneath
from clearance.decide.gates.path import external_gate, path_gate
from clearance.decide.gates.protected import protected_gate
from clearance.decide.gates.tool import tool_gate
from clearance.intent.path import path_fact
from clearance.intent.tool_paths import MAX_PATHS, paths_of
from clearance.policy.loader import load_policy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from clearance.decide.grant import GrantStore
    from clearance.intent.boundary import HostFacts
    from clearance.intent.call import ToolCall
    from clearance.intent.path import PathFact
    from clearance.intent.volume import Volumes
    from clearance.policy.policy import Policy
    from clearance.policy.rule import RuleSet

    _BashGate = Callable[
        ..., tuple[list[GateResult], tuple[UnitFact, ...], list[PathFact], list[PathFact]]
    ]

__all__ = ["Engine"]


def _expired(call: ToolCall) -> GateResult:
    from clearance.intent.sentinel import DEADLINE

    command = call.field("command", "cmd")
    text = command.strip() if isinstance(command, str) else ""
    message = (
        f'Needs approval: clearance could not finish analysing bash command "{text[:200]}" '
        f"within {SECONDS:g} seconds, so it cannot tell what the line does ({DEADLINE})"
    )
    return GateResult("bash", "bash", text, "ask", None, message, DEADLINE, text)


def _too_many(call: ToolCall, count: int) -> GateResult:
    message = (
        f"Denied: this {call.tool} call names {count:,} paths, more than the {MAX_PATHS:,} "
        "clearance checks in one call (checking them all could outlast the host's hook "
        "timeout, which lets a call through); split it into smaller calls"
    )
    return GateResult("path", "path", "", "deny", None, message)


_normpath = os.path.normpath
# Loaded on first use, then kept: an import statement costs a microsecond on every call.
_BASH_GATE: list[_BashGate | None] = [None]
_PROJECT_ROOT: list[Callable[[str, str], str] | None] = [None]


def _load_bash_gate() -> _BashGate:
    from clearance.decide.gates.bash import bash_gate, load

    load()  # the analyzer loads outside the deadline, which bounds the analysis only
    _BASH_GATE[0] = bash_gate
    return bash_gate


def _load_project_root() -> Callable[[str, str], str]:
    from clearance.intent.boundary import project_root

    _PROJECT_ROOT[0] = project_root
    return project_root


class Engine:
    """Decides tool calls against one :class:`~clearance.policy.policy.Policy`."""

    __slots__ = (
        "_disk", "_protected", "_reported", "config_dir", "grants", "grep_skips_hidden", "host",
        "policy", "relocated", "state", "volumes",
    )  # fmt: skip

    def __init__(
        self,
        policy: Policy,
        *,
        grants: GrantStore | None = None,
        state: str | None = None,
        config_dir: str | None = None,
        host: HostFacts | None = None,
        volumes: Volumes | None = None,
    ) -> None:
        """``grants``: a session's grants held in memory (long-lived hosts); without it, a call
        with a session reads that session's grants from ``state`` (one process per call).
        ``state`` and ``config_dir`` (default: the environment's) are protected paths. ``host``:
        what the agent host knows (its scratch directories, its MCP servers), when known.
        ``volumes``: whether volumes fold case (default: probed; tests inject one)."""
        self.volumes = volumes
        self.policy = policy
        self.host = host
        self.grants = grants
        self.state = state
        self.config_dir = config_dir
        self._disk: dict[str, GrantStore] = {}
        self._reported: set[str] = set()  # sessions whose rejected grant file was reported
        self._protected: RuleSet | None = None
        # Home directories of the protected paths that the environment moved elsewhere
        # (`("~/.codex", "/srv/codex")`), as the hosts layer reads them (`hosts.facts`).
        self.relocated: tuple[tuple[str, str], ...] = ()
        # Whether the host's Grep tool runs ripgrep without --hidden, as the hosts layer knows;
        # otherwise (some hosts' Grep passes --hidden) hidden entries beneath count.
        self.grep_skips_hidden = False

    @classmethod
    def load(
        cls,
        *,
        cwd: str,
        agent: str | None = None,
        config: str | None = None,
        policy: str | None = None,
        yolo: bool | None = None,
        env: Mapping[str, str] | None = None,
        use_cache: bool = True,
        host: HostFacts | None = None,
        config_pin: str | None = None,
    ) -> Engine:
        """Load the layered policy for ``cwd`` and ``agent`` (``policy`` = inline JSONC text;
        ``config_pin``: the SHA-256 the ``config`` file must hold, ``load_policy``)."""
        from clearance.policy.state import state_root

        loaded = load_policy(
            cwd=cwd, agent=agent, config=config, inline=policy, yolo=yolo, env=env,
            use_cache=use_cache, config_pin=config_pin,
        )  # fmt: skip
        from clearance.policy.state import config_home

        return cls(loaded, state=state_root(env), config_dir=config_home(env), host=host)

    def check(self, call: ToolCall, *, seconds: float | None = None) -> Decision:
        """The decision on ``call``. ``seconds``: a shorter bash deadline than :data:`SECONDS`
        for this call (past it the line asks with ``<analysis-deadline>``, as at the usual one):
        the HTTP hook of ``clearance serve`` decides on its event loop under a short one, and
        asks again on a worker thread under the usual one (ADR 0049)."""
        try:
            return self._check(call, SECONDS if seconds is None else min(seconds, SECONDS))
        except Exception as exc:  # fail closed: ADR 0002
            from clearance._fault import describe

            message = (
                f"Denied: clearance could not decide this call ({describe(exc)}); it fails closed"
            )
            from clearance.intent.sentinel import GATE_ERROR

            result = GateResult(GATE_ERROR, "*", "", "deny", None, message, sentinel=GATE_ERROR)
            return Decision("deny", message, None, (result,), call)

    def _check(self, call: ToolCall, seconds: float) -> Decision:
        rules = self.policy.rules
        kind = call.kind
        cwd = call.cwd
        # os.path.abspath, without its checks for the usual absolute string
        cwd = _normpath(cwd) if isinstance(cwd, str) and cwd[:1] == "/" else os.path.abspath(cwd)
        if kind == "bash":
            if call.cwd != cwd:
                call = call.replace(cwd=cwd)
            # The bash gate (and the analysis behind it) is loaded only for a bash call.
            bash_gate = _BASH_GATE[0] or _load_bash_gate()
            # The canonical working directory is resolved only when the line touches a path.
            try:
                results, units, facts, made = within(seconds, bash_gate, rules, call,
                                                     home=self.policy.home,
                                                     extra=self._inside)  # fmt: skip
            except Expired:
                return self._finish(call, [_expired(call)])
            if facts:
                volumes = self.volumes
                results += path_gate(rules, facts, tool="bash", volumes=volumes)
                results += external_gate(rules, facts, tool="bash")
                results += protected_gate(self.protected(), facts, tool="bash", volumes=volumes)
                if writes_beneath(facts):  # a tree removed or replaced at once (ADR 0045)
                    results += tree_write_gate(self.protected(), facts, tool="bash",
                                               home=self.policy.home, volumes=volumes)  # fmt: skip
                if any(f.recursive for f in facts) and all(r.action != "deny" for r in results):
                    # What lies beneath a directory read recursively (a deny already stands).
                    from clearance.decide.gates.beneath import beneath_gate

                    results += beneath_gate(rules, self.protected(), facts, tool="bash",
                                            volumes=volumes, home=self.policy.home)  # fmt: skip
            if made:  # a protected name a command may make (`cd .claude && uniq - settings.json`)
                results += protected_gate(self.protected(), made, tool="bash",
                                          volumes=self.volumes)  # fmt: skip
            return self._finish(call, results, units=units, paths=tuple(facts))
        raw_paths, direction, path_tool = paths_of(call, self.policy.home)
        if len(raw_paths) > MAX_PATHS:
            return self._finish(call, [_too_many(call, len(raw_paths))])
        # The Grep tool searches every file beneath a directory it is given.
        deep = kind == "grep"
        facts = []
        if raw_paths:
            from clearance.intent.boundary import project_boundary

            found = project_boundary(cwd, self.policy.home, self._inside(cwd))
            facts = [
                path_fact(raw, cwd=cwd, home=self.policy.home, direction=direction,
                          boundary=found.root, extra=found.inside, recursive=deep)
                for raw in raw_paths
            ]  # fmt: skip
        if path_tool and facts:
            results = [tool_gate(rules, call, path_values=f.aliases) for f in facts]
        elif kind == "mcp" and self.host is not None:
            from clearance.intent.boundary import project_root

            home = self.policy.home
            servers = self.host.mcp_servers(project_root(cwd, home), cwd, home)
            results = [tool_gate(rules, call, servers=servers)]
        else:
            results = [tool_gate(rules, call, path_values=("*",) if path_tool else None)]
        results += path_gate(rules, facts, tool=kind, volumes=self.volumes)
        results += external_gate(rules, facts, tool=kind)
        if facts:
            results += protected_gate(self.protected(), facts, tool=kind, volumes=self.volumes)
        if deep and all(r.action != "deny" for r in results):
            results += self._beneath(call, facts, cwd)
        return self._finish(call, results, paths=tuple(facts))

    def _inside(self, cwd: str) -> tuple[str, ...]:
        """The directories besides the project of ``cwd`` that the host counts as inside."""
        if self.host is None:
            return ()
        home = self.policy.home
        return self.host.inside((_PROJECT_ROOT[0] or _load_project_root())(cwd, home), home)

    def _beneath(self, call: ToolCall, facts: list[PathFact], cwd: str) -> list[GateResult]:
        """What the Grep tool reaches beneath the directories it searches (without a path, the
        working directory), within its ``glob`` filter. Where the host's Grep tool runs ripgrep
        without ``--hidden`` or ``--follow`` (:attr:`grep_skips_hidden`), and its input cannot
        add them, hidden entries and symlinks beneath the directory are not searched (a hidden
        directory given as the path itself is)."""
        from clearance.decide.gates.beneath import beneath_gate

        data = call.input
        only = data.get("glob") if isinstance(data, dict) else None
        data_path = data.get("path") if isinstance(data, dict) else None
        if not data_path:
            from clearance.intent.boundary import project_boundary

            home = self.policy.home
            found = project_boundary(cwd, home, self._inside(cwd))
            facts = [path_fact(cwd, cwd=cwd, home=home, direction="read", boundary=found.root,
                               extra=found.inside, recursive=True)]  # fmt: skip
        from clearance.decide.gates.ignore_files import whitelists_above

        # An ignore file above a searched directory may whitelist a hidden entry beneath it.
        home = self.policy.home
        hidden = not self.grep_skips_hidden or any(
            f.recursive and f.canonical and whitelists_above(f.canonical, home) for f in facts
        )
        return beneath_gate(self.policy.rules, self.protected(), facts, tool=call.kind,
                            volumes=self.volumes, only=only if isinstance(only, str) else None,
                            hidden=hidden)  # fmt: skip

    def protected(self) -> RuleSet:
        """The protected paths (``clearance.policy.protected``), built on first use."""
        found = self._protected
        if found is None:
            from clearance.policy.protected import protected_rules
            from clearance.policy.state import config_home, state_root

            state = self.state or state_root()
            config_dir = self.config_dir or config_home()
            unprotect = self.policy.setting("dangerouslyUnprotectPaths", ())
            found = self._protected = protected_rules(
                self.policy.home, state, config_dir, unprotect, self.relocated, self.policy.files
            )
        return found

    def _finish(
        self,
        call: ToolCall,
        results: list[GateResult],
        *,
        units: tuple[UnitFact, ...] = (),
        paths: tuple[PathFact, ...] = (),
    ) -> Decision:
        """Apply session grants and yolo where a gate asks (``decide/lift.py``), then fold."""
        for result in results:
            if result.action == "ask":
                break
        else:
            return fold(call, results, units=units, paths=paths)  # nothing asks
        store = self.grants_for(call.session)
        if store is not None and not store.grants():
            store = None
        yolo = self.policy.yolo
        if store is not None or yolo:
            from clearance.decide.lift import lift

            home = self.policy.home
            results = [lift(r, store, yolo, home) for r in results]
        return fold(call, results, units=units, paths=paths)

    def rejected_grants(self) -> list[tuple[str, str, str]]:
        """``(session, file, why)`` for each session-grant file read since the last call that
        failed its seal (its grants were ignored); each is reported once per engine."""
        out = []
        for session, store in self._disk.items():
            if getattr(store, "rejected", False) and session not in self._reported:
                self._reported.add(session)
                out.append((session, getattr(store, "path", ""), getattr(store, "why", "")))
        return out

    def grants_for(self, session: str | None) -> GrantStore | None:
        """The grants of ``session``: the engine's own store, else the session's file."""
        if self.grants is not None:
            return self.grants
        if not session or not self.state:
            return None
        store = self._disk.get(session)
        if store is None:
            from clearance.decide.grant import DiskGrants

            store = self._disk[session] = DiskGrants(self.state, session)
        return store
