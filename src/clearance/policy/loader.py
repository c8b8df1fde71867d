"""Loading the policy for one call: discover, validate, layer, cache.

A fresh process per tool call (a hook) must not re-parse and re-validate an unchanged policy, so
the layered rules are cached under ``$state/cache/`` (0600, ``marshal``, written atomically),
keyed by everything they depend on and checked against the size and mtime of every file probed
— including files that did not exist, so creating one invalidates the cache (ADR 0003).
"""

from __future__ import annotations

import os

from clearance import __version__
from clearance.policy.defaults import BUILTIN_POLICY
from clearance.policy.discovery import agent_files, policy_project, signature
from clearance.policy.errors import ConfigError
from clearance.policy.layering import clamp_allows, merge, rewrite_yolo
from clearance.policy.policy import Policy
from clearance.policy.protected import UNPROTECT
from clearance.policy.rule import Rule, RuleSet
from clearance.policy.secret import seal, user_secret
from clearance.policy.state import config_home, home_dir, state_root
from clearance.policy.surface import PATH_SURFACES
from clearance.policy.trust import AGENT_DIRS, CONFIG_FILE, file_digest, read_trusted, trust_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from clearance.policy.config import LayerConfig
    from clearance.policy.discovery import Probe
    from clearance.policy.layering import RuleTuple
    from clearance.policy.permission import PermissionMap
    from clearance.policy.trust import Record

__all__ = ["load_policy"]

_CACHE_FORMAT = 6


def _fnv(text: str) -> int:
    """FNV-1a, 64 bits: a stable file name for a cache key, without importing a hash module."""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8", "surrogatepass"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def load_policy(
    *,
    cwd: str,
    agent: str | None = None,
    config: str | None = None,
    inline: str | None = None,
    yolo: bool | None = None,
    env: Mapping[str, str] | None = None,
    use_cache: bool = True,
    config_pin: str | None = None,
) -> Policy:
    """The policy for a call in ``cwd`` by ``agent``.

    ``config`` (or ``$CLEARANCE_CONFIG``) names the one file to use instead of discovery;
    ``inline`` is configuration text used instead of any file. ``config_pin``: the SHA-256 the
    ``config`` file's content must have (``serve --config``, ADR 0050); the bytes parsed are
    the bytes hashed, and other content is an error (the policy fails closed). ``yolo`` forces
    yolo on or off; by default it comes from ``$CLEARANCE_YOLO`` or the configuration. Never
    raises for a bad configuration: errors are carried in ``Policy.errors`` and the rules fail
    closed.
    """
    env = os.environ if env is None else env
    home = home_dir(env)
    if config is None and inline is None:
        config = env.get("CLEARANCE_CONFIG") or None
    if config is not None:
        config = os.path.abspath(os.path.expanduser(config))
    agent = agent or None
    if inline is not None:
        data = _compile(cwd, agent, config, inline, home, env, [])
    else:
        data = _cached(cwd, agent, config, home, env, use_cache, config_pin)
    rules = data["rules"]
    errors = tuple(
        ConfigError(m, file=f, line=ln, column=c, text=t) for m, f, ln, c, t in data["errors"]
    )
    config_yolo = bool(data["yolo"])
    if yolo is None:
        yolo = _truthy(env.get("CLEARANCE_YOLO")) or config_yolo
    if errors:
        yolo = False  # a broken configuration never loosens anything (ADR 0002)
    if yolo:
        rules = rewrite_yolo(rules)
    if data["fatal"]:
        rules = clamp_allows(rules)  # a scope failed to load: its allows are gone, all ask
    return Policy(
        rules=_rule_set(rules, home),
        yolo=yolo,
        settings=dict(data["settings"]),
        test_data=tuple(data["tests"]),
        warnings=tuple(data["warnings"]),
        errors=errors,
        files=tuple(data["files"]),
        project=data["project"],
        trusted=bool(data["trusted"]),
        agent=agent,
        home=home,
    )


# Rule sets built in this process, by the rules they hold and the home they expand ``~`` to:
# a set is immutable and its evaluation pure, so the engines of projects whose layered rules
# are the same (a batch's or a service's projects without configuration of their own) share
# one, and the answers it remembers (docs/decisions/0032-rule-sets-shared-in-a-process.md).
_BUILT: dict[tuple[object, ...], RuleSet] = {}
_BUILT_MAX = 32


def _rule_set(rules: list[Any], home: str) -> RuleSet:
    key = (home, *map(tuple, rules))
    found = _BUILT.get(key)
    if found is None:
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.clear()
        built = [Rule(*r) for r in rules]
        found = _BUILT[key] = RuleSet(built, expand=tuple(PATH_SURFACES), home=home)
    return found


def _cached(
    cwd: str,
    agent: str | None,
    config: str | None,
    home: str,
    env: Mapping[str, str],
    use_cache: bool,
    config_pin: str | None = None,
) -> dict[str, Any]:
    import marshal

    state = state_root(env)
    project, nested = (None, None) if config else policy_project(cwd, home, state)
    key = "\0".join(
        [__version__, str(_CACHE_FORMAT), config or "", project or "", agent or "", home,
         config_home(env), config_pin or ""]
    )  # fmt: skip
    path = os.path.join(state, "cache", f"policy-{_fnv(key):016x}.marshal")
    # The built-in policy is part of what the cache was built from: a cache written by a
    # build with other built-in rules never answers (compared whole, not hashed: no cost).
    key += "\0" + BUILTIN_POLICY
    if use_cache:
        try:
            with open(path, "rb") as handle:
                tag, _, blob = handle.read().partition(b"\n")
            secret = user_secret(state)
            # Sealed with the per-user secret: a cache clearance did not write never answers.
            if secret is not None and tag.decode("ascii") == seal(blob, secret):
                cached = marshal.loads(blob)
                fresh = all(signature(p[0]) == tuple(p) for p in cached["probes"])
                if cached["key"] == key and fresh:
                    return cached["data"]  # type: ignore[no-any-return]
        except Exception:  # a missing, stale, corrupt or forged cache is simply rebuilt
            pass
    probes: list[Probe] = []
    data = _compile(cwd, agent, config, None, home, env, probes, project=project, nested=nested,
                    config_pin=config_pin)  # fmt: skip
    if use_cache:
        try:
            from clearance.policy.state import atomic_write, ensure_private_dir

            ensure_private_dir(state)
            ensure_private_dir(os.path.dirname(path))
            blob = marshal.dumps({"key": key, "probes": probes, "data": data})
            secret = user_secret(state, create=True)
            if secret is not None:
                atomic_write(path, seal(blob, secret).encode("ascii") + b"\n" + blob)
        except (OSError, ValueError):
            pass
    return data


def _pinned(project: str, path: str, record: Record) -> bool:
    """Whether ``path`` holds what it held when ``project`` was trusted."""
    relative = os.path.relpath(path, project)
    digest = record.get(relative)
    return digest is not None and file_digest(path) == digest


def _changed(path: str, project: str) -> str:
    return (
        f"{path}: skipped because it changed (or appeared) since the project was trusted; "
        f"review it, then run `clearance trust {project}`"
    )


def _unpinned(path: str, project: str, what: str = "changed (or appeared)") -> ConfigError:
    """A trusted project's policy file that no longer holds what was trusted: the policy fails
    closed (every allow asks, yolo is off) rather than lose the file's denies, which an agent
    could otherwise shed with `git checkout` or `git stash` (ADR 0002, ADR 0038)."""
    return ConfigError(
        f"{what} since the project was trusted: every allow asks until you review it and run "
        f"`clearance trust {project}`",
        file=path,
    )


def base_denies() -> list[RuleTuple]:
    """The deny rules of the built-in policy (its secret and destruction denies)."""
    from clearance.policy.config import parse_config
    from clearance.policy.defaults import BUILTIN_FILE

    scope = parse_config(BUILTIN_POLICY, BUILTIN_FILE)
    return [rule for rule in merge([("builtin", scope.permission)]) if rule[2] == "deny"]


def _compile(
    cwd: str,
    agent: str | None,
    config: str | None,
    inline: str | None,
    home: str,
    env: Mapping[str, str],
    probes: list[Probe],
    *,
    project: str | None = None,
    nested: str | None = None,
    config_pin: str | None = None,
) -> dict[str, Any]:
    """``nested``: an untrusted project root inside ``project`` that the call came from (its
    own config is skipped: ``project``'s applies). ``config_pin``: as for :func:`load_policy`."""
    from clearance.policy.config import load_config_file, parse_config
    from clearance.policy.defaults import BUILTIN_FILE
    from clearance.policy.frontmatter import parse_frontmatter

    scopes: list[tuple[str, PermissionMap]] = []
    agent_scopes: list[tuple[str, PermissionMap]] = []
    errors: list[ConfigError] = []  # a whole scope failed to load
    rule_errors: list[ConfigError] = []  # one rule failed; it asks, the file's others stand
    warnings: list[str] = []
    files: list[str] = []
    loaded: list[tuple[str, LayerConfig]] = []
    trusted = False

    def use(origin: str, path: str, scope: LayerConfig) -> None:
        loaded.append((origin, scope))
        files.append(path)
        rule_errors.extend(scope.errors)
        warnings.extend(scope.warnings)
        scopes.append((origin, scope.permission))
        if agent:
            for name, pmap in scope.agents:
                if name == agent:
                    agent_origin = (
                        "agent" if origin in ("global", "builtin", "inline") else "project_agent"
                    )
                    agent_scopes.append((agent_origin, pmap))

    def load_file(origin: str, path: str, pin: str | None = None) -> None:
        probes.append(signature(path))
        try:
            use(origin, path, load_config_file(path, pinned=pin))
        except ConfigError as exc:
            errors.append(exc)
            files.append(path)

    def load_agent_dir(origin: str, directory: str, record: Record | None = None) -> None:
        assert agent is not None
        for path in agent_files(directory, agent, probes):
            try:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError as exc:
                why = (exc.strerror or "refused").lower()
                errors.append(ConfigError(f"cannot read the agent file: {why}", file=path))
                continue
            except UnicodeDecodeError as exc:
                why = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                errors.append(ConfigError(f"cannot read the agent file: {why}", file=path))
                continue
            try:
                doc = parse_frontmatter(text)
                if doc is None or "permission" not in doc.value:
                    continue
                pinned = record is None or project is None or _pinned(project, path, record)
                if not pinned:
                    warnings.append(_changed(path, project or ""))
                    errors.append(_unpinned(path, project or ""))
                    continue
                from clearance.policy.checker import Checker
                from clearance.policy.permission import parse_permission

                checker = Checker(doc, path)
                pmap = parse_permission(checker, doc.value["permission"], ("permission",))
                rule_errors.extend(checker.rule_errors)
            except ConfigError as exc:
                errors.append(exc)
                continue
            except ValueError as exc:  # a JsoncError from the front matter reader
                offset = getattr(exc, "offset", 0)
                errors.append(ConfigError.at(str(exc), file=path, source=text, offset=offset))
                continue
            files.append(path)
            agent_scopes.append((origin, pmap))

    if inline is not None:
        try:
            use("inline", "<inline>", parse_config(inline, "<inline policy>"))
        except ConfigError as exc:
            errors.append(exc)
    elif config is not None:
        load_file("global", config, config_pin)
    else:
        global_dir = config_home(env)
        global_file = os.path.join(global_dir, "config.jsonc")
        probe = signature(global_file)
        if probe[1] < 0 and not os.path.lexists(global_file):
            probes.append(probe)
            global_file = os.path.join(global_dir, "config.json")
        if signature(global_file)[1] >= 0 or os.path.lexists(global_file):
            load_file("global", global_file)
        else:
            probes.append(signature(global_file))
            use("builtin", BUILTIN_FILE, parse_config(BUILTIN_POLICY, BUILTIN_FILE))
        if agent:
            load_agent_dir("agent", os.path.join(global_dir, "agents"))
        if project is not None:
            state = state_root(env)
            probes.append(signature(trust_file(state)))
            record = read_trusted(state).get(os.path.realpath(project))
            trusted = record is not None
            project_file = os.path.join(project, CONFIG_FILE)
            probe = signature(project_file)
            if record is not None:
                if not (probe[1] >= 0 or os.path.lexists(project_file)):
                    probes.append(probe)
                    if CONFIG_FILE in record:
                        errors.append(_unpinned(project_file, project, "deleted"))
                elif _pinned(project, project_file, record):
                    load_file("project", project_file)
                else:
                    probes.append(probe)
                    warnings.append(_changed(project_file, project))
                    errors.append(_unpinned(project_file, project))
                if agent:
                    for directory in AGENT_DIRS:
                        load_agent_dir("project_agent", os.path.join(project, directory), record)
                        own = os.path.join(directory, agent + ".md")
                        if own in record and not os.path.lexists(os.path.join(project, own)):
                            errors.append(_unpinned(os.path.join(project, own), project,
                                                    "deleted"))  # fmt: skip
            else:
                probes.append(probe)
                if probe[1] >= 0:
                    warnings.append(
                        f"{project_file}: skipped because the project is not trusted; "
                        f"run `clearance trust {project}` to use it"
                    )
        if nested is not None:
            nested_file = os.path.join(nested, CONFIG_FILE)
            probe = signature(nested_file)
            probes.append(probe)
            if probe[1] >= 0:
                warnings.append(
                    f"{nested_file}: skipped because the project is not trusted; the trusted "
                    f"project around it applies ({project}); run `clearance trust {nested}` to "
                    "use it instead"
                )
    rules = merge([*scopes, *agent_scopes])
    base = base_denies()
    if not any(origin == "builtin" for origin, _ in scopes):
        # The built-in denies are a base layer: beneath every configuration, loosened only
        # by a rule that names the same pattern (docs/configuration.md, "The built-in base").
        named = {(rule[0], rule[1]) for rule in rules}
        rules.extend(rule for rule in base if (rule[0], rule[1]) not in named)
    else:
        # The built-in policy is its own base: its denies stand last, so none of its broader
        # rules (`path_write` "*" asks, written after the `path` secrets) loosens one of them.
        denies = set(base)
        rules = [rule for rule in rules if rule not in denies] + base
    settings: dict[str, Any] = {}
    yolo = False
    tests: list[dict[str, Any]] = []
    for origin, scope in loaded:
        for key, value in scope.settings:
            if key == UNPROTECT and origin not in ("global", "inline"):
                # Only the user's own global file may loosen a protected path.
                warnings.append(f"{scope.file}: {UNPROTECT} is honoured only in the global "
                                f"configuration; ignored here")  # fmt: skip
                continue
            settings[key] = value
        if scope.yolo is not None:
            yolo = scope.yolo
        tests.extend({f: getattr(t, f) for f in t._fields} for t in scope.tests)
    return {
        "rules": rules,
        "yolo": yolo,
        "settings": settings,
        "tests": tests,
        "warnings": warnings,
        "errors": [(e.message, e.file, e.line, e.column, e.text) for e in (*errors, *rule_errors)],
        "fatal": bool(errors),
        "files": files,
        "project": project,
        "trusted": trusted,
    }
