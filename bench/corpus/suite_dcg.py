"""destructive_command_guard's cases: its Rust tests (read by ``suite_dcg_rust.py``), TOML
corpora, YAML and text fixtures (for ``guard_cases.py``)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator

from gather import Snapshot
from suite_dcg_rust import dcg_pack_setting, dcg_rust_file
from suite_tokens import JS_ESCAPES, Found, Skipped, unescape


def dcg_corpus(path: str, text: str, skipped: Skipped) -> Iterator[Found]:
    """``[[case]]`` tables: ``expected``/``expected_decision`` is deny or allow. A case of a
    malformed hook input (``raw_input``) holds no command and is left out."""
    for case in tomllib.loads(text).get("case", []):
        command = case.get("command")
        expected = case.get("expected", case.get("expected_decision"))
        if not isinstance(command, str):
            skipped[f"{path}: a case of a raw hook input, not a command"] += 1
        elif expected not in ("deny", "allow"):
            skipped[f"{path}: a case expecting {expected!r}"] += 1
        else:
            yield path, command, expected == "deny", ""


def _yaml_scalar(value: str) -> str:
    value = value.strip()
    if value.startswith('"'):
        return unescape(value[1:-1], JS_ESCAPES)
    if value.startswith("'"):
        return value[1:-1].replace("''", "'")
    return value


def dcg_fixtures(path: str, text: str, skipped: Skipped) -> Iterator[Found]:
    """``tests/fixtures/{destructive,safe}_commands.yaml`` (pack id -> ``- command:`` rows),
    ``edge_cases.yaml`` (its ``false_positives`` are safe; its ``false_negatives`` are commands
    the suite records it does not block, left out) and the scenario steps with their
    ``expected_decision``."""
    name = path.rsplit("/", 1)[-1]
    section = ""
    step: dict[str, str] = {}
    rows: list[dict[str, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        top = re.fullmatch(r"([\w.]+):\s*", line)
        if top:
            section = top.group(1)
            continue
        item = re.fullmatch(r"\s*(-\s+)?(\w+):\s*(.*)", line)
        if not item:
            continue
        if item.group(1):
            step = {"section": section}
            rows.append(step)
        step[item.group(2)] = _yaml_scalar(item.group(3))
    for row in rows:
        command = row.get("command")
        if command is None:
            continue
        if name == "destructive_commands.yaml":
            yield path, command, True, dcg_pack_setting(row["section"])
        elif name == "safe_commands.yaml" or (
            name == "edge_cases.yaml" and row["section"] == "false_positives"
        ):
            yield path, command, False, ""
        elif row.get("expected_decision") in ("deny", "allow"):
            setting = dcg_pack_setting(row.get("expected_pack", ""))
            yield path, command, row["expected_decision"] == "deny", setting
        else:
            skipped[f"{path}: a row not asserted deny or allow (a known false negative)"] += 1


def dcg_lines(path: str, text: str, skipped: Skipped) -> Iterator[Found]:
    """The e2e command lists: ``dangerous.txt`` (blocked) and ``safe.txt`` (allowed), one a line;
    the others ``BLOCK:``/``ALLOW:``/``WARN:`` prefixed, ``\\n`` standing for a newline. A
    line with no prefix continues the heredoc of the line above (the e2e runner reads each
    line alone; the file means the heredoc). A command dcg only warns about is allowed."""
    name = path.rsplit("/", 1)[-1]
    rows: list[list[str]] = []  # [expectation, command]
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if name in ("dangerous.txt", "safe.txt"):
            rows.append(["BLOCK" if name == "dangerous.txt" else "ALLOW", line.strip()])
            continue
        expect, _, command = line.partition(":")
        if expect in ("BLOCK", "ALLOW", "WARN"):
            rows.append([expect, command])
        elif rows:
            rows[-1][1] += "\n" + line  # the next line of a heredoc
        else:
            skipped[f"{path}: a line with no BLOCK/ALLOW/WARN prefix"] += 1
    for expect, command in rows:
        command = command.replace("\\n", "\n")
        if command.strip():
            yield path, command, expect == "BLOCK", ""
        else:
            skipped[f"{path}: an empty command"] += 1


# The pack test helpers themselves, and the template a new pack's tests are written from.
_DCG_NOT_TESTS = ("src/packs/test_helpers.rs", "src/packs/test_template.rs")


def dcg(snap: Snapshot, skipped: Skipped) -> Iterator[Found]:
    """The Rust tests (``tests/*.rs`` and the ``#[cfg(test)]`` modules of ``src/``), the TOML
    corpora of ``tests/corpus/``, the YAML fixtures of ``tests/fixtures/`` and the e2e command
    lists of ``tests/e2e/fixtures/commands/``. A pack test's command is blocked in the setting
    that enables its pack (core.git and core.filesystem are on by default)."""
    readers: list[tuple[str, Callable[[str, str, Skipped], Iterator[Found]]]] = [
        (r"(tests/[^/]+|src/.+)\.rs", dcg_rust_file),
        (r"tests/corpus/.+\.toml", dcg_corpus),
        (r"tests/fixtures/(scenarios/)?[^/]+\.yaml", dcg_fixtures),
        (r"tests/e2e/fixtures/commands/[^/]+\.txt", dcg_lines),
    ]
    for pattern, reader in readers:
        for path in sorted(snap.paths):
            if re.fullmatch(pattern, path) and not path.endswith(_DCG_NOT_TESTS):
                yield from reader(path, snap.read(path), skipped)
