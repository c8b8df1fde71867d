"""Protected paths: what an agent may never change about clearance, its hosts or its shell.

These rules are built in and sit outside every policy layer (``docs/configuration.md``,
"Protected paths"): no global, project or agent configuration, no yolo and no session grant
loosens them.

* **Clearance's own files and the hosts' settings** — clearance's configuration directory and
  state directory (trust store, grants, cache, forwarding, logs), any project's
  ``.clearance/``, and the settings and extension points of the agent hosts clearance plugs
  into (``~/.claude/settings.json``, ``~/.claude.json``, ``.claude/settings*.json``,
  ``.claude/agents/``, ``.claude/commands/``, ``.claude/hooks/``, ``.claude/skills/``,
  ``~/.claude/plugins/``, and the Codex and Gemini CLI equivalents: their rules, policies and
  extensions; and for Qwen Code, Copilot CLI, Cursor, OpenCode and pi every file
  ``clearance install`` writes a hook or plugin into). A write there is **denied**, by every
  tool; the reason tells the human how to make the change themselves.
* **Files that run code later** — shell start-up files, git configuration and hooks, git hook
  managers (husky, pre-commit, lefthook), MCP server definitions, editor and dev-container
  settings that start programs, npm and yarn configuration, Python ``.pth`` files,
  ``.envrc``, ``~/.ssh/config``, ``~/.ssh/rc`` and ``~/.ssh/authorized_keys``. A write there
  **asks**, and that ask survives yolo and every session grant. Why each is on the list, and
  why some look-alikes are not (``.gitattributes``, ``.gitmodules``, ``package.json``), is in
  ``docs/configuration.md``, "Protected paths".
* **Reads of clearance's state** (grants, cache, forwarding, the broker's answer key, the
  service's hook token and the console's login URL) ask.

Patterns are matched against every spelling of a path (lexical, as written, symlink-resolved).
Project files are matched wherever the project lies (``*/.git/config``), so a worktree, a
submodule or a directory above the working directory is covered too.
"""

from __future__ import annotations

import os

from clearance.policy.rule import Rule, RuleSet

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "HOOK_TOKEN_VARIABLE",
    "OWN_REASON",
    "RUNS_LATER_REASON",
    "STATE_REASON",
    "UNPROTECT",
    "protected_rules",
]

# The one key that loosens a protected path, honoured only in the global configuration: a list
# of the patterns below, exactly as written here (clearance's own directories stay protected).
UNPROTECT = "dangerouslyUnprotectPaths"

OWN_REASON = (
    "clearance's own configuration and state, and the agent hosts' settings, are changed "
    "only by you: edit the file yourself, outside the agent"
)
RUNS_LATER_REASON = (
    "this file runs code later (a shell start-up file, git configuration or hooks, .envrc, "
    "ssh configuration, an MCP server, editor, hook-manager or package-manager setting): "
    "clearance asks every time, whatever the policy, yolo or session grants"
)
STATE_REASON = (
    "clearance's grants, cache, forwarding state and keys, hook token and console login are not "
    "for agents to read"
)
# The variable that carries the service's hook token into a host (its settings' `env`), and so
# into every command the host's shell runs: reading it is reading the token file.
HOOK_TOKEN_VARIABLE = "CLEARANCE_HOOK_TOKEN"

# Host settings and extension points, in the home and in any project.
_HOST_HOME = (
    "~/.claude/settings.json",
    "~/.claude/settings.local.json",
    "~/.claude.json",
    "~/.claude/agents/*",
    "~/.claude/commands/*",
    "~/.claude/hooks/*",
    "~/.claude/skills/*",  # a skill's allowed-tools run without a prompt; its hooks run
    "~/.claude/plugins/*",  # a plugin's hooks and MCP servers
    "~/.codex/config.toml",
    "~/.codex/hooks.json",
    "~/.codex/rules/*",  # prefix_rule(…, decision="allow") runs a command without a prompt
    "~/.gemini/settings.json",
    "~/.gemini/policies/*",
    "~/.gemini/extensions/*",  # an extension's MCP servers and hooks
    "~/.qwen/settings.json",
    "~/.copilot/settings.json",
    "~/.cursor/hooks.json",
    "~/.config/opencode/plugins/*",
    "~/.config/opencode/plugin/*",
    "~/.pi/agent/extensions/*",
    "~/.pi/agent/settings.json",
    "~/.config/opencode/opencode.json",
    "~/.config/opencode/opencode.jsonc",
    "~/.copilot/config.json",
    "~/.qwen/extensions/*",  # an extension's MCP servers and hooks, as Gemini CLI's
)
_HOST_PROJECT = (
    "*/.claude/settings.json",
    "*/.claude/settings.local.json",
    "*/.claude/agents/*",
    "*/.claude/commands/*",
    "*/.claude/hooks/*",
    "*/.claude/skills/*",
    "*/.codex/hooks.json",
    "*/.codex/config.toml",
    "*/.codex/rules/*",
    "*/.gemini/settings.json",
    "*/.gemini/extensions/*",
    "*/.qwen/settings.json",
    "*/.github/hooks/*",
    "*/.cursor/hooks.json",
    "*/.opencode/plugins/*",
    "*/.opencode/plugin/*",
    "*/.pi/extensions/*",
    "*/.pi/settings.json",
    "*/opencode.json",  # OpenCode's settings: its permissions, plugins and MCP servers
    "*/opencode.jsonc",
    "*/.qwen/extensions/*",
)
_RUNS_LATER = (
    "~/.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.bash_logout",
    "~/.profile",
    "~/.zshrc",
    "~/.zprofile",
    "~/.zshenv",
    "~/.zlogin",
    "~/.config/fish/*",
    "~/.gitconfig",
    "~/.config/git/config",
    "~/.config/git/attributes",
    "~/.ssh/config",
    "~/.ssh/authorized_keys",
    "*/.git/config",
    "*/.git/config.worktree",
    "*/.git/commondir",
    "*/.git/hooks",
    "*/.git/hooks/*",
    "*/.git/modules/*/config",
    "*/.git/modules/*/hooks/*",
    # git reads $HOME/.gitconfig, and a line may point HOME anywhere (`HOME=. git status`).
    "*/.gitconfig",
    "*/.envrc",
    "~/.ssh/rc",  # run by sshd at every login
    # Git hook managers: their files are the hooks git runs on the next commit or push.
    "*/.husky/*",  # husky points core.hooksPath at .husky
    "*/.pre-commit-config.yaml",  # a `repo: local` hook's `entry` is any command
    "*/lefthook.yml",
    "*/.lefthook.yml",
    # MCP server definitions: each names a program the host starts.
    "*/.mcp.json",
    "*/.cursor/mcp.json",
    "~/.cursor/mcp.json",
    "*/.vscode/mcp.json",
    "*/.pi/mcp.json",
    "~/.pi/agent/mcp.json",
    "~/.copilot/mcp-config.json",
    # Editor and container settings that start programs when a folder is opened.
    "*/.vscode/tasks.json",  # a task with "runOn": "folderOpen"
    "*/.vscode/settings.json",  # interpreter, formatter and terminal executables
    "~/.config/Code/User/settings.json",
    "~/.config/Code/User/tasks.json",
    "~/Library/Application Support/Code/User/settings.json",
    "*/.devcontainer/devcontainer.json",  # initializeCommand runs on the host
    "*/.devcontainer.json",
    # Package-manager configuration that names what runs: npm's node-options, script-shell
    # and git; yarn's yarnPath (yarn runs that file as itself).
    "*/.npmrc",
    "*/.yarnrc",
    "*/.yarnrc.yml",
    "~/.config/pnpm/rc",  # pnpm's own settings file (script-shell, node-options)
    "~/Library/Preferences/pnpm/rc",
    # pip's settings (target, prefix: where installs write; index-url: what they fetch) and
    # go's (GOFLAGS=-toolexec, CC: what a later build runs), as `pip config set` and
    # `go env -w` write them.
    "*/pip.conf",
    # cargo's settings: build.rustc-wrapper and a target's runner run with every build,
    # build.target-dir decides where it writes.
    "*/.cargo/config.toml",
    "*/.cargo/config",
    "~/.config/go/env",
    "~/Library/Application Support/go/env",
    # Python runs every .pth file's import lines, and sitecustomize, at each start.
    "*/site-packages/*.pth",
    "*/site-packages/sitecustomize.py",
    "*/site-packages/usercustomize.py",
    # Services and autostart entries of the user's session.
    "~/.config/systemd/user/*",
    "~/.config/autostart/*",
)


def _relocated(patterns: Iterable[str], moves: Iterable[tuple[str, str]]) -> list[str]:
    """``patterns``, and each under a home directory in ``moves`` also where it was moved."""
    out = list(patterns)
    for head, there in moves:
        out += [there.rstrip("/") + p[len(head) :] for p in patterns if p.startswith(head + "/")]
    return out


def protected_rules(
    home: str,
    state: str,
    config_dir: str,
    unprotect: Iterable[str] = (),
    relocated: Iterable[tuple[str, str]] = (),
    files: Iterable[str] = (),
) -> RuleSet:
    """The protected paths of a user whose home is ``home``, clearance state directory
    ``state`` and configuration directory ``config_dir``, as rules on the ``protected_write``
    and ``protected_read`` surfaces; the host and run-later patterns named in ``unprotect``
    (the global configuration's ``dangerouslyUnprotectPaths``) are left out. ``relocated``:
    home directories the environment moved (``("~/.codex", "/srv/codex")``, a host's own
    variable), whose protected files are protected there too. ``files``: the configuration
    files the policy was loaded from, wherever they lie (``CLEARANCE_CONFIG``, ``--config``)."""
    skip = frozenset(unprotect)
    moves = tuple(relocated)
    own_files = tuple(file for file in files if file[:1] == "/")  # not `builtin`, `<inline>`
    key = (home, state, config_dir, skip, moves, own_files)
    found = _BUILT.get(key)
    if found is None:
        if len(_BUILT) >= 32:
            _BUILT.clear()
        found = _BUILT[key] = _protected(home, state, config_dir, skip, moves, own_files)
    return found


# Built once per (home, state, configuration directory, unprotected patterns, moved homes,
# configuration files) in a process: a rule set is immutable, so every engine of a batch or a
# service shares it.
_BUILT: dict[
    tuple[str, str, str, frozenset[str], tuple[tuple[str, str], ...], tuple[str, ...]], RuleSet
] = {}


def _protected(
    home: str,
    state: str,
    config_dir: str,
    skip: frozenset[str],
    moves: tuple[tuple[str, str], ...],
    files: tuple[str, ...],
) -> RuleSet:
    # Inside one surface the last matching rule wins: the asks come first, so a path that is
    # both (a hook script in clearance's own directory) is denied.
    rules = [
        Rule("protected_write", p, "ask", "protected", RUNS_LATER_REASON)
        for p in _relocated([p for p in _RUNS_LATER if p not in skip], moves)
    ]
    own = [os.path.normpath(config_dir), os.path.normpath(state), "*/.clearance"]
    for directory in own:  # never unprotected
        rules.append(Rule("protected_write", directory, "deny", "protected", OWN_REASON))
        rules.append(Rule("protected_write", directory + "/*", "deny", "protected", OWN_REASON))
    for file in files:
        rules.append(Rule("protected_write", file, "deny", "protected", OWN_REASON))
    for pattern in _relocated([p for p in _HOST_HOME if p not in skip], moves):
        rules.append(Rule("protected_write", pattern, "deny", "protected", OWN_REASON))
    for pattern in _HOST_PROJECT:
        if pattern not in skip:
            rules.append(Rule("protected_write", pattern, "deny", "protected", OWN_REASON))
    state = os.path.normpath(state)
    for part in (
        "sessions",
        "cache",
        "forwarding",
        "hosts",
        "secret",
        "console",
        "service",
        "broker",
    ):
        rules.append(Rule("protected_read", f"{state}/{part}", "ask", "protected", STATE_REASON))
        rules.append(Rule("protected_read", f"{state}/{part}/*", "ask", "protected", STATE_REASON))
    return RuleSet(rules, expand=("protected_write", "protected_read"), home=home)
