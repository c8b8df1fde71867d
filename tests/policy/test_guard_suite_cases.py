"""bench/corpus/guard_cases.py: the cases of the two public guard suites, read from their test
sources. The snapshots here are small git repositories written by the test, in the layout and
idioms of each suite (no third-party text)."""

from __future__ import annotations

import importlib.util
import json
import os
import runpy
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "corpus"

Tokens = Callable[[str], list[tuple[str, str, int]]]


def _tokenizers() -> tuple[Tokens, Tokens]:
    """bench/corpus/suite_tokens.py's readers of TypeScript and Rust (bench is no package)."""
    spec = importlib.util.spec_from_file_location("suite_tokens", CORPUS / "suite_tokens.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.js_tokens, module.rs_tokens


js_tokens, rs_tokens = _tokenizers()

SAFETY_NET = {
    "tests/core/rules-git.test.ts": """
import { assertAllowed, assertBlocked, runGuard, withEnv } from '../helpers.ts';
describe('git', () => {
  test('reset', () => {
    assertBlocked('git reset --hard', 'git reset --hard');
    assertAllowed("git status");
    // assertBlocked('git commented --out', 'x');
    assertAllowed(`git log --oneline`);
    assertBlocked(`git -C ${dir} reset --hard`, 'x');
  });
  test('strict', () => {
    withEnv({ SAFETY_NET_STRICT: '1' }, () => {
      assertBlocked('git stash drop', 'x');
    });
  });
  test('worktree', () => {
    withEnv({ SAFETY_NET_WORKTREE: '1' }, () => {
      assertAllowed('git restore file.txt', linked);
      assertBlocked('git restore -W file.txt', 'x', main);
    });
  });
  test('loop', () => {
    const commands = ['git clean -f', 'git clean -fd'];
    for (const command of commands) {
      expect(runGuard(command)).not.toBeNull();
    }
    for (const command of ['git branch -d x']) {
      expect(runGuard(command)).toBeNull();
    }
  });
  test('reassigned', () => {
    let cmd = 'echo ok';
    cmd = `bash -c ${JSON.stringify(cmd)}`;
    assertAllowed(cmd);
  });
});
""",
    "tests/bin/explain/command.test.ts": """
test('explain', () => {
  const result = explainCommand('rm -rf /');
  expect(result.result).toBe('blocked');
  const other = explainCommand('git reset --hard', { config: CUSTOM });
  expect(other.result).toBe('blocked');
  const again = explainCommand('git status');
  expect(again.result).toBe('allowed');
  const traced = explainCommand('ls');
  expect(traced.trace.steps).toBeDefined();
});
""",
}

DCG = {
    "tests/corpus/canonical.toml": """
[[case]]
command = "git reset --hard"
expected_decision = "deny"

[[case]]
command = "git status"
expected_decision = "allow"

[[case]]
input_kind = "hook_json"
raw_input = "{not json"
expected_decision = "allow"
""",
    "src/packs/database/postgresql.rs": r"""
pub fn create_pack() -> Pack { Pack { id: "database.postgresql".to_string() } }
#[cfg(test)]
mod tests {
    #[test]
    fn drops() {
        let pack = create_pack();
        assert_blocks(&pack, "psql -c \"DROP TABLE users\"", "drop");
        assert_allows(&pack, r#"psql -c "SELECT 1""#);
        test_batch_blocks(&pack, &["dropdb prod", "dropdb -f prod"], "drop");
        assert!(pack.check("pg_dump prod").is_none());
    }
}
""",
    "tests/regression_anchor.rs": """
#[test]
fn relative_git() {
    let cmd = "./git reset --hard";
    let result = evaluate_command(cmd, &config, &keywords, &overrides, &allowlists);
    assert!(result.is_denied(), "should be blocked");
}

#[test]
fn wrappers() {
    let commands = vec!["nice rm -rf /", "nohup rm -rf /"];
    for cmd in commands {
        let result = evaluate_command(cmd, &config, &keywords, &overrides, &allowlists);
        assert!(result.is_denied());
    }
}

#[test]
fn untested() {
    let result = evaluate_command("git gc", &config, &keywords, &overrides, &allowlists);
    println!("{:?}", result);
}
""",
    "tests/e2e/fixtures/commands/edge_cases.txt": """# comment
ALLOW:echo ok
BLOCK:bash <<EOF
rm -rf /etc
EOF
WARN:git stash
""",
    "tests/fixtures/destructive_commands.yaml": """# fixtures
storage.s3:
  - command: "aws s3 rb s3://b --force"
    reason: "removes a bucket"
""",
}


def _snapshot(root: Path, name: str, files: dict[str, str]) -> str:
    work = root / name
    for path, text in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(work)]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "snapshot"]):
        subprocess.run([*git, *args], check=True, capture_output=True)
    return str(work / ".git")


def _extract(tmp_path: Path) -> tuple[dict[tuple[str, str], tuple[str, str]], Path, str]:
    out = tmp_path / "private" / "cases.py"
    result = subprocess.run(
        [sys.executable, str(CORPUS / "guard_cases.py"), "--out", str(out),
         _snapshot(tmp_path, "safety-net", SAFETY_NET), _snapshot(tmp_path, "dcg", DCG)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    cases = runpy.run_path(str(out))["CASES"]
    return {(s, c): (f, v) for s, f, c, v in cases}, out, result.stderr


def test_each_suite_s_asserted_commands_are_its_cases(tmp_path: Path) -> None:
    found, _out, _log = _extract(tmp_path)
    net, dcg = "claude-code-safety-net", "destructive_command_guard"
    verdicts = {key: verdict for key, (_file, verdict) in found.items()}
    assert verdicts == {
        (net, "rm -rf /"): "destructive",
        (net, "git reset --hard"): "destructive",
        (net, "git status"): "safe",
        (net, "git log --oneline"): "safe",
        (net, "git stash drop"): "destructive (strict)",
        (net, "git restore -W file.txt"): "destructive (worktree)",
        (net, "git clean -f"): "destructive",
        (net, "git clean -fd"): "destructive",
        (net, "git branch -d x"): "safe",
        (dcg, 'psql -c "DROP TABLE users"'): "destructive (pack database.postgresql)",
        (dcg, 'psql -c "SELECT 1"'): "safe",
        (dcg, "dropdb prod"): "destructive (pack database.postgresql)",
        (dcg, "dropdb -f prod"): "destructive (pack database.postgresql)",
        (dcg, "pg_dump prod"): "safe",
        (dcg, "./git reset --hard"): "destructive",
        (dcg, "nice rm -rf /"): "destructive",
        (dcg, "nohup rm -rf /"): "destructive",
        (dcg, "git reset --hard"): "destructive",
        (dcg, "git status"): "safe",
        (dcg, "echo ok"): "safe",
        (dcg, "bash <<EOF\nrm -rf /etc\nEOF"): "destructive",
        (dcg, "git stash"): "safe",
        (dcg, "aws s3 rb s3://b --force"): "destructive (pack storage.s3)",
    }
    # A command is kept under the first file asserting it.
    assert found[(net, "git status")][0] == "tests/bin/explain/command.test.ts"
    assert found[(net, "git reset --hard")][0] == "tests/core/rules-git.test.ts"


def test_what_is_not_read_is_counted_and_the_file_is_private(tmp_path: Path) -> None:
    _found, out, log = _extract(tmp_path)
    assert "assertBlocked() of a command computed at run time" in log
    assert "assertAllowed() of a command computed at run time" in log
    assert "explainCommand() under a configuration of the test's own rules" in log
    assert "explainCommand() whose outcome is not asserted" in log
    assert "assertAllowed() allowed only in the worktree mode" in log
    assert "a case of a raw hook input, not a command" in log
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(out.parent).st_mode) == 0o700
    assert [p.name for p in out.parent.iterdir()] == ["cases.py"]


@given(st.text())
def test_a_typescript_string_literal_reads_back_as_its_value(text: str) -> None:
    literal = json.dumps(text)  # a valid double-quoted JavaScript literal
    tokens = js_tokens(f"assertBlocked({literal}, 'reason');")
    assert tokens[2] == ("str", text, len("assertBlocked("))


def _rust_literal(text: str) -> str:
    escapes = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}
    return '"' + "".join(escapes.get(c, c) for c in text) + '"'


@given(st.text())
def test_a_rust_string_literal_reads_back_as_its_value(text: str) -> None:
    tokens = rs_tokens(f"assert_allows(&pack, {_rust_literal(text)});")
    assert [t[:2] for t in tokens[5:7]] == [("str", text), ("op", ")")]


@given(st.text().filter(lambda t: '"#' not in t))
def test_a_rust_raw_string_reads_back_as_its_value(text: str) -> None:
    tokens = rs_tokens(f'let cmd = r#"{text}"#;')
    assert [t[:2] for t in tokens[3:5]] == [("str", text), ("op", ";")]
