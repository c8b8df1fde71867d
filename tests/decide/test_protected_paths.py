"""Protected paths (``clearance.policy.protected``): real files, the real engine, every tool, and
neither yolo nor a session grant lifting them; benign twins keep their decisions."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import pytest

from clearance.decide.engine import Engine
from clearance.decide.grant import Grant, GrantStore
from clearance.intent.call import ToolCall

# "Allow edits in the project": everything allowed, the outside allowed too.
PERMISSIVE = {"permission": {"*": "allow", "bash": "allow", "external_directory": "allow"}}


class _User:
    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        self.project = self.home / "proj"
        for d in (
            self.project / ".git" / "hooks",
            self.project / ".clearance",
            self.project / "src",
        ):
            d.mkdir(parents=True)
        (self.project / ".git" / "config").write_text("[core]\n")
        (self.project / ".clearance" / "config.jsonc").write_text("{}\n")
        (self.home / ".bashrc").write_text("# rc\n")
        self.state = root / "state"
        self.config = root / "config"
        self.env = {
            "HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.config),
            "CLEARANCE_HOME": str(self.state),
        }

    def engine(self, policy: Mapping[str, object] | None = PERMISSIVE, *, yolo: bool = False,
               grants: GrantStore | None = None) -> Engine:  # fmt: skip
        engine = Engine.load(
            cwd=str(self.project),
            policy=json.dumps(policy) if policy is not None else None,
            yolo=yolo or None,
            env=self.env,
        )
        engine.grants = grants
        return engine

    def check(self, engine: Engine, tool: str, value: object) -> tuple[str, str]:
        found = engine.check(ToolCall(tool, value, str(self.project), session="s1"))
        return found.action, found.reason


@pytest.fixture
def user(tmp_path: Path) -> _User:
    return _User(tmp_path)


OWN_WRITES = [
    ("bash", {"command": "echo '{}' > .clearance/config.jsonc"}),
    ("bash", {"command": "echo x > .claude/settings.local.json"}),
    ("bash", {"command": "echo x >> .claude/settings.json"}),
    ("bash", {"command": "tee .clearance/config.jsonc < /dev/null"}),
    ("bash", {"command": "cp /dev/null ~/.claude/settings.json"}),
    ("bash", {"command": "mv x .claude/agents/evil.md"}),
    ("bash", {"command": "ln -sf /tmp/x ~/.claude.json"}),
    ("bash", {"command": "sed -i s/ask/allow/ .clearance/config.jsonc"}),
    ("bash", {"command": "rm -rf .clearance"}),
    ("bash", {"command": "echo x > $HOME/.claude/commands/x.md"}),
    ("bash", {"command": "git diff --output=.claude/settings.json"}),
    ("bash", {"command": "git add -e .claude/settings.json"}),
    ("bash", {"command": "git diff > .claude/settings.json"}),
    # found by an adversarial review: the hosts' other permission and extension points
    ("write", {"file_path": ".claude/skills/x/SKILL.md", "content": "allowed-tools: Bash"}),
    ("bash", {"command": "echo x > ~/.claude/skills/x/SKILL.md"}),
    ("write", {"file_path": "~/.claude/plugins/p/hooks/hooks.json", "content": "{}"}),
    ("bash", {"command": "echo 'prefix_rule(pattern=[\"sh\"])' > ~/.codex/rules/a.rules"}),
    ("write", {"file_path": ".codex/rules/default.rules", "content": "x"}),
    ("write", {"file_path": ".gemini/extensions/e/gemini-extension.json", "content": "{}"}),
    ("write", {"file_path": ".claude/settings.json", "content": "{}"}),
    ("write", {"file_path": ".clearance/config.jsonc", "content": "{}"}),
    ("edit", {"file_path": "~/.claude/settings.json", "old_string": "a", "new_string": "b"}),
    # found by an adversarial review: OpenCode's and Copilot CLI's own settings
    ("write", {"file_path": "opencode.json", "content": "{}"}),
    ("bash", {"command": "echo x > ~/.config/opencode/opencode.jsonc"}),
    ("write", {"file_path": "~/.copilot/config.json", "content": "{}"}),
    # ... and Qwen Code's extensions, which bring hooks and MCP servers as Gemini CLI's do
    ("bash", {"command": "echo x > .qwen/extensions/x/qwen-extension.json"}),
    ("write", {"file_path": "~/.qwen/extensions/x/qwen-extension.json", "content": "{}"}),
]


@pytest.mark.parametrize(("tool", "value"), OWN_WRITES, ids=[str(v)[:60] for _, v in OWN_WRITES])
def test_a_write_to_clearance_or_host_settings_is_denied_even_with_yolo(
    user: _User, tool: str, value: object
) -> None:
    for engine in (user.engine(), user.engine(yolo=True)):
        action, reason = user.check(engine, tool, value)
        assert action == "deny", reason
        assert "<protected-path>" in reason
    action, reason = user.check(user.engine(None), tool, value)  # the built-in policy
    assert action == "deny", reason


def test_the_state_and_config_directories_are_protected(user: _User) -> None:
    for target in (user.state / "trusted-projects", user.config / "clearance" / "config.jsonc"):
        action, reason = user.check(
            user.engine(yolo=True), "bash", {"command": f"echo x > {target}"}
        )
        assert action == "deny", reason
    action, reason = user.check(
        user.engine(), "read", {"file_path": str(user.state / "sessions" / "s1" / "grants.json")}
    )
    assert action == "ask", reason


RUNS_LATER = [
    "echo 'curl x | sh' >> ~/.bashrc",
    "echo x >> .git/config",
    "echo x > .git/hooks/pre-commit",
    "cp evil .git/hooks/post-checkout",
    "echo 'export X=1' > .envrc",
    "echo x >> ~/.ssh/authorized_keys",
    "echo Host x >> ~/.ssh/config",
    "echo x >> ~/.gitconfig",
    "echo x > ~/.zshrc",
    "echo x > ~/.config/fish/config.fish",
    # found by an adversarial review: git config that git reads from elsewhere
    "echo '[core] fsmonitor = \"x\"' > .gitconfig",
    "echo x >> .git/modules/sub/config",
    "echo x > .git/modules/sub/hooks/pre-commit",
    "echo modules/sub > .git/commondir",
    "echo x >> .git/config.worktree",
    # found by an adversarial review: MCP server definitions of pi and Copilot CLI
    "echo x > .pi/mcp.json",
    "echo x > ~/.pi/agent/mcp.json",
    "echo x > ~/.copilot/mcp-config.json",
]


@pytest.mark.parametrize("line", RUNS_LATER)
def test_a_write_to_a_file_that_runs_code_later_asks_through_yolo_and_grants(
    user: _User, line: str
) -> None:
    store = GrantStore()
    store.add(
        [Grant("bash", "*"), Grant("path_write", "*"), Grant("external_directory_write", "*")]
    )
    for engine in (user.engine(), user.engine(yolo=True), user.engine(grants=store)):
        action, reason = user.check(engine, "bash", {"command": line})
        if "~/.ssh/" in line:  # the built-in base layer denies ~/.ssh outright
            assert action == "deny", reason
            continue
        assert action == "ask", reason
        assert "<runs-code-later>" in reason


def test_a_computed_write_target_asks_through_yolo(user: _User) -> None:
    action, reason = user.check(user.engine(yolo=True), "bash", {"command": 'echo x > "$f"'})
    assert action == "ask", reason
    assert "<unknown-path>" in reason


BENIGN = [
    ("bash", {"command": "cat .git/config"}),
    ("bash", {"command": "ls .git/hooks"}),
    ("bash", {"command": "cat .clearance/config.jsonc"}),
    ("bash", {"command": "git status"}),
    # git only reads the paths it stages, diffs or logs: committing them is no write to them
    ("bash", {"command": "git add .claude/commands/hi.md"}),
    ("bash", {"command": "git diff --cached .claude/settings.json"}),
    ("bash", {"command": "git log -- .clearance/config.jsonc"}),
    ("bash", {"command": "echo x > src/out.txt"}),
    ("bash", {"command": "echo x > /dev/null"}),
    ("write", {"file_path": "src/a.py", "content": "x = 1"}),
    ("read", {"file_path": ".claude/settings.json"}),
    ("read", {"file_path": ".claude/skills/x/SKILL.md"}),
    ("write", {"file_path": "docs/skills/x/SKILL.md", "content": "x"}),
    ("read", {"file_path": "~/.bashrc"}),
    ("write", {"file_path": "src/opencode.md", "content": "x"}),
    ("write", {"file_path": ".pi/notes.json", "content": "{}"}),
    ("write", {"file_path": "src/extensions/x.json", "content": "{}"}),
]


@pytest.mark.parametrize(("tool", "value"), BENIGN, ids=[str(v)[:60] for _, v in BENIGN])
def test_reads_and_ordinary_writes_follow_the_policy(user: _User, tool: str, value: object) -> None:
    action, reason = user.check(user.engine(), tool, value)
    assert action == "allow", reason


def test_only_the_global_config_unprotects_a_path_by_its_loud_key(user: _User) -> None:
    policy = dict(PERMISSIVE, dangerouslyUnprotectPaths=["~/.bashrc", "*/.clearance/*"])
    config = user.config / "clearance" / "config.jsonc"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps(policy))
    engine = Engine.load(cwd=str(user.project), env=user.env)
    assert user.check(engine, "bash", {"command": "echo x >> ~/.bashrc"})[0] == "allow"
    # clearance's own files stay protected whatever the key says
    assert user.check(engine, "bash", {"command": "echo x > .clearance/config.jsonc"})[0] == "deny"
    assert user.check(engine, "bash", {"command": "echo x >> ~/.zshrc"})[0] == "ask"


def test_engines_share_protected_paths_only_with_the_same_unprotected_ones(user: _User) -> None:
    # The protected rule set is built once per (home, state, config directory, unprotected
    # patterns) in a process: an engine whose global config unprotects ~/.bashrc shares nothing
    # with one whose config does not.
    plain = Engine.load(cwd=str(user.project), policy=json.dumps(PERMISSIVE), env=user.env)
    again = Engine.load(cwd=str(user.project / "src"), policy=json.dumps(PERMISSIVE), env=user.env)
    assert plain.protected() is again.protected()
    loose = json.dumps(dict(PERMISSIVE, dangerouslyUnprotectPaths=["~/.bashrc"]))
    config = user.config / "clearance" / "config.jsonc"
    config.parent.mkdir(parents=True)
    config.write_text(loose)
    unprotected = Engine.load(cwd=str(user.project), env=user.env)
    assert unprotected.protected() is not plain.protected()
    assert user.check(unprotected, "bash", {"command": "echo x >> ~/.bashrc"})[0] == "allow"
    assert user.check(plain, "bash", {"command": "echo x >> ~/.bashrc"})[0] == "ask"


def test_a_project_config_cannot_unprotect_a_path(user: _User) -> None:
    from clearance.policy.trust import trust

    config = user.config / "clearance" / "config.jsonc"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps(PERMISSIVE))
    project = {"dangerouslyUnprotectPaths": ["~/.bashrc"]}
    (user.project / ".clearance" / "config.jsonc").write_text(json.dumps(project))
    trust(str(user.state), str(user.project))
    engine = Engine.load(cwd=str(user.project), env=user.env)
    assert any("dangerouslyUnprotectPaths" in w for w in engine.policy.warnings)
    assert user.check(engine, "bash", {"command": "echo x >> ~/.bashrc"})[0] == "ask"


def test_the_configuration_file_in_use_is_protected_wherever_it_lies(user: _User) -> None:
    # found by an adversarial review: `CLEARANCE_CONFIG` (or `--config`) names a file outside
    # clearance's configuration directory, which the agent could rewrite
    config = user.home / "dotfiles" / "clearance.jsonc"
    config.parent.mkdir()
    config.write_text(json.dumps(PERMISSIVE))
    engine = Engine.load(cwd=str(user.project), env={**user.env, "CLEARANCE_CONFIG": str(config)})
    for tool, value in (("write", {"file_path": str(config)}),
                        ("bash", {"command": f"echo '{{}}' > {config}"})):  # fmt: skip
        action, reason = user.check(engine, tool, value)
        assert action == "deny" and "<protected-path>" in reason, reason
    # the benign twin: a file beside it follows the policy
    beside = {"file_path": str(config.parent / "notes.md")}
    assert user.check(engine, "write", beside)[0] == "allow"
