"""The launchers' grammars (``intent/shell/launchers.py``, ADR 0041): where each one's command
starts, what it is linked to, and when it cannot be proven."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clearance.intent.shell import analyze


def _units(line: str) -> list[tuple[str, str | None, str | None, str | None]]:
    found = analyze(line, cwd="/w", home="/h").units
    return [(u.text, u.wrapper, u.exemption, u.launcher) for u in found]


@pytest.mark.parametrize(
    ("line", "inner"),
    [
        ("uv run pytest -q", "pytest -q"),
        ("uv --offline run --with x --frozen pytest", "pytest"),
        ("uv tool run ruff check", "ruff check"),
        ("uvx --from ruff ruff check", "ruff check"),
        ("npx -y -p pkg tsc --noEmit", "tsc --noEmit"),
        ("npm exec -- eslint .", "eslint ."),
        ("npm x eslint", "eslint"),
        ("pnpm exec -r vitest", "vitest"),
        ("pnpm dlx create-vite app", "create-vite app"),
        ("yarn dlx -p x y", "y"),
        ("poetry -q run pytest", "pytest"),
        ("pipenv run python x.py", "python x.py"),
        ("bundle exec rspec", "rspec"),
        ("conda run -n dev --no-capture-output pytest", "pytest"),
        ("mise exec node@20 -- node -v", "node -v"),
        ("direnv exec . make", "make"),
        ("nix develop .#dev -c cargo test", "cargo test"),
        ("perf stat -e cycles -r 3 ./a.out", "./a.out"),
        ("watchexec -e py -r -- pytest", "pytest"),
    ],
)
def test_the_inner_command_is_a_unit_linked_to_its_launcher(line: str, inner: str) -> None:
    units = _units(line)
    assert units[0] == (line, "indirection", "launcher", None)
    assert (inner, None, None, line) in units


@pytest.mark.parametrize(
    "line", ["uv run --bogus x", "uv run --directory d x", "conda run --cwd d x", "mise exec x",
             "npm --prefix d exec x", "nix develop", "direnv exec .", "mise exec -C d -- x",
             "direnv exec . -x rm", "perf stat -c rm -rf x"],
)  # fmt: skip
def test_an_unproven_command_leaves_the_launcher_without_exemption(line: str) -> None:
    units = _units(line)
    assert units[0][1:3] == ("indirection", None)
    assert len(units) == 1


@pytest.mark.parametrize(
    ("line", "payload"),
    [
        ("npx -c 'rm x'", "rm x"),
        ("npm exec --call='rm x'", "rm x"),
        ("pnpm exec --shell-mode 'rm x'", "rm x"),
        ("nodemon --exec 'rm x'", "rm x"),
        ("hyperfine -w 3 'rm x'", "rm x"),
        ("hyperfine --prepare 'rm x' 'ls'", "rm x"),
    ],
)
def test_a_shell_string_is_an_opaque_payload(line: str, payload: str) -> None:
    units = _units(line)
    assert units[0][1] == "opaque"
    assert payload in [u[0] for u in units[1:]]


@pytest.mark.parametrize("line", ["npx --version", "uv run", "uv sync", "npm test", "perf list",
                                  "nodemon app.js", "pnpm install", "poetry install"])  # fmt: skip
def test_a_launcher_that_launches_nothing_is_no_wrapper(line: str) -> None:
    assert _units(line) == [(line, None, None, None)]


@pytest.mark.parametrize(
    ("line", "commands"),
    [
        ("hyperfine 'npm test'", ["npm test"]),
        ("hyperfine -w 3 'make -j4'", ["make -j4"]),
        ("nix-shell -p hello --run 'hello -g hi'", ["hello -g hi"]),
    ],
)
def test_a_launchers_script_is_read_as_typed_commands(line: str, commands: list[str]) -> None:
    units = _units(line)
    assert units[0][1:3] == ("opaque", "launcher")
    for command in commands:
        assert (command, None, None, line) in units


@pytest.mark.parametrize("line", ["hyperfine -N 'npm test'", "hyperfine -S zsh 'ls'",
                                  "nodemon --exec 'npm test'", 'hyperfine "$x"',
                                  "hyperfine 'ls' 'ls -la'", "hyperfine -p 'make' 'ls'"])  # fmt: skip
def test_a_string_not_read_as_bash_reads_it_stays_opaque(line: str) -> None:
    assert _units(line)[0][1:3] == ("opaque", None)


def test_a_modifier_around_a_launcher_stays_an_execution_modifier() -> None:
    units = _units("timeout 60 uv run pytest")
    assert units[0][2] == "execution-modifier"
    assert ("uv run pytest", "indirection", "launcher", None) in units
    assert ("pytest", None, None, "uv run pytest") in units


def test_the_link_passes_through_wrappers_between() -> None:
    units = _units("uv run timeout 5 pytest")
    assert ("pytest", None, None, "uv run timeout 5 pytest") in units


_RESERVED = {"if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "for", "while"}
_RESERVED |= {"until", "select", "function", "in", "time", "coproc"}
_NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz-", min_size=1, max_size=8).filter(
    lambda s: s[0] != "-" and s not in _RESERVED
)


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["uv run", "npx", "poetry run", "bundle exec", "pnpm exec"]), _NAMES,
       st.lists(_NAMES, max_size=3))  # fmt: skip
def test_any_plain_command_is_found_after_a_launcher(
    prefix: str, name: str, args: list[str]
) -> None:
    inner = " ".join([name, *args])
    units = _units(f"{prefix} {inner}")
    assert any(u[0] == inner and u[3] == f"{prefix} {inner}" for u in units)
