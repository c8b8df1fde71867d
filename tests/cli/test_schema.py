"""``clearance schema``: a draft 2020-12 schema that takes every documented config and refuses
unknown keys, wrong action words and misspelt surfaces; ``validate`` warns on near-miss names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

from clearance.policy.jsonc import parse  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TOP_KEYS = {"permission", "tests", "notify", "agents", "yolo", "hosts", "authorizerChain"}
BLOCK = re.compile(r"```(?:jsonc|json)\n(.*?)```", re.S)


def documented_configs() -> list[tuple[str, str]]:
    """Every whole config (a JSON object) in a jsonc/json block of README.md, docs/, examples/."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted((ROOT / "examples").rglob("*.json*")) if (ROOT / "examples").exists() else []
    found = []
    for file in files:
        text = file.read_text()
        blocks = [text] if file.suffix != ".md" else BLOCK.findall(text)
        for number, block in enumerate(blocks, 1):
            try:
                value = parse(block).value
            except ValueError:
                try:  # a fragment: a few keys of the top-level object or of "permission"
                    value = parse("{" + block + "}").value
                except ValueError:
                    continue
                if not isinstance(value, dict):
                    continue
                if not set(value) <= TOP_KEYS:
                    if not all(re.fullmatch(r"[a-z_*]+", key) for key in value):
                        continue  # not a piece of a config (an editor's settings, say)
                    value = {"permission": value}
            if isinstance(value, dict) and set(value) & TOP_KEYS:
                found.append((f"{file.relative_to(ROOT)}#{number}", json.dumps(value)))
    return found


@pytest.fixture(scope="module")
def validator(tmp_path_factory):  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "clearance", "schema"],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "HOME": str(tmp_path_factory.mktemp("h"))},
    ).stdout
    schema = json.loads(out)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    return jsonschema.Draft202012Validator(schema)


CONFIGS = documented_configs()


def test_the_docs_hold_configs_to_check() -> None:
    assert len(CONFIGS) >= 5, CONFIGS


@pytest.mark.parametrize(("where", "text"), CONFIGS, ids=[w for w, _ in CONFIGS])
def test_every_documented_config_is_valid_under_the_schema(  # type: ignore[no-untyped-def]
    validator, where: str, text: str
) -> None:
    errors = [e.message for e in validator.iter_errors(parse(text).value)]
    assert not errors, f"{where}: {errors}"


def test_the_builtin_policy_and_the_init_starters_are_valid(validator, world) -> None:  # type: ignore[no-untyped-def]
    from clearance.policy.defaults import BUILTIN_POLICY

    assert not list(validator.iter_errors(parse(BUILTIN_POLICY).value))
    for flags in ([], ["--project"]):
        result = world.run("init", "--stdout", *flags)
        assert result.returncode == 0, result.stderr
        assert not list(validator.iter_errors(parse(result.stdout).value))


@pytest.mark.parametrize(
    "config",
    [
        {"permision": {}},  # unknown top-level key
        {"permission": {"bash": "alow"}},  # wrong action word
        {"permission": {"bash": {"git *": "maybe"}}},
        {"permission": {"bahs": "allow"}},  # misspelt surfaces
        {"permission": {"raed": "allow"}},
        {"permission": {"webfech": "deny"}},
        {"permission": {"bash": {"rm *": {"action": "deny", "reson": "x"}}}},
        {"yolo": "yes"},
        {"tests": [{"tool": "bash", "input": "ls", "expect": "allowed"}]},
        {"agents": {"reviewer": {"permisson": {}}}},
        {"forwardingTimeoutMs": 0},
    ],
)
def test_the_schema_refuses_what_the_loader_refuses(validator, config: dict) -> None:  # type: ignore[no-untyped-def, type-arg]
    assert list(validator.iter_errors(config)), config


@pytest.mark.parametrize(
    "config",
    [
        {"permission": {"todowrite": "allow", "mcp": {"github:*": "allow"}}},
        {"permission": {"Bash": "ask", "path_read": {"*.env": "deny"}}},
        {"$schema": "./config.schema.json", "yoloMode": False, "debugLog": True},
        {"permission": {"*": {"action": "ask", "reason": "why"}}},
    ],
)
def test_the_schema_takes_the_other_documented_forms(validator, config: dict) -> None:  # type: ignore[no-untyped-def, type-arg]
    assert not list(validator.iter_errors(config))


def test_validate_warns_on_a_surface_or_tool_close_to_a_known_one(world) -> None:  # type: ignore[no-untyped-def]
    path = world.global_config(
        '{"permission": {"bahs": "allow", "todowrite": "allow"},\n'
        ' "tests": [{"tool": "raed", "input": "x", "expect": "ask"}]}'
    )
    result = world.run("validate", str(path))
    assert 'surface "bahs" is no known tool' in result.stdout
    assert 'did you mean "bash"?' in result.stdout
    assert 'tool "raed" is no known tool; did you mean "read"?' in result.stdout
    assert "todowrite" not in result.stdout
