"""``clearance init``: a commented starter config, or Claude Code's permission lists imported.

The global starter keeps what the built-in policy gives (a global file replaces it): reads and
listings allowed, read-only commands allowed, force-pushes and ``.env`` files asking. The
built-in denies (``rm -rf /``, ``~/.ssh``…) stay beneath every config whatever it says.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from clearance.cli._args import Args

    # surface → [(pattern, rule, comment)]; a surface whose one row is "*" is written as its rule
    Rows = dict[str, list[tuple[str, Any, str]]]

__all__ = ["run_init", "starter"]

_HEADER = """\
// clearance configuration, written by `clearance init`. JSON with comments.
// Every key is explained in docs/configuration.md. After an edit:
//   clearance validate     errors with file:line:col, then the "tests" below
//   clearance policy       every rule in effect and where it comes from
// Editors complete and check this file from the schema: `clearance schema > FILE`, then
// point "$schema" at FILE (see docs/configuration.md, "Editor support").
"""


def _quote(text: str) -> str:
    from clearance._json import dumps

    return dumps(text)


def _rule(value: Any) -> str:
    from clearance._json import dumps

    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_quote(k)}: {dumps(v)}" for k, v in value.items()) + " }"
    return dumps(value)


def _builtin() -> dict[str, Any]:
    from clearance.policy.defaults import BUILTIN_POLICY
    from clearance.policy.jsonc import parse

    value = parse(BUILTIN_POLICY).value
    assert isinstance(value, dict)
    permission: dict[str, Any] = value["permission"]
    return permission


def _not_base_deny(rule: Any) -> bool:
    action = rule.get("action") if isinstance(rule, dict) else rule
    return action != "deny"


_PROJECT = """// This is a project's config: it is layered on your global one, and loaded only after
// `clearance trust` (trust is pinned to this file's content; re-run it after each edit).
"""
_NOTES = {
    "*": "Anything not covered below asks.",
    "read": "Reading, searching and listing files is free.",
    "bash": "Each command of a shell line is matched on its own; the last match wins.\n"
    "`rm -rf /`, `mkfs` and the like are denied beneath every config anyway.",
    "path": "Any path any tool or command touches. ~/.ssh, ~/.aws/credentials and\n"
    "~/.gnupg stay denied beneath every config.",
    "external_directory": "Paths outside the working directory.",
}
_TESTS = (
    '{ "tool": "bash", "input": "git status", "expect": "allow" }',
    '{ "tool": "bash", "input": "rm -rf /", "expect": "deny" }',
    '{ "tool": "read", "input": "~/.ssh/id_rsa", "expect": "deny" }',
)
_PROJECT_BODY = """{
  "permission": {
    "bash": {
      // "npm test *": "allow",
      // "make *": "allow"
    }
  },
  "tests": [
    { "tool": "bash", "input": "rm -rf /", "expect": "deny" }
  ]
}
"""


def _builtin_rows() -> Rows:
    rows: Rows = {}
    for surface, value in _builtin().items():
        if isinstance(value, dict) and "action" not in value:
            kept = [(p, r, "") for p, r in value.items() if _not_base_deny(r)]
            if kept:
                rows[surface] = kept
        else:
            rows[surface] = [("*", value, "")]
    return rows


def _render(rows: Rows, *, tests: tuple[str, ...], notes: bool) -> str:
    lines = ["{", '  "permission": {']
    blocks: list[list[str]] = []
    for surface, entries in rows.items():
        block = []
        note = _NOTES.get(surface) if notes else None
        if note:
            block += [f"    // {line}" for line in note.split("\n")]
        if surface == "*" or (len(entries) == 1 and entries[0][0] == "*" and not entries[0][2]):
            block.append(f"    {_quote(surface)}: {_rule(entries[0][1])}")
        else:
            block.append(f"    {_quote(surface)}: {{")
            for i, (pattern, rule, comment) in enumerate(entries):
                comma = "," if i < len(entries) - 1 else ""
                tail = f"  // {comment}" if comment else ""
                block.append(f"      {_quote(pattern)}: {_rule(rule)}{comma}{tail}")
            block.append("    }")
        blocks.append(block)
    for i, block in enumerate(blocks):
        if i < len(blocks) - 1:
            block[-1] += ","
        lines += block
    lines.append("  }" + ("," if tests else ""))
    if tests:
        lines.append("  // Checked by `clearance validate`: each call must be decided as expected.")
        lines.append('  "tests": [')
        lines += [f"    {t}," for t in tests[:-1]] + [f"    {tests[-1]}"]
        lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _merge(rows: list[tuple[str, Any, str]], more: list[tuple[str, Any, str]]) -> None:
    """Add ``more`` to ``rows``; a pattern already there takes the new rule in its place."""
    for row in more:
        for i, (pattern, _, _) in enumerate(rows):
            if pattern == row[0]:
                rows[i] = row
                break
        else:
            rows.append(row)


def starter(project: bool, imported: Rows | None = None) -> str:
    """The commented starter config (the project one layers on top of the global one), with
    ``imported`` rows after the built-in ones."""
    if project:
        body = _render(imported, tests=(), notes=False) if imported else _PROJECT_BODY
        return _HEADER + _PROJECT + body
    rows = _builtin_rows()
    for surface, entries in (imported or {}).items():
        mine = rows.setdefault(surface, [])
        if len(mine) == 1 and mine[0][0] == "*" and surface != "*":
            mine[0] = ("*", mine[0][1], "built in")
        _merge(mine, entries)
    return _HEADER + _render(rows, tests=_TESTS, notes=not imported)


def _imported(project_dir: str | None, scope: str) -> tuple[Rows, list[str], list[str]]:
    """Claude Code's permission lists as rows of rules, what did not translate, and the files."""
    from clearance.hosts.claude_code.hiding import owned_entries
    from clearance.hosts.claude_code.permissions import permission_entries, translate
    from clearance.hosts.claude_code.settings import read_settings, settings_path

    where = project_dir or os.getcwd()
    paths = (
        [settings_path("project", where), settings_path("local", where)]
        if scope == "project"
        else [settings_path("user", where)]
    )
    rows: Rows = {}
    skipped: list[str] = []
    read_from: list[str] = []
    for path in paths:
        data, raw = read_settings(path)
        if raw is None:
            continue
        read_from.append(path)
        ours = set(owned_entries(path))
        for action, entry in permission_entries(data):
            if action == "deny" and entry in ours:
                continue  # written by `clearance install`, not by the user
            result = translate(entry, action, project_dir if scope == "project" else None)
            if result.why is not None:
                skipped.append(f"{entry} ({action}): {result.why}")
                continue
            for surface, pattern in result.rules:
                _merge(rows.setdefault(surface, []), [(pattern, action, entry)])
    if not read_from:
        raise FileNotFoundError(2, "no Claude Code settings file here", " or ".join(paths))
    return rows, skipped, read_from


def run_init(args: Args) -> int:
    from clearance.cli._args import UsageError
    from clearance.policy.state import config_home

    if args.on("--project") and args.on("--user"):
        raise UsageError("choose one of --project and --user")
    project_scope = args.on("--project")
    directory = os.path.abspath(args.value("--dir") or os.getcwd())
    if project_scope:
        from clearance.policy.discovery import find_project
        from clearance.policy.state import home_dir

        root = find_project(directory, home_dir()) or directory
        target = os.path.join(root, ".clearance", "config.jsonc")
    else:
        root = None
        target = os.path.join(config_home(), "config.jsonc")
    skipped: list[str] = []
    if args.on("--from-claude-code"):
        try:
            rows, skipped, read_from = _imported(root, "project" if project_scope else "user")
        except FileNotFoundError as exc:
            sys.stderr.write(
                f"clearance init: no Claude Code settings file here (looked for {exc.filename}); "
                "use --project for the project's .claude/settings.json\n"
            )
            return 1
        text = starter(project_scope, rows)
        note = (
            f"// Imported from Claude Code's permissions in {', '.join(read_from)}; each rule\n"
            '// names its entry. Bash(x:*) became "x *": matched word by word, so x-other is\n'
            "// not included. Once clearance decides, Claude Code's own lists are not consulted.\n"
        )
        text = text.replace("\n{\n", "\n" + note + "{\n", 1)
    else:
        text = starter(project_scope)
    problem = _validate(text, target)
    if problem:  # never write a config that does not load
        sys.stderr.write(f"clearance init: the config to write does not validate: {problem}\n")
        return 1
    if args.on("--stdout"):
        sys.stdout.write(text)
        _report_skipped(skipped)
        return 0
    existing = [p for p in (target, target[: -len("c")]) if os.path.exists(p)]
    if existing and not args.on("--force"):
        sys.stderr.write(
            f"clearance init: {existing[0]} already exists; keeping it (run with --force to "
            "replace it, or --stdout to see what would be written)\n"
        )
        return 1
    _write(target, text, bool(existing))
    sys.stdout.write(f"wrote {target}\n")
    _report_skipped(skipped)
    if project_scope:
        sys.stdout.write(f"next: review it, then `clearance trust {root}` so it is loaded\n")
    else:
        sys.stdout.write("next: `clearance validate`, then `clearance install claude-code`\n")
    return 0


def _validate(text: str, target: str) -> str | None:
    from clearance.policy.config import parse_config
    from clearance.policy.errors import ConfigError

    try:
        parsed = parse_config(text, target)
    except ConfigError as exc:
        return str(exc)
    return str(parsed.errors[0]) if parsed.errors else None


def _write(target: str, text: str, replacing: bool) -> None:
    from clearance.policy.state import atomic_write

    os.makedirs(os.path.dirname(target), exist_ok=True)
    if replacing and os.path.exists(target):
        from clearance.policy.state import backup

        with open(target, "rb") as old:
            kept = backup(target, old.read())
        sys.stdout.write(f"previous config kept as {kept}\n")
    atomic_write(target, text.encode(), mode=0o644)


def _report_skipped(skipped: list[str]) -> None:
    if not skipped:
        return
    sys.stderr.write(f"not imported ({len(skipped)}); write these by hand if you need them:\n")
    for line in skipped:
        sys.stderr.write(f"  {line}\n")
